import type { LocationListItem } from '../../api/clusters';
import { listLocations, searchLocations } from '../../api/clusters';
import { deadlineRowColor, statusWithDeadline } from '../../components/ColourLegend';
import type { PageSizeOption, TableQuery } from '../../components/DataTable';
import { ALL_ROWS_LIMIT, type ColumnDef } from '../../components/tableTypes';
import { UI } from '../../texts';
import { responsibleContractors, statusLabel } from './format';

/** 10, 20, 50, 100 and All (spec 2 §9). */
export const CLUSTER_PAGE_SIZES: readonly PageSizeOption[] = [10, 20, 50, 100, { value: ALL_ROWS_LIMIT, label: UI.allRows }];

/**
 * A cluster's status with what the row's colour adds ('У току, рок је истекао'): the colour is never the
 * only sign (WCAG 1.4.1). On a phone it shows under the name.
 */
export const CLUSTER_STATUS_COLUMN: ColumnDef<LocationListItem> = {
  id: 'status',
  header: UI.status,
  accessorFn: (l) => statusWithDeadline(statusLabel(l.status), l.boja),
  phoneDetail: true,
};

/** Cluster name, responsible contractor, status (CLUSTER_STATUS_COLUMN), contract (spec 2 §2). */
export const CLUSTER_COLUMNS: ColumnDef<LocationListItem>[] = [
  { accessorKey: 'naziv', header: UI.clusterName },
  { id: 'odgovoran', header: UI.responsibleContractor, accessorFn: responsibleContractors },
  CLUSTER_STATUS_COLUMN,
  { id: 'ugovor', header: UI.contract, accessorFn: (l) => l.ugovor?.naziv ?? UI.empty },
];

export function clusterRowColor(location: Pick<LocationListItem, 'boja'>): string | undefined {
  return deadlineRowColor(location.boja);
}

/** The visible clusters (the server decides which), a page of them or a search. */
export async function fetchLocations({ page, limit, search, signal, sort, order }: TableQuery) {
  const data = search
    ? await searchLocations({ page, limit, sort, order, ...search }, signal)
    : await listLocations({ page, limit, sort, order }, signal);
  return { rows: data.locations, total: data.totalResults };
}
