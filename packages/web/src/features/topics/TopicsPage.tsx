import AddIcon from '@mui/icons-material/Add';
import { Button, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { appPath, LIST_SORTS, TOPIC_PRIORITIES, TOPIC_STATUSES } from '@trasa/domain';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { listTopics, type TopicDto, type TopicPriority, type TopicStatus } from '../../api/topics';
import { DataTable, type TablePage, type TableQuery } from '../../components/DataTable';
import type { ColumnDef } from '../../components/tableTypes';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { formatDateTime } from './format';
import { PRIORITY_LABELS, STATUS_FILTER_LABELS, STATUS_LABELS, TOPIC_LABELS } from './labels';
import { TOPICS_KEY } from './queries';
import { DeleteTopicDialog, TopicEditDeleteButtons } from './TopicButtons';

type Filters = { status: TopicStatus | ''; prioritet: TopicPriority | '' };

const FILTERS_STORAGE_KEY = 'teme:filteri';
const NO_FILTERS: Filters = { status: '', prioritet: '' };
const listKey = (f: Filters) => [...TOPICS_KEY, 'list', f.status, f.prioritet] as const;

/** The filters chosen last in this tab (spec 1 §3 "Session": back from a detail, the list is where it was). */
function readFilters(): Filters {
  try {
    const raw: unknown = JSON.parse(sessionStorage.getItem(FILTERS_STORAGE_KEY) ?? 'null');
    if (typeof raw !== 'object' || raw === null) return NO_FILTERS;
    const { status, prioritet } = raw as Record<string, unknown>;
    return {
      status: TOPIC_STATUSES.find((s) => s === status) ?? '',
      prioritet: TOPIC_PRIORITIES.find((p) => p === prioritet) ?? '',
    };
  } catch {
    return NO_FILTERS;
  }
}

/**
 * DataTable keeps page, page size and search text in session storage under `tabela:<queryKey>`. A new
 * filter is a new query key: its list starts on the first page with the same size and search.
 */
function startOnFirstPage(from: readonly unknown[], to: readonly unknown[]): void {
  try {
    const raw: unknown = JSON.parse(sessionStorage.getItem(`tabela:${JSON.stringify(from)}`) ?? 'null');
    const state = typeof raw === 'object' && raw !== null ? raw : {};
    sessionStorage.setItem(`tabela:${JSON.stringify(to)}`, JSON.stringify({ ...state, pageIndex: 0 }));
  } catch {
    // Storage full or disabled: the list starts on its first page anyway.
  }
}

function saveFilters(filters: Filters): void {
  try {
    sessionStorage.setItem(FILTERS_STORAGE_KEY, JSON.stringify(filters));
  } catch {
    // Storage full or disabled: the filters start empty next time.
  }
}

function shorten(text: string, max = 160): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

const COLUMNS: ColumnDef<TopicDto>[] = [
  { accessorKey: 'nazivKlastera', header: TOPIC_LABELS.cluster },
  { id: 'opis', header: TOPIC_LABELS.description, accessorFn: (t) => shorten(t.opis) },
  { id: 'prioritet', header: TOPIC_LABELS.priority, accessorFn: (t) => PRIORITY_LABELS[t.prioritet] },
  { id: 'status', header: TOPIC_LABELS.status, accessorFn: (t) => STATUS_LABELS[t.status] },
  { id: 'rok', header: TOPIC_LABELS.deadline, accessorFn: (t) => formatDateTime(t.rok) },
];

/** A page of topics, newest change first (or by the sorted column; the server sorts); a failure is only logged (spec 2 §8). */
async function fetchTopics(filters: Filters, { page, limit, search, signal, sort, order }: TableQuery): Promise<TablePage<TopicDto>> {
  try {
    const data = await listTopics({ page, limit, sort, order, q: search?.eng ?? '', qAlt: search?.srb ?? '', ...filters }, signal);
    return { rows: data.data, total: data.total };
  } catch (error) {
    if (signal.aborted) throw error;
    console.error('loading topics failed', error);
    return { rows: [], total: 0 };
  }
}

type FilterProps<V extends string> = {
  label: string;
  value: V | '';
  values: readonly V[];
  labels: Record<V, string>;
  onChange: (value: V | '') => void;
};

function FilterSelect<V extends string>({ label, value, values, labels, onChange }: FilterProps<V>) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(e) => onChange(values.find((v) => v === e.target.value) ?? '')}
      // 'Све' shows for the empty value.
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      sx={{ minWidth: 180 }}
    >
      <MenuItem value="">{TOPIC_LABELS.filterAll}</MenuItem>
      {values.map((v) => (
        <MenuItem key={v} value={v}>
          {labels[v]}
        </MenuItem>
      ))}
    </TextField>
  );
}

/**
 * /app/teme (spec 2 §2 "Open issues"): the topics of the clusters the user sees, with search, status and
 * priority filters and server paging; a row opens the topic. Edit and delete are locked for a closed
 * topic and for one with comments.
 */
export function TopicsPage() {
  const navigate = useNavigate();
  const [filters, setFilters] = useState<Filters>(readFilters);
  const [deleting, setDeleting] = useState<TopicDto | null>(null);
  const queryKey = listKey(filters);

  const change = (next: Partial<Filters>) => {
    const updated = { ...filters, ...next };
    startOnFirstPage(queryKey, listKey(updated));
    saveFilters(updated);
    setFilters(updated);
  };

  return (
    <Stack spacing={2}>
      <Typography variant="h1">{SCREEN_TITLES.topics}</Typography>
      <Stack direction="row" spacing={2} flexWrap="wrap" useFlexGap>
        <FilterSelect
          label={TOPIC_LABELS.filterStatus}
          value={filters.status}
          values={TOPIC_STATUSES}
          labels={STATUS_FILTER_LABELS}
          onChange={(status) => change({ status })}
        />
        <FilterSelect
          label={TOPIC_LABELS.filterPriority}
          value={filters.prioritet}
          values={TOPIC_PRIORITIES}
          labels={PRIORITY_LABELS}
          onChange={(prioritet) => change({ prioritet })}
        />
      </Stack>
      <DataTable
        // A changed filter remounts the table on its first page (see startOnFirstPage).
        key={queryKey.join('|')}
        tableName="teme"
        exportAs={{ list: 'topics', params: { status: filters.status, prioritet: filters.prioritet } }}
        label={SCREEN_TITLES.topics}
        columns={COLUMNS}
        queryKey={queryKey}
        fetchPage={(query) => fetchTopics(filters, query)}
        searchable
        sortable={LIST_SORTS.topics}
        onRowClick={(topic) => navigate(appPath('topic', { id: topic._id }))}
        actionsWidth={100}
        renderRowActions={(topic) => (
          <TopicEditDeleteButtons
            compact
            topic={topic}
            onEdit={() => navigate(appPath('topicEdit', { id: topic._id }))}
            onDelete={() => setDeleting(topic)}
          />
        )}
        toolbar={
          <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to={appPath('topicNew')}>
            {TOPIC_LABELS.newTopic}
          </Button>
        }
      />
      <DeleteTopicDialog topic={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
