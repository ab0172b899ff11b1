import GridOnIcon from '@mui/icons-material/GridOn';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import SaveIcon from '@mui/icons-material/Save';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { transliterate } from '@trasa/domain';
import { useState } from 'react';
import { saveColumns } from '../../api/account';
import {
  downloadExport,
  EXPORT_FETCH_LIMIT,
  type ExportFormat,
  type ExportTarget,
  exportTargetOf,
  saveRowsAsJson,
} from '../../api/exports';
import { ACCOUNT, USERS } from '../../messages';
import { scripted } from '../../scripted';
import { PROFILE_KEY } from '../../session/currentUser';
import { UI } from '../../texts';
import { useSnackbar } from '../SnackbarProvider';
import { ToolButton } from './PopoverButton';
import type { TablePage, TableQuery, Visibility } from './types';

const EXPORT_LABELS: Record<ExportFormat, string> = scripted({ xlsx: 'Извоз у Excel', pdf: 'Извоз у PDF' });

type ExportButtonsProps<T> = {
  tableName: string;
  exportAs: ExportTarget | false | undefined;
  /** The table's search text (debounced, trimmed; empty without one). */
  search: string;
  fetchPage: (query: TableQuery) => Promise<TablePage<T>>;
};

/** 'Извоз у Excel' and 'Извоз у PDF' of the list with its search; nothing for a table without an export. */
export function ExportButtons<T>({ tableName, exportAs, search, fetchPage }: ExportButtonsProps<T>) {
  const snackbar = useSnackbar();
  const exportTarget = exportAs === false ? null : (exportAs ?? exportTargetOf(tableName));
  const [exporting, setExporting] = useState(false);
  /** The server's file with the table's search; when that fails the list itself as JSON (spec 3 §8). */
  const runExport = async (format: ExportFormat) => {
    if (!exportTarget) return;
    setExporting(true);
    const searchText = search ? { eng: search, srb: transliterate(search) } : null;
    try {
      await downloadExport(exportTarget, format, searchText);
    } catch {
      try {
        const all = await fetchPage({ page: 1, limit: EXPORT_FETCH_LIMIT, search: searchText, signal: new AbortController().signal });
        saveRowsAsJson(exportTarget.list, all.rows);
      } catch {
        snackbar.error(USERS.loadFailed);
      }
    } finally {
      setExporting(false);
    }
  };
  if (!exportTarget) return null;
  return (
    <>
      {(['xlsx', 'pdf'] as const).map((format) => (
        <ToolButton
          key={format}
          label={EXPORT_LABELS[format]}
          disabled={exporting}
          onClick={() => void runExport(format)}
          icon={format === 'xlsx' ? GridOnIcon : PictureAsPdfIcon}
        />
      ))}
    </>
  );
}

type SaveLayoutButtonProps = {
  tableName: string;
  visibility: Visibility;
  /** The column ids in the table's order now, and in the list's own order. */
  order: string[];
  columnIds: string[];
};

/** 'Сачувај изглед табеле': the columns' visibility and order saved to the profile (my-profile's `tabela`). */
export function SaveLayoutButton({ tableName, visibility, order, columnIds }: SaveLayoutButtonProps) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: saveColumns,
    onSuccess: async () => {
      snackbar.success(ACCOUNT.columnsSaved);
      await queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
    },
    onError: () => snackbar.error(ACCOUNT.columnsFailed),
  });
  return (
    <ToolButton
      label={UI.saveTableLayout}
      disabled={save.isPending}
      onClick={() =>
        save.mutate({ imeTabele: tableName, tabela: { columnVisibility: visibility, columnOrder: order }, headers: columnIds })
      }
      icon={SaveIcon}
    />
  );
}
