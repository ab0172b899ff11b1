import { Box, Skeleton, Stack, Typography } from '@mui/material';
import { formatDate, KLIZNO } from '@trasa/domain';
import { lazy, Suspense, useMemo } from 'react';
import type { ActivityBrief, LocationDto } from '../../api/clusters';
import { Sized } from '../../components/Sized';
import { inScript } from '../../script';
import { scripted } from '../../scripted';
import { ACTIVITY_UI } from '../catalogue/labels';

/**
 * A cluster's activities on a time line (issue 10 item 9), from what the cluster detail already holds
 * (location.aktivnosti, the rows of its activities table): for each started activity one bar of the
 * plan (start → planned deadline) and one of what happened (start → finish, or → today while in
 * progress), the part past the deadline in red. The revision shows beside the code ('A4 · ревизија 2').
 * @mui/x-charts is loaded only when the time line is shown.
 */

const BarChart = lazy(() => import('@mui/x-charts/BarChart').then((m) => ({ default: m.BarChart })));

const T = scripted({
  title: 'Временска линија активности',
  plan: 'План (почетак → рок)',
  onTime: 'Стварно, у року',
  late: 'Стварно, након рока',
  help: 'Сиви део: планирано трајање до рока; плави: стварно трајање (до завршетка или до данас); црвени: прекорачење рока.',
  none: 'Ниједна активност још није започета.',
  /** Days past the deadline, beside the red part of a bar. */
  lateDays: (days: number) => `+${days} д.`,
});
const COLOURS = { plan: '#bdbdbd', onTime: '#3C74AC', late: '#d32f2f' };
const DAY = 86_400_000;
const dayOf = (iso: string) => Math.floor(Date.parse(`${iso}T00:00:00Z`) / DAY);
const isoOf = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);

type Bar = { label: string; offset: number; plan: number; onTime: number; late: number; a: ActivityBrief };

/** Days from the first start; the bars of each started activity in catalogue order. */
export function timelineBars(activities: readonly ActivityBrief[], today: string): { origin: number; bars: Bar[] } {
  const started = activities.filter((a) => a.datumPocetka);
  const origin = Math.min(...started.map((a) => dayOf(a.datumPocetka as string)));
  const bars = started.map((a) => {
    const start = dayOf(a.datumPocetka as string);
    const end = dayOf(a.datumZavrsetka ?? today);
    const due = a.rokZavrsetka ? dayOf(a.rokZavrsetka) : null;
    const actual = Math.max(end - start, 0);
    const onTime = due === null ? actual : Math.max(Math.min(end, due) - start, 0);
    return {
      label: a.returned > 0 ? `${a.kratakNaziv} · ${ACTIVITY_UI.revision(a.returned)}` : a.kratakNaziv,
      offset: start - origin,
      plan: due === null ? 0 : Math.max(due - start, 0),
      onTime,
      late: actual - onTime,
      a,
    };
  });
  return { origin, bars };
}

export function ActivityTimeline({ location }: { location: LocationDto }) {
  const today = new Date().toISOString().slice(0, 10);
  const { origin, bars } = useMemo(() => timelineBars(location.aktivnosti ?? [], today), [location.aktivnosti, today]);
  const hidden = () => null;
  const date = (v: number | null) => (v === null ? '' : formatDate(isoOf(origin + v)));
  const height = 90 + bars.length * 34;
  return (
    <Stack spacing={1} component="section" aria-label={T.title} data-testid="activity-timeline">
      <Typography variant="h3" component="h2">
        {T.title}
      </Typography>
      {bars.length === 0 ? (
        <Typography>{T.none}</Typography>
      ) : (
        <>
          <Typography variant="body2">{T.help}</Typography>
          <Suspense fallback={<Skeleton variant="rectangular" height={height} />}>
            <Sized height={height}>
              {(width) => (
                <BarChart
                  layout="horizontal"
                  width={width}
                  height={height}
                  // Room right of the last date under the axis (cut to '06.…' on a phone).
                  margin={{ right: 36 }}
                  yAxis={[{ scaleType: 'band', data: bars.map((b) => b.label), width: 130 }]}
                  xAxis={[{ valueFormatter: (v: number) => date(v), tickMinStep: 1 }]}
                  series={[
                    { data: bars.map((b) => b.offset), stack: 'plan', color: 'transparent', valueFormatter: hidden },
                    {
                      data: bars.map((b) => b.plan),
                      stack: 'plan',
                      label: T.plan,
                      color: COLOURS.plan,
                      valueFormatter: (_v, { dataIndex }) => {
                        const a = bars[dataIndex]?.a;
                        return a?.rokZavrsetka ? `${formatDate(a.datumPocetka)} → ${formatDate(a.rokZavrsetka)}` : inScript(KLIZNO);
                      },
                    },
                    { data: bars.map((b) => b.offset), stack: 'actual', color: 'transparent', valueFormatter: hidden },
                    {
                      data: bars.map((b) => b.onTime),
                      stack: 'actual',
                      label: T.onTime,
                      color: COLOURS.onTime,
                      valueFormatter: (_v, { dataIndex }) => {
                        const a = bars[dataIndex]?.a;
                        return a ? `${formatDate(a.datumPocetka)} → ${a.datumZavrsetka ? formatDate(a.datumZavrsetka) : '…'}` : '';
                      },
                    },
                    {
                      data: bars.map((b) => b.late),
                      stack: 'actual',
                      label: T.late,
                      color: COLOURS.late,
                      valueFormatter: (v) => (v ? T.lateDays(v) : null),
                    },
                  ]}
                  hideLegend
                />
              )}
            </Sized>
          </Suspense>
          <Stack direction="row" spacing={2} flexWrap="wrap" useFlexGap>
            {(
              [
                [COLOURS.plan, T.plan],
                [COLOURS.onTime, T.onTime],
                [COLOURS.late, T.late],
              ] as const
            ).map(([colour, label]) => (
              <Stack key={label} direction="row" spacing={0.5} alignItems="center">
                <Box sx={{ width: 14, height: 14, bgcolor: colour, borderRadius: 0.5 }} />
                <Typography variant="body2">{label}</Typography>
              </Stack>
            ))}
          </Stack>
        </>
      )}
    </Stack>
  );
}
