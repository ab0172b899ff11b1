import AddIcon from '@mui/icons-material/Add';
import { Button } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LIST_SORTS } from '@trasa/domain';
import { useState } from 'react';
import { messageOf } from '../../api/errors';
import { deleteSettlement, listSettlements, type SettlementDto, searchSettlements } from '../../api/settlements';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type TableQuery } from '../../components/DataTable';
import { DeleteAction, EditAction } from '../../components/RowAction';
import { useSnackbar } from '../../components/SnackbarProvider';
import type { ColumnDef } from '../../components/tableTypes';
import { CODEBOOKS, USERS } from '../../messages';
import { SETTLEMENTS_KEY } from '../../queries/settlements';
import { UI } from '../../texts';
import { CLUSTERS_KEY } from '../clusters/queries';
import { ImportButton } from '../imports/ImportButton';
import { CODEBOOK_NOTICE_MS } from '../types/GroupTypeDialog';
import { SettlementDialog } from './SettlementDialog';

function count(value: number | null): string {
  return value === null ? '' : String(value);
}

/** Shown on demand (the columns button): the table fits the screen with the rest. */
const HIDDEN_COLUMNS = ['operator', 'javniPoziv', 'brojIndirektnoPokrivenihDomacinstava', 'brojIndirektnoPokrivenihSkola'];

const COLUMNS: ColumnDef<SettlementDto>[] = [
  { accessorKey: 'id', header: UI.settlementId },
  { accessorKey: 'naziv', header: UI.naziv },
  { accessorKey: 'maticniBroj', header: UI.maticniBroj },
  { id: 'opstina', header: UI.opstina, accessorFn: (s) => s.opstina.join(', ') },
  { accessorKey: 'operator', header: UI.operator },
  { accessorKey: 'javniPoziv', header: UI.javniPoziv },
  { id: 'brojDomacinstava', header: UI.brojDomacinstava, accessorFn: (s) => count(s.brojDomacinstava), numeric: true },
  { id: 'brojSkola', header: UI.brojSkola, accessorFn: (s) => count(s.brojSkola), numeric: true },
  {
    id: 'brojIndirektnoPokrivenihDomacinstava',
    header: UI.indirectHouseholdsShort,
    accessorFn: (s) => count(s.brojIndirektnoPokrivenihDomacinstava),
    numeric: true,
  },
  {
    id: 'brojIndirektnoPokrivenihSkola',
    header: UI.indirectSchoolsShort,
    accessorFn: (s) => count(s.brojIndirektnoPokrivenihSkola),
    numeric: true,
  },
];

async function fetchSettlements({ page, limit, search, signal, sort, order }: TableQuery) {
  const data = search
    ? await searchSettlements({ page, limit, sort, order, ...search }, signal)
    : await listSettlements({ page, limit, sort, order }, signal);
  return { rows: data.naselja, total: data.totalResults };
}

type Dialog = { kind: 'closed' } | { kind: 'new' } | { kind: 'edit'; settlement: SettlementDto };

/** The settlements codebook (spec 2 §5): search, paging, create, edit, delete, import with its template. */
export function SettlementsTable() {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>({ kind: 'closed' });
  const [deleting, setDeleting] = useState<SettlementDto | null>(null);

  const remove = useMutation({
    mutationFn: (settlement: SettlementDto) => deleteSettlement(settlement._id),
    onSuccess: async (data) => {
      setDeleting(null);
      snackbar.success(data?.message || UI.typeDeleted, CODEBOOK_NOTICE_MS);
      await queryClient.invalidateQueries({ queryKey: SETTLEMENTS_KEY });
    },
    onError: (error) => {
      setDeleting(null);
      snackbar.error(messageOf(error, CODEBOOKS.failed), CODEBOOK_NOTICE_MS);
    },
  });

  return (
    <>
      <DataTable
        tableName="naselja"
        label={UI.tabSettlements}
        columns={COLUMNS}
        queryKey={[...SETTLEMENTS_KEY, 'list']}
        fetchPage={fetchSettlements}
        sortable={LIST_SORTS.settlements}
        searchable
        hiddenColumns={HIDDEN_COLUMNS}
        actionsWidth={90}
        renderRowActions={(settlement) => (
          <>
            <EditAction of={settlement.naziv} onClick={() => setDialog({ kind: 'edit', settlement })} />
            <DeleteAction of={settlement.naziv} onClick={() => setDeleting(settlement)} />
          </>
        )}
        toolbar={
          <>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ kind: 'new' })}>
              {UI.addSettlement}
            </Button>
            <ImportButton model="naselje" template="klasteri" invalidates={[SETTLEMENTS_KEY, CLUSTERS_KEY]} noticeMs={CODEBOOK_NOTICE_MS} />
          </>
        }
      />
      <SettlementDialog
        open={dialog.kind !== 'closed'}
        settlement={dialog.kind === 'edit' ? dialog.settlement : null}
        onClose={() => setDialog({ kind: 'closed' })}
      />
      <ConfirmDialog
        open={!!deleting}
        title={USERS.deleteConfirm}
        text={deleting?.naziv}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
