import AddIcon from '@mui/icons-material/Add';
import LinkIcon from '@mui/icons-material/Link';
import { Button, Stack, Tab, Tabs, Typography } from '@mui/material';
import { appPath, CONTRACT_GROUP_TYPE, CONTRACT_KINDS, type ContractKind, canOpen, formatDate, LIST_SORTS, roleIn } from '@trasa/domain';
import { lazy, useCallback, useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { type ContractListItem, listContracts, searchContracts } from '../../api/contracts';
import { ColourLegend, deadlineRowColor } from '../../components/ColourLegend';
import { DataTable, type TableQuery } from '../../components/DataTable';
import { OnceOpened } from '../../components/OnceOpened';
import { DeleteAction, EditAction, RowAction } from '../../components/RowAction';
import { useSnackbar } from '../../components/SnackbarProvider';
import type { ColumnDef } from '../../components/tableTypes';
import { CONTRACTS } from '../../messages';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { useCurrentUser } from '../../shell/session';
import { UI } from '../../texts';
import { CONTRACT_KIND_TABS } from '../clusters/format';
import { CONTRACT_STATUS_COLUMN } from './columns';
import { DETAIL_FROM, detailPath, isFinished, LINK_FROM, LIST_ROUTE, linkPath } from './kinds';
import { CONTRACT_LABELS } from './labels';
import { CONTRACTS_KEY } from './queries';

/** The forms load when their dialog is first opened (issue 13 budgets). */
const ContractFormDialog = lazy(async () => ({ default: (await import('./ContractFormDialog')).ContractFormDialog }));
const DeleteContractDialog = lazy(async () => ({ default: (await import('./DeleteContractDialog')).DeleteContractDialog }));

/** Contract lists page by 10, 25 or 50 (spec 2 §9). */
export const CONTRACT_PAGE_SIZES = [10, 25, 50] as const;

/** naziv, broj, start, duration, due date, status, the groups (typed kinds), documents and linked clusters. */
function columnsOf(kind: ContractKind): ColumnDef<ContractListItem>[] {
  const columns: ColumnDef<ContractListItem>[] = [
    { accessorKey: 'naziv', header: UI.naziv },
    { accessorKey: 'broj', header: UI.broj },
    {
      id: 'datumPocetka',
      header: UI.datumPocetka,
      accessorFn: (c) => formatDate(c.datumPocetka) || UI.empty,
    },
    { id: 'rokTrajanja', header: UI.rokTrajanja, accessorFn: (c) => String(c.rokTrajanja), numeric: true },
    {
      id: 'rokZavrsetka',
      header: UI.rokZavrsetka,
      accessorFn: (c) => formatDate(c.rokZavrsetka) || UI.empty,
    },
    CONTRACT_STATUS_COLUMN,
  ];
  if (CONTRACT_GROUP_TYPE[kind] !== null) {
    const header = CONTRACT_LABELS.groupsOfKind[kind as Exclude<ContractKind, 'contract'>];
    columns.push({
      id: 'grupe',
      header,
      accessorFn: (c) => c.grupe.map((g) => g.naziv).join(', ') || UI.empty,
    });
  }
  columns.push(
    {
      id: 'fajlovi',
      header: CONTRACT_LABELS.documentCount,
      accessorFn: (c) => String(c.fajlovi.length),
      numeric: true,
    },
    {
      id: 'lokacije',
      header: CONTRACT_LABELS.clusterCount,
      accessorFn: (c) => String(c.brojLokacija),
      numeric: true,
    },
  );
  return columns;
}

/** The counts show when the user asks for them (the column menu); the detail lists the documents and clusters. */
const HIDDEN_COLUMNS = ['fajlovi', 'lokacije'] as const;

function fetcherOf(kind: ContractKind) {
  return async ({ page, limit, search, signal, sort, order }: TableQuery) => {
    const data = search
      ? await searchContracts(kind, { page, limit, sort, order, ...search }, signal)
      : await listContracts(kind, { page, limit, sort, order }, signal);
    return { rows: data.contracts, total: data.totalResults };
  };
}

/** The form dialog: which contract (null: a new one), and a counter that gives every opening a fresh form. */
type FormState = { open: boolean; contractId: string | null; opening: number };

/**
 * A contract list (spec 2 §2 "Contract list screens"): /app/ugovori (general, Admin) and the contractor,
 * designer and supervision lists (Admin and Zaposleni). The Admin creates, edits, deletes and links
 * clusters, and opens a contract's detail; an employee sees the list read-only.
 */
function ContractList({ kind }: { kind: ContractKind }) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const isAdmin = roleIn(user.rola, ['Admin']);
  const routeKey = LIST_ROUTE[kind];
  const [form, setForm] = useState<FormState>({ open: false, contractId: null, opening: 0 });
  const openForm = (contractId: string | null) => setForm((f) => ({ open: true, contractId, opening: f.opening + 1 }));
  const closeForm = useCallback(() => setForm((f) => ({ ...f, open: false })), []);
  const [deleting, setDeleting] = useState<ContractListItem | null>(null);
  const closeDelete = useCallback(() => setDeleting(null), []);

  const columns = useMemo(() => columnsOf(kind), [kind]);
  const fetchPage = useMemo(() => fetcherOf(kind), [kind]);
  const lists = CONTRACT_KINDS.filter((k) => canOpen(user.rola, LIST_ROUTE[k]));

  const openDetail = (contract: ContractListItem) => {
    const from = DETAIL_FROM[kind];
    navigate(detailPath(contract._id), from ? { state: { from } } : undefined);
  };
  const openLinking = (contract: ContractListItem) => {
    if (isFinished(contract)) {
      snackbar.notify(CONTRACTS.finishedLink, 'warning');
      return;
    }
    navigate(linkPath(contract), { state: { from: LINK_FROM[kind] } });
  };

  return (
    <Stack spacing={2}>
      <Typography variant="h1">{SCREEN_TITLES[routeKey]}</Typography>
      {lists.length > 1 && (
        <Tabs value={kind} aria-label={CONTRACT_LABELS.otherLists} variant="scrollable">
          {lists.map((k) => (
            <Tab key={k} value={k} label={CONTRACT_KIND_TABS[k]} component={RouterLink} to={appPath(LIST_ROUTE[k])} />
          ))}
        </Tabs>
      )}
      <DataTable
        key={kind}
        tableName={`ugovori-${kind}`}
        label={SCREEN_TITLES[routeKey]}
        columns={columns}
        queryKey={[...CONTRACTS_KEY, kind, 'list']}
        fetchPage={fetchPage}
        pageSizes={CONTRACT_PAGE_SIZES}
        hiddenColumns={HIDDEN_COLUMNS}
        searchable
        sortable={LIST_SORTS.contracts}
        rowColor={(c) => deadlineRowColor(c.boja)}
        // Contract detail is the Admin's (spec 2 §6): an employee's row opens nothing.
        onRowClick={isAdmin ? openDetail : undefined}
        actionsWidth={120}
        renderRowActions={
          isAdmin
            ? (contract) => (
                <>
                  <EditAction of={contract.naziv} onClick={() => openForm(contract._id)} />
                  <RowAction
                    label={CONTRACT_LABELS.linkClusters}
                    name={`${CONTRACT_LABELS.linkClusters}: ${contract.naziv}`}
                    icon={LinkIcon}
                    onClick={() => openLinking(contract)}
                  />
                  <DeleteAction of={contract.naziv} onClick={() => setDeleting(contract)} />
                </>
              )
            : undefined
        }
        toolbar={
          isAdmin && (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => openForm(null)}>
              {CONTRACT_LABELS.createContract}
            </Button>
          )
        }
      />
      <ColourLegend />
      {isAdmin && (
        <>
          <OnceOpened open={form.open}>
            <ContractFormDialog open={form.open} kind={kind} contractId={form.contractId} opening={form.opening} onClose={closeForm} />
          </OnceOpened>
          <OnceOpened open={!!deleting}>
            <DeleteContractDialog kind={kind} contract={deleting} onClose={closeDelete} />
          </OnceOpened>
        </>
      )}
    </Stack>
  );
}

/** /app/ugovori: general contracts (Admin). */
export function GeneralContractsPage() {
  return <ContractList kind="contract" />;
}

/** /app/ugovori-izvodjaci: contractor contracts. */
export function ContractorContractsPage() {
  return <ContractList kind="contractIzv" />;
}

/** /app/ugovori-projektanti: designer contracts. */
export function DesignerContractsPage() {
  return <ContractList kind="contractPro" />;
}

/** /app/ugovori-nadzor: supervision contracts. */
export function SupervisionContractsPage() {
  return <ContractList kind="contractNad" />;
}
