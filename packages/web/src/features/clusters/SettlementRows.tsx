import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { Autocomplete, Box, Button, FormHelperText, IconButton, Stack, TextField, Typography } from '@mui/material';
import { useId, useMemo } from 'react';
import { type Control, Controller, useFieldArray, useFormState } from 'react-hook-form';
import type { SelectOption } from '../../components/FormSelect';
import { foldedFilter } from '../../components/pickerFilter';
import { CLUSTERS, COMMON } from '../../messages';
import { UI } from '../../texts';
import type { ClusterFormOut, ClusterFormValues, SettlementListName } from './clusterFormSchema';

/** A settlement to choose: label 'naziv (matični broj)', and the registration number shown beside the choice. */
export type SettlementOption = SelectOption & { maticniBroj: string };

/**
 * Typing narrows by name or registration number (both are in the label) in either script ('сирог' finds
 * 'Sirogojno'); long lists show the first matches.
 */
const filterOptions = foldedFilter<SettlementOption>((o) => o.label, 100);

type Props = {
  control: Control<ClusterFormValues, unknown, ClusterFormOut>;
  name: SettlementListName;
  /** The heading of the list, which also names its group of rows. */
  title: string;
  /** The accessible name of row n (1-based), unique within the form. */
  rowLabel: (n: number) => string;
  /** Every settlement that can be chosen. */
  options: readonly SettlementOption[];
  /** Settlements chosen in any row of either list: a row offers only the others and its own. */
  taken: ReadonlySet<string>;
  headingLevel: 'h2' | 'h3';
};

/**
 * The settlement sub-form (spec 2 §2 "Settlement sub-form"): rows of a settlement and its registration
 * number, each removable, and 'додај насеље' adding an empty row.
 */
export function SettlementRows({ control, name, title, rowLabel, options, taken, headingLevel }: Props) {
  const headingId = useId();
  const { fields, append, remove } = useFieldArray({ control, name });
  const { errors } = useFormState({ control, name });
  const listError = errors[name];
  const errorText = listError?.message ?? listError?.root?.message;
  const byValue = useMemo(() => new Map(options.map((o) => [o.value, o])), [options]);

  return (
    <Stack role="group" aria-labelledby={headingId} spacing={1.5}>
      <Typography id={headingId} component={headingLevel} variant="subtitle1" sx={{ fontWeight: 500 }}>
        {title}
      </Typography>
      {fields.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {UI.noSettlementRows}
        </Typography>
      )}
      {fields.map((row, index) => (
        <Controller
          key={row.id}
          control={control}
          name={`${name}.${index}.naselje`}
          render={({ field }) => {
            const label = rowLabel(index + 1);
            const chosen = byValue.get(field.value) ?? null;
            const rowOptions = options.filter((o) => o.value === field.value || !taken.has(o.value));
            return (
              <Box
                sx={{
                  display: 'grid',
                  gap: 1,
                  alignItems: 'center',
                  gridTemplateColumns: { xs: 'minmax(0, 1fr) auto', sm: 'minmax(0, 1fr) 200px auto' },
                  gridTemplateAreas: { xs: '"pick remove" "mb remove"', sm: '"pick mb remove"' },
                }}
              >
                <Autocomplete
                  sx={{ gridArea: 'pick' }}
                  options={rowOptions}
                  value={chosen}
                  onChange={(_, option) => field.onChange(option?.value ?? '')}
                  onBlur={field.onBlur}
                  filterOptions={filterOptions}
                  isOptionEqualToValue={(a, b) => a.value === b.value}
                  getOptionLabel={(o) => o.label}
                  getOptionKey={(o) => o.value}
                  disabled={field.disabled}
                  noOptionsText={COMMON.emptyTable}
                  fullWidth
                  renderInput={(params) => <TextField {...params} label={label} name={field.name} inputRef={field.ref} />}
                />
                <TextField
                  sx={{ gridArea: 'mb' }}
                  label={UI.maticniBroj}
                  value={chosen?.maticniBroj ?? ''}
                  slotProps={{ input: { readOnly: true }, htmlInput: { 'aria-label': UI.maticniBrojOfRow(label) } }}
                />
                <IconButton
                  sx={{ gridArea: 'remove' }}
                  aria-label={chosen ? UI.removeSettlement(chosen.label) : UI.removeSettlementRow(label)}
                  onClick={() => remove(index)}
                  disabled={field.disabled}
                >
                  <DeleteOutlineIcon />
                </IconButton>
              </Box>
            );
          }}
        />
      ))}
      {errorText && <FormHelperText error>{errorText}</FormHelperText>}
      <Box>
        <Button startIcon={<AddIcon />} onClick={() => append({ naselje: '' }, { shouldFocus: true })}>
          {CLUSTERS.addSettlement}
        </Button>
      </Box>
    </Stack>
  );
}
