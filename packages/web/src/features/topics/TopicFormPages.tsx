import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { appPath, TOPIC_PRIORITIES, topicCreateSchema } from '@trasa/domain';
import { type ReactNode, useEffect, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { fieldErrorOf, statusOf } from '../../api/errors';
import { createTopic, editTopic, type TopicDto } from '../../api/topics';
import { FormDateField } from '../../components/dates';
import { FormOptionPicker } from '../../components/FormOptionPicker';
import { FormSelect, type SelectOption } from '../../components/FormSelect';
import { FormTextField } from '../../components/FormTextField';
import { PageLoader } from '../../components/PageLoader';
import { useSnackbar } from '../../components/SnackbarProvider';
import { zodResolver } from '../../components/validation';
import { CLUSTERS, TOPICS } from '../../messages';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { UI } from '../../texts';
import { fromLocalInput, toLocalInput } from './format';
import { PRIORITY_LABELS, TOPIC_LABELS } from './labels';
import { TOPICS_KEY, useTopicClusterChoices, useTopicGroupOptions, useTopicQuery } from './queries';
import { lockText } from './TopicButtons';
import { TopicNotFound } from './TopicNotFound';

const PRIORITY_OPTIONS = TOPIC_PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] }));

/**
 * The domain's create schema (cluster and responsible group required, 'Поље је обавезно'; priority
 * srednji by default) with the deadline as the date-time field holds it (YYYY-MM-DDTHH:mm in local
 * time, converted to an ISO date-time on save). The edit form uses it too, its cluster fixed.
 */
const topicFormSchema = topicCreateSchema.extend({ rok: z.string(), opis: z.string().max(5000, { error: 'Predugačak unos.' }) });
type TopicForm = z.input<typeof topicFormSchema>;
type TopicFormOut = z.output<typeof topicFormSchema>;

const FIELDS = ['locationId', 'odgovoran', 'opis', 'rok', 'prioritet'] as const satisfies readonly (keyof TopicForm)[];

function valuesOf(topic: TopicDto | null): TopicForm {
  return {
    locationId: topic?.locationId ?? '',
    odgovoran: topic?.odgovoran._id ?? '',
    prioritet: topic?.prioritet ?? 'srednji',
    rok: toLocalInput(topic?.rok),
    opis: topic?.opis ?? '',
  };
}

function FormPage({ title, backTo, children }: { title: string; backTo: string; children: ReactNode }) {
  return (
    <Stack spacing={2} sx={{ maxWidth: 800 }}>
      <Stack direction="row" alignItems="center" spacing={2} flexWrap="wrap" useFlexGap>
        <Button component={RouterLink} to={backTo} startIcon={<ArrowBackIcon />}>
          {UI.back}
        </Button>
        <Typography variant="h1">{title}</Typography>
      </Stack>
      <Paper sx={{ p: 3 }}>{children}</Paper>
    </Stack>
  );
}

type FormProps = {
  /** The topic to edit; null for a new one. */
  topic: TopicDto | null;
  clusterOptions: SelectOption[];
  clustersLoading: boolean;
};

/**
 * The topic form: cluster (new topics only), responsible group, priority, deadline and description. A
 * closed topic or one with comments shows why and changes nothing (spec 2 §2, §4). The server's message
 * shows on success; a failure is only logged, with the server's field messages under the fields (spec 2 §8).
 */
function TopicForm({ topic, clusterOptions, clustersLoading }: FormProps) {
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  // Someone the server would refuse (not the Admin nor of the author's group) sees why, and changes nothing.
  const lock = topic ? (topic.dozvole.izmena ? lockText(topic) : TOPICS.onlyAuthorGroup) : null;
  const { control, handleSubmit, setError, setValue, getValues, watch } = useForm<TopicForm, unknown, TopicFormOut>({
    resolver: zodResolver(topicFormSchema),
    defaultValues: valuesOf(topic),
  });
  const locationId = watch('locationId');
  const groupOptions = useTopicGroupOptions(lock ? '' : locationId, topic?.odgovoran);

  // A group offered for one cluster need not be for the next: a choice no longer offered is cleared.
  const { options: offered, loading: groupsLoading } = groupOptions;
  useEffect(() => {
    const chosen = getValues('odgovoran');
    if (!topic && !groupsLoading && chosen && !offered.some((o) => o.value === chosen)) setValue('odgovoran', '');
  }, [topic, offered, groupsLoading, getValues, setValue]);

  const done = (id: string) => navigate(appPath('topic', { id }));
  const save = useMutation({
    mutationFn: (v: TopicFormOut) => {
      const fields = { odgovoran: v.odgovoran, opis: v.opis, rok: fromLocalInput(v.rok), prioritet: v.prioritet };
      return topic ? editTopic(topic._id, fields) : createTopic({ ...fields, locationId: v.locationId });
    },
    onSuccess: async (answer) => {
      if (answer?.message) snackbar.success(answer.message);
      await queryClient.invalidateQueries({ queryKey: TOPICS_KEY });
      done(answer.data._id);
    },
    onError: async (error) => {
      console.error('saving the topic failed', error);
      for (const field of FIELDS) {
        const text = fieldErrorOf(error, field);
        if (text) setError(field, { message: text });
      }
      // 409: commented or closed meanwhile; 404: gone. Reloading shows the form locked or the topic missing.
      const status = statusOf(error);
      if (topic && (status === 409 || status === 404)) await queryClient.invalidateQueries({ queryKey: TOPICS_KEY });
    },
  });

  return (
    <Stack component="form" noValidate spacing={2} sx={{ pt: 1 }} onSubmit={handleSubmit((v) => save.mutate(v))}>
      {lock && <Alert severity="warning">{lock}</Alert>}
      <FormOptionPicker
        control={control}
        name="locationId"
        label={TOPIC_LABELS.cluster}
        options={clusterOptions}
        loading={clustersLoading}
        disabled={!!topic}
      />
      <FormOptionPicker
        control={control}
        name="odgovoran"
        label={TOPIC_LABELS.responsibleGroup}
        options={groupOptions.options}
        loading={groupOptions.loading}
        disabled={!!lock}
        helperText={!lock ? TOPIC_LABELS.groupsOfCluster : undefined}
      />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <FormSelect control={control} name="prioritet" label={TOPIC_LABELS.priority} options={PRIORITY_OPTIONS} disabled={!!lock} />
        <FormDateField control={control} name="rok" label={TOPIC_LABELS.deadline} kind="datetime" disabled={!!lock} />
      </Box>
      <FormTextField control={control} name="opis" label={TOPIC_LABELS.description} multiline minRows={4} disabled={!!lock} />
      <Stack direction="row" spacing={1} justifyContent="flex-end">
        <Button onClick={() => (topic ? done(topic._id) : navigate(appPath('topics')))} disabled={save.isPending}>
          {CLUSTERS.cancel}
        </Button>
        <Button type="submit" variant="contained" disabled={save.isPending || !!lock}>
          {UI.save}
        </Button>
      </Stack>
    </Stack>
  );
}

/** /app/teme/nova (spec 2 §2): cluster and responsible group required, priority srednji, the rest optional. */
export function TopicNewPage() {
  const clusters = useTopicClusterChoices();
  const clusterOptions = useMemo(() => (clusters.data ?? []).map((c) => ({ value: c._id, label: c.naziv })), [clusters.data]);
  return (
    <FormPage title={SCREEN_TITLES.topicNew} backTo={appPath('topics')}>
      <TopicForm topic={null} clusterOptions={clusterOptions} clustersLoading={clusters.isPending} />
    </FormPage>
  );
}

function TopicEditForm({ topic }: { topic: TopicDto }) {
  const clusterOptions = useMemo(() => [{ value: topic.locationId, label: topic.nazivKlastera }], [topic]);
  return <TopicForm topic={topic} clusterOptions={clusterOptions} clustersLoading={false} />;
}

/** /app/teme/izmeni/{id} (spec 2 §2): responsible group required; nothing changes on a closed or commented topic. */
export function TopicEditPage() {
  const { id = '' } = useParams();
  const query = useTopicQuery(id);
  if (query.isPending) return <PageLoader />;
  if (query.isError) return <TopicNotFound error={query.error} />;
  const topic = query.data.data;
  return (
    <FormPage title={SCREEN_TITLES.topicEdit} backTo={appPath('topic', { id: topic._id })}>
      <TopicEditForm key={`${topic._id}:${topic.updatedAt}:${topic.brojKomentara}:${topic.status}`} topic={topic} />
    </FormPage>
  );
}
