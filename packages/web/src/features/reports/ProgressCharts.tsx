import { Alert, Box, Grid, Paper, Stack, Typography } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { useQuery } from '@tanstack/react-query';
import type { ContractProgress } from '@trasa/domain';
import { messageOf } from '../../api/errors';
import { REPORTS } from '../../messages';
import { scripted } from '../../scripted';
import { catalogueText } from '../../shipped';
import { getProgress, REPORTS_KEY } from './api';
import { CHARTS_PENDING, LATE_CHART_HEIGHT, PROGRESS_TEXTS, SectionSkeleton, STAGES_CHART_HEIGHT } from './ProgressSkeleton';

/**
 * The report hub's pictures (issue 10 item 9): for each general contract of the visible clusters, its
 * clusters by stage (their furthest finished activity) and its late activities per responsible party
 * (in progress past the deadline, finished after it), from GET /api/report/progress. This module (and
 * @mui/x-charts with it) is loaded only when the hub shows it (React.lazy in ReportsPage).
 */

const T = scripted({
  stages: 'Кластери по етапи (последња завршена активност)',
  late: 'Активности са прекораченим роком по одговорној страни',
  noneFinished: 'Без завршене',
  noContract: 'Без општег уговора',
  clusters: 'Кластера',
  kasni: 'Касни (у току)',
  zavrsenoKasno: 'Завршено након рока',
  noLate: 'Нема активности са прекораченим роком.',
  parties: { NARUCILAC: 'Naručilac', IZVODJAC: 'Izvođač', NADZOR: 'Nadzor', PIU_TA: 'ПИУ ТА', AUTOMATSKI: 'Automatski' } as Record<
    string,
    string
  >,
});
const COLOURS = { clusters: '#3C74AC', kasni: '#d32f2f', zavrsenoKasno: '#f9a825' };
/**
 * The gap between bars for `n` categories: a contract with one or two stages drew one bar across the
 * whole chart; bars keep to about an eighth of the chart's width each until there are enough of them.
 */
const gapFor = (n: number) => Math.max(0.2, 1 - n * 0.12);

function ContractCharts({ c }: { c: ContractProgress }) {
  const stageLabels = c.stages.map((s) => s.kratakNaziv ?? T.noneFinished);
  const title = c._id ? `${c.naziv}${c.broj ? ` (${c.broj})` : ''}` : T.noContract;
  return (
    <Paper variant="outlined" sx={{ p: 2, position: 'relative' }} component="section" aria-label={title}>
      <Typography variant="h3" sx={{ fontSize: 18, mb: 1 }}>
        {title} — {T.clusters}: {c.clusters}
      </Typography>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 7 }}>
          <Typography variant="subtitle2" component="h4">
            {T.stages}
          </Typography>
          <BarChart
            height={STAGES_CHART_HEIGHT}
            xAxis={[
              {
                scaleType: 'band',
                data: stageLabels,
                categoryGapRatio: gapFor(stageLabels.length),
                tickLabelInterval: () => true,
                tickLabelStyle: { fontSize: 10, angle: -40, textAnchor: 'end' },
                // Room for the longest label slanted ('Без завршене' was cut to 'Без заврше…' at 60).
                height: 84,
              },
            ]}
            yAxis={[{ tickMinStep: 1 }]}
            series={[{ data: c.stages.map((s) => s.count), label: T.clusters, color: COLOURS.clusters }]}
            hideLegend
          />
          <Box
            component="ul"
            sx={{ position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', m: 0, p: 0 }}
          >
            {c.stages.map((s) => (
              <li key={s.kratakNaziv ?? '-'}>
                {s.kratakNaziv ? `${s.kratakNaziv} ${catalogueText(s.naziv)}` : T.noneFinished}: {s.count}
              </li>
            ))}
          </Box>
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <Typography variant="subtitle2" component="h4">
            {T.late}
          </Typography>
          {c.late.length === 0 ? (
            <Typography variant="body2" sx={{ mt: 2 }}>
              {T.noLate}
            </Typography>
          ) : (
            <BarChart
              height={LATE_CHART_HEIGHT}
              xAxis={[
                {
                  scaleType: 'band',
                  data: c.late.map((l) => T.parties[l.odgovoran] ?? l.odgovoran),
                  categoryGapRatio: gapFor(c.late.length),
                },
              ]}
              yAxis={[{ tickMinStep: 1 }]}
              series={[
                { data: c.late.map((l) => l.kasni), label: T.kasni, stack: 'late', color: COLOURS.kasni },
                { data: c.late.map((l) => l.zavrsenoKasno), label: T.zavrsenoKasno, stack: 'late', color: COLOURS.zavrsenoKasno },
              ]}
            />
          )}
        </Grid>
      </Grid>
    </Paper>
  );
}

export default function ProgressCharts({ contract = '' }: { contract?: string }) {
  const progress = useQuery({
    queryKey: [...REPORTS_KEY, 'progress', contract],
    queryFn: ({ signal }) => getProgress(contract, signal),
  });
  return (
    <Stack spacing={1} data-testid="progress-charts" className={progress.isPending ? CHARTS_PENDING : undefined}>
      <Typography variant="h2" sx={{ fontSize: 20 }}>
        {PROGRESS_TEXTS.title}
      </Typography>
      {progress.isPending && <SectionSkeleton />}
      {progress.isError && <Alert severity="error">{messageOf(progress.error, REPORTS.empty)}</Alert>}
      {progress.data?.contracts.length === 0 && <Typography>{REPORTS.empty}</Typography>}
      {progress.data?.contracts.map((c) => (
        <ContractCharts key={c._id ?? 'none'} c={c} />
      ))}
    </Stack>
  );
}
