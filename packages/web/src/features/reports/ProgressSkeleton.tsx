import { Grid, Paper, Skeleton, Stack, Typography } from '@mui/material';
import { scripted } from '../../scripted';

export const PROGRESS_TEXTS = scripted({ title: 'Напредак по уговорима' });

/** The heights of the two charts of a contract's section (ProgressCharts draws them at these heights). */
export const STAGES_CHART_HEIGHT = 270;
export const LATE_CHART_HEIGHT = 240;
/** The late chart's legend, one line above it: its place is kept while the chart waits. */
export const LATE_LEGEND_HEIGHT = 29;

/**
 * The class of the charts' place while their code or their data loads: the hub hides what follows it (the
 * report tabs and the report) until the charts are drawn, so the sections they add (one per contract,
 * the skeleton holds one) do not push the report down the page (CLS).
 */
export const CHARTS_PENDING = 'progress-pending';

/**
 * The progress charts' place while their code or their data loads: the title and one contract's section
 * laid out as the charts will be (the same Paper, grid and chart heights), so nothing above moves when the
 * first section is drawn; what follows waits hidden (CHARTS_PENDING).
 */
export function ProgressSkeleton() {
  return (
    <Stack spacing={1} aria-busy="true" className={CHARTS_PENDING}>
      <Typography variant="h2" sx={{ fontSize: 20 }}>
        {PROGRESS_TEXTS.title}
      </Typography>
      <SectionSkeleton />
    </Stack>
  );
}

export function SectionSkeleton() {
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Skeleton variant="text" sx={{ fontSize: 18, mb: 1, width: '60%' }} />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 7 }}>
          <Skeleton variant="text" sx={{ fontSize: 14, width: '70%' }} />
          <Skeleton variant="rectangular" height={STAGES_CHART_HEIGHT} />
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <Skeleton variant="text" sx={{ fontSize: 14, width: '80%' }} />
          <Skeleton variant="rectangular" height={LATE_CHART_HEIGHT + LATE_LEGEND_HEIGHT} />
        </Grid>
      </Grid>
    </Paper>
  );
}
