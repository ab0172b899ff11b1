import SearchIcon from '@mui/icons-material/Search';
import SendIcon from '@mui/icons-material/Send';
import { Alert, Box, Button, MenuItem, Stack, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type InventoryTip, LIST_SORTS, type SumSort, schoolNotificationSchema } from '@trasa/domain';
import { useMemo, useState } from 'react';
import { fieldErrorOf, messageOf } from '../../api/errors';
import {
  INV_TIPS,
  INVENTORY_KEY,
  type InventoryItemDto,
  type NamedRef,
  type PerLocationRow,
  reportAll,
  reportPerLocation,
  reportSummary,
  type StocktakingList,
  type SumPerTypeRow,
  sendStocktakingList,
  stocktakingList,
} from '../../api/inventory';
import { DataTable, type TableQuery } from '../../components/DataTable';
import { FormDialog } from '../../components/FormDialog';
import { useSnackbar } from '../../components/SnackbarProvider';
import type { ColumnDef } from '../../components/tableTypes';
import { useDebouncedValue } from '../../components/useDebouncedValue';
// The Serbian messages for the e-mail check below (schema.safeParse).
import '../../components/validation';
import { COMMON, INVENTORY } from '../../messages';
import { inScript } from '../../script';
import { UI } from '../../texts';
import { dateOrDash, formatAmount, formatDinars, formatKolicina } from './format';
import { itemColumns } from './LocationInventoryPage';
import { LocationPicker } from './LocationPicker';
import { INV_LABELS } from './labels';
import { StocktakingPart } from './StocktakingPart';
import { INVENTORY_SEARCH_DEBOUNCE_MS } from './texts';

type Choice = 'sve' | 'sumarno' | 'lokacije' | 'popisna';

const CHOICES: { value: Choice; label: string }[] = [
  { value: 'sve', label: INV_LABELS.reportAll },
  { value: 'sumarno', label: INV_LABELS.reportSummary },
  { value: 'lokacije', label: INV_LABELS.reportPerLocation },
  { value: 'popisna', label: INV_LABELS.reportStocktaking },
];

/** Filters of the inventory lists wait 2 s after the last key (spec 3 §9). */
const FILTER_DEBOUNCE_MS = 2000;

const ALL_COLUMNS: ColumnDef<InventoryItemDto>[] = [
  { id: 'lokacija', header: INV_LABELS.location, accessorFn: (i) => i.lokacija.naziv },
  ...itemColumns,
];

const SUM_COLUMNS: ColumnDef<SumPerTypeRow>[] = [
  { accessorKey: 'naziv', header: INV_LABELS.item },
  { id: 'tip', header: INV_LABELS.tip, accessorFn: (r) => inScript(r.tip) },
  { id: 'sifra', header: INV_LABELS.sifra, accessorFn: (r) => r.sifra || UI.empty },
  { id: 'kolicina', header: INV_LABELS.kolicina, accessorFn: (r) => formatKolicina(r.kolicina, r.jedinica), numeric: true },
  { id: 'brojLokacija', header: INV_LABELS.locationCount, accessorFn: (r) => String(r.brojLokacija), numeric: true },
  { id: 'datum', header: INV_LABELS.datumPrimopredaje, accessorFn: (r) => dateOrDash(r.datum) },
  { id: 'ukupnoRsd', header: INV_LABELS.vrednost, accessorFn: (r) => formatDinars(r.ukupnoRsd), numeric: true },
];

const PER_LOCATION_COLUMNS: ColumnDef<PerLocationRow>[] = [
  { accessorKey: 'naziv', header: INV_LABELS.location },
  { id: 'opstina', header: INV_LABELS.opstina, accessorFn: (r) => r.opstina || UI.empty },
  { id: 'brojStavki', header: INV_LABELS.itemCount, accessorFn: (r) => String(r.brojStavki), numeric: true },
  { id: 'materijal', header: `${INV_LABELS.materijali} (RSD)`, accessorFn: (r) => formatAmount(r.materijal), numeric: true },
  { id: 'oprema', header: `${INV_LABELS.oprema} (RSD)`, accessorFn: (r) => formatAmount(r.oprema), numeric: true },
  { id: 'radovi', header: `${INV_LABELS.radovi} (RSD)`, accessorFn: (r) => formatAmount(r.radovi), numeric: true },
  { id: 'ukupnoRsd', header: INV_LABELS.vrednost, accessorFn: (r) => formatDinars(r.ukupnoRsd) },
  { id: 'a13', header: INV_LABELS.a13Status, accessorFn: (r) => (r.a13 ? INVENTORY.a13Confirmed : INVENTORY.a13NotConfirmed) },
  { id: 'potvrdaSkole', header: INV_LABELS.potvrdaSkole, accessorFn: (r) => (r.potvrdaSkole ? UI.yes : UI.no) },
];

async function fetchAll({ page, limit, search, signal, sort, order }: TableQuery) {
  const data = await reportAll({ page, limit, sort, order, ...(search ?? {}) }, signal);
  return { rows: data.allInventory, total: data.totalResults };
}

async function fetchPerLocation({ page, limit, search, signal, sort, order }: TableQuery) {
  const data = await reportPerLocation({ page, limit, sort, order, ...(search ?? {}) }, signal);
  return { rows: data.inventoryPerLocation, total: data.totalResults };
}

/** Summary per item: sort by naziv or datum, filter by location, municipality and tip. */
function SummaryReport() {
  const [sort, setSort] = useState<SumSort>('naziv');
  const [location, setLocation] = useState<NamedRef | null>(null);
  const lokacija = location?._id ?? '';
  const [opstinaInput, setOpstinaInput] = useState('');
  const opstina = useDebouncedValue(opstinaInput.trim(), FILTER_DEBOUNCE_MS);
  const [tip, setTip] = useState<InventoryTip | ''>('');
  const fetchPage = useMemo(
    () =>
      async ({ page, limit, signal, sort: column, order }: TableQuery) => {
        const data = await reportSummary(
          sort,
          { page, limit, sort: column, order, lokacija: lokacija || undefined, opstina: opstina || undefined, tip: tip || undefined },
          signal,
        );
        return { rows: data.sumPerTypeInventory, total: data.totalResults };
      },
    [sort, lokacija, opstina, tip],
  );
  return (
    <Stack spacing={2}>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: '160px 2fr 1fr 160px' } }}>
        <TextField select label={INV_LABELS.sortBy} value={sort} onChange={(e) => setSort(e.target.value as SumSort)} size="small">
          <MenuItem value="naziv">{INV_LABELS.sortNaziv}</MenuItem>
          <MenuItem value="datum">{INV_LABELS.sortDatum}</MenuItem>
        </TextField>
        <LocationPicker label={INV_LABELS.location} value={location} onChange={setLocation} size="small" />
        <TextField label={INV_LABELS.opstina} value={opstinaInput} onChange={(e) => setOpstinaInput(e.target.value)} size="small" />
        <TextField select label={INV_LABELS.tip} value={tip} onChange={(e) => setTip(e.target.value as InventoryTip | '')} size="small">
          <MenuItem value="">
            <em>{INV_LABELS.allTypes}</em>
          </MenuItem>
          {INV_TIPS.map((t) => (
            <MenuItem key={t} value={t}>
              {inScript(t)}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <DataTable
        tableName="inventar-izvestaj-sumarno"
        label={INV_LABELS.reportSummary}
        columns={SUM_COLUMNS}
        queryKey={[...INVENTORY_KEY, 'report', 'sumarno', { sort, lokacija, opstina, tip }]}
        fetchPage={fetchPage}
        sortable={LIST_SORTS.inventorySum}
        hiddenColumns={['sifra']}
        exportAs={{ list: 'inventory-sum', params: { sort, lokacija, opstina, tip } }}
      />
    </Stack>
  );
}

const LIST_PARTS = [
  { key: 'materijali', label: INV_LABELS.materijali },
  { key: 'oprema', label: INV_LABELS.oprema },
  { key: 'radovi', label: INV_LABELS.radovi },
] as const;

/** The send-to-school dialog: the school's e-mail prefilled and editable. */
function SendDialog({ list, open, onClose }: { list: StocktakingList; open: boolean; onClose: () => void }) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState(list.email ?? '');
  const [error, setError] = useState<string | undefined>();
  const send = useMutation({
    mutationFn: (to: string) =>
      sendStocktakingList(list.locId, { email: to, materijali: list.materijali, oprema: list.oprema, radovi: list.radovi }),
    onSuccess: async (data) => {
      snackbar.success(data?.message || INVENTORY.notificationSent);
      onClose();
      // The notified schools list gains a row; the e-mail becomes the location's school e-mail.
      await queryClient.invalidateQueries({ queryKey: INVENTORY_KEY });
    },
    onError: (err) => {
      setError(fieldErrorOf(err, 'email'));
      snackbar.error(messageOf(err, INVENTORY.notificationFailed));
    },
  });
  return (
    <FormDialog
      open={open}
      title={INV_LABELS.sendTitle}
      onClose={onClose}
      submitLabel={INV_LABELS.sendToSchool}
      busy={send.isPending}
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = schoolNotificationSchema.shape.email.safeParse(email);
        if (!parsed.success) {
          setError(parsed.error.issues[0]?.message ?? INVENTORY.invalidEmail);
          return;
        }
        setError(undefined);
        send.mutate(parsed.data);
      }}
    >
      <Typography>{list.naziv}</Typography>
      <TextField
        label={INV_LABELS.schoolEmail}
        name="email"
        type="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={!!error}
        helperText={error}
        autoFocus
        fullWidth
      />
    </FormDialog>
  );
}

/** The stocktaking list per school: its lookup is disabled until a location is chosen; then send it to the school. */
function StocktakingReport() {
  const snackbar = useSnackbar();
  const [location, setLocation] = useState<NamedRef | null>(null);
  const [sending, setSending] = useState(0);
  const lookup = useMutation({
    mutationFn: (name: string) => stocktakingList(name),
    onError: (error) => snackbar.error(messageOf(error, COMMON.notFound)),
  });
  const list = lookup.data;
  const empty = !!list && list.materijali.length + list.oprema.length + list.radovi.length === 0;
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }}>
        <Box sx={{ flex: 1, maxWidth: 520 }}>
          <LocationPicker label={INV_LABELS.chooseLocation} value={location} onChange={setLocation} />
        </Box>
        <Button
          variant="contained"
          startIcon={<SearchIcon />}
          disabled={!location || lookup.isPending}
          onClick={() => location && lookup.mutate(location._id)}
        >
          {INV_LABELS.lookup}
        </Button>
      </Stack>
      {list && (
        <Stack spacing={2}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} justifyContent="space-between" alignItems={{ sm: 'center' }}>
            <Typography variant="h2">{`${INV_LABELS.reportStocktaking} — ${list.naziv}`}</Typography>
            <Button variant="contained" startIcon={<SendIcon />} disabled={empty} onClick={() => setSending((n) => n + 1)}>
              {INV_LABELS.sendToSchool}
            </Button>
          </Stack>
          {empty && <Alert severity="info">{INVENTORY.listEmpty}</Alert>}
          {LIST_PARTS.map((p) => (
            <StocktakingPart key={p.key} label={p.label} rows={list[p.key]} />
          ))}
          <Typography sx={{ fontWeight: 500 }}>{`${INV_LABELS.total}: ${formatDinars(list.ukupnoRsd)}`}</Typography>
          {list.planiranoRsd > 0 && <Typography>{`${INV_LABELS.plannedTotal}: ${formatDinars(list.planiranoRsd)}`}</Typography>}
          {sending > 0 && <SendDialog key={sending} list={list} open onClose={() => setSending(0)} />}
        </Stack>
      )}
    </Stack>
  );
}

/**
 * Tab 3 of /app/inventar, the inventory reports (spec 3 §2.10): the list of all items; the summary per
 * item; the state per location; the stocktaking list per school with the send-to-school action.
 */
export function InventoryReportsTab() {
  const [choice, setChoice] = useState<Choice>('sve');
  return (
    <Stack spacing={2}>
      <ToggleButtonGroup
        exclusive
        value={choice}
        onChange={(_, v: Choice | null) => v && setChoice(v)}
        aria-label={INV_LABELS.reportChoice}
        size="small"
        sx={{ flexWrap: 'wrap' }}
      >
        {CHOICES.map((c) => (
          <ToggleButton key={c.value} value={c.value}>
            {c.label}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {choice === 'sve' && (
        <DataTable
          tableName="inventar-izvestaj-sve"
          label={INV_LABELS.reportAll}
          columns={ALL_COLUMNS}
          queryKey={[...INVENTORY_KEY, 'report', 'sve']}
          fetchPage={fetchAll}
          searchable
          sortable={LIST_SORTS.inventoryItems}
          searchDebounceMs={INVENTORY_SEARCH_DEBOUNCE_MS}
          hiddenColumns={['sifra']}
          exportAs={{ list: 'inventory-all' }}
        />
      )}
      {choice === 'sumarno' && <SummaryReport />}
      {choice === 'lokacije' && (
        <DataTable
          tableName="inventar-izvestaj-lokacije"
          label={INV_LABELS.reportPerLocation}
          columns={PER_LOCATION_COLUMNS}
          queryKey={[...INVENTORY_KEY, 'report', 'lokacije']}
          fetchPage={fetchPerLocation}
          searchable
          sortable={LIST_SORTS.inventoryPerLocation}
          searchDebounceMs={INVENTORY_SEARCH_DEBOUNCE_MS}
          exportAs={{ list: 'inventory-per-location' }}
        />
      )}
      {choice === 'popisna' && <StocktakingReport />}
    </Stack>
  );
}
