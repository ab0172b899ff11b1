import { checkedHolderIds, holderIds, type IjoTaxRow, parseAmount } from '@trasa/domain';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll } from 'vitest';
import { type TestApp, useTestApp } from '../../../test/harness.js';
import { groups, groupTypes } from '../../db/schema.js';
import { activities, ijoHolders } from '../../db/schema-activities.js';
import { clusterGroups, clusters, contractClusters, contractGroups, contracts } from '../../db/schema-clusters.js';
import { dataItems } from './service.js';

/**
 * What the IJO rows tests share (ijoRows.*.test.ts): the amounts trasa_amount reads, and the IJO report's
 * rows, order and totals computed the domain's way from the A7s.
 */

/**
 * The IJO fees report is computed in SQL (service.ts ijoRowsCte; trasa_amount and trasa_trim of
 * migration 0015). Here it is checked against the reading the server did before, written out in this
 * file from the domain's own functions (holderIds, checkedHolderIds, parseAmount) over the stored A7
 * data: the same inputs through both, every row, every total, every sort both ways, pages, filters.
 */
/** The running test file's app (set by its set-up: the modules are shared between a worker's files). */
export let t: TestApp;

/** Inputs parseAmount has rules for, and ones it must refuse. */
export const AMOUNTS = [
  '12 500 RSD',
  '12 500 rsd',
  '1.234,5',
  '1234,5',
  '1234.5',
  '300 m',
  '300m',
  '300 M',
  '5 mm',
  '1\u00a0250,50 дин.',
  '1\u202f250,50 ДИН',
  '7 динара',
  '7 Dinara',
  '7 din.',
  '7 din',
  '7 EUR',
  '7 usd',
  '12 metara',
  '12 метара',
  '12 м',
  '12 m m',
  '1e5',
  'abc12',
  '12abc',
  '1,2,3',
  '1,2',
  ',5',
  '5,',
  '5.',
  '.5',
  '-5',
  '--5',
  '+5',
  '- 5',
  '-0',
  '0',
  '00012.50',
  '',
  ' ',
  '\t 42 \n',
  '\u2028 42\u3000',
  '\ufeff42',
  "1'000'000",
  '1 000 000,99',
  '1000000000000',
  '-1000000000000',
  '1000000000000.00001',
  '1000000000000.0001',
  '1000000000001',
  '99999999999999999999999',
  '٣',
  '１２',
  'NaN',
  'Infinity',
  '0x10',
  '1_000',
  '12 RSD RSD',
  'RSD',
  '12rsdx',
  '1.5.5',
  '3 ,5',
  '3, 5',
  '0.1',
  '0.30000000000000004',
  '123456789.123456789',
];

/** Random strings of the characters these rules are about. */
export function randomAmounts(count: number): string[] {
  const parts = ['1', '2', '0', '9', ' ', ',', '.', "'", '-', '\u00a0', '\t', 'm', 'M', 'din', 'RSD', 'м', 'дин.', 'e', 'x', '5'];
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  return Array.from({ length: count }, () => {
    const n = 1 + Math.floor(next() * 7);
    return Array.from({ length: n }, () => parts[Math.floor(next() * parts.length)]).join('');
  });
}

type Raw = {
  clusterId: string;
  klaster: string;
  podaci: unknown;
  ugovor: string | null;
  ugovorId: string | null;
  ugovorBroj: string | null;
};

/** The reading of the stored data the server did before, written with the domain's functions. */
export async function expectedRows(): Promise<IjoTaxRow[]> {
  const a7: Raw[] = await t.db
    .select({
      clusterId: clusters.id,
      klaster: clusters.naziv,
      podaci: activities.podaci,
      ugovor: contracts.naziv,
      ugovorId: contracts.id,
      ugovorBroj: contracts.broj,
    })
    .from(activities)
    .innerJoin(clusters, eq(clusters.id, activities.clusterId))
    .leftJoin(contractClusters, and(eq(contractClusters.clusterId, clusters.id), eq(contractClusters.kind, 'contract')))
    .leftJoin(contracts, eq(contracts.id, contractClusters.contractId))
    .where(and(eq(activities.code, 'A7'), sql`${activities.podaci} @> '[{"key":"Ijos"}]'::jsonb`));
  const collator = new Intl.Collator('sr-Latn');
  a7.sort((x, y) => collator.compare(x.klaster, y.klaster) || (x.clusterId < y.clusterId ? -1 : 1));
  const holders = new Map((await t.db.select().from(ijoHolders)).map((h) => [h.id, h]));
  const byContract = await t.db
    .selectDistinct({ clusterId: contractClusters.clusterId, naziv: groups.naziv })
    .from(contractClusters)
    .innerJoin(contractGroups, eq(contractGroups.contractId, contractClusters.contractId))
    .innerJoin(groups, eq(groups.id, contractGroups.groupId))
    .where(eq(contractClusters.kind, 'contractIzv'));
  const responsible = await t.db
    .selectDistinct({ clusterId: clusterGroups.clusterId, naziv: groups.naziv })
    .from(clusterGroups)
    .innerJoin(groups, eq(groups.id, clusterGroups.groupId))
    .innerJoin(groupTypes, eq(groupTypes.id, groups.typeId))
    .where(eq(groupTypes.code, 'IZVODJAC'));
  const namesOf = (list: { clusterId: string; naziv: string }[], id: string) =>
    list
      .filter((g) => g.clusterId === id)
      .map((g) => g.naziv)
      .sort(collator.compare);
  const rows: IjoTaxRow[] = [];
  for (const a of a7) {
    const podaci = dataItems(a.podaci);
    const checked = new Set(checkedHolderIds(podaci));
    const contract = namesOf(byContract, a.clusterId);
    const contractor = (contract.length ? contract : namesOf(responsible, a.clusterId)).join(', ') || 'Nije određen';
    for (const id of holderIds(podaci)) {
      const holder = holders.get(id);
      const fee = podaci.find((p) => p.key === 'A7Taksa' && p.ref === id);
      const zaduzen = holder?.odgovoran === 'Naručilac' ? 'Naručilac' : 'Izvođač';
      rows.push({
        ugovor: a.ugovor ?? '',
        ugovorId: a.ugovorId,
        ugovorBroj: a.ugovorBroj ?? '',
        klaster: a.klaster,
        klasterId: a.clusterId,
        imaoc: holder?.naziv ?? (fee?.naziv || id),
        imaocId: id,
        status: checked.has(id),
        taksa: parseAmount(fee?.vrednost ?? null),
        zaduzen,
        ...(zaduzen === 'Izvođač' ? { izvodjacNaziv: contractor } : {}),
      });
    }
  }
  // As the client received them (JSON: -0 is 0).
  return JSON.parse(JSON.stringify(rows));
}

type Key = 'ugovor' | 'klaster' | 'imaoc' | 'status' | 'taksa' | 'zaduzen' | 'izvodjac';
/** The order the report promises: the column (Serbian order; empty last going up, first going down), ties in the default order. */
export function sorted(rows: IjoTaxRow[], sort: Key, order: 'asc' | 'desc'): IjoTaxRow[] {
  const collator = new Intl.Collator('sr-Latn');
  const key = (r: IjoTaxRow) => (sort === 'izvodjac' ? (r.izvodjacNaziv ?? null) : r[sort]);
  const sign = order === 'desc' ? -1 : 1;
  const compare = (a: unknown, b: unknown) => {
    if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
    if (typeof a === 'string' && typeof b === 'string') return collator.compare(a, b);
    return Number(a) - Number(b);
  };
  return [...rows].sort((x, y) => sign * compare(key(x), key(y)));
}

export function totals(rows: IjoTaxRow[]) {
  const round2 = (n: number) => Math.round(n * 100) / 100;
  let narucilac = 0;
  let izvodjaci = 0;
  const byContractor = new Map<string, number>();
  for (const r of rows) {
    if (r.zaduzen === 'Naručilac') narucilac += r.taksa ?? 0;
    else {
      izvodjaci += r.taksa ?? 0;
      const naziv = r.izvodjacNaziv ?? '';
      byContractor.set(naziv, (byContractor.get(naziv) ?? 0) + (r.taksa ?? 0));
    }
  }
  const collator = new Intl.Collator('sr-Latn');
  return {
    narucilacTotal: round2(narucilac),
    izvodjaciTotal: round2(izvodjaci),
    byContractor: [...byContractor].map(([naziv, sum]) => ({ naziv, sum: round2(sum) })).sort((a, b) => collator.compare(a.naziv, b.naziv)),
    totalTax: round2(narucilac + izvodjaci),
  };
}

/**
 * Registers the set-up of the calling test file: its own app and data, read through the bindings above
 * while its tests run (vitest isolate: false shares this module between a worker's files).
 */
export function setupIjoRows(): void {
  const app = useTestApp();
  beforeAll(() => {
    t = app;
  });
}
