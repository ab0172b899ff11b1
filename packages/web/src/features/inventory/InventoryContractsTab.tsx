import AddIcon from '@mui/icons-material/Add';
import { Button, Stack } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { appPath, formatDate, LIST_SORTS } from '@trasa/domain';
import { lazy, useState } from 'react';
import { useNavigate } from 'react-router';
import { messageOf } from '../../api/errors';
import { deleteInventoryContract, INVENTORY_KEY, type InventoryContractDto, listInventoryContracts } from '../../api/inventory';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type TableQuery } from '../../components/DataTable';
import { OnceOpened } from '../../components/OnceOpened';
import { DeleteAction, EditAction } from '../../components/RowAction';
import { SNACKBAR_DEFAULT_MS, useSnackbar } from '../../components/SnackbarProvider';
import type { ColumnDef } from '../../components/tableTypes';
import { CLUSTERS, INVENTORY } from '../../messages';
import { UI } from '../../texts';
import { contractLabel, statusLabel } from '../clusters/format';
import { INV_LABELS } from './labels';
import { INVENTORY_SEARCH_DEBOUNCE_MS } from './texts';

/** The form loads when the dialog is first opened (issue 13 budgets: react-hook-form and the fields stay out of the list's chunks). */
const InventoryContractDialog = lazy(async () => ({ default: (await import('./InventoryContractDialog')).InventoryContractDialog }));

export const CONTRACTS_KEY = [...INVENTORY_KEY, 'contracts'] as const;

const COLUMNS: ColumnDef<InventoryContractDto>[] = [
  { accessorKey: 'naziv', header: INV_LABELS.contractName },
  { accessorKey: 'broj', header: INV_LABELS.contractNumber },
  { id: 'datumPocetka', header: INV_LABELS.datumPocetka, accessorFn: (c) => formatDate(c.datumPocetka) || UI.empty },
  { id: 'datumZavrsetka', header: INV_LABELS.datumZavrsetka, accessorFn: (c) => formatDate(c.datumZavrsetka) || UI.empty },
  { id: 'status', header: INV_LABELS.status, accessorFn: (c) => statusLabel(c.status) },
  { id: 'brojLokacija', header: INV_LABELS.locationCount, accessorFn: (c) => String(c.brojLokacija), numeric: true },
];

function fetchContracts({ page, limit, search, signal, sort, order }: TableQuery) {
  return listInventoryContracts({ page, limit, sort, order, ...(search ?? {}) }, signal);
}

/**
 * Tab 1 of /app/inventar: the inventory contracts (spec 3 §2.10) — create (with .doc/.docx/.pdf
 * documents), search, paging, delete after a confirmation; a row opens the contract's locations.
 */
export function InventoryContractsTab() {
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(0);
  const [editing, setEditing] = useState<InventoryContractDto | null>(null);
  const [deleting, setDeleting] = useState<InventoryContractDto | null>(null);

  const remove = useMutation({
    mutationFn: (c: InventoryContractDto) => deleteInventoryContract(c._id),
    onSuccess: async (data) => {
      setDeleting(null);
      snackbar.success(data?.message || INVENTORY.contractDeleted, SNACKBAR_DEFAULT_MS);
      await queryClient.invalidateQueries({ queryKey: INVENTORY_KEY });
    },
    onError: (error) => {
      setDeleting(null);
      snackbar.error(messageOf(error, INVENTORY.contractDeleteFailed), SNACKBAR_DEFAULT_MS);
    },
  });

  return (
    <Stack spacing={2}>
      <DataTable
        tableName="inventar-ugovori"
        label={INV_LABELS.contractsTable}
        columns={COLUMNS}
        queryKey={[...CONTRACTS_KEY, 'list']}
        fetchPage={fetchContracts}
        searchable
        sortable={LIST_SORTS.inventoryContracts}
        searchDebounceMs={INVENTORY_SEARCH_DEBOUNCE_MS}
        onRowClick={(c) => navigate(appPath('inventoryContractLocations', { id: c._id }))}
        actionsWidth={110}
        renderRowActions={(c) => (
          <>
            <EditAction
              of={c.naziv}
              onClick={() => {
                setEditing(c);
                setCreating((n) => n + 1);
              }}
            />
            <DeleteAction of={c.naziv} onClick={() => setDeleting(c)} />
          </>
        )}
        toolbar={
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            onClick={() => {
              setEditing(null);
              setCreating((n) => n + 1);
            }}
          >
            {INV_LABELS.createContract}
          </Button>
        }
        exportAs={{ list: 'inventory-contracts' }}
      />
      <OnceOpened open={creating > 0}>
        <InventoryContractDialog opening={creating} editing={editing} onClose={() => setCreating(0)} />
      </OnceOpened>
      <ConfirmDialog
        open={!!deleting}
        title={CLUSTERS.deleteConfirm}
        text={deleting ? `${contractLabel(deleting)}. ${INV_LABELS.deleteNote}` : undefined}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
