import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { appPath, daysBetween, FINISHED, formatDate, IN_PROGRESS, NOT_STARTED, roleIn } from '@trasa/domain';
import { lazy, memo, type ReactNode, Suspense, useDeferredValue, useEffect, useId, useMemo, useState } from 'react';
import { Link as RouterLink, useLocation, useParams } from 'react-router';
import type { ActivityDetailResponse, ActivityDto } from '../../api/activities';
import { messageOf, statusOf } from '../../api/errors';
import { DetailRows } from '../../components/DetailRows';
import { todayValue } from '../../components/dates';
import { useFirstContentMark } from '../../components/firstContent';
import { NotFoundPage } from '../../components/NotFoundPage';
import { NotKeptOffline, OfflineNote } from '../../components/OfflineNote';
import { PageLoader } from '../../components/PageLoader';
import { useOneMorePerTask } from '../../components/useOneMorePerTask';
import { ACTIVITIES, COMMON } from '../../messages';
import { activityPath } from '../../offline/kept';
import { OFFLINE } from '../../offline/texts';
import { useCurrentUser } from '../../shell/session';
import { activityTitle, catalogueText } from '../../shipped';
import { UI } from '../../texts';
import { ActivityActions } from './Actions';
import { ActivityData } from './ActivityData';
import { ActivityDocuments, ConnectedDocuments } from './Documents';
import { ACTIVITY_LABELS } from './labels';
import { type ActivityHead, listedActivity } from './listed';
import { activityStatusLabel, canEdit, deadlineLabel, partiesLabel } from './model';
import { useActivityQuery } from './queries';

/**
 * What the page shows: the whole activity, or while it loads what a list already knew (its head). The
 * fields only the whole activity has are then missing.
 */
type Shown = ActivityHead & Partial<Omit<ActivityDto, keyof ActivityHead>>;

// The forms (the edit section and the comment box, with zod and react-hook-form) load after the head has
// painted, in a chunk of their own: the title, status and details do not wait for them.
const loadEditSection = () => import('./sections/EditSection');
const loadComments = () => import('./Comments');
const EditSection = lazy(async () => ({ default: (await loadEditSection()).EditSection }));
const Comments = lazy(async () => ({ default: (await loadComments()).Comments }));

/** The activity's changes kept on the device (offline/queue.ts), with the queue's code: loaded after the page. */
const ActivityQueue = lazy(async () => ({ default: (await import('../../offline/ActivityQueue')).ActivityQueue }));

/** The notifications page opens an activity with this state; its back then goes to the notices. */
export const FROM_NOTICES = { from: 'NOTIFIKACIJE' } as const;

function cameFromNotices(state: unknown): boolean {
  return typeof state === 'object' && state !== null && 'from' in state && state.from === FROM_NOTICES.from;
}

/**
 * Back buttons by role: the Admin goes back to the activities in progress; the others to the notices
 * and, beside it, to the cluster's activity list (only to the notices when they came from there).
 */
function BackButtons({ activity }: { activity: Shown }) {
  const user = useCurrentUser();
  const { state } = useLocation();
  if (roleIn(user.rola, ['Admin']))
    return (
      <Button component={RouterLink} to={appPath('activitiesInProgress')} startIcon={<ArrowBackIcon />}>
        {ACTIVITY_LABELS.backToInProgress}
      </Button>
    );
  return (
    <>
      <Button component={RouterLink} to={appPath('notices')} startIcon={<ArrowBackIcon />}>
        {ACTIVITY_LABELS.backToNotices}
      </Button>
      {!cameFromNotices(state) && (
        <Button component={RouterLink} to={appPath('myCluster', { id: activity.lokacija._id })} startIcon={<ArrowBackIcon />}>
          {ACTIVITY_LABELS.backToCluster}
        </Button>
      )}
    </>
  );
}

/** The instruction text in a dialog, or 'Nema uputstva.'. */
function Instructions({ activity }: { activity: Shown }) {
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const text = activity.uputstvo;
  return (
    <>
      <Button variant="outlined" startIcon={<MenuBookIcon />} onClick={() => setOpen(true)} disabled={text === undefined}>
        {ACTIVITY_LABELS.instructions}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby={titleId} maxWidth="sm" fullWidth>
        <DialogTitle id={titleId}>{ACTIVITY_LABELS.instructions}</DialogTitle>
        <DialogContent>
          <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {text?.trim() ? catalogueText(text) : ACTIVITIES.noInstructions}
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{UI.close}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/**
 * A late activity says so in words, with the days past its deadline (the lists show it only in red): in
 * progress past the deadline, or finished after it.
 */
function LateBanner({ activity }: { activity: Shown }) {
  if (activity.boja === 'red') {
    const days = daysBetween(activity.rokZavrsetka, todayValue());
    if (days === null || days <= 0) return null;
    return (
      <Alert severity="error" role="status">
        {ACTIVITY_LABELS.late(days, formatDate(activity.rokZavrsetka))}
      </Alert>
    );
  }
  if (activity.boja === 'greenRed') {
    const days = daysBetween(activity.rokZavrsetka, activity.datumZavrsetka);
    if (days === null || days <= 0) return null;
    return (
      <Alert severity="warning" role="status">
        {ACTIVITY_LABELS.finishedLate(days, formatDate(activity.rokZavrsetka))}
      </Alert>
    );
  }
  return null;
}

/** Not started, not finished, the revision and a control's outcome (spec 3 §2.1 "status banners"). */
function Banners({ activity }: { activity: Shown }) {
  const faults = activity.faults ?? activity.userFields?.faults;
  return (
    <Stack spacing={1}>
      {activity.status === NOT_STARTED && (
        <Alert severity="info" role="status">
          {ACTIVITIES.notStarted}
        </Alert>
      )}
      {activity.status === IN_PROGRESS && (
        <Alert severity="warning" role="status">
          {ACTIVITIES.notFinished}
        </Alert>
      )}
      <LateBanner activity={activity} />
      {activity.returned > 0 && activity.status !== FINISHED && (
        <Alert severity="error" role="status">
          {ACTIVITY_LABELS.revision(activity.returned)}
        </Alert>
      )}
      {activity.kontrolna && activity.status === FINISHED && faults === true && (
        <Alert severity="error" role="status">
          {ACTIVITY_LABELS.controlWithRemarks}
        </Alert>
      )}
      {activity.kontrolna && activity.status === FINISHED && faults === false && (
        <Alert severity="success" role="status">
          {ACTIVITY_LABELS.controlWithoutRemarks}
        </Alert>
      )}
    </Stack>
  );
}

/** Name, cluster, status, responsible parties, start, end and deadline: columns, or rows on a phone. */
function Details({ activity }: { activity: Shown }) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('md'));
  const cells: [string, ReactNode][] = [
    [ACTIVITY_LABELS.name, catalogueText(activity.naziv)],
    [ACTIVITY_LABELS.cluster, activity.lokacija.naziv],
    [ACTIVITY_LABELS.status, activityStatusLabel(activity.status)],
    [ACTIVITY_LABELS.responsible, partiesLabel(activity.odgovoran)],
    [ACTIVITY_LABELS.start, formatDate(activity.datumPocetka) || UI.empty],
    [ACTIVITY_LABELS.end, formatDate(activity.datumZavrsetka) || UI.empty],
    [ACTIVITY_LABELS.deadline, deadlineLabel(activity)],
  ];
  return (
    <Paper component="section" aria-label={ACTIVITY_LABELS.details} sx={{ p: 2 }}>
      <Typography variant="h3" component="h2" gutterBottom>
        {ACTIVITY_LABELS.details}
      </Typography>
      {phone ? (
        <DetailRows label={ACTIVITY_LABELS.details} rows={cells} />
      ) : (
        <TableContainer>
          <Table size="small" aria-label={ACTIVITY_LABELS.details}>
            <TableHead>
              <TableRow>
                {cells.map(([name]) => (
                  <TableCell key={name} sx={{ fontWeight: 700 }}>
                    {name}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              <TableRow>
                {cells.map(([name, value]) => (
                  <TableCell key={name}>{value}</TableCell>
                ))}
              </TableRow>
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {activity.dokumenta && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {`${ACTIVITY_LABELS.documentsDescription}: ${catalogueText(activity.dokumenta)}`}
        </Typography>
      )}
    </Paper>
  );
}

/** Back, title, banners and details: what the first paint shows (memoized: a later answer of the same activity keeps it). */
const ActivityTop = memo(function ActivityTop({ activity }: { activity: Shown }) {
  return (
    <>
      <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
        <BackButtons activity={activity} />
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ xs: 'flex-start', sm: 'center' }}>
        <Typography variant="h1" sx={{ flexGrow: 1, overflowWrap: 'anywhere' }}>
          {activityTitle(activity)}
        </Typography>
        <Instructions activity={activity} />
      </Stack>
      <Banners activity={activity} />
      <Suspense fallback={null}>
        <ActivityQueue activityId={activity._id} />
      </Suspense>
      <Details activity={activity} />
    </>
  );
});

/** The head (back, title, banners, details) and, once the whole activity is there, the rest. */
function ActivityView({
  activity,
  detail,
  path,
  fetchedAt,
}: {
  activity: Shown;
  detail?: ActivityDetailResponse;
  path?: string;
  fetchedAt?: number;
}) {
  useFirstContentMark(true);
  // The rest (actions, data, documents) renders in passes of its own after the head has committed (deferred,
  // non-urgent ones: React yields to the browser every few milliseconds in them): with the head it was one
  // long task of the activity's first visit.
  const rest = useDeferredValue(detail ?? null, null);
  useEffect(() => {
    // The forms' chunk starts once the head is on screen, whether or not this activity is editable.
    void loadEditSection().catch(() => undefined);
    void loadComments().catch(() => undefined);
  }, []);
  return (
    <Stack spacing={2} sx={{ maxWidth: 1200 }}>
      {path !== undefined && fetchedAt !== undefined && <OfflineNote path={path} fetchedAt={fetchedAt} />}
      <ActivityTop activity={activity} />
      {rest ? <ActivityRest detail={rest} /> : <PageLoader />}
    </Stack>
  );
}

/** The parts of the rest below the details, in their order on the page (RestPart). */
const REST_PARTS = ['actions', 'data', 'documents', 'comments'] as const;

/** One part of the rest; memoized, so that the next part's pass renders only that part. */
const RestPart = memo(function RestPart({ part, detail }: { part: (typeof REST_PARTS)[number]; detail: ActivityDetailResponse }) {
  const { activity, connected } = detail;
  const editable = canEdit(activity);
  switch (part) {
    case 'actions':
      return <ActivityActions activity={activity} />;
    case 'data':
      return (
        <>
          {/* Keyed by revision: a reopened activity starts its fields from the server's data again. */}
          {editable && (
            <Suspense fallback={<PageLoader />}>
              <EditSection key={`${activity._id}:${activity.returned}:${activity.status}`} activity={activity} />
            </Suspense>
          )}
          {(!editable || activity.status === FINISHED) && <ActivityData activity={activity} />}
        </>
      );
    case 'documents':
      return (
        <>
          <ActivityDocuments activity={activity} />
          <ConnectedDocuments connected={connected} lokacija={activity.lokacija} />
        </>
      );
    case 'comments':
      return (
        <Suspense fallback={null}>
          <Comments activity={activity} />
        </Suspense>
      );
  }
});

/**
 * Below the details: the actions, the edit section or the data, the documents and the comments, each part
 * in a pass of its own (useOneMorePerTask). Memoized: the query's other changes (its time, a refetch with the
 * same answer) do not render it again.
 */
const ActivityRest = memo(function ActivityRest({ detail }: { detail: ActivityDetailResponse }) {
  // One part at first, then one more per task (a long task was the commit of them all).
  const shown = useOneMorePerTask(REST_PARTS.length, 1);
  return REST_PARTS.slice(0, shown).map((part) => <RestPart key={part} part={part} detail={detail} />);
});

/**
 * /app/aktivnost/{id} (spec 3 §2.1): an unknown or invisible id (or one that is no id) shows 'Nepostojeći
 * korak' with the way home; a known activity whose code the catalogue lacks shows 'Nepoznat korak' in its
 * edit section.
 */
export function ActivityPage() {
  const { id = '' } = useParams();
  const query = useActivityQuery(id);
  // The answer renders in a deferred, non-urgent pass (React Query's store update renders at once, in one task).
  const answer = useDeferredValue(query.data ?? null, null);
  const queryClient = useQueryClient();
  // Opened from a list: its row shows the head at once (issue 40 item 3).
  const listed = useMemo(() => listedActivity(queryClient, id), [queryClient, id]);
  useEffect(() => {
    if (query.isError) console.error('loading the activity failed', query.error);
  }, [query.isError, query.error]);
  if (query.isPending || (query.isSuccess && !answer)) return listed ? <ActivityView activity={listed} /> : <PageLoader />;
  if (query.isError) {
    const status = statusOf(query.error);
    if (status === 404 || status === 400) return <NotFoundPage title={ACTIVITIES.missingStep} />;
    // Without a network and never opened here in the last seven days: said so, not a spinner or an error.
    if (status === 0) return <NotKeptOffline text={OFFLINE.notKeptActivity} onRetry={() => void query.refetch()} />;
    return (
      <Box sx={{ p: 2 }}>
        <Alert severity="error">{messageOf(query.error, COMMON.serverError)}</Alert>
      </Box>
    );
  }
  const shown = answer ?? query.data;
  return <ActivityView activity={shown.activity} detail={shown} path={activityPath(id)} fetchedAt={query.dataUpdatedAt} />;
}
