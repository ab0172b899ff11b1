import { Box } from '@mui/material';
import { inScript } from '../script';

/**
 * Units shown beside typed amounts (issue 13 item 6): lengths in metres (as spec 3 reports route lengths)
 * and money in dinars. The value stays the bare number the API takes. Metres read 'м' in Ћирилица and
 * 'm' in Latinica; RSD stays as written.
 */
export function metres(): string {
  return inScript('m');
}
export const RSD = 'RSD';

/**
 * A text field's `slotProps.input` with the unit at the end of the input (a plain span styled as MUI's
 * end adornment: InputAdornment would add its own chunk to the screens' budgets).
 */
export function unitInput(unit: string) {
  return {
    endAdornment: (
      <Box component="span" sx={{ ml: 1, color: 'text.secondary', whiteSpace: 'nowrap', userSelect: 'none' }}>
        {unit}
      </Box>
    ),
  };
}

/** A decimal number field's slots where the label already names the unit ('Цена (RSD)'): the numeric keyboard on phones. */
export const DECIMAL = { htmlInput: { inputMode: 'decimal' as const } };

/**
 * A field with a unit keeps its label above the input even while empty: resting inside the input, a long
 * label ran into the unit on a phone ('…кластераm').
 */
export const LABEL_ABOVE = { shrink: true } as const;

/** A decimal number field's slots: the numeric keyboard on phones, the unit, and the label above. */
export function decimalWithUnit(unit: string) {
  return { htmlInput: { inputMode: 'decimal' as const }, input: unitInput(unit), inputLabel: LABEL_ABOVE };
}
