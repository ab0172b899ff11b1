import type { QueryClient } from '@tanstack/react-query';
import type { ActivityDto } from '../../api/activities';

/**
 * What a list already knows of an activity, enough for the head of its page (back buttons, title, status
 * banners, the details row): an activity opened from the notifications, the activities in progress or a
 * cluster's activities shows these at once, while GET /api/activity/{id} brings the rest.
 */
export type ActivityHead = Pick<
  ActivityDto,
  | '_id'
  | 'kratakNaziv'
  | 'naziv'
  | 'status'
  | 'returned'
  | 'boja'
  | 'rok'
  | 'odgovoran'
  | 'datumPocetka'
  | 'datumZavrsetka'
  | 'rokZavrsetka'
> & { lokacija: { _id: string; naziv: string } };

type Loose = Record<string, unknown>;

function isRecord(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const dateOrNull = (value: unknown) => value === null || typeof value === 'string';

/** A list row of this activity with the head's fields (ActivityRowDto, or a cluster's ActivityBrief). */
function rowOf(rows: unknown, id: string): Loose | undefined {
  if (!Array.isArray(rows)) return undefined;
  const row = rows.find((r) => isRecord(r) && r._id === id);
  if (!isRecord(row)) return undefined;
  const ok =
    typeof row.kratakNaziv === 'string' &&
    typeof row.naziv === 'string' &&
    typeof row.status === 'string' &&
    typeof row.returned === 'number' &&
    typeof row.boja === 'string' &&
    (typeof row.rok === 'string' || typeof row.rok === 'number') &&
    Array.isArray(row.odgovoran) &&
    dateOrNull(row.datumPocetka) &&
    dateOrNull(row.datumZavrsetka) &&
    dateOrNull(row.rokZavrsetka);
  return ok ? row : undefined;
}

function locationOf(value: unknown): ActivityHead['lokacija'] | undefined {
  return isRecord(value) && typeof value._id === 'string' && typeof value.naziv === 'string'
    ? { _id: value._id, naziv: value.naziv }
    : undefined;
}

/**
 * The activity's head from the React Query cache: a cached list page (`rows`, as DataTable keeps them) or a
 * cached cluster (its `aktivnosti`) that lists it. A cluster's rows carry no cluster: it comes from the
 * cluster's own record. Undefined when no list has it (an address typed or opened from elsewhere).
 */
export function listedActivity(queryClient: QueryClient, id: string): ActivityHead | undefined {
  let found: Loose | undefined;
  let lokacija: ActivityHead['lokacija'] | undefined;
  for (const query of queryClient.getQueryCache().getAll()) {
    const data = query.state.data;
    if (!isRecord(data)) continue;
    const inPage = rowOf(data.rows, id);
    const inCluster = rowOf(data.aktivnosti, id);
    const row = inPage ?? inCluster;
    if (!row) continue;
    found ??= row;
    lokacija ??= locationOf(row.lokacija) ?? (inCluster ? locationOf(data) : undefined);
    if (lokacija) break;
  }
  if (!found || !lokacija) return undefined;
  return {
    _id: id,
    kratakNaziv: found.kratakNaziv,
    naziv: found.naziv,
    status: found.status,
    returned: found.returned,
    boja: found.boja,
    rok: found.rok,
    odgovoran: found.odgovoran,
    datumPocetka: found.datumPocetka,
    datumZavrsetka: found.datumZavrsetka,
    rokZavrsetka: found.rokZavrsetka,
    lokacija,
  } as ActivityHead;
}
