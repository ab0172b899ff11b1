import AddIcon from '@mui/icons-material/Add';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Alert, Box, Button, CircularProgress, Paper, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { appPath, LIST_SORTS, schoolEmailSchema } from '@trasa/domain';
import { lazy, useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, useLocation, useParams } from 'react-router';
import { fieldErrorOf, messageOf } from '../../api/errors';
import {
  deleteInventoryItem,
  getInventoryLocation,
  INVENTORY_KEY,
  type InventoryItemDto,
  type InventoryLocationDto,
  listInventory,
  saveSchoolEmail,
} from '../../api/inventory';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type TableQuery } from '../../components/DataTable';
import { OnceOpened } from '../../components/OnceOpened';
import { DeleteAction, EditAction } from '../../components/RowAction';
import { SNACKBAR_DEFAULT_MS, useSnackbar } from '../../components/SnackbarProvider';
import type { ColumnDef } from '../../components/tableTypes';
// The Serbian messages for the e-mail check below (schema.safeParse).
import '../../components/validation';
import { CLUSTERS, COMMON, INVENTORY } from '../../messages';
import { inScript } from '../../script';
import { UI } from '../../texts';
import { contractLabel } from '../clusters/format';
import { formatAmount, formatDinars, formatKolicina, handoverDate, localToday } from './format';
import { InventoryGuard } from './InventoryGuard';
import { InventoryImportButton } from './InventoryImportButton';
import { INV_LABELS } from './labels';
import { INV_TEXT, LOCATION_INVENTORY_NOTICE_MS } from './texts';

/** The form loads when the dialog is first opened (issue 13 budgets: react-hook-form and the fields stay out of the list's chunks). */
const InventoryItemDialog = lazy(async () => ({ default: (await import('./InventoryItemDialog')).InventoryItemDialog }));

export const itemColumns: ColumnDef<InventoryItemDto>[] = [
  { id: 'naziv', header: INV_LABELS.item, accessorFn: (i) => i.invType.naziv },
  { id: 'tip', header: INV_LABELS.tip, accessorFn: (i) => inScript(i.invType.tip) },
  { id: 'sifra', header: INV_LABELS.sifra, accessorFn: (i) => i.invType.sifra || UI.empty },
  { id: 'kolicina', header: INV_LABELS.kolicina, accessorFn: (i) => formatKolicina(i.kolicina, i.invType.jedinica), numeric: true },
  { id: 'cenaRsd', header: INV_LABELS.cenaRsd, accessorFn: (i) => formatAmount(i.cenaRsd), numeric: true },
  { id: 'ukupnoRsd', header: INV_LABELS.vrednost, accessorFn: (i) => formatDinars(i.ukupnoRsd), numeric: true },
  // A handover after today (the browser's day) is planned: said so in words.
  {
    id: 'datumPrimopredaje',
    header: INV_LABELS.datumPrimopredaje,
    accessorFn: (i) => handoverDate(i.datumPrimopredaje, i.datumPrimopredaje > localToday()),
  },
  { id: 'ugovor', header: INV_LABELS.ugovor, accessorFn: (i) => i.ugovor?.naziv ?? UI.empty },
];

export function locationKey(id: string) {
  return [...INVENTORY_KEY, 'location', id] as const;
}

/** The school's e-mail, edited here and prefilled when a stocktaking list is sent. */
function SchoolEmail({ location }: { location: InventoryLocationDto }) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState(location.email ?? '');
  const [error, setError] = useState<string | undefined>();
  useEffect(() => setEmail(location.email ?? ''), [location.email]);

  const save = useMutation({
    mutationFn: (value: string) => saveSchoolEmail(location._id, value),
    onSuccess: async (data) => {
      snackbar.success(data?.message || INVENTORY.schoolEmailSaved, LOCATION_INVENTORY_NOTICE_MS);
      await queryClient.invalidateQueries({ queryKey: INVENTORY_KEY });
    },
    onError: (err) => {
      setError(fieldErrorOf(err, 'email'));
      snackbar.error(messageOf(err, INV_TEXT.saveFailed), LOCATION_INVENTORY_NOTICE_MS);
    },
  });

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = schoolEmailSchema.safeParse({ email });
        if (!parsed.success) {
          setError(parsed.error.issues[0]?.message ?? INVENTORY.invalidEmail);
          return;
        }
        setError(undefined);
        save.mutate(email.trim());
      }}
      sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}
    >
      <TextField
        label={INV_LABELS.schoolEmail}
        name="email"
        type="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={!!error}
        helperText={error}
        size="small"
        sx={{ minWidth: { xs: '100%', sm: 320 } }}
      />
      <Button type="submit" variant="outlined" disabled={save.isPending || email.trim() === (location.email ?? '')}>
        {INV_LABELS.saveEmail}
      </Button>
    </Box>
  );
}

/**
 * A location's items with add, edit, delete and the import (the location screen, and the inventory
 * check's edit-inventory dialog). Notices stay 3.5 s; a failed delete shows the server's message or
 * 'Brisanje neuspešno' and the confirmation closes 2 s later (spec 3 §8, §9).
 */
export function LocationItems({ location }: { location: InventoryLocationDto }) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<{ opening: number; item: InventoryItemDto | null }>({ opening: 0, item: null });
  const [deleting, setDeleting] = useState<InventoryItemDto | null>(null);
  const [answered, setAnswered] = useState(false);

  const fetchPage = useMemo(
    () =>
      async ({ page, limit, signal, sort, order }: TableQuery) => {
        const data = await listInventory({ lokacija: location._id, sort, order }, signal);
        return { rows: data.inventory.slice((page - 1) * limit, page * limit), total: data.inventory.length };
      },
    [location._id],
  );

  const remove = useMutation({
    mutationFn: (item: InventoryItemDto) => deleteInventoryItem(item._id),
    onSuccess: async (data) => {
      setDeleting(null);
      snackbar.success(data?.message || INVENTORY.itemDeleted, LOCATION_INVENTORY_NOTICE_MS);
      await queryClient.invalidateQueries({ queryKey: INVENTORY_KEY });
    },
    onError: (error) => {
      setAnswered(true);
      snackbar.error(messageOf(error, INVENTORY.deleteFailed), LOCATION_INVENTORY_NOTICE_MS);
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

  return (
    <>
      <DataTable
        tableName="inventar-lokacija"
        label={INV_LABELS.itemsTable}
        columns={itemColumns}
        queryKey={[...INVENTORY_KEY, 'items', location._id]}
        fetchPage={fetchPage}
        sortable={LIST_SORTS.inventoryItems}
        hiddenColumns={['sifra']}
        exportAs={{ list: 'inventory', params: { lokacija: location._id } }}
        actionsWidth={100}
        renderRowActions={(item) => (
          <>
            <EditAction of={item.invType.naziv} onClick={() => setEditing((e) => ({ opening: e.opening + 1, item }))} />
            <DeleteAction of={item.invType.naziv} onClick={() => setDeleting(item)} />
          </>
        )}
        toolbar={
          <>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing((e) => ({ opening: e.opening + 1, item: null }))}>
              {INV_LABELS.addItem}
            </Button>
            <InventoryImportButton locationId={location._id} locationName={location.naziv} />
          </>
        }
      />
      <OnceOpened open={editing.opening > 0}>
        <InventoryItemDialog
          opening={editing.opening}
          item={editing.item}
          location={location}
          onClose={() => setEditing((e) => ({ ...e, opening: 0 }))}
        />
      </OnceOpened>
      <ConfirmDialog
        open={!!deleting}
        title={CLUSTERS.deleteConfirm}
        text={deleting ? INV_LABELS.deleteItemNote(deleting.invType.naziv) : undefined}
        busy={remove.isPending || answered}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}

/**
 * /app/inventar/lokacija/:id (spec 3 §2.10): a location's inventory — add, edit and delete items (the
 * type first, then its entries), import from csv/xlsx/xls with the per-row report, the template, and
 * the school's e-mail. Notices here stay 3.5 s (spec 3 §9).
 */
function LocationInventoryPageScreen() {
  const { id = '' } = useParams();
  const { state } = useLocation();
  const found = useQuery({ queryKey: locationKey(id), queryFn: ({ signal }) => getInventoryLocation(id, signal), retry: false });
  const location = found.data;
  const from = (state as { from?: unknown } | null)?.from;
  const back = typeof from === 'string' && from.startsWith('/app/') ? from : appPath('inventory');

  return (
    <Stack spacing={2}>
      <Box>
        <Button component={RouterLink} to={back} startIcon={<ArrowBackIcon />}>
          {INV_LABELS.back}
        </Button>
      </Box>
      <Typography variant="h1">{INV_LABELS.locationInventoryTitle(location?.naziv ?? '')}</Typography>
      {found.isPending ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress aria-label={UI.loading} />
        </Box>
      ) : found.isError || !location ? (
        <Alert severity="error">{messageOf(found.error, COMMON.notFound)}</Alert>
      ) : (
        <>
          <Paper sx={{ p: 2 }}>
            <Stack spacing={1.5}>
              <Typography color="text.secondary">
                {[location.naselje, location.opstina].filter(Boolean).join(', ') || UI.empty}
                {' · '}
                {INV_LABELS.ugovor}: {location.ugovori.map(contractLabel).join(', ') || UI.empty}
              </Typography>
              <SchoolEmail location={location} />
            </Stack>
          </Paper>
          <LocationItems location={location} />
        </>
      )}
    </Stack>
  );
}

/** The screen behind the inventory guard. */
export function LocationInventoryPage() {
  return (
    <InventoryGuard>
      <LocationInventoryPageScreen />
    </InventoryGuard>
  );
}
