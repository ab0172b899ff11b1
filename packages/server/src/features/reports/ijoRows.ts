import { DATA_KEYS, type IjoTaxRow, type IjoTaxTotals, type Payer, REPORTS, type Sorting, type SortKey, toLatin } from '@trasa/domain';
import { type SQL, sql } from 'drizzle-orm';
import { groups, groupTypes } from '../../db/schema.js';
import { activities, ijoHolders } from '../../db/schema-activities.js';
import { clusterGroups, clusters, contractClusters, contractGroups, contracts } from '../../db/schema-clusters.js';
import type { Executor } from '../../platform/database.js';
import { badRequest } from '../../platform/errors.js';
import { type SortMap, serbianCompare, sortKeyOf } from '../../platform/sorting.js';
import { round2 } from './filters.js';

/** 'Izvođač' / 'Naručilac' in either script, with or without diacritics; null for none; 400 otherwise. */
export function payerFilter(payer: string | undefined): Payer | null {
  const folded = toLatin((payer ?? '').trim())
    .toLowerCase()
    .replace(/đ/g, 'dj')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
  if (!folded || folded === 'all' || folded === 'sve' || folded === 'svi') return null;
  if (folded === 'izvodjac' || folded === 'izvodac') return 'Izvođač';
  if (folded === 'narucilac') return 'Naručilac';
  throw badRequest(REPORTS.unknownReport, { payer: 'Neispravna vrednost.' });
}

export const NO_CONTRACTOR = 'Nije određen';

/**
 * The first data item of an A7 with the key (any ref), its value trimmed, as `dataValue` reads it
 * (a JSON null or a missing value is ''); null without one.
 */
const firstValue = (key: string) =>
  sql`(select trasa_trim(coalesce(e->>'vrednost', '')) from jsonb_array_elements(${activities.podaci}) with ordinality x(e, n)
    where e->>'key' = ${key} order by n limit 1)`;

/** The contractor's name of each of the A7s' clusters (the groups of a contractor contract, else the responsible IZVODJAC groups). */
const contractorNames = (groupsOf: SQL) =>
  sql`select x.cluster_id, string_agg(x.naziv, ', ' order by x.naziv collate trasa_sr) as naziv
    from (${groupsOf}) x group by x.cluster_id`;

/**
 * The rows of the IJO fees report as a chain of CTEs ending in `r`: one row per holder id on each A7
 * (of the clusters `where` selects, and of `payer` when given), in the columns of IjoTaxRow. It does in
 * SQL what the report did in the server from each A7's data (@trasa/domain: holderIds, checkedHolderIds,
 * dataValue, parseAmount — trasa_amount, migration 0015): the first `Ijos` item's value split at commas,
 * each id trimmed, empty ones dropped, duplicates kept, in the list's order (`ord`); done when on the
 * first `A7IjoChecked` item's list; the fee from the first `A7Taksa` item whose `ref` is that id; the
 * holder's name from the codebook, else that item's `naziv`, else the id; the payer 'Naručilac' only for a
 * codebook holder of that responsibility; an Izvođač row's contractor: the names of the groups of the
 * cluster's contractor contract, else of its responsible IZVODJAC groups, distinct, in Serbian order,
 * joined by ', ' (NO_CONTRACTOR for none). ijoRows.test.ts compares it with that reading row by row.
 */
export function ijoRowsCte(where: SQL, payer: Payer | null): SQL {
  const general = sql`gc`;
  return sql`a7 as (
    select ${activities.id} as activity_id, ${clusters.id} as cluster_id, ${clusters.naziv} as klaster, ${activities.podaci} as podaci,
      k.id as ugovor_id, k.naziv as ugovor, k.broj as ugovor_broj,
      ${firstValue(DATA_KEYS.holders)} as ijos,
      array(select trasa_trim(v) from unnest(string_to_array(${firstValue(DATA_KEYS.a7Checked)}, ',')) v) as checked
    from ${activities}
    join ${clusters} on ${clusters.id} = ${activities.clusterId}
    left join ${contractClusters} ${general} on ${general}.cluster_id = ${clusters.id} and ${general}.kind = 'contract'
    left join ${contracts} k on k.id = ${general}.contract_id
    where ${activities.code} = 'A7' and ${activities.podaci} @> '[{"key":"Ijos"}]'::jsonb and ${where}
  ),
  by_contract as (${contractorNames(sql`select distinct cc.cluster_id, g.naziv from ${contractClusters} cc
    join ${contractGroups} cg on cg.contract_id = cc.contract_id join ${groups} g on g.id = cg.group_id
    where cc.kind = 'contractIzv' and cc.cluster_id in (select cluster_id from a7)`)}),
  by_responsible as (${contractorNames(sql`select distinct cg.cluster_id, g.naziv from ${clusterGroups} cg
    join ${groups} g on g.id = cg.group_id join ${groupTypes} t on t.id = g.type_id
    where t.code = 'IZVODJAC' and cg.cluster_id in (select cluster_id from a7)`)}),
  rows as (
    select a7.activity_id, a7.cluster_id, a7.klaster, a7.ugovor_id, coalesce(a7.ugovor, '') as ugovor,
      coalesce(a7.ugovor_broj, '') as ugovor_broj, h.id as imaoc_id, h.n as ord,
      coalesce(ih.naziv, nullif(fee.naziv, ''), h.id) as imaoc,
      h.id = any(a7.checked) as status,
      trasa_amount(fee.vrednost) as taksa,
      case when ih.odgovoran = 'Naručilac' then 'Naručilac' else 'Izvođač' end as zaduzen,
      case when ih.odgovoran = 'Naručilac' then null else coalesce(nullif(coalesce(bc.naziv, br.naziv), ''), ${NO_CONTRACTOR}) end as izvodjac
    from a7
    cross join lateral (select trasa_trim(u.v) as id, u.n from unnest(string_to_array(a7.ijos, ',')) with ordinality u(v, n) offset 0) h
    left join lateral (select coalesce(e->>'vrednost', '') as vrednost, coalesce(e->>'naziv', '') as naziv
      from jsonb_array_elements(a7.podaci) with ordinality x(e, n)
      where e->>'key' = ${DATA_KEYS.a7Fee} and jsonb_typeof(e->'ref') = 'string' and e->>'ref' = h.id order by n limit 1) fee on true
    left join ${ijoHolders} ih on ih.id::text = h.id
    left join by_contract bc on bc.cluster_id = a7.cluster_id
    left join by_responsible br on br.cluster_id = a7.cluster_id
    where h.id <> ''
  ),
  r as (select * from rows${payer ? sql` where zaduzen = ${payer}` : sql``})`;
}

/** The report's default order: by cluster name (trasa_sr), the cluster, its A7, then the holder list's order. */
export const IJO_DEFAULT_ORDER = sql`klaster collate trasa_sr, cluster_id, activity_id, ord`;

/** `sort` of the IJO fees report (LIST_SORTS.ijoReport): columns of `r` (ijoRowsCte). */
const IJO_SORTS: SortMap<'ijoReport'> = {
  ugovor: { text: sql.raw('ugovor') },
  klaster: { text: sql.raw('klaster') },
  imaoc: { text: sql.raw('imaoc') },
  status: { value: sql.raw('status') },
  taksa: { value: sql.raw('taksa') },
  zaduzen: { text: sql.raw('zaduzen') },
  izvodjac: { text: sql.raw('izvodjac') },
};

/** The ORDER BY of a page: the chosen column in its direction (empty values last going up), then the default order. */
export function ijoOrder(sorting: Sorting<SortKey<'ijoReport'>>): SQL {
  const key = sortKeyOf(IJO_SORTS, sorting);
  return key ? sql`${key.expression} ${key.direction}, ${IJO_DEFAULT_ORDER}` : IJO_DEFAULT_ORDER;
}

export type IjoSqlRow = {
  ugovor: string;
  ugovor_id: string | null;
  ugovor_broj: string;
  klaster: string;
  cluster_id: string;
  imaoc: string;
  imaoc_id: string;
  status: boolean;
  taksa: string | null;
  zaduzen: Payer;
  izvodjac: string | null;
};
/** The answer's columns of `r` (the page's ORDER BY runs before: `taksa` as text here would sort as text). */
export const IJO_COLUMNS = sql`ugovor, ugovor_id, ugovor_broj, klaster, cluster_id, imaoc, imaoc_id, status, taksa::text as taksa, zaduzen, izvodjac`;

/** A row of the answer, its fields in the order (and with the values) the report has always sent. */
export function presentIjoRow(r: IjoSqlRow): IjoTaxRow {
  return {
    ugovor: r.ugovor,
    ugovorId: r.ugovor_id,
    ugovorBroj: r.ugovor_broj,
    klaster: r.klaster,
    klasterId: r.cluster_id,
    imaoc: r.imaoc,
    imaocId: r.imaoc_id,
    status: r.status,
    taksa: r.taksa === null ? null : Number(r.taksa),
    zaduzen: r.zaduzen,
    ...(r.zaduzen === 'Izvođač' ? { izvodjacNaziv: r.izvodjac ?? NO_CONTRACTOR } : {}),
  };
}

/** One row per holder on each A7 of the clusters `where` selects, in the report's default order (the snapshots). */
export async function ijoRowsOf(db: Executor, where: SQL): Promise<IjoTaxRow[]> {
  const result = await db.execute<IjoSqlRow>(
    sql`with ${ijoRowsCte(where, null)} select ${IJO_COLUMNS} from (select * from r order by ${IJO_DEFAULT_ORDER}) r`,
  );
  return result.rows.map(presentIjoRow);
}

/** The totals of spec 3 §3 from the sums per payer and contractor: by payer, per contractor (in the given order), in all. */
export function totalsOf(sums: readonly { zaduzen: Payer; izvodjac: string | null; sum: number }[]): IjoTaxTotals {
  let narucilac = 0;
  let izvodjaci = 0;
  const byContractor: { naziv: string; sum: number }[] = [];
  for (const s of sums) {
    if (s.zaduzen === 'Naručilac') narucilac += s.sum;
    else {
      izvodjaci += s.sum;
      byContractor.push({ naziv: s.izvodjac ?? NO_CONTRACTOR, sum: round2(s.sum) });
    }
  }
  return { narucilacTotal: round2(narucilac), izvodjaciTotal: round2(izvodjaci), byContractor, totalTax: round2(narucilac + izvodjaci) };
}

/** The totals of spec 3 §3 over rows already built (a stored snapshot's): by payer, per contractor (by name), and in all. */
export function ijoTotals(rows: readonly IjoTaxRow[]): IjoTaxTotals {
  let narucilac = 0;
  let izvodjaci = 0;
  const byContractor = new Map<string, number>();
  for (const r of rows) {
    const fee = r.taksa ?? 0;
    if (r.zaduzen === 'Naručilac') narucilac += fee;
    else {
      izvodjaci += fee;
      const naziv = r.izvodjacNaziv ?? NO_CONTRACTOR;
      byContractor.set(naziv, (byContractor.get(naziv) ?? 0) + fee);
    }
  }
  return {
    narucilacTotal: round2(narucilac),
    izvodjaciTotal: round2(izvodjaci),
    byContractor: [...byContractor].map(([naziv, sum]) => ({ naziv, sum: round2(sum) })).sort((a, b) => serbianCompare(a.naziv, b.naziv)),
    totalTax: round2(narucilac + izvodjaci),
  };
}

export function filterIjoRows(rows: readonly IjoTaxRow[], contractId: string | null, payer: Payer | null): IjoTaxRow[] {
  return rows.filter((r) => (!contractId || r.ugovorId === contractId) && (!payer || r.zaduzen === payer));
}
