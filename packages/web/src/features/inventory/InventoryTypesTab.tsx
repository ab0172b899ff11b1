import AddIcon from '@mui/icons-material/Add';
import { Button, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LIST_SORTS } from '@trasa/domain';
import { lazy, useEffect, useState } from 'react';
import { messageOf } from '../../api/errors';
import { deleteInvType, INV_TIPS, INVENTORY_KEY, type InvTip, type InvTypeDto, listInvTypes } from '../../api/inventory';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type TableQuery } from '../../components/DataTable';
import { OnceOpened } from '../../components/OnceOpened';
import { DeleteAction, EditAction } from '../../components/RowAction';
import { SNACKBAR_DEFAULT_MS, useSnackbar } from '../../components/SnackbarProvider';
import type { ColumnDef } from '../../components/tableTypes';
import { CLUSTERS, INVENTORY } from '../../messages';
import { inScript } from '../../script';
import { UI } from '../../texts';
import { formatAmount } from './format';
import { INV_LABELS } from './labels';

/** The form loads when the dialog is first opened (issue 13 budgets: react-hook-form and the fields stay out of the list's chunks). */
const InventoryTypeDialog = lazy(async () => ({ default: (await import('./InventoryTypeDialog')).InventoryTypeDialog }));

export const TYPES_KEY = [...INVENTORY_KEY, 'types'] as const;

const COLUMNS: ColumnDef<InvTypeDto>[] = [
  { accessorKey: 'naziv', header: INV_LABELS.naziv },
  { id: 'cena', header: INV_LABELS.cena, accessorFn: (t) => `${formatAmount(t.cena)} ${t.valuta}`, numeric: true },
  { id: 'cenaRsd', header: INV_LABELS.cenaRsd, accessorFn: (t) => `${formatAmount(t.cenaRsd)} RSD`, numeric: true },
  { id: 'sifra', header: INV_LABELS.sifra, accessorFn: (t) => t.sifra || UI.empty },
  { accessorKey: 'jedinica', header: INV_LABELS.jedinica },
  {
    id: 'trajanjeGarancije',
    header: INV_LABELS.trajanjeGarancije,
    accessorFn: (t) => (t.trajanjeGarancije == null ? UI.empty : String(t.trajanjeGarancije)),
    numeric: true,
  },
  {
    id: 'redniBroj',
    header: INV_LABELS.redniBrojShort,
    accessorFn: (t) => (t.redniBroj == null ? UI.empty : String(t.redniBroj)),
    numeric: true,
  },
  { id: 'kratakNaziv', header: INV_LABELS.kratakNaziv, accessorFn: (t) => t.kratakNaziv || UI.empty },
];

function fetcherOf(tip: InvTip) {
  return async ({ page, limit, signal, sort, order }: TableQuery) => {
    const all = await listInvTypes(tip, signal, { sort, order });
    return { rows: all.slice((page - 1) * limit, page * limit), total: all.length };
  };
}
const FETCHERS = Object.fromEntries(INV_TIPS.map((t) => [t, fetcherOf(t)])) as Record<InvTip, ReturnType<typeof fetcherOf>>;

type Editing = { opening: number; type: InvTypeDto | null; tip: InvTip };

/**
 * Tab 2 of /app/inventar: the equipment codebook in three tables, Materijal, Oprema and Radovi (spec 3
 * §2.10), each with add, edit and delete. A failed delete shows the server's message, else 'Brisanje
 * neuspešno', and the confirmation closes 2 s later.
 */
export function InventoryTypesTab() {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing>({ opening: 0, type: null, tip: 'Materijal' });
  const [deleting, setDeleting] = useState<InvTypeDto | null>(null);
  const [answered, setAnswered] = useState(false);

  const remove = useMutation({
    mutationFn: (t: InvTypeDto) => deleteInvType(t._id),
    onSuccess: async (data) => {
      setAnswered(true);
      snackbar.success(data?.message || INVENTORY.typeDeleted);
      await queryClient.invalidateQueries({ queryKey: INVENTORY_KEY });
    },
    onError: (error) => {
      setAnswered(true);
      snackbar.error(messageOf(error, INVENTORY.deleteFailed));
    },
  });

  useEffect(() => {
    if (!answered) return;
    const timer = setTimeout(() => {
      setAnswered(false);
      setDeleting(null);
    }, SNACKBAR_DEFAULT_MS);
    return () => clearTimeout(timer);
  }, [answered]);

  const open = (type: InvTypeDto | null, tip: InvTip) => setEditing((e) => ({ opening: e.opening + 1, type, tip }));

  return (
    <Stack spacing={3}>
      {INV_TIPS.map((tip) => (
        <Stack key={tip} spacing={1} component="section" aria-labelledby={`inv-tip-${tip}`}>
          <Typography id={`inv-tip-${tip}`} variant="h2">
            {inScript(tip)}
          </Typography>
          <DataTable
            tableName={`inventar-sifarnik-${tip}`}
            label={inScript(tip)}
            columns={COLUMNS}
            queryKey={[...TYPES_KEY, tip]}
            fetchPage={FETCHERS[tip]}
            sortable={LIST_SORTS.invTypes}
            pageSizes={[10, 25, 50]}
            hiddenColumns={['kratakNaziv']}
            exportAs={{ list: 'inv-types', params: { tip } }}
            actionsWidth={100}
            renderRowActions={(t) => (
              <>
                <EditAction of={t.naziv} onClick={() => open(t, tip)} />
                <DeleteAction of={t.naziv} onClick={() => setDeleting(t)} />
              </>
            )}
            toolbar={
              <Button
                variant="contained"
                startIcon={<AddIcon />}
                onClick={() => open(null, tip)}
                aria-label={`${INV_LABELS.addType}: ${inScript(tip)}`}
              >
                {INV_LABELS.addType}
              </Button>
            }
          />
        </Stack>
      ))}
      <OnceOpened open={editing.opening > 0}>
        <InventoryTypeDialog
          opening={editing.opening}
          type={editing.type}
          tip={editing.tip}
          onClose={() => setEditing((e) => ({ ...e, opening: 0 }))}
        />
      </OnceOpened>
      <ConfirmDialog
        open={!!deleting}
        title={CLUSTERS.deleteConfirm}
        text={deleting ? INV_LABELS.deleteTypeNote(deleting.naziv) : undefined}
        busy={remove.isPending || answered}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
