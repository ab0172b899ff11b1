import AddLocationIcon from '@mui/icons-material/AddLocationAlt';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import LinkOffIcon from '@mui/icons-material/LinkOff';
import { Alert, Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { appPath, formatDate } from '@trasa/domain';
import { useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { messageOf } from '../../api/errors';
import {
  getInventoryContract,
  INVENTORY_KEY,
  type InventoryContractDetail,
  type InventoryLocationRow,
  linkInventoryLocations,
  type NamedRef,
  unlinkInventoryLocation,
} from '../../api/inventory';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type TableQuery } from '../../components/DataTable';
import { FormDialog } from '../../components/FormDialog';
import { RowAction } from '../../components/RowAction';
import { useSnackbar } from '../../components/SnackbarProvider';
import type { ColumnDef } from '../../components/tableTypes';
import { CLUSTERS, COMMON, INVENTORY } from '../../messages';
import { inScript } from '../../script';
import { UI } from '../../texts';
import { statusLabel } from '../clusters/format';
import { InventoryGuard } from './InventoryGuard';
import { LocationsPicker } from './LocationPicker';
import { INV_LABELS } from './labels';

/** Notices of the link screens stay 3.5 s (spec 3 §9). */
const LINK_NOTICE_MS = 3500;

type Contract = InventoryContractDetail['contract'];

/** The location row of spec 3 §3 "Inventory location row". */
const COLUMNS: ColumnDef<InventoryLocationRow>[] = [
  { accessorKey: 'naziv', header: INV_LABELS.locationName },
  { id: 'ugovor', header: INV_LABELS.generalContract, accessorFn: (l) => l.ugovor?.naziv ?? UI.empty },
  { id: 'odgovoran', header: UI.responsibleGroups, accessorFn: (l) => l.odgovoran.map((g) => g.naziv).join(', ') || UI.empty },
  { id: 'status', header: INV_LABELS.status, accessorFn: (l) => statusLabel(l.status) },
  {
    id: 'completed',
    header: INV_LABELS.completed,
    accessorFn: (l) => (l.completed ? `${l.completed.kratakNaziv} (${formatDate(l.completed.datumZavrsetka)})` : UI.empty),
  },
  { id: 'naselje', header: INV_LABELS.naselje, accessorFn: (l) => l.naselje || UI.empty },
  { id: 'opstina', header: INV_LABELS.opstina, accessorFn: (l) => l.opstina || UI.empty },
  { id: 'skolskaUprava', header: INV_LABELS.skolskaUprava, accessorFn: (l) => l.skolskaUprava || UI.empty },
  { id: 'stanje', header: INV_LABELS.stanje, accessorFn: (l) => inScript(l.stanje) },
];
const HIDDEN = ['odgovoran', 'completed', 'skolskaUprava'];

function contractKey(id: string) {
  return [...INVENTORY_KEY, 'contract', id] as const;
}

/** The add-locations dialog: several locations at once from GET /api/link/get/autocomplete/locations. */
function AddLocationsDialog({ contract, open, onClose }: { contract: Contract; open: boolean; onClose: () => void }) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<NamedRef[]>([]);
  const linked = useMemo(() => new Set((contract.lokacije ?? []).map((l) => l._id)), [contract]);

  const link = useMutation({
    mutationFn: () =>
      linkInventoryLocations(
        contract._id,
        chosen.map((l) => l._id),
      ),
    onSuccess: async (data) => {
      snackbar.success(data?.message || INVENTORY.locationsLinked, LINK_NOTICE_MS);
      setChosen([]);
      await queryClient.invalidateQueries({ queryKey: INVENTORY_KEY });
      onClose();
    },
    onError: (error) => snackbar.error(messageOf(error, INVENTORY.locationsLinkFailed), LINK_NOTICE_MS),
  });

  return (
    <FormDialog
      open={open}
      title={INV_LABELS.addLocationsTitle}
      onClose={onClose}
      submitLabel={INV_LABELS.addLocations}
      busy={link.isPending}
      onSubmit={(e) => {
        e.preventDefault();
        if (chosen.length > 0) link.mutate();
      }}
    >
      <LocationsPicker label={INV_LABELS.locations} value={chosen} onChange={setChosen} exclude={linked} />
    </FormDialog>
  );
}

/**
 * /app/inventar/ugovor/lokacije/:id (spec 3 §2.10): 'Lokacije na ugovoru - {naziv}' with a back link,
 * the add-locations dialog (multi-select), a row opens the location's inventory and its button unlinks
 * it; an empty contract says it has no locations.
 */
function ContractLocationsPageScreen() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [unlinking, setUnlinking] = useState<InventoryLocationRow | null>(null);
  const found = useQuery({ queryKey: contractKey(id), queryFn: ({ signal }) => getInventoryContract(id, signal), retry: false });
  const contract = found.data;

  const fetchPage = useMemo(
    () =>
      async ({ page, limit, signal }: TableQuery) => {
        const c = await queryClient.fetchQuery({
          queryKey: contractKey(id),
          queryFn: () => getInventoryContract(id, signal),
          staleTime: 0,
        });
        const rows = c.lokacije ?? [];
        return { rows: rows.slice((page - 1) * limit, page * limit), total: rows.length };
      },
    [id, queryClient],
  );

  const unlink = useMutation({
    mutationFn: (l: InventoryLocationRow) => unlinkInventoryLocation(id, l._id),
    onSuccess: async (data) => {
      setUnlinking(null);
      snackbar.success(data?.message || INVENTORY.locationUnlinked, LINK_NOTICE_MS);
      await queryClient.invalidateQueries({ queryKey: INVENTORY_KEY });
    },
    onError: (error) => {
      setUnlinking(null);
      snackbar.error(messageOf(error, INVENTORY.locationUnlinkFailed), LINK_NOTICE_MS);
    },
  });

  return (
    <Stack spacing={2}>
      <Box>
        <Button component={RouterLink} to={appPath('inventory')} startIcon={<ArrowBackIcon />}>
          {INV_LABELS.back}
        </Button>
      </Box>
      <Typography variant="h1">{INVENTORY.locationsTitle(contract?.naziv ?? '')}</Typography>
      {found.isPending ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress aria-label={UI.loading} />
        </Box>
      ) : found.isError || !contract ? (
        <Alert severity="error">{messageOf(found.error, COMMON.notFound)}</Alert>
      ) : (
        <>
          <DataTable
            tableName="inventar-ugovor-lokacije"
            label={INV_LABELS.locationsTable}
            columns={COLUMNS}
            queryKey={[...INVENTORY_KEY, 'contract-locations', id]}
            fetchPage={fetchPage}
            emptyText={INVENTORY.noLocations}
            hiddenColumns={HIDDEN}
            searchable={false}
            onRowClick={(l) =>
              navigate(appPath('inventoryLocation', { id: l._id }), { state: { from: appPath('inventoryContractLocations', { id }) } })
            }
            actionsWidth={80}
            renderRowActions={(l) => (
              <RowAction
                label={INV_LABELS.unlink}
                name={`${INV_LABELS.unlink}: ${l.naziv}`}
                icon={LinkOffIcon}
                color="error"
                onClick={() => setUnlinking(l)}
              />
            )}
            toolbar={
              <Button variant="contained" startIcon={<AddLocationIcon />} onClick={() => setAdding(true)}>
                {INV_LABELS.addLocations}
              </Button>
            }
          />
          <AddLocationsDialog contract={contract} open={adding} onClose={() => setAdding(false)} />
          <ConfirmDialog
            open={!!unlinking}
            title={CLUSTERS.deleteConfirm}
            text={unlinking ? INV_LABELS.unlinkNote(unlinking.naziv, contract.naziv) : undefined}
            confirmLabel={INV_LABELS.unlink}
            busy={unlink.isPending}
            onConfirm={() => unlinking && unlink.mutate(unlinking)}
            onClose={() => setUnlinking(null)}
          />
        </>
      )}
    </Stack>
  );
}

/** The screen behind the inventory guard. */
export function ContractLocationsPage() {
  return (
    <InventoryGuard>
      <ContractLocationsPageScreen />
    </InventoryGuard>
  );
}
