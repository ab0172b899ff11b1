import { Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { type CatalogueEntryDto, listCatalogue } from '../../api/catalogue';
import { DataTable, type TableQuery } from '../../components/DataTable';
import type { ColumnDef } from '../../components/tableTypes';
import { inScript } from '../../script';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { catalogueText } from '../../shipped';
import { UI } from '../../texts';
import { CATALOGUE_KEY, CatalogueDialog } from './CatalogueDialog';
import { ACTIVITY_UI, responsibleLabel, rokLabel } from './labels';

/** Naziv, kratakNaziv, previous activities, responsible type, deadline in days, documents (spec 3 §2.3). */
const COLUMNS: ColumnDef<CatalogueEntryDto>[] = [
  { id: 'naziv', header: ACTIVITY_UI.naziv, accessorFn: (e) => catalogueText(e.naziv) },
  { accessorKey: 'kratakNaziv', header: ACTIVITY_UI.kratakNaziv },
  { id: 'prethodna', header: ACTIVITY_UI.previous, accessorFn: (e) => e.prethodna.join(', ') || UI.empty },
  { id: 'odgovoran', header: ACTIVITY_UI.responsible, accessorFn: (e) => responsibleLabel(e.odgovoran) || UI.empty },
  { id: 'rok', header: ACTIVITY_UI.rokDays, accessorFn: (e) => inScript(rokLabel(e.rok)), numeric: true },
  { id: 'dokumenta', header: ACTIVITY_UI.documents, accessorFn: (e) => catalogueText(e.dokumenta) || UI.empty },
];

/** The whole catalogue on one page (36 entries; the table's 50 rows). */
const ROWS = 50;

async function fetchCatalogue({ signal }: TableQuery) {
  const entries = await listCatalogue(signal);
  return { rows: entries, total: entries.length };
}

/** /app/aktivnosti (Admin): the activity catalogue; a row opens its edit dialog. */
export function CataloguePage() {
  const [editing, setEditing] = useState<CatalogueEntryDto | null>(null);
  return (
    <Stack spacing={2}>
      <Typography variant="h1">{SCREEN_TITLES.activityCatalogue}</Typography>
      <DataTable
        tableName="katalog-aktivnosti"
        label={SCREEN_TITLES.activityCatalogue}
        columns={COLUMNS}
        queryKey={[...CATALOGUE_KEY, 'list']}
        fetchPage={fetchCatalogue}
        pageSizes={[ROWS]}
        paging={false}
        onRowClick={setEditing}
      />
      <CatalogueDialog entry={editing} onClose={() => setEditing(null)} />
    </Stack>
  );
}
