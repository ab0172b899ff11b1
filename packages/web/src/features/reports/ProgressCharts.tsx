import { Alert, Box, Grid, Paper, Skeleton, Stack, Typography } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { useQuery } from '@tanstack/react-query';
import type { ContractProgress } from '@trasa/domain';
import { useDeferredValue } from 'react';
import { messageOf } from '../../api/errors';
import { Sized } from '../../components/Sized';
import { useOneMorePerTask } from '../../components/useOneMorePerTask';
import { REPORTS } from '../../messages';
import { scripted } from '../../scripted';
import { catalogueText } from '../../shipped';
import { getProgress, REPORTS_KEY } from './api';
import {
  CHARTS_PENDING,
  LATE_CHART_HEIGHT,
  LATE_LEGEND_HEIGHT,
  PROGRESS_TEXTS,
  SectionSkeleton,
  STAGES_CHART_HEIGHT,
} from './ProgressSkeleton';

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

/** A contract's section; until `drawn`, its charts' places hold skeletons of their size. */
function ContractCharts({ c, drawn }: { c: ContractProgress; drawn: boolean }) {
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
          {!drawn ? (
            <Skeleton variant="rectangular" height={STAGES_CHART_HEIGHT} />
          ) : (
            <Sized height={STAGES_CHART_HEIGHT}>
              {(width) => (
                <BarChart
                  width={width}
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
              )}
            </Sized>
          )}
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
          ) : !drawn ? (
            <Skeleton variant="rectangular" height={LATE_CHART_HEIGHT + LATE_LEGEND_HEIGHT} />
          ) : (
            <Sized height={LATE_CHART_HEIGHT + LATE_LEGEND_HEIGHT}>
              {(width) => (
                <BarChart
                  width={width}
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
            </Sized>
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
  // The answer renders in a deferred, non-urgent pass (React Query's store update renders at once).
  const data = useDeferredValue(progress.data);
  const contracts = data?.contracts ?? [];
  // The contracts' sections one per task (useOneMorePerTask): drawn in the answer's task, every contract's
  // two charts were one long task of the hub's first visit. Until its turn, a contract's place holds its
  // skeleton, laid out as its section will be, so nothing below it moves when it is drawn.
  const drawn = useOneMorePerTask(contracts.length, 0);
  const pending = progress.isPending || (data === undefined && !progress.isError);
  return (
    <Stack spacing={1} data-testid="progress-charts" className={pending ? CHARTS_PENDING : undefined} aria-busy={drawn < contracts.length}>
      <Typography variant="h2" sx={{ fontSize: 20 }}>
        {PROGRESS_TEXTS.title}
      </Typography>
      {pending && <SectionSkeleton />}
      {progress.isError && <Alert severity="error">{messageOf(progress.error, REPORTS.empty)}</Alert>}
      {data?.contracts.length === 0 && <Typography>{REPORTS.empty}</Typography>}
      {contracts.map((c, i) => (
        <ContractCharts key={c._id ?? 'none'} c={c} drawn={i < drawn} />
      ))}
    </Stack>
  );
}
