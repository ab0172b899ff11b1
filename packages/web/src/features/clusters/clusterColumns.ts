import { MAX_LIMIT } from '@trasa/domain';
import type { MRT_ColumnDef } from 'material-react-table';
import type { LocationDto } from '../../api/clusters';
import { listLocations, searchLocations } from '../../api/clusters';
import { deadlineRowColor } from '../../components/ColourLegend';
import type { PageSizeOption, TableQuery } from '../../components/DataTable';
import { UI } from '../../texts';
import { responsibleContractors, statusLabel } from './format';

/** 10, 20, 50, 100 and All (spec 2 §9). */
export const CLUSTER_PAGE_SIZES: readonly PageSizeOption[] = [10, 20, 50, 100, { value: MAX_LIMIT, label: UI.allRows }];

/** Cluster name, responsible contractor, status, contract (spec 2 §2). */
export const CLUSTER_COLUMNS: MRT_ColumnDef<LocationDto>[] = [
  { accessorKey: 'naziv', header: UI.clusterName, size: 220 },
  { id: 'odgovoran', header: UI.responsibleContractor, size: 220, accessorFn: responsibleContractors },
  { id: 'status', header: UI.status, size: 110, accessorFn: (l) => statusLabel(l.status) },
  { id: 'ugovor', header: UI.contract, size: 220, accessorFn: (l) => l.ugovor?.naziv ?? UI.empty },
];

export function clusterRowColor(location: LocationDto): string | undefined {
  return deadlineRowColor(location.boja);
}

/** The visible clusters (the server decides which), a page of them or a search. */
export async function fetchLocations({ page, limit, search, signal, sort, order }: TableQuery) {
  const data = search
    ? await searchLocations({ page, limit, sort, order, ...search }, signal)
    : await listLocations({ page, limit, sort, order }, signal);
  return { rows: data.locations, total: data.totalResults };
}
