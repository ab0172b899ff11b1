import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import LockIcon from '@mui/icons-material/Lock';
import SendIcon from '@mui/icons-material/Send';
import { Alert, Box, Button, Divider, Paper, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { appPath, type TopicAnswer, topicCommentSchema } from '@trasa/domain';
import { type ReactNode, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { fieldErrorOf } from '../../api/errors';
import { closeTopic, commentTopic, type TopicCommentDto, type TopicDto } from '../../api/topics';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DetailRows } from '../../components/DetailRows';
import { FormOptionPicker } from '../../components/FormOptionPicker';
import { FormTextField } from '../../components/FormTextField';
import { PageLoader } from '../../components/PageLoader';
import { useSnackbar } from '../../components/SnackbarProvider';
import { zodResolver } from '../../components/validation';
import { TOPICS } from '../../messages';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { UI } from '../../texts';
import { formatDateTime } from './format';
import { PRIORITY_LABELS, STATUS_LABELS, TOPIC_LABELS } from './labels';
import { TOPICS_KEY, useTopicGroupOptions, useTopicQuery } from './queries';
import { DeleteTopicDialog, TopicEditDeleteButtons } from './TopicButtons';
import { TopicNotFound } from './TopicNotFound';

type CommentForm = z.input<typeof topicCommentSchema>;
type CommentFormOut = z.output<typeof topicCommentSchema>;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper component="section" aria-label={title} sx={{ p: 2 }}>
      <Typography variant="h3" component="h2" gutterBottom>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

function authorOf(comment: TopicCommentDto): string {
  return `${comment.createdBy.ime} ${comment.createdBy.prezime}`.trim();
}

/** The comments, oldest first: text, author, time and the group that is to answer after it. */
function CommentList({ comments }: { comments: TopicCommentDto[] }) {
  if (comments.length === 0) return <Typography color="text.secondary">{TOPIC_LABELS.noComments}</Typography>;
  return (
    <Stack component="ol" aria-label={TOPIC_LABELS.comments} spacing={1.5} sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {comments.map((c) => (
        <Box component="li" key={c._id} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}>
          <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap alignItems="baseline" sx={{ mb: 0.5 }}>
            <Typography component="span" sx={{ fontWeight: 700 }}>
              {authorOf(c)}
            </Typography>
            <Typography component="span" variant="body2" color="text.secondary">
              {formatDateTime(c.createdAt)}
            </Typography>
          </Stack>
          <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{c.tekst}</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {TOPIC_LABELS.answeringGroup}: {c.odgovoranZaOdgovor.naziv}
          </Typography>
        </Box>
      ))}
    </Stack>
  );
}

/**
 * The comment box of the responsible group: text (not blank) and an optional hand-over to another group
 * (noviOdgovoran). After sending, the topic reloads: a hand-over ends this group's turn.
 */
function CommentBox({ topic }: { topic: TopicDto }) {
  const queryClient = useQueryClient();
  const groups = useTopicGroupOptions(topic.locationId);
  // Handing over to the group already responsible changes nothing: it is not offered.
  const options = useMemo(() => groups.options.filter((o) => o.value !== topic.odgovoran._id), [groups.options, topic.odgovoran._id]);
  const { control, handleSubmit, reset, setError } = useForm<CommentForm, unknown, CommentFormOut>({
    resolver: zodResolver(topicCommentSchema),
    defaultValues: { tekst: '', noviOdgovoran: '' },
  });
  const send = useMutation({
    mutationFn: (v: CommentFormOut) => commentTopic(topic._id, { tekst: v.tekst, noviOdgovoran: v.noviOdgovoran || null }),
    onSuccess: async (answer) => {
      reset({ tekst: '', noviOdgovoran: '' });
      queryClient.setQueryData<TopicAnswer>([...TOPICS_KEY, 'single', topic._id], (old) => (old ? { ...old, data: answer.data } : old));
      await queryClient.invalidateQueries({ queryKey: TOPICS_KEY });
    },
    onError: async (error) => {
      // Only logged (spec 2 §8); field messages go under the fields, and the topic reloads (closed or handed over meanwhile).
      console.error('sending the comment failed', error);
      for (const field of ['tekst', 'noviOdgovoran'] as const) {
        const text = fieldErrorOf(error, field);
        if (text) setError(field, { message: text });
      }
      await queryClient.invalidateQueries({ queryKey: TOPICS_KEY });
    },
  });
  return (
    <Stack component="form" noValidate spacing={2} aria-label={TOPIC_LABELS.newComment} onSubmit={handleSubmit((v) => send.mutate(v))}>
      <Typography variant="h3" component="h3">
        {TOPIC_LABELS.newComment}
      </Typography>
      <FormTextField control={control} name="tekst" label={TOPIC_LABELS.commentText} multiline minRows={3} />
      <FormOptionPicker
        control={control}
        name="noviOdgovoran"
        label={TOPIC_LABELS.handOver}
        options={options}
        loading={groups.loading}
        helperText={TOPIC_LABELS.noHandOver}
      />
      <Box>
        <Button type="submit" variant="contained" startIcon={<SendIcon />} disabled={send.isPending}>
          {TOPIC_LABELS.sendComment}
        </Button>
      </Box>
    </Stack>
  );
}

function TopicView({ answer }: { answer: TopicAnswer }) {
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const { data: topic, canComment } = answer;
  const closed = topic.status === 'zatvoren';
  const [deleting, setDeleting] = useState<TopicDto | null>(null);
  const [closing, setClosing] = useState(false);

  const close = useMutation({
    mutationFn: () => closeTopic(topic._id),
    onSuccess: async (saved) => {
      setClosing(false);
      if (saved?.message) snackbar.success(saved.message);
      await queryClient.invalidateQueries({ queryKey: TOPICS_KEY });
    },
    onError: async (error) => {
      setClosing(false);
      console.error('closing the topic failed', error);
      await queryClient.invalidateQueries({ queryKey: TOPICS_KEY });
    },
  });

  return (
    <Stack spacing={2} sx={{ maxWidth: 1000 }}>
      <Stack direction="row" alignItems="center" spacing={2} flexWrap="wrap" useFlexGap>
        <Button component={RouterLink} to={appPath('topics')} startIcon={<ArrowBackIcon />}>
          {UI.back}
        </Button>
        <Typography variant="h1">{SCREEN_TITLES.topic}</Typography>
      </Stack>
      {closed && (
        <Alert severity="info" icon={<LockIcon />} role="status">
          {TOPICS.closedBanner}
        </Alert>
      )}
      <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
        <TopicEditDeleteButtons
          topic={topic}
          onEdit={() => navigate(appPath('topicEdit', { id: topic._id }))}
          onDelete={() => setDeleting(topic)}
        />
        {!closed && topic.dozvole.zatvaranje && (
          <Button variant="contained" startIcon={<LockIcon />} onClick={() => setClosing(true)}>
            {TOPIC_LABELS.closeTopic}
          </Button>
        )}
      </Stack>
      <Section title={TOPIC_LABELS.topicData}>
        <DetailRows
          label={TOPIC_LABELS.topicData}
          rows={[
            [TOPIC_LABELS.cluster, topic.nazivKlastera],
            [
              TOPIC_LABELS.description,
              <Box key="opis" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {topic.opis || UI.empty}
              </Box>,
            ],
            [TOPIC_LABELS.priority, PRIORITY_LABELS[topic.prioritet]],
            [TOPIC_LABELS.status, STATUS_LABELS[topic.status]],
            [TOPIC_LABELS.deadline, formatDateTime(topic.rok)],
            [TOPIC_LABELS.responsibleGroup, topic.odgovoran.naziv],
            [TOPIC_LABELS.createdAt, formatDateTime(topic.createdAt)],
            [TOPIC_LABELS.updatedAt, formatDateTime(topic.updatedAt)],
          ]}
        />
      </Section>
      <Section title={TOPIC_LABELS.comments}>
        <Stack spacing={2}>
          <CommentList comments={topic.komentari} />
          {!closed && <Divider />}
          {!closed && canComment && <CommentBox key={`${topic._id}:${topic.odgovoran._id}`} topic={topic} />}
          {!closed && !canComment && <Alert severity="info">{TOPIC_LABELS.onlyResponsible(topic.odgovoran.naziv)}</Alert>}
        </Stack>
      </Section>
      <ConfirmDialog
        open={closing}
        title={TOPIC_LABELS.closeConfirm}
        text={TOPIC_LABELS.closeNote}
        danger={false}
        busy={close.isPending}
        onConfirm={() => close.mutate()}
        onClose={() => setClosing(false)}
      />
      <DeleteTopicDialog topic={deleting} onClose={() => setDeleting(null)} onDeleted={() => navigate(appPath('topics'))} />
    </Stack>
  );
}

/** /app/teme/{id} (spec 2 §2): the topic and its comments; 'Није пронађено' for a missing one. */
export function TopicPage() {
  const { id = '' } = useParams();
  const query = useTopicQuery(id);
  if (query.isPending) return <PageLoader />;
  if (query.isError) return <TopicNotFound error={query.error} />;
  return <TopicView answer={query.data} />;
}
