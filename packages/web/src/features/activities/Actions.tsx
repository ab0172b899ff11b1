import DoneAllIcon from '@mui/icons-material/DoneAll';
import FolderZipIcon from '@mui/icons-material/FolderZip';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import ReplayIcon from '@mui/icons-material/Replay';
import ThumbDownIcon from '@mui/icons-material/ThumbDown';
import ThumbUpIcon from '@mui/icons-material/ThumbUp';
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { controlLabels, decisionProblems, FINISHED, finishProblems, IN_PROGRESS, NOT_STARTED, requiredFileCount } from '@trasa/domain';
import { useState } from 'react';
import { type ActivityDto, changeActivityStatus, decideControl, downloadZip } from '../../api/activities';
import { saveBlob } from '../../api/client';
import { messageOf } from '../../api/errors';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useSnackbar } from '../../components/SnackbarProvider';
import { ACTIVITIES } from '../../messages';
import { inScript, unscripted } from '../../scripted';
import { ACTIVITY_LABELS } from './labels';
import { hasFinishButton, ruleInput } from './model';
import { useApplyAnswer } from './queries';

/** The rule's problems and, where files are counted, 'Broj fajlova neophodan za uvoz: N' or 'Uvezli ste dovoljan broj fajlova.'. */
export function Problems({ problems, filesNeeded, label }: { problems: string[]; filesNeeded: number; label: string }) {
  // The rules' problems are the domain's texts as written: compared as written, shown in the user's script.
  const filesLine = filesNeeded > 0 && !problems.includes(unscripted(ACTIVITIES).filesNeeded(filesNeeded));
  if (problems.length === 0 && !filesLine) return null;
  return (
    <Box component="ul" aria-label={label} sx={{ m: 0, pl: 2.5 }}>
      {problems.map((p) => (
        <Typography component="li" variant="body2" color="warning.dark" key={p}>
          {inScript(p)}
        </Typography>
      ))}
      {filesLine && (
        <Typography component="li" variant="body2" color="success.main">
          {ACTIVITIES.enoughFiles}
        </Typography>
      )}
    </Box>
  );
}

type Confirm = { title: string; text: string; run: () => void; danger?: boolean } | null;

/**
 * The activity's actions: start (A1), finish with its conditions, the two decisions of a control,
 * reactivation (Admin) and the zip downloads.
 */
export function ActivityActions({ activity }: { activity: ActivityDto }) {
  const snackbar = useSnackbar();
  const apply = useApplyAnswer(activity._id);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const input = ruleInput(activity);
  const inProgress = activity.status === IN_PROGRESS;
  const mayChange = activity.dozvole.menjanje && inProgress;

  const status = useMutation({
    mutationFn: (next: 'U toku' | 'Završena') => changeActivityStatus(activity._id, next),
    onSuccess: async (answer, next) => {
      setConfirm(null);
      const fallback = activity.status === NOT_STARTED ? ACTIVITIES.started : ACTIVITIES.statusChanged;
      snackbar.success(answer?.message || (next === 'U toku' ? fallback : ACTIVITIES.statusChanged));
      await apply(answer, true);
    },
    onError: async (error) => {
      setConfirm(null);
      console.error('changing the status failed', error);
      const fallback =
        activity.status === NOT_STARTED ? `${ACTIVITIES.statusChangeFailed} (${activity._id})` : ACTIVITIES.statusChangeFailed;
      snackbar.error(messageOf(error, fallback));
      await apply(null, true);
    },
  });

  const decide = useMutation({
    mutationFn: (faults: boolean) => decideControl(activity._id, faults),
    onSuccess: async (answer) => {
      setConfirm(null);
      snackbar.success(answer?.message || ACTIVITIES.statusChanged);
      await apply(answer, true);
    },
    onError: async (error) => {
      setConfirm(null);
      console.error('the control decision failed', error);
      snackbar.error(messageOf(error, ACTIVITIES.statusChangeFailed));
      await apply(null, true);
    },
  });

  const zip = useMutation({
    mutationFn: (all: boolean) => downloadZip(activity.lokacija._id, all ? undefined : activity._id),
    onSuccess: ({ blob, fileName }, all) =>
      saveBlob(blob, fileName || `${all ? activity.lokacija.naziv : `${activity.lokacija.naziv}-${activity.kratakNaziv}`}.zip`),
    onError: (error) => console.error('the zip download failed', error),
  });

  const start = () => {
    if (!activity.lokacija.ugovor) {
      snackbar.error(ACTIVITIES.noContract);
      return;
    }
    status.mutate('U toku');
  };

  const finishShown = mayChange && hasFinishButton(activity) && !activity.kontrolna;
  const finishIssues = finishShown ? finishProblems(input) : [];
  const decisionShown = mayChange && activity.kontrolna;
  const [yesWritten, noWritten] = controlLabels(activity.kratakNaziv);
  const yes = inScript(yesWritten);
  const no = inScript(noWritten);
  const yesIssues = decisionShown ? decisionProblems(input, false) : [];
  const noIssues = decisionShown ? decisionProblems(input, true) : [];
  const busy = status.isPending || decide.isPending;
  const hasFiles = activity.fajlovi.some((f) => !f.deleted);
  const startShown = activity.dozvole.pokretanje && activity.status === NOT_STARTED;
  const reactivateShown = activity.dozvole.reaktivacija && activity.status === FINISHED;
  if (!startShown && !finishShown && !decisionShown && !reactivateShown && !hasFiles && !activity.dozvole.sviFajlovi) return null;

  return (
    <Paper component="section" aria-label={ACTIVITY_LABELS.actions} sx={{ p: 2 }}>
      <Stack spacing={1.5}>
        <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap alignItems="center">
          {startShown && (
            <Button variant="contained" startIcon={<PlayArrowIcon />} disabled={busy} onClick={start}>
              {ACTIVITY_LABELS.start_}
            </Button>
          )}
          {finishShown && (
            <Button
              variant="contained"
              color="success"
              startIcon={<DoneAllIcon />}
              disabled={busy || finishIssues.length > 0}
              onClick={() =>
                setConfirm({
                  title: ACTIVITY_LABELS.finishConfirm,
                  text: ACTIVITY_LABELS.finishNote,
                  danger: false,
                  run: () => status.mutate('Završena'),
                })
              }
            >
              {ACTIVITY_LABELS.finish}
            </Button>
          )}
          {decisionShown && (
            <>
              <Button
                variant="contained"
                color="success"
                startIcon={<ThumbUpIcon />}
                disabled={busy || yesIssues.length > 0}
                onClick={() =>
                  setConfirm({
                    title: ACTIVITY_LABELS.decisionConfirm(yes),
                    text: ACTIVITY_LABELS.decisionNote,
                    danger: false,
                    run: () => decide.mutate(false),
                  })
                }
              >
                {yes}
              </Button>
              <Button
                variant="contained"
                color="error"
                startIcon={<ThumbDownIcon />}
                disabled={busy || noIssues.length > 0}
                onClick={() =>
                  setConfirm({
                    title: ACTIVITY_LABELS.decisionConfirm(no),
                    text: ACTIVITY_LABELS.decisionNote,
                    run: () => decide.mutate(true),
                  })
                }
              >
                {no}
              </Button>
            </>
          )}
          {reactivateShown && (
            <Button
              variant="outlined"
              startIcon={<ReplayIcon />}
              disabled={busy}
              onClick={() =>
                setConfirm({
                  title: ACTIVITY_LABELS.reactivateConfirm,
                  text: ACTIVITY_LABELS.reactivateNote,
                  danger: false,
                  run: () => status.mutate('U toku'),
                })
              }
            >
              {ACTIVITY_LABELS.reactivate}
            </Button>
          )}
          <Box sx={{ flexGrow: 1 }} />
          {hasFiles && (
            <Button startIcon={<FolderZipIcon />} disabled={zip.isPending} onClick={() => zip.mutate(false)}>
              {ACTIVITY_LABELS.zip}
            </Button>
          )}
          {activity.dozvole.sviFajlovi && (
            <Button startIcon={<FolderZipIcon />} disabled={zip.isPending} onClick={() => zip.mutate(true)}>
              {ACTIVITY_LABELS.allFiles}
            </Button>
          )}
        </Stack>
        {finishShown && <Problems problems={finishIssues} filesNeeded={requiredFileCount(input)} label={ACTIVITY_LABELS.problems} />}
        {decisionShown && (
          <Problems problems={[...new Set([...yesIssues, ...noIssues])]} filesNeeded={0} label={ACTIVITY_LABELS.decisionProblems} />
        )}
      </Stack>
      <ConfirmDialog
        open={confirm !== null}
        title={confirm?.title ?? ''}
        text={confirm?.text}
        danger={confirm?.danger ?? true}
        busy={busy}
        onConfirm={() => confirm?.run()}
        onClose={() => setConfirm(null)}
      />
    </Paper>
  );
}
