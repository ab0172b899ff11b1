import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import LinkIcon from '@mui/icons-material/Link';
import LinkOffIcon from '@mui/icons-material/LinkOff';
import { Alert, Box, Button, Checkbox, CircularProgress, Paper, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { appPath, type ContractKind, type ContractLocation, foldForSearch } from '@trasa/domain';
import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import { Link as RouterLink, useLocation, useParams } from 'react-router';
import type { LocationListItem } from '../../api/clusters';
import { type ContractDto, getContract, linkLocationsToContract, unlinkLocationFromContract } from '../../api/contracts';
import { messageOf } from '../../api/errors';
import { ColourLegend } from '../../components/ColourLegend';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type TableQuery } from '../../components/DataTable';
import { RowAction } from '../../components/RowAction';
import { useSnackbar } from '../../components/SnackbarProvider';
import type { ColumnDef } from '../../components/tableTypes';
import { CLUSTERS, COMMON, CONTRACTS } from '../../messages';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { UI } from '../../texts';
import { CLUSTER_STATUS_COLUMN, clusterRowColor, fetchLocations } from '../clusters/clusterColumns';
import { CONTRACT_KIND_LABELS, contractLabel, responsibleContractors, statusLabel } from '../clusters/format';
import { LOCATION_NOTICE_MS } from '../clusters/notices';
import { CLUSTERS_KEY } from '../clusters/queries';
import { isFinished, kindOfLinkState, LIST_ROUTE } from './kinds';
import { CONTRACT_LABELS } from './labels';
import { CONTRACTS_KEY, useContractLabel, useContractQuery } from './queries';

type TabKey = 'linked' | 'link';

/** The cluster's current contract of this kind (`ugovor` is the general one). */
function currentOfKind(location: LocationListItem, kind: ContractKind) {
  return kind === 'contract' ? location.ugovor : (location.ugovori?.[kind] ?? null);
}

/** A name matches the typed text in either script, folded as the server's search folds it. */
function matches(naziv: string, search: { eng: string; srb: string } | null): boolean {
  if (!search) return true;
  const name = foldForSearch(naziv);
  return [search.eng, search.srb].some((t) => name.includes(foldForSearch(t)));
}

const LINKED_COLUMNS: ColumnDef<ContractLocation>[] = [
  { accessorKey: 'naziv', header: UI.clusterName },
  { id: 'status', header: UI.status, accessorFn: (l) => statusLabel(l.status) },
  {
    id: 'odgovoran',
    header: UI.responsibleGroups,
    accessorFn: (l) => l.odgovoran.map((g) => g.naziv).join(', ') || UI.empty,
  },
];

/** The clusters of the contract, searched and paged here (the contract answer holds all of them). */
function linkedFetcher(kind: ContractKind, id: string) {
  return async ({ page, limit, search, signal }: TableQuery) => {
    const contract = await getContract(kind, id, signal);
    const rows = contract.lokacije.filter((l) => matches(l.naziv, search));
    return { rows: rows.slice((page - 1) * limit, page * limit), total: rows.length };
  };
}

/** The selection of the 'link a cluster' tab, read by the checkbox cells. */
const SelectionContext = createContext<{
  kind: ContractKind;
  contractId: string;
  chosen: ReadonlySet<string>;
  toggle: (location: LocationListItem) => void;
}>({ kind: 'contract', contractId: '', chosen: new Set(), toggle: () => {} });

/** A cluster's checkbox; one already linked to this contract is checked and disabled. */
function ChooseCell({ row }: { row: LocationListItem }) {
  const { kind, contractId, chosen, toggle } = useContext(SelectionContext);
  const location = row;
  const linked = currentOfKind(location, kind)?._id === contractId;
  const box = (
    <Checkbox
      size="small"
      checked={linked || chosen.has(location._id)}
      disabled={linked}
      onClick={(e) => e.stopPropagation()}
      onChange={() => toggle(location)}
      slotProps={{ input: { 'aria-label': `${CONTRACT_LABELS.chooseCluster}: ${location.naziv}` } }}
    />
  );
  return linked ? (
    <span data-tip={CONTRACT_LABELS.alreadyLinked} style={{ display: 'inline-flex' }}>
      {box}
    </span>
  ) : (
    box
  );
}

/** The cluster's contract of this kind: 'naziv (broj)' (the row names it by id), or that it is this one. */
function CurrentContractCell({ row }: { row: LocationListItem }) {
  const { kind, contractId } = useContext(SelectionContext);
  const current = currentOfKind(row, kind);
  const other = current && current._id !== contractId ? current._id : null;
  const label = useContractLabel(kind, other);
  if (!current) return <>{UI.empty}</>;
  if (!other) return <>{CONTRACT_LABELS.alreadyLinked}</>;
  return <>{label ?? ''}</>;
}

const LINK_COLUMNS: ColumnDef<LocationListItem>[] = [
  // The choice itself: never hidden, on a phone beside the first two columns.
  { id: 'izbor', header: UI.choose, Cell: ChooseCell, enableHiding: false },
  { accessorKey: 'naziv', header: UI.clusterName },
  { id: 'odgovoran', header: UI.responsibleContractor, accessorFn: responsibleContractors },
  // Coloured rows (the legend below): the status says the colour in words, as in the clusters' list.
  CLUSTER_STATUS_COLUMN,
  { id: 'trenutniUgovor', header: CONTRACT_LABELS.currentContractOfKind, Cell: CurrentContractCell },
];

function LinkScreen({ kind, contract }: { kind: ContractKind; contract: ContractDto }) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<TabKey>('linked');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  /** The cluster whose unlinking waits for confirmation. */
  const [unlinking, setUnlinking] = useState<ContractLocation | null>(null);

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: CONTRACTS_KEY });
    await queryClient.invalidateQueries({ queryKey: CLUSTERS_KEY });
  };

  const unlink = useMutation({
    mutationFn: (location: ContractLocation) => unlinkLocationFromContract(kind, contract._id, location._id),
    onSuccess: async (data) => {
      setUnlinking(null);
      snackbar.success(data?.message || CONTRACTS.locationRemoved, LOCATION_NOTICE_MS);
      await refresh();
    },
    onError: (error) => {
      setUnlinking(null);
      snackbar.error(messageOf(error, CONTRACTS.locationRemoveFailed), LOCATION_NOTICE_MS);
    },
  });

  const link = useMutation({
    mutationFn: (ids: string[]) => linkLocationsToContract(kind, contract._id, ids),
    onSuccess: async (data) => {
      snackbar.success(data?.message || CONTRACTS.locationAdded, LOCATION_NOTICE_MS);
      setChosen(new Set());
      await refresh();
      setTab('linked');
    },
    onError: (error) => snackbar.error(messageOf(error, CONTRACTS.locationAddFailed), LOCATION_NOTICE_MS),
  });

  const toggle = useCallback(
    (location: LocationListItem) => {
      if (currentOfKind(location, kind)?._id === contract._id) return;
      setChosen((c) => {
        const next = new Set(c);
        if (next.has(location._id)) next.delete(location._id);
        else next.add(location._id);
        return next;
      });
    },
    [kind, contract._id],
  );
  const selection = useMemo(() => ({ kind, contractId: contract._id, chosen, toggle }), [kind, contract._id, chosen, toggle]);
  const fetchLinked = useMemo(() => linkedFetcher(kind, contract._id), [kind, contract._id]);

  return (
    <Stack spacing={2}>
      <Tabs value={tab} onChange={(_, v: TabKey) => setTab(v)} aria-label={SCREEN_TITLES.contractLinkClusters}>
        <Tab value="linked" label={`${CONTRACT_LABELS.linkedClusters} (${contract.lokacije.length})`} />
        <Tab value="link" label={CONTRACT_LABELS.linkCluster} />
      </Tabs>
      {tab === 'linked' ? (
        <DataTable
          key="linked"
          tableName="ugovor-povezani-klasteri"
          label={CONTRACT_LABELS.linkedClusters}
          columns={LINKED_COLUMNS}
          queryKey={[...CONTRACTS_KEY, kind, 'linked', contract._id]}
          fetchPage={fetchLinked}
          searchable
          actionsWidth={80}
          renderRowActions={(location) => (
            <RowAction
              label={CONTRACT_LABELS.unlink}
              name={`${CONTRACT_LABELS.unlink}: ${location.naziv}`}
              icon={LinkOffIcon}
              color="error"
              disabled={unlink.isPending}
              onClick={() => setUnlinking(location)}
            />
          )}
        />
      ) : (
        <>
          <Typography color="text.secondary">{CONTRACT_LABELS.movesNote}</Typography>
          <SelectionContext.Provider value={selection}>
            <DataTable
              key="link"
              tableName="ugovor-povezivanje-klastera"
              label={CONTRACT_LABELS.linkCluster}
              columns={LINK_COLUMNS}
              queryKey={[...CLUSTERS_KEY, 'link-to-contract', contract._id]}
              fetchPage={fetchLocations}
              searchable
              rowColor={clusterRowColor}
              onRowClick={toggle}
            />
          </SelectionContext.Provider>
          <ColourLegend />
          <Paper sx={{ p: 2 }}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }} justifyContent="space-between">
              <Typography color={chosen.size > 0 ? 'text.primary' : 'text.secondary'}>
                {chosen.size > 0 ? CONTRACT_LABELS.chosenClusters(chosen.size) : CONTRACT_LABELS.noClusterChosen}
              </Typography>
              <Button
                variant="contained"
                startIcon={<LinkIcon />}
                disabled={chosen.size === 0 || link.isPending}
                onClick={() => link.mutate([...chosen])}
              >
                {CONTRACT_LABELS.linkChosen}
              </Button>
            </Stack>
          </Paper>
        </>
      )}
      <ConfirmDialog
        open={!!unlinking}
        title={CLUSTERS.deleteConfirm}
        text={unlinking ? CONTRACT_LABELS.unlinkNote(unlinking.naziv, contract.naziv) : undefined}
        confirmLabel={CONTRACT_LABELS.unlink}
        busy={unlink.isPending}
        onConfirm={() => unlinking && unlink.mutate(unlinking)}
        onClose={() => setUnlinking(null)}
      />
    </Stack>
  );
}

/**
 * /app/ugovor/povezivanje-sa-klasterima/{naziv}/{id} (spec 2 §2, Admin): the contract's linked clusters
 * (unlink) and every cluster to link (several at once). The navigation state `from` (contract,
 * contractIzv, contractPro, contractNad) names the kind; without it the kinds are tried in turn. A
 * finished contract takes no clusters: the screen says so and offers nothing.
 */
export function ContractLinkClustersPage() {
  const { id = '', naziv = '' } = useParams();
  const { state } = useLocation();
  const first = kindOfLinkState(state);
  const found = useContractQuery(id, first);
  const kind = found.data?.kind ?? first;
  const contract = found.data?.contract;

  return (
    <Stack spacing={2}>
      <Stack direction="row" alignItems="center" spacing={2} flexWrap="wrap" useFlexGap>
        <Button component={RouterLink} to={appPath(LIST_ROUTE[kind])} startIcon={<ArrowBackIcon />}>
          {UI.back}
        </Button>
        <Typography variant="h1">{SCREEN_TITLES.contractLinkClusters}</Typography>
      </Stack>
      <Paper sx={{ p: 2 }}>
        <Typography variant="h3" component="h2">
          {contract ? contractLabel(contract) : naziv}
        </Typography>
        {contract && (
          <Typography color="text.secondary" sx={{ mt: 0.5 }}>
            {CONTRACT_KIND_LABELS[kind]}
          </Typography>
        )}
      </Paper>
      {found.isPending ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress aria-label={UI.loading} />
        </Box>
      ) : found.isError || !contract ? (
        <Alert severity="error">{messageOf(found.error, COMMON.notFound)}</Alert>
      ) : isFinished(contract) ? (
        <Alert severity="warning">{CONTRACTS.finishedLink}</Alert>
      ) : (
        <LinkScreen kind={kind} contract={contract} />
      )}
    </Stack>
  );
}
