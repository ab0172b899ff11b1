import { Link, Stack, Typography } from '@mui/material';
import { appPath, type CommentListDto, formatLogTime, LIST_SORTS, roleIn } from '@trasa/domain';
import { useMemo } from 'react';
import { Link as RouterLink } from 'react-router';
import { DataTable, type TableQuery } from '../../components/DataTable';
import type { ColumnDef } from '../../components/tableTypes';
import { ACTIVITIES, COMMENT_LIST } from '../../messages';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { useCurrentUser } from '../../shell/session';
import { activityTitle } from '../../shipped';
import { UI } from '../../texts';
import { COMMENT_LABELS } from '../logs/labels';
import { SelectionProvider, selectionColumn, useChosenDelete, useSelectionState } from '../logs/selection';
import { COMMENT_LIST_KEY, deleteComments, listComments, searchComments } from './api';

const authorOf = (c: CommentListDto) => (c.user ? `${c.user.ime} ${c.user.prezime}` : ACTIVITIES.deletedUser);

function ActivityCell({ comment }: { comment: CommentListDto }) {
  return (
    <Link component={RouterLink} to={appPath('activity', { id: comment.aktivnost })} onClick={(e) => e.stopPropagation()}>
      {activityTitle(comment)}
    </Link>
  );
}

const commentRowLabel = (c: CommentListDto) => `${COMMENT_LABELS.chooseRow}: ${c.komentar}`;

const COLUMNS: ColumnDef<CommentListDto>[] = [
  { id: 'ime', header: COMMENT_LABELS.name, accessorFn: authorOf },
  { accessorKey: 'komentar', header: COMMENT_LABELS.comment },
  { id: 'email', header: COMMENT_LABELS.email, accessorFn: (c) => c.user?.email ?? UI.empty },
  { id: 'klaster', header: COMMENT_LABELS.cluster, accessorFn: (c) => c.lokacija.naziv },
  {
    id: 'aktivnost',
    header: COMMENT_LABELS.activity,
    accessorFn: (c) => activityTitle(c),
    Cell: ({ row }) => <ActivityCell comment={row} />,
  },
  { id: 'createdAt', header: COMMENT_LABELS.createdAt, accessorFn: (c) => formatLogTime(c.createdAt) },
];

async function fetchComments({ page, limit, search, signal, sort, order }: TableQuery) {
  const data = search
    ? await searchComments({ page, limit, sort, order, ...search }, signal)
    : await listComments({ page, limit, sort, order }, signal);
  return { rows: data.comments, total: data.totalResults };
}

/**
 * /app/komentari (spec 3 §2.6): every comment on the activities of the clusters the caller sees, newest
 * first, 10 a page, searchable (1 s debounce); the activity's name opens /app/aktivnost/{id}. The Admin
 * chooses rows and deletes them.
 */
export function CommentsPage() {
  const me = useCurrentUser();
  const isAdmin = roleIn(me.rola, ['Admin']);
  const selection = useSelectionState();

  const columns = useMemo(() => (isAdmin ? [selectionColumn<CommentListDto>(COMMENT_LABELS.choosePage), ...COLUMNS] : COLUMNS), [isAdmin]);

  const remove = useChosenDelete({
    selection,
    remove: deleteComments,
    queryKey: COMMENT_LIST_KEY,
    texts: {
      deleted: COMMENT_LIST.deleted,
      failed: COMMENT_LIST.deleteFailed,
      title: COMMENT_LIST.deleteTitle,
      text: COMMENT_LIST.deleteText,
    },
  });

  return (
    <Stack spacing={2}>
      <Typography variant="h1">{SCREEN_TITLES.comments}</Typography>
      <SelectionProvider value={selection} pageLabel={COMMENT_LABELS.choosePage} rowLabel={commentRowLabel}>
        <DataTable
          tableName="komentari"
          label={COMMENT_LABELS.table}
          columns={columns}
          queryKey={[...COMMENT_LIST_KEY]}
          fetchPage={fetchComments}
          searchable
          sortable={LIST_SORTS.comments}
          hiddenColumns={['createdAt']}
          toolbar={isAdmin && remove.button}
        />
      </SelectionProvider>
      {remove.dialog}
    </Stack>
  );
}
