import MenuBookIcon from '@mui/icons-material/MenuBook';
import { Box, Button, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { appPath, COLOUR_HEX, type DeadlineColour, LIST_SORTS, RESPONSIBLE_PARTIES, type ResponsibleParty } from '@trasa/domain';
import { useCallback, useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { LocationOption } from '../../api/clusters';
import { PICKER_LIMIT } from '../../api/clusters';
import { listContracts } from '../../api/contracts';
import { listInProgress } from '../../api/notifications';
import { ColourLegend } from '../../components/ColourLegend';
import { DataTable, type TableQuery } from '../../components/DataTable';
import { OptionPicker } from '../../components/OptionPicker';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { UI } from '../../texts';
import { ACTIVITY_UI, RESPONSIBLE_LABELS } from '../catalogue/labels';
import { contractLabel } from '../clusters/format';
import { CONTRACTS_KEY } from '../clusters/queries';
import { ClusterPicker } from './ClusterPicker';
import { ACTIVITY_ROW_COLUMNS, activityRowColor, CONTRACT_COLUMN, IN_PROGRESS_KEY } from './columns';

/** The colours an activity in progress can have (spec 3 §4), with the legend's words. */
const COLOURS: readonly { value: DeadlineColour; label: string }[] = [
  { value: 'blue', label: UI.legendBlue },
  { value: 'orange', label: UI.legendOrange },
  { value: 'red', label: UI.legendRed },
];

const COLUMNS = [...ACTIVITY_ROW_COLUMNS.slice(0, 3), CONTRACT_COLUMN, ...ACTIVITY_ROW_COLUMNS.slice(3)];

type Filters = { contract: string; cluster: LocationOption | null; odgovoran: ResponsibleParty | ''; boja: DeadlineColour | '' };
const NO_FILTERS: Filters = { contract: '', cluster: null, odgovoran: '', boja: '' };

/** General contracts for the contract filter (GET /api/contract, the pickers' 1000). */
function useContractOptions() {
  return useQuery({
    queryKey: [...CONTRACTS_KEY, 'contract', 'filter-options'],
    queryFn: async ({ signal }) => {
      const { contracts } = await listContracts('contract', { page: 1, limit: PICKER_LIMIT }, signal);
      return contracts.map((c) => ({ value: c._id, label: contractLabel(c) }));
    },
    staleTime: 30_000,
  });
}

function Swatch({ colour }: { colour: DeadlineColour }) {
  return (
    <Box
      component="span"
      aria-hidden
      sx={{ display: 'inline-block', width: 18, height: 12, mr: 1, border: 1, borderColor: 'divider', background: COLOUR_HEX[colour] }}
    />
  );
}

/**
 * /app/aktivnosti-u-toku (spec 3 §2.4; server-behaviour.md "Notifications"): every activity in
 * progress, nearest deadline first, with the notifications' colours; filters by general contract,
 * cluster, responsible party and colour, and a search. The Admin lands here after signing in.
 */
export function ActivitiesInProgressPage() {
  const navigate = useNavigate();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const contracts = useContractOptions();
  const set = <K extends keyof Filters>(key: K, value: Filters[K]) => setFilters((f) => ({ ...f, [key]: value }));

  const params = useMemo(
    () => ({
      contract: filters.contract || undefined,
      cluster: filters.cluster?._id,
      odgovoran: filters.odgovoran || undefined,
      boja: filters.boja || undefined,
    }),
    [filters],
  );
  const fetchPage = useCallback(
    async ({ page, limit, search, signal, sort, order }: TableQuery) => {
      const data = await listInProgress({ page, limit, sort, order, ...(search ?? {}), ...params }, signal);
      return { rows: data.activities, total: data.totalResults };
    },
    [params],
  );
  // A new filter starts the list on its first page: the table is a new one for every filter.
  const filterKey = JSON.stringify(params);

  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} alignItems="center" justifyContent="space-between" flexWrap="wrap" useFlexGap>
        <Typography variant="h1">{SCREEN_TITLES.activitiesInProgress}</Typography>
        {/* The catalogue (spec 3 §2.3) has no menu entry of its own (spec 1 §2.3): it opens from here. */}
        <Button component={RouterLink} to={appPath('activityCatalogue')} startIcon={<MenuBookIcon />}>
          {ACTIVITY_UI.catalogue}
        </Button>
      </Stack>
      <Paper variant="outlined" sx={{ p: 1.5 }} component="section" aria-label={ACTIVITY_UI.filters}>
        <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: '2fr 2fr 1fr 1.4fr' } }}>
          <OptionPicker
            label={ACTIVITY_UI.contract}
            size="small"
            options={contracts.data ?? []}
            loading={contracts.isFetching}
            value={filters.contract}
            onChange={(v) => set('contract', v)}
          />
          <ClusterPicker label={ACTIVITY_UI.cluster} value={filters.cluster} onChange={(v) => set('cluster', v)} />
          <TextField
            select
            size="small"
            label={ACTIVITY_UI.responsible}
            value={filters.odgovoran}
            onChange={(e) => set('odgovoran', e.target.value as Filters['odgovoran'])}
          >
            <MenuItem value="">
              <em>{ACTIVITY_UI.all}</em>
            </MenuItem>
            {RESPONSIBLE_PARTIES.map((code) => (
              <MenuItem key={code} value={code}>
                {RESPONSIBLE_LABELS[code]}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label={ACTIVITY_UI.colour}
            value={filters.boja}
            onChange={(e) => set('boja', e.target.value as Filters['boja'])}
          >
            <MenuItem value="">
              <em>{ACTIVITY_UI.all}</em>
            </MenuItem>
            {COLOURS.map((c) => (
              <MenuItem key={c.value} value={c.value}>
                <Swatch colour={c.value} />
                {c.label}
              </MenuItem>
            ))}
          </TextField>
        </Box>
      </Paper>
      <DataTable
        key={filterKey}
        tableName="aktivnosti-u-toku"
        exportAs={{ list: 'in-progress', params }}
        label={SCREEN_TITLES.activitiesInProgress}
        columns={COLUMNS}
        queryKey={[...IN_PROGRESS_KEY, params]}
        fetchPage={fetchPage}
        searchable
        sortable={LIST_SORTS.activities}
        hiddenColumns={['ugovor']}
        rowColor={activityRowColor}
        onRowClick={(activity) => navigate(appPath('activity', { id: activity._id }))}
      />
      <ColourLegend />
    </Stack>
  );
}
