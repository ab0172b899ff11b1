import SendIcon from '@mui/icons-material/Send';
import { Box, Button, Divider, Paper, Stack, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { type ActivityCommentDto, type ActivityDto, stateOf } from '../../api/activities';
import { fieldErrorOf } from '../../api/errors';
import { FormTextField } from '../../components/FormTextField';
import { useSnackbar } from '../../components/SnackbarProvider';
import { zodResolver } from '../../components/validation';
import { ACTIVITIES } from '../../messages';
import { changeFailedMessage } from '../../offline/messages';
import { submit } from '../../offline/submit';
import { QUEUE_TEXTS } from '../../offline/texts';
import { formatDateTime } from '../topics/format';
import { ACTIVITY_LABELS } from './labels';
import { useApplyAnswer } from './queries';

/** Shown before 'show all': the newest comments. */
const SHOWN_COMMENTS = 3;

/** Required ('Obavezno polje'); blank is 'Ne možete poslati praznu poruku.' (spec 3 §5). */
const commentSchema = z.object({
  komentar: z
    .string()
    .min(1, ACTIVITIES.commentRequired)
    .max(5000, ACTIVITIES.commentTooLong)
    .refine((v) => v.trim().length > 0, ACTIVITIES.commentEmpty)
    .transform((v) => v.trim()),
});
type CommentForm = z.input<typeof commentSchema>;
type CommentOut = z.output<typeof commentSchema>;

function authorOf(c: ActivityCommentDto): string {
  return c.user ? `${c.user.ime} ${c.user.prezime}`.trim() : ACTIVITIES.deletedUser;
}

function CommentForm({ activity }: { activity: ActivityDto }) {
  const snackbar = useSnackbar();
  const apply = useApplyAnswer(activity._id);
  const { control, handleSubmit, reset, setError } = useForm<CommentForm, unknown, CommentOut>({
    resolver: zodResolver(commentSchema),
    defaultValues: { komentar: '' },
  });
  // Sent with the state the page shows; without a network kept on the device and sent later (offline/queue.ts).
  const send = useMutation({
    // Offline too: the change is then kept on the device (offline/queue.ts), not paused in memory.
    networkMode: 'always',
    mutationFn: (v: CommentOut) =>
      submit<{ message?: string }>({
        activityId: activity._id,
        title: `${activity.kratakNaziv} - ${activity.naziv}`,
        cluster: activity.lokacija.naziv,
        stanje: stateOf(activity),
        change: { kind: 'comment', komentar: v.komentar },
      }),
    onSuccess: async (result) => {
      reset({ komentar: '' });
      if ('queued' in result) {
        snackbar.notify(QUEUE_TEXTS.commentQueued, 'info', 5000);
        return;
      }
      snackbar.success(result.sent?.message || ACTIVITIES.commentSent);
      await apply(null, true);
    },
    onError: (error) => {
      console.error('sending the comment failed', error);
      const field = fieldErrorOf(error, 'komentar');
      if (field) setError('komentar', { message: field });
      snackbar.error(changeFailedMessage(error, ACTIVITIES.commentFailed));
    },
  });
  return (
    <Stack component="form" noValidate spacing={1.5} aria-label={ACTIVITY_LABELS.newComment} onSubmit={handleSubmit((v) => send.mutate(v))}>
      <FormTextField control={control} name="komentar" label={ACTIVITY_LABELS.commentText} multiline minRows={2} />
      <Box>
        <Button type="submit" variant="contained" startIcon={<SendIcon />} disabled={send.isPending}>
          {ACTIVITY_LABELS.send}
        </Button>
      </Box>
    </Stack>
  );
}

/** The comments (newest first, the three newest until 'show all') and the comment form. */
export function Comments({ activity }: { activity: ActivityDto }) {
  const [all, setAll] = useState(false);
  const comments = [...activity.komentari].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const shown = all ? comments : comments.slice(0, SHOWN_COMMENTS);
  return (
    <Paper component="section" aria-label={ACTIVITY_LABELS.comments} sx={{ p: 2 }}>
      <Typography variant="h3" component="h2" gutterBottom>
        {ACTIVITY_LABELS.comments}
      </Typography>
      <Stack spacing={2}>
        <CommentForm activity={activity} />
        <Divider />
        {comments.length === 0 ? (
          <Typography color="text.secondary">{ACTIVITIES.noComments}</Typography>
        ) : (
          <>
            <Stack component="ol" aria-label={ACTIVITY_LABELS.comments} spacing={1.5} sx={{ listStyle: 'none', m: 0, p: 0 }}>
              {shown.map((c) => (
                <Box component="li" key={c._id} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}>
                  <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap alignItems="baseline" sx={{ mb: 0.5 }}>
                    <Typography component="span" sx={{ fontWeight: 700, fontStyle: c.user ? undefined : 'italic' }}>
                      {authorOf(c)}
                    </Typography>
                    {c.user?.email && (
                      <Typography component="span" variant="body2" color="text.secondary">
                        {c.user.email}
                      </Typography>
                    )}
                    <Typography component="span" variant="body2" color="text.secondary">
                      {formatDateTime(c.createdAt)}
                    </Typography>
                  </Stack>
                  <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{c.komentar}</Typography>
                </Box>
              ))}
            </Stack>
            {comments.length > SHOWN_COMMENTS && (
              <Box>
                <Button onClick={() => setAll((v) => !v)} aria-expanded={all}>
                  {all ? ACTIVITY_LABELS.hideOlder : ACTIVITY_LABELS.showAll(comments.length)}
                </Button>
              </Box>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
