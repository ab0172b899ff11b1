import { sql } from 'drizzle-orm';
import { beforeAll, expect } from 'vitest';
import { type TestApp, useTestApp } from '../../../test/harness.js';
import { createCluster, createGroup, createSettlement, createUser, tokenFor } from '../../seed/factories.js';

/**
 * What the inventory totals tests share (totals.*.test.ts): seen and hidden schools with items of several
 * types, and checks of the kept totals against plain queries over the items.
 */

/**
 * The inventory reports at scale (migration 0014): inventory_totals, kept by triggers, must equal the
 * plain sums over the items after every kind of write, the items' copies of the location's and entry's
 * names must follow renames, and every report (its pages, order, totals) must answer exactly what the
 * plain query over the items answers.
 */
/** The running test file's app (set by its set-up: the modules are shared between a worker's files). */
export let t: TestApp;

export let admin: string;
export let client: string;
/** The client's locations (its Naručilac group's) and one it does not see. */
export let seen: { id: string; naziv: string }[];
export let hidden: { id: string; naziv: string };
export let types: { id: string; naziv: string; tip: string }[];

type Row = Record<string, unknown>;
export const rowsOf = async (query: ReturnType<typeof sql>): Promise<Row[]> => (await t.db.execute(query)).rows as Row[];

/** inventory_totals compared with the plain grouping of the items, both ways; and the name copies. */
export async function expectTotalsExact() {
  const [diff] = await rowsOf(sql`
    with plain as (
      select cluster_id, type_id, count(*)::int as n, sum(kolicina) as kolicina, sum(round(kolicina * cena_rsd, 2)) as vrednost,
             max(datum_primopredaje) as datum
      from inventory_items group by cluster_id, type_id
    ), kept as (select cluster_id, type_id, n, kolicina, vrednost, datum from inventory_totals)
    select (select count(*) from (select * from plain except select * from kept) a)::int as missing,
           (select count(*) from (select * from kept except select * from plain) b)::int as extra,
           (select count(*) from kept)::int as kept`);
  expect(diff).toMatchObject({ missing: 0, extra: 0 });
  await expectLocationTotalsExact();
  const [names] = await rowsOf(sql`
    select count(*)::int as wrong from inventory_items i join clusters c on c.id = i.cluster_id join inventory_types ty on ty.id = i.type_id
    where i.cluster_naziv is distinct from c.naziv or i.type_naziv is distinct from ty.naziv`);
  expect(names?.wrong).toBe(0);
  return diff?.kept as number;
}

/**
 * inventory_location_totals (migration 0028) compared with the plain grouping of the items per location,
 * both ways (the value per tip from the entry's current tip).
 */
async function expectLocationTotalsExact() {
  const [exists] = await rowsOf(sql`select to_regclass('inventory_location_totals') is not null as ok`);
  if (!exists?.ok) return;
  const [diff] = await rowsOf(sql`
    with plain as (
      select i.cluster_id, count(*)::int as n,
             coalesce(sum(round(i.kolicina * i.cena_rsd, 2)) filter (where ty.tip = 'Materijal'), 0) as materijal,
             coalesce(sum(round(i.kolicina * i.cena_rsd, 2)) filter (where ty.tip = 'Oprema'), 0) as oprema,
             coalesce(sum(round(i.kolicina * i.cena_rsd, 2)) filter (where ty.tip = 'Radovi'), 0) as radovi,
             sum(round(i.kolicina * i.cena_rsd, 2)) as vrednost
      from inventory_items i join inventory_types ty on ty.id = i.type_id group by i.cluster_id
    ), kept as (select cluster_id, n, materijal, oprema, radovi, vrednost from inventory_location_totals)
    select (select count(*) from (select * from plain except select * from kept) a)::int as missing,
           (select count(*) from (select * from kept except select * from plain) b)::int as extra`);
  expect(diff).toEqual({ missing: 0, extra: 0 });
}

/** Every page of a report (`limit` rows each) concatenated. */
export async function pages<T>(url: string, token: string, limit: number, rows: (body: Record<string, unknown>) => T[]): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; page < 200; page++) {
    const res = await t.call({ method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}limit=${limit}&page=${page}`, token });
    expect(res.statusCode, res.body).toBe(200);
    const got = rows(res.json());
    out.push(...got);
    if (got.length < limit) break;
  }
  return out;
}

export const visibleOf = (token: string) => (token === admin ? [...seen, hidden] : seen).map((c) => c.id);
export const uuids = (ids: string[]) =>
  sql`array[${sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  )}]`;

/**
 * Registers the set-up of the calling test file: its own app and data, read through the bindings above
 * while its tests run (vitest isolate: false shares this module between a worker's files).
 */
export function setupTotals(): void {
  const app = useTestApp();
  beforeAll(async () => {
    t = app;
    const nar = await createGroup(t.db, { type: 'NARUCILAC' });
    admin = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
    client = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: nar.id }));
    const valjevo = await createSettlement(t.db, { naziv: 'Divci', opstine: ['Valjevo'] });
    const cacak = await createSettlement(t.db, { naziv: 'Čačak', opstine: ['Čačak'] });
    // Serbian order differs from byte order (Č, Ć after C; Z before Ž).
    seen = [
      await createCluster(t.db, { naziv: 'OŠ Zemun', groupIds: [nar.id], naselja: [valjevo.id] }),
      await createCluster(t.db, { naziv: 'OŠ Čačak', groupIds: [nar.id], naselja: [cacak.id] }),
      await createCluster(t.db, { naziv: 'OŠ Ćuprija', groupIds: [nar.id], naselja: [valjevo.id] }),
    ];
    hidden = await createCluster(t.db, { naziv: 'OŠ Cerovac' });
    types = (await rowsOf(sql`
      insert into inventory_types (naziv, tip, cena, cena_rsd, sifra)
      values ('Žica bakarna', 'Materijal', 10, 10, 'M1'), ('Čvorište', 'Oprema', 500, 500, 'O1'),
             ('Antena', 'Oprema', 900.5, 900.5, 'O2'), ('Iskop rova', 'Radovi', 1200, 1200, 'R1')
      returning id, naziv, tip`)) as typeof types;
    // 48 items: every location and entry, dates with many ties, quantities and prices with decimals.
    const all = [...seen, hidden];
    const values = [];
    for (let i = 0; i < 48; i++) {
      const c = all[i % all.length] as { id: string };
      const ty = types[Math.floor(i / all.length) % types.length] as { id: string };
      values.push(
        sql`(${ty.id}::uuid, ${c.id}::uuid, ${1 + (i % 5) * 0.125}, ${(i % 7) * 33.33 + 0.07}, ${`2026-0${1 + (i % 3)}-1${i % 2}`}::date)`,
      );
    }
    await t.db.execute(
      sql`insert into inventory_items (type_id, cluster_id, kolicina, cena_rsd, datum_primopredaje) values ${sql.join(values, sql`, `)}`,
    );
  });
}
