import CheckIcon from '@mui/icons-material/Check';
import CloudQueueIcon from '@mui/icons-material/CloudQueue';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import { Stack, Typography } from '@mui/material';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSnackbar } from '../../components/SnackbarProvider';
import { ACTIVITIES } from '../../messages';
import { changeFailedMessage } from '../../offline/messages';
import { QUEUE_TEXTS } from '../../offline/texts';
import { ACTIVITY_LABELS } from './labels';
import { QUEUED } from './queries';

/** Autosave waits 800 ms after the last change; the 'saved' note stays 3000 ms (spec 3 §9). */
export const AUTOSAVE_MS = 800;
export const SAVED_NOTE_MS = 3000;

/** What an autosave saves, for its note and notice (spec 3 §8). */
export type SaveKind = 'date' | 'number' | 'choice' | 'item' | 'other';

const TEXTS: Record<SaveKind, { ok: string; failed: string }> = {
  date: { ok: ACTIVITIES.dateSaved, failed: ACTIVITIES.dateSaveFailed },
  number: { ok: ACTIVITIES.numberSaved, failed: ACTIVITIES.numberSaveFailed },
  choice: { ok: ACTIVITIES.choiceSaved, failed: ACTIVITIES.choiceSaveFailed },
  item: { ok: ACTIVITIES.itemSaved, failed: ACTIVITIES.itemSaveFailed },
  other: { ok: ACTIVITIES.otherSaved, failed: ACTIVITIES.otherSaveFailed },
};

/** 'queued': kept on the device without a network, sent later (offline/queue.ts). */
export type SaveState = 'idle' | 'pending' | 'saving' | 'saved' | 'queued' | 'failed';

/**
 * Saves a value AUTOSAVE_MS after the last `schedule(value)`; a newer value replaces a waiting one,
 * and a waiting one is saved at once when the section goes away. A failure shows the server's
 * message (or the kind's default) as a notice. A save kept on the device (no network) says so instead
 * of 'saved'.
 */
export function useAutosave<T>(save: (value: T) => Promise<unknown>, kind: SaveKind) {
  const snackbar = useSnackbar();
  const [state, setState] = useState<SaveState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const noteTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const waiting = useRef<{ value: T } | null>(null);
  const saveRef = useRef(save);
  saveRef.current = save;
  const mounted = useRef(true);

  const run = useCallback(async () => {
    const next = waiting.current;
    waiting.current = null;
    if (!next) return;
    if (mounted.current) setState('saving');
    clearTimeout(noteTimer.current);
    try {
      const result = await saveRef.current(next.value);
      if (!mounted.current) return;
      setState(result === QUEUED ? 'queued' : 'saved');
    } catch (error) {
      console.error('autosave failed', error);
      snackbar.error(changeFailedMessage(error, TEXTS[kind].failed));
      if (!mounted.current) return;
      setState('failed');
    }
    noteTimer.current = setTimeout(() => setState((s) => (s === 'saved' || s === 'queued' || s === 'failed' ? 'idle' : s)), SAVED_NOTE_MS);
  }, [kind, snackbar]);

  const schedule = useCallback(
    (value: T) => {
      waiting.current = { value };
      setState('pending');
      clearTimeout(timer.current);
      timer.current = setTimeout(run, AUTOSAVE_MS);
    },
    [run],
  );

  /** Drops a waiting value (e.g. it became invalid). */
  const cancel = useCallback(() => {
    waiting.current = null;
    clearTimeout(timer.current);
    setState('idle');
  }, []);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      clearTimeout(timer.current);
      clearTimeout(noteTimer.current);
      // Leaving within the 800 ms still saves what was typed.
      if (waiting.current) void run();
    };
  }, [run]);

  return { state, schedule, cancel };
}

/** The note beside an autosaved field: 'saving', then the kind's saved or failed text for 3 s. */
export function SavedNote({ state, kind }: { state: SaveState; kind: SaveKind }) {
  if (state === 'idle' || state === 'pending') return <span role="status" aria-live="polite" />;
  if (state === 'saving')
    return (
      <Typography role="status" aria-live="polite" variant="body2" color="text.secondary">
        {ACTIVITY_LABELS.saving}
      </Typography>
    );
  if (state === 'queued')
    return (
      <Stack role="status" aria-live="polite" direction="row" spacing={0.5} alignItems="center">
        <CloudQueueIcon fontSize="small" color="info" />
        <Typography variant="body2" color="info.main">
          {QUEUE_TEXTS.savedOnDevice}
        </Typography>
      </Stack>
    );
  const ok = state === 'saved';
  return (
    <Stack role="status" aria-live="polite" direction="row" spacing={0.5} alignItems="center">
      {ok ? <CheckIcon fontSize="small" color="success" /> : <ErrorOutlineIcon fontSize="small" color="error" />}
      <Typography variant="body2" color={ok ? 'success.main' : 'error.main'}>
        {ok ? TEXTS[kind].ok : TEXTS[kind].failed}
      </Typography>
    </Stack>
  );
}
