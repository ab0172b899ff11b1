import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import LinkIcon from '@mui/icons-material/Link';
import { Box, Button, Checkbox, Paper, Stack, Tab, Tabs, Tooltip, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { appPath, CONTRACT_KINDS, type ContractKind, formatDate } from '@trasa/domain';
import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { type ContractListItem, linkLocationsToContract, listContracts, searchContracts } from '../../api/contracts';
import { messageOf } from '../../api/errors';
import { ColourLegend, deadlineRowColor } from '../../components/ColourLegend';
import { DataTable, type TableQuery } from '../../components/DataTable';
import { useSnackbar } from '../../components/SnackbarProvider';
import type { ColumnDef } from '../../components/tableTypes';
import { CONTRACTS } from '../../messages';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { UI } from '../../texts';
import { CONTRACT_KIND_LABELS, CONTRACT_KIND_TABS, contractLabel, contractsOf } from '../clusters/format';
import { LOCATION_NOTICE_MS } from '../clusters/notices';
import { CLUSTERS_KEY, CONTRACTS_KEY, useLocationQuery } from '../clusters/queries';
import { CONTRACT_STATUS_COLUMN } from './columns';

type Chosen = { kind: ContractKind; contract: ContractListItem };

/** 'Završen' with an end date is finished: it takes no clusters (spec 2 §4). */
function isFinished(contract: ContractListItem): boolean {
  return contract.status === CONTRACTS.statusFinished && !!contract.datumZavrsetka;
}

/** The page's selection, read by the checkbox cells. */
const ChoiceContext = createContext<{ chosenId: string | null; choose: (contract: ContractListItem) => void }>({
  chosenId: null,
  choose: () => {},
});

/** The single-choice checkbox of a row; a finished contract's is disabled with the warning. */
function ChooseCell({ row }: { row: ContractListItem }) {
  const { chosenId, choose } = useContext(ChoiceContext);
  const contract = row;
  const finished = isFinished(contract);
  const box = (
    <Checkbox
      size="small"
      checked={chosenId === contract._id}
      disabled={finished}
      onClick={(e) => e.stopPropagation()}
      onChange={() => choose(contract)}
      slotProps={{ input: { 'aria-label': `${UI.chooseContractRow}: ${contract.naziv}` } }}
    />
  );
  return finished ? (
    <Tooltip title={CONTRACTS.finishedLink}>
      <span>{box}</span>
    </Tooltip>
  ) : (
    box
  );
}

const COLUMNS: ColumnDef<ContractListItem>[] = [
  // The choice itself: never hidden, on a phone beside the first two columns.
  { id: 'izbor', header: UI.choose, Cell: ChooseCell, enableHiding: false },
  { accessorKey: 'naziv', header: UI.naziv },
  { accessorKey: 'broj', header: UI.broj },
  // Coloured rows (the legend below): the status says the colour in words, as in the contracts' lists.
  CONTRACT_STATUS_COLUMN,
  { id: 'datumPocetka', header: UI.datumPocetka, accessorFn: (c) => formatDate(c.datumPocetka) || UI.empty },
  { id: 'rokZavrsetka', header: UI.rokZavrsetka, accessorFn: (c) => formatDate(c.rokZavrsetka) || UI.empty },
];

function fetcherOf(kind: ContractKind) {
  return async ({ page, limit, search, signal }: TableQuery) => {
    const data = search
      ? await searchContracts(kind, { page, limit, ...search }, signal)
      : await listContracts(kind, { page, limit }, signal);
    return { rows: data.contracts, total: data.totalResults };
  };
}

/**
 * /app/klaster/povezivanje-sa-ugovorom/{id} (spec 2 §2): the Admin chooses one contract of any kind
 * (finished ones can't be chosen) and links the cluster to it, then goes back to the cluster list.
 */
export function ClusterLinkContractPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const location = useLocationQuery(id);
  const [kind, setKind] = useState<ContractKind>('contract');
  const [chosen, setChosen] = useState<Chosen | null>(null);

  const choose = useCallback(
    (contract: ContractListItem) => {
      if (isFinished(contract)) {
        snackbar.notify(CONTRACTS.finishedLink, 'warning', LOCATION_NOTICE_MS);
        return;
      }
      setChosen((c) => (c?.contract._id === contract._id ? null : { kind, contract }));
    },
    [kind, snackbar],
  );

  const fetchPage = useMemo(() => fetcherOf(kind), [kind]);
  const choice = useMemo(() => ({ chosenId: chosen?.contract._id ?? null, choose }), [chosen, choose]);

  const link = useMutation({
    mutationFn: (c: Chosen) => linkLocationsToContract(c.kind, c.contract._id, [id]),
    onSuccess: async (data) => {
      snackbar.success(data?.message || CONTRACTS.locationAdded, LOCATION_NOTICE_MS);
      await queryClient.invalidateQueries({ queryKey: CLUSTERS_KEY });
      await queryClient.invalidateQueries({ queryKey: CONTRACTS_KEY });
      navigate(appPath('clusters'));
    },
    onError: (error) => snackbar.error(messageOf(error, CONTRACTS.linkFailed), LOCATION_NOTICE_MS),
  });

  const current = location.data
    ? contractsOf(location.data)
        .filter((c) => c.contract)
        .map((c) => `${CONTRACT_KIND_LABELS[c.kind]}: ${c.contract?.naziv}`)
    : [];

  return (
    <Stack spacing={2}>
      <Stack direction="row" alignItems="center" spacing={2} flexWrap="wrap" useFlexGap>
        <Button component={RouterLink} to={appPath('clusters')} startIcon={<ArrowBackIcon />}>
          {UI.back}
        </Button>
        <Typography variant="h1">{SCREEN_TITLES.clusterLinkContract}</Typography>
      </Stack>
      <Paper sx={{ p: 2 }}>
        <Typography variant="h3" component="h2">
          {location.data?.naziv ?? (location.isError ? messageOf(location.error, UI.empty) : UI.loading)}
        </Typography>
        {current.length > 0 && (
          <Typography color="text.secondary" sx={{ mt: 0.5 }}>
            {UI.currentLinks}: {current.join('; ')}
          </Typography>
        )}
      </Paper>
      <Tabs value={kind} onChange={(_, v: ContractKind) => setKind(v)} aria-label={SCREEN_TITLES.clusterLinkContract} variant="scrollable">
        {CONTRACT_KINDS.map((k) => (
          <Tab key={k} value={k} label={CONTRACT_KIND_TABS[k]} />
        ))}
      </Tabs>
      <ChoiceContext.Provider value={choice}>
        <DataTable
          key={kind}
          tableName={`povezivanje-klastera-${kind}`}
          label={CONTRACT_KIND_TABS[kind]}
          columns={COLUMNS}
          queryKey={[...CONTRACTS_KEY, kind, 'link-list']}
          fetchPage={fetchPage}
          searchable
          rowColor={(c) => deadlineRowColor(c.boja)}
          onRowClick={choose}
        />
      </ChoiceContext.Provider>
      <ColourLegend />
      <Paper sx={{ p: 2 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }} justifyContent="space-between">
          <Box>
            <Typography variant="subtitle2">{UI.chosenContract}</Typography>
            <Typography color={chosen ? 'text.primary' : 'text.secondary'}>
              {chosen ? `${CONTRACT_KIND_LABELS[chosen.kind]}: ${contractLabel(chosen.contract)}` : UI.noContractChosen}
            </Typography>
          </Box>
          <Stack direction="row" spacing={1}>
            <Button component={RouterLink} to={appPath('clusters')} disabled={link.isPending}>
              {UI.cancel}
            </Button>
            <Button
              variant="contained"
              startIcon={<LinkIcon />}
              disabled={!chosen || link.isPending || !location.data}
              onClick={() => chosen && link.mutate(chosen)}
            >
              {UI.linkConfirm}
            </Button>
          </Stack>
        </Stack>
      </Paper>
    </Stack>
  );
}
