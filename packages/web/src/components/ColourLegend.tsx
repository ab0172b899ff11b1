import { Box, Paper, Stack, Typography } from '@mui/material';
import { COLOUR_HEX, type DeadlineColour } from '@trasa/domain';
import { UI } from '../texts';

/** What each deadline colour means (spec 2 §4), in the legend's order: the legend and a contract's colour. */
export const COLOUR_MEANINGS: Readonly<Record<DeadlineColour, string>> = {
  blue: UI.legendBlue,
  orange: UI.legendOrange,
  red: UI.legendRed,
  green: UI.legendGreen,
  greenRed: UI.legendGreenRed,
  white: UI.legendWhite,
};

/** A row's background for its deadline colour (spec 2 §4); white rows keep the table's own. */
export function deadlineRowColor(boja: DeadlineColour | null | undefined): string | undefined {
  return boja && boja !== 'white' ? COLOUR_HEX[boja] : undefined;
}

const DEADLINE_NOTES: Partial<Record<DeadlineColour, string>> = {
  orange: UI.deadlineNear,
  red: UI.deadlinePassed,
  greenRed: UI.finishedLate,
};

/**
 * A status with what the row's deadline colour adds to it, in words ('У току, рок је истекао', 'Завршен,
 * после рока'): the colour is never the only sign (WCAG 1.4.1). Blue, green and white add nothing the
 * status does not say.
 */
export function statusWithDeadline(status: string, boja: DeadlineColour | null | undefined): string {
  const note = boja ? DEADLINE_NOTES[boja] : undefined;
  return note ? `${status}, ${note}` : status;
}

/** The meaning of the row colours, shown under the coloured lists (spec 2 §2, §4). */
export function ColourLegend() {
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }} component="section" aria-label={UI.legendTitle}>
      <Typography variant="subtitle2" component="h2" gutterBottom>
        {UI.legendTitle}
      </Typography>
      <Stack component="ul" direction="row" flexWrap="wrap" useFlexGap spacing={2} sx={{ m: 0, p: 0, listStyle: 'none' }}>
        {(Object.entries(COLOUR_MEANINGS) as [DeadlineColour, string][]).map(([colour, text]) => (
          <Stack key={colour} component="li" direction="row" spacing={1} alignItems="center">
            <Box
              aria-hidden
              sx={{
                width: 28,
                height: 18,
                borderRadius: 0.5,
                border: 1,
                borderColor: 'divider',
                background: COLOUR_HEX[colour],
                flexShrink: 0,
              }}
            />
            <Typography variant="body2">{text}</Typography>
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}
