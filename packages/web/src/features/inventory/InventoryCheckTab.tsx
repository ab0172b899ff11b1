import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import EditNoteIcon from '@mui/icons-material/EditNote';
import FolderZipIcon from '@mui/icons-material/FolderZip';
import UndoIcon from '@mui/icons-material/Undo';
import { Alert, Box, Button, Chip, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Stack } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LIST_SORTS } from '@trasa/domain';
import { useId, useState } from 'react';
import { messageOf } from '../../api/errors';
import { type A13Row, a13Stats, downloadA13, getInventoryLocation, INVENTORY_KEY, listA13, setA13Status } from '../../api/inventory';
import { DataTable, type TableQuery } from '../../components/DataTable';
import { RowAction } from '../../components/RowAction';
import { useSnackbar } from '../../components/SnackbarProvider';
import type { ColumnDef } from '../../components/tableTypes';
import { COMMON, INVENTORY } from '../../messages';
import { inScript } from '../../script';
import { UI } from '../../texts';
import { InventoryImportButton } from './InventoryImportButton';
import { LocationItems, locationKey } from './LocationInventoryPage';
import { INV_LABELS } from './labels';
import { CONFIRMED_ROW } from './SchoolNotificationsTab';
import { INVENTORY_SEARCH_DEBOUNCE_MS } from './texts';

const A13_KEY = [...INVENTORY_KEY, 'a13'] as const;

const COLUMNS: ColumnDef<A13Row>[] = [
  { id: 'naziv', header: INV_LABELS.locationName, accessorFn: (r) => r.lokacija.naziv },
  {
    id: 'status',
    header: INV_LABELS.a13Status,
    accessorFn: (r) => (r.status ? INVENTORY.a13Confirmed : INVENTORY.a13NotConfirmed),
  },
  { id: 'inventar', header: INV_LABELS.inventar, accessorFn: (r) => inScript(r.inventar) },
];

async function fetchA13({ page, limit, search, signal, sort, order }: TableQuery) {
  const data = await listA13({ page, limit, sort, order, ...(search ?? {}) }, signal);
  return { rows: data.a13, total: data.totalResults };
}

/** The A13 figures: confirmed, not confirmed, total (GET /api/A13/get/stats). */
function A13Stats() {
  const stats = useQuery({ queryKey: [...A13_KEY, 'stats'], queryFn: ({ signal }) => a13Stats(signal) });
  if (!stats.data) return null;
  return (
    <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap aria-label="A13" role="group">
      <Chip color="success" label={`${INV_LABELS.statsConfirmed}: ${stats.data.potvrdjeno}`} />
      <Chip color="default" variant="outlined" label={`${INV_LABELS.statsNotConfirmed}: ${stats.data.nijePotvrdjeno}`} />
      <Chip color="primary" variant="outlined" label={`${INV_LABELS.statsTotal}: ${stats.data.ukupno}`} />
    </Stack>
  );
}

/** The edit-inventory dialog: the location's items, as on its inventory screen. */
function EditInventoryDialog({ row, onClose }: { row: A13Row | null; onClose: () => void }) {
  const titleId = useId();
  const id = row?.lokacija._id ?? '';
  const location = useQuery({
    queryKey: locationKey(id),
    queryFn: ({ signal }) => getInventoryLocation(id, signal),
    enabled: !!row,
    retry: false,
  });
  return (
    <Dialog open={!!row} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="lg">
      <DialogTitle id={titleId}>{row ? INV_LABELS.locationInventoryTitle(row.lokacija.naziv) : ''}</DialogTitle>
      <DialogContent dividers>
        {location.isPending ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
            <CircularProgress aria-label={UI.loading} />
          </Box>
        ) : location.isError || !location.data ? (
          <Alert severity="error">{messageOf(location.error, COMMON.notFound)}</Alert>
        ) : (
          <LocationItems location={location.data} />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{UI.close}</Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * Tab 5 of /app/inventar, the inventory check (spec 3 §2.10): a paged, searchable table of the
 * locations with their A13 status and whether items are recorded; confirmed rows are green. A row
 * edits the inventory (dialog), downloads the A13 documents (zip; 'Нема документа' when there are none),
 * imports inventory, and confirms or undoes the A13 ('Успешно промењен статус' / 'Промена статуса неуспешна').
 */
export function InventoryCheckTab() {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<A13Row | null>(null);

  const toggle = useMutation({
    mutationFn: (row: A13Row) => setA13Status(row._id, !row.status),
    onSuccess: async () => {
      snackbar.success(INVENTORY.statusChanged);
      await queryClient.invalidateQueries({ queryKey: INVENTORY_KEY });
    },
    onError: () => snackbar.error(INVENTORY.statusChangeFailed),
  });

  const zip = useMutation({
    mutationFn: async (row: A13Row) => {
      if (!row.aktivnost || row.aktivnost.brojFajlova === 0) throw new Error('no documents');
      await downloadA13(row.lokacija._id, row.aktivnost._id, `${row.lokacija.naziv}-a13.zip`);
    },
    onError: () => snackbar.notify(INVENTORY.noDocument, 'warning'),
  });

  return (
    <Stack spacing={2}>
      <A13Stats />
      <DataTable
        tableName="inventar-provera"
        label={INV_LABELS.checkTable}
        columns={COLUMNS}
        queryKey={[...A13_KEY, 'list']}
        fetchPage={fetchA13}
        searchable
        sortable={LIST_SORTS.a13}
        searchDebounceMs={INVENTORY_SEARCH_DEBOUNCE_MS}
        exportAs={{ list: 'a13' }}
        rowColor={(r) => (r.status ? CONFIRMED_ROW : undefined)}
        actionsWidth={190}
        renderRowActions={(row) => (
          <>
            <RowAction
              label={INV_LABELS.editInventory}
              name={`${INV_LABELS.editInventory}: ${row.lokacija.naziv}`}
              icon={EditNoteIcon}
              onClick={() => setEditing(row)}
            />
            <RowAction
              label={INV_LABELS.downloadA13}
              name={`${INV_LABELS.downloadA13}: ${row.lokacija.naziv}`}
              icon={FolderZipIcon}
              disabled={zip.isPending && zip.variables?._id === row._id}
              onClick={() => zip.mutate(row)}
            />
            <InventoryImportButton locationId={row.lokacija._id} locationName={row.lokacija.naziv} compact />
            <RowAction
              label={row.status ? INV_LABELS.undo : INV_LABELS.confirm}
              name={`${row.status ? INV_LABELS.undo : INV_LABELS.confirm}: ${row.lokacija.naziv}`}
              icon={row.status ? UndoIcon : CheckCircleIcon}
              color={row.status ? 'default' : 'success'}
              disabled={toggle.isPending}
              onClick={() => toggle.mutate(row)}
            />
          </>
        )}
      />
      <EditInventoryDialog row={editing} onClose={() => setEditing(null)} />
    </Stack>
  );
}
