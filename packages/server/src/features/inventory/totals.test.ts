import {
  type A13Page,
  type AllInventoryPage,
  INVENTORY,
  type InventoryItemDto,
  type PerLocationPage,
  type SumPerTypePage,
} from '@trasa/domain';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { createCluster, createGroup, createSettlement, createUser, setActivityState, tokenFor } from '../../seed/factories.js';

/**
 * The inventory reports at scale (migration 0014): inventory_totals, kept by triggers, must equal the
 * plain sums over the items after every kind of write, the items' copies of the location's and entry's
 * names must follow renames, and every report (its pages, order, totals) must answer exactly what the
 * plain query over the items answers.
 */
const t = useTestApp();

let admin: string;
let client: string;
/** The client's locations (its Naručilac group's) and one it does not see. */
let seen: { id: string; naziv: string }[];
let hidden: { id: string; naziv: string };
let types: { id: string; naziv: string; tip: string }[];

type Row = Record<string, unknown>;
const rowsOf = async (query: ReturnType<typeof sql>): Promise<Row[]> => (await t.db.execute(query)).rows as Row[];

beforeAll(async () => {
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

/** inventory_totals compared with the plain grouping of the items, both ways; and the name copies. */
async function expectTotalsExact() {
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

describe('inventory_totals and the name copies', () => {
  it('equal the plain sums and names after inserts, edits, moves, deletes and renames', async () => {
    expect(await expectTotalsExact()).toBeGreaterThan(10);
    const ty = types[0] as { id: string };
    const location = seen[0] as { id: string };
    // Through the API: a new item, its edit (quantity, price, date, entry), its delete.
    const created = await t.call({
      method: 'POST',
      url: '/api/inventory',
      token: client,
      payload: { invType: ty.id, lokacija: location.id, kolicina: '2,5', cenaRsd: '99,99', datumPrimopredaje: '2026-09-30' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const item = created.json().item as InventoryItemDto;
    await expectTotalsExact();
    const [latest] = await rowsOf(sql`select datum::text from inventory_totals where cluster_id = ${location.id} and type_id = ${ty.id}`);
    expect(latest?.datum).toBe('2026-09-30');
    const edited = await t.call({
      method: 'PATCH',
      url: `/api/inventory/${item._id}`,
      token: client,
      payload: { invType: (types[3] as { id: string }).id, kolicina: 3, cenaRsd: 0.01, datumPrimopredaje: '2026-10-01' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    await expectTotalsExact();
    // The latest handover of the first pair falls back when its newest item moves away.
    const [back] = await rowsOf(sql`select datum::text from inventory_totals where cluster_id = ${location.id} and type_id = ${ty.id}`);
    expect(back?.datum).not.toBe('2026-09-30');
    expect((await t.call({ method: 'DELETE', url: `/api/inventory/${item._id}`, token: client })).statusCode).toBe(200);
    await expectTotalsExact();
    // In bulk: an item moved to another location and entry, prices changed, one pair emptied.
    await t.db.execute(sql`update inventory_items set cluster_id = ${hidden.id}, type_id = ${(types[2] as { id: string }).id}
      where id = (select id from inventory_items where cluster_id = ${location.id} order by id limit 1)`);
    await t.db.execute(sql`update inventory_items set cena_rsd = cena_rsd + 1.11 where cluster_id = ${(seen[1] as { id: string }).id}`);
    await expectTotalsExact();
    const [pair] = await rowsOf(sql`select cluster_id, type_id from inventory_totals order by n, cluster_id limit 1`);
    await t.db.execute(sql`delete from inventory_items where cluster_id = ${pair?.cluster_id} and type_id = ${pair?.type_id}`);
    await expectTotalsExact();
    const [gone] = await rowsOf(
      sql`select count(*)::int as n from inventory_totals where cluster_id = ${pair?.cluster_id} and type_id = ${pair?.type_id}`,
    );
    expect(gone?.n).toBe(0);
    // Renames: the copies follow (the reports sort by them).
    await t.db.execute(sql`update clusters set naziv = 'OŠ Ždrelo' where id = ${location.id}`);
    await t.db.execute(sql`update inventory_types set naziv = 'Ćup' where id = ${ty.id}`);
    await expectTotalsExact();
    (seen[0] as { naziv: string }).naziv = 'OŠ Ždrelo';
    (types[0] as { naziv: string }).naziv = 'Ćup';
    // An entry's tip changed (the API refuses it for an entry in use; the kept value per tip follows anyway).
    const moved = types[1] as { id: string };
    await t.db.execute(sql`update inventory_types set tip = 'Radovi' where id = ${moved.id}`);
    await expectTotalsExact();
    await t.db.execute(sql`update inventory_types set tip = 'Oprema' where id = ${moved.id}`);
    await expectTotalsExact();
    // A location's last items deleted: its kept row goes; a new location's first item makes one.
    const fresh = await createCluster(t.db, { naziv: 'OŠ Privremena' });
    await t.db.execute(sql`insert into inventory_items (type_id, cluster_id, kolicina, cena_rsd, datum_primopredaje)
      values (${moved.id}, ${fresh.id}, 1.5, 2.25, '2026-05-05'), (${ty.id}, ${fresh.id}, 2, 3, '2026-05-06')`);
    await expectTotalsExact();
    await t.db.execute(sql`update inventory_items set cluster_id = ${hidden.id} where cluster_id = ${fresh.id} and type_id = ${ty.id}`);
    await expectTotalsExact();
    await t.db.execute(sql`delete from inventory_items where cluster_id = ${fresh.id}`);
    await expectTotalsExact();
    await t.db.execute(sql`delete from clusters where id = ${fresh.id}`);
  });
});

describe('inventory_totals under concurrent writes', () => {
  it("stays exact when one location's items are added, edited and deleted at once", async () => {
    const location = seen[2] as { id: string };
    const ty = types[1] as { id: string };
    const post = (i: number) =>
      t.call({
        method: 'POST',
        url: '/api/inventory',
        token: client,
        payload: { invType: ty.id, lokacija: location.id, kolicina: i + 1, cenaRsd: 1.5 * i, datumPrimopredaje: `2026-11-${10 + i}` },
      });
    const created = await Promise.all(Array.from({ length: 8 }, (_, i) => post(i)));
    for (const res of created) expect(res.statusCode, res.body).toBe(201);
    const ids = created.map((res) => (res.json().item as InventoryItemDto)._id);
    const writes = await Promise.all([
      ...ids.slice(0, 4).map((id) => t.call({ method: 'DELETE', url: `/api/inventory/${id}`, token: client })),
      ...ids.slice(4).map((id, i) =>
        t.call({
          method: 'PATCH',
          url: `/api/inventory/${id}`,
          token: client,
          payload: { invType: ty.id, kolicina: 10 + i, cenaRsd: 2, datumPrimopredaje: '2026-12-01' },
        }),
      ),
      post(9),
      post(10),
    ]);
    for (const res of writes) expect(res.statusCode, res.body).toBeLessThan(300);
    await expectTotalsExact();
  });
});

/** Every page of a report (`limit` rows each) concatenated. */
async function pages<T>(url: string, token: string, limit: number, rows: (body: Record<string, unknown>) => T[]): Promise<T[]> {
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

const visibleOf = (token: string) => (token === admin ? [...seen, hidden] : seen).map((c) => c.id);
const uuids = (ids: string[]) =>
  sql`array[${sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  )}]`;

describe('the reports answer what the plain queries over the items answer', () => {
  it('all items: every page in the default order and by location, name and tip; count, sum and search', async () => {
    for (const token of [admin, client]) {
      const ids = uuids(visibleOf(token));
      const plainOrder = async (order: ReturnType<typeof sql>, where = sql`true`) =>
        (
          await rowsOf(sql`select i.id from inventory_items i join clusters c on c.id = i.cluster_id join inventory_types ty on ty.id = i.type_id
            where i.cluster_id = any(${ids}) and ${where} order by ${order}`)
        ).map((r) => r.id);
      const sve = (b: Record<string, unknown>) => (b as unknown as AllInventoryPage).allInventory.map((r) => r._id);
      expect(await pages('/api/inventory-reports/sve', token, 5, sve)).toEqual(
        await plainOrder(sql`i.datum_primopredaje desc, c.naziv collate trasa_sr, ty.naziv collate trasa_sr, i.id`),
      );
      for (const order of ['asc', 'desc'] as const) {
        const dir = sql.raw(order);
        expect(await pages(`/api/inventory-reports/sve?sort=lokacija&order=${order}`, token, 5, sve)).toEqual(
          await plainOrder(sql`c.naziv collate trasa_sr ${dir}, i.id ${dir}`),
        );
        expect(await pages(`/api/inventory-reports/sve?sort=naziv&order=${order}`, token, 5, sve)).toEqual(
          await plainOrder(sql`ty.naziv collate trasa_sr ${dir}, i.id ${dir}`),
        );
        expect(await pages(`/api/inventory-reports/sve?sort=tip&order=${order}`, token, 5, sve)).toEqual(
          await plainOrder(sql`ty.tip collate trasa_sr ${dir}, i.id ${dir}`),
        );
      }
      const res = await t.call({ method: 'GET', url: '/api/inventory-reports/sve?limit=1', token });
      const body = res.json() as AllInventoryPage;
      const [plain] = await rowsOf(
        sql`select count(*)::int as n, sum(round(kolicina * cena_rsd, 2))::text as s from inventory_items where cluster_id = any(${ids})`,
      );
      expect(body.totalResults).toBe(plain?.n);
      expect(body.ukupnoRsd).toBe(Number(plain?.s));
      // A search: an entry's name (either script) or a location's name.
      const searched = (
        await t.call({ method: 'GET', url: '/api/inventory-reports/sve?eng=cvoriste&limit=100', token })
      ).json() as AllInventoryPage;
      const expected = await plainOrder(
        sql`i.datum_primopredaje desc, c.naziv collate trasa_sr, ty.naziv collate trasa_sr, i.id`,
        sql`(ty.naziv = 'Čvorište' or c.naziv like '%vorište%')`,
      );
      expect(expected.length).toBeGreaterThan(0);
      expect(searched.allInventory.map((r) => r._id)).toEqual(expected);
      expect(searched.totalResults).toBe(expected.length);
      const byLocation = (
        await t.call({ method: 'GET', url: '/api/inventory-reports/sve?eng=cacak&limit=100', token })
      ).json() as AllInventoryPage;
      const [inCacak] = await rowsOf(
        sql`select count(*)::int as n, sum(round(kolicina * cena_rsd, 2))::text as s from inventory_items where cluster_id = ${(seen[1] as { id: string }).id}`,
      );
      expect(byLocation.totalResults).toBe(inCacak?.n);
      expect(byLocation.ukupnoRsd).toBe(Number(inCacak?.s));
    }
  });

  it('the summary per codebook entry: every page by name and by date, filters and totals', async () => {
    for (const token of [admin, client]) {
      const ids = uuids(visibleOf(token));
      const plain = async (order: ReturnType<typeof sql>, where = sql`true`) =>
        (
          await rowsOf(sql`select ty.id as "_id", sum(i.kolicina)::float8 as kolicina, sum(round(i.kolicina * i.cena_rsd, 2))::float8 as "ukupnoRsd",
              count(distinct i.cluster_id)::int as "brojLokacija", max(i.datum_primopredaje)::text as datum
            from inventory_items i join inventory_types ty on ty.id = i.type_id
            where i.cluster_id = any(${ids}) and ${where} group by ty.id order by ${order}`)
        ).map((r) => ({ ...r }));
      const rows = (b: Record<string, unknown>) =>
        (b as unknown as SumPerTypePage).sumPerTypeInventory.map((r) => ({
          _id: r._id,
          kolicina: r.kolicina,
          ukupnoRsd: r.ukupnoRsd,
          brojLokacija: r.brojLokacija,
          datum: r.datum,
        }));
      expect(await pages('/api/inventory-reports/sumarno/naziv', token, 1, rows)).toEqual(
        await plain(sql`ty.naziv collate trasa_sr, ty.tip, ty.id`),
      );
      expect(await pages('/api/inventory-reports/sumarno/datum', token, 1, rows)).toEqual(
        await plain(sql`max(i.datum_primopredaje) desc, ty.naziv collate trasa_sr, ty.id`),
      );
      expect(await pages('/api/inventory-reports/sumarno/naziv?sort=brojLokacija&order=desc', token, 1, rows)).toEqual(
        await plain(sql`count(distinct i.cluster_id) desc, ty.id desc`),
      );
      const valjevo = sql`i.cluster_id in (select cs.cluster_id from cluster_settlements cs join settlements s on s.id = cs.settlement_id where 'Valjevo' = any(s.opstine))`;
      expect(await pages('/api/inventory-reports/sumarno/naziv?opstina=valjevo&tip=Oprema', token, 2, rows)).toEqual(
        await plain(sql`ty.naziv collate trasa_sr, ty.tip, ty.id`, sql`${valjevo} and ty.tip = 'Oprema'`),
      );
      const body = (await t.call({ method: 'GET', url: '/api/inventory-reports/sumarno/naziv?limit=1', token })).json() as SumPerTypePage;
      const [sum] = await rowsOf(
        sql`select count(distinct type_id)::int as n, sum(round(kolicina * cena_rsd, 2))::text as s from inventory_items where cluster_id = any(${ids})`,
      );
      expect(body.totalResults).toBe(sum?.n);
      expect(body.ukupnoRsd).toBe(Number(sum?.s));
    }
  });

  it('the state per location: every page by name and by value, the count and a search', async () => {
    for (const token of [admin, client]) {
      const ids = uuids(visibleOf(token));
      const plain = async (order: ReturnType<typeof sql>, where = sql`true`) =>
        await rowsOf(sql`select c.id as "_id", count(*)::int as "brojStavki",
            coalesce(sum(round(i.kolicina * i.cena_rsd, 2)) filter (where ty.tip = 'Materijal'), 0)::float8 as materijal,
            coalesce(sum(round(i.kolicina * i.cena_rsd, 2)) filter (where ty.tip = 'Oprema'), 0)::float8 as oprema,
            coalesce(sum(round(i.kolicina * i.cena_rsd, 2)) filter (where ty.tip = 'Radovi'), 0)::float8 as radovi,
            sum(round(i.kolicina * i.cena_rsd, 2))::float8 as "ukupnoRsd"
          from inventory_items i join clusters c on c.id = i.cluster_id join inventory_types ty on ty.id = i.type_id
          where i.cluster_id = any(${ids}) and ${where} group by c.id order by ${order}`);
      const rows = (b: Record<string, unknown>) =>
        (b as unknown as PerLocationPage).inventoryPerLocation.map((r) => ({
          _id: r._id,
          brojStavki: r.brojStavki,
          materijal: r.materijal,
          oprema: r.oprema,
          radovi: r.radovi,
          ukupnoRsd: r.ukupnoRsd,
        }));
      expect(await pages('/api/inventory-reports/inventar-po-lokaciji', token, 1, rows)).toEqual(
        await plain(sql`c.naziv collate trasa_sr, c.id`),
      );
      expect(await pages('/api/inventory-reports/inventar-po-lokaciji?sort=ukupnoRsd&order=desc', token, 1, rows)).toEqual(
        await plain(sql`sum(round(i.kolicina * i.cena_rsd, 2)) desc, c.id desc`),
      );
      expect(await pages('/api/inventory-reports/inventar-po-lokaciji?eng=cuprija', token, 2, rows)).toEqual(
        await plain(sql`c.naziv collate trasa_sr, c.id`, sql`c.naziv = 'OŠ Ćuprija'`),
      );
      const body = (
        await t.call({ method: 'GET', url: '/api/inventory-reports/inventar-po-lokaciji?limit=1', token })
      ).json() as PerLocationPage;
      const [n] = await rowsOf(sql`select count(distinct cluster_id)::int as n from inventory_items where cluster_id = any(${ids})`);
      expect(body.totalResults).toBe(n?.n);
    }
  });

  it('the state per location: every sort both ways with every field, pages past the end', async () => {
    // An A13 confirmation and a school's confirmation on some locations (both sortable flags).
    await t.db.execute(sql`insert into a13_confirmations (cluster_id, status) values (${(seen[1] as { id: string }).id}, true)
      on conflict (cluster_id) do update set status = true`);
    await t.db.execute(sql`insert into school_notifications (cluster_id, email, lista, code_hash, expires_at, confirmed_at)
      values (${(seen[2] as { id: string }).id}, 'skola@example.rs', '{}'::jsonb, 'x', now() + interval '1 day', now())`);
    for (const token of [admin, client]) {
      const ids = uuids(visibleOf(token));
      const value = sql`sum(round(i.kolicina * i.cena_rsd, 2))`;
      const perTip = (tip: string) => sql`coalesce(sum(round(i.kolicina * i.cena_rsd, 2)) filter (where ty.tip = ${tip}), 0)`;
      const a13 = sql`coalesce((select a.status from a13_confirmations a where a.cluster_id = c.id), false)`;
      const school = sql`exists (select 1 from school_notifications n where n.cluster_id = c.id and n.confirmed_at is not null)`;
      const plain = async (order: ReturnType<typeof sql>) =>
        await rowsOf(sql`select c.id as "_id", c.naziv, count(*)::int as "brojStavki", ${perTip('Materijal')}::float8 as materijal,
            ${perTip('Oprema')}::float8 as oprema, ${perTip('Radovi')}::float8 as radovi, ${value}::float8 as "ukupnoRsd",
            ${a13} as a13, ${school} as "potvrdaSkole"
          from inventory_items i join clusters c on c.id = i.cluster_id join inventory_types ty on ty.id = i.type_id
          where i.cluster_id = any(${ids}) group by c.id order by ${order}`);
      // Every field but the municipality (placesOf's, unchanged).
      const rows = (b: Record<string, unknown>) => (b as unknown as PerLocationPage).inventoryPerLocation.map(({ opstina: _, ...r }) => r);
      const keys: [string, ReturnType<typeof sql>][] = [
        ['naziv', sql`c.naziv collate trasa_sr`],
        ['brojStavki', sql`count(*)`],
        ['materijal', perTip('Materijal')],
        ['oprema', perTip('Oprema')],
        ['radovi', perTip('Radovi')],
        ['ukupnoRsd', value],
        ['a13', a13],
        ['potvrdaSkole', school],
      ];
      for (const [key, expression] of keys) {
        for (const order of ['asc', 'desc'] as const) {
          const dir = sql.raw(order);
          expect(await pages(`/api/inventory-reports/inventar-po-lokaciji?sort=${key}&order=${order}`, token, 2, rows), key).toEqual(
            await plain(sql`${expression} ${dir}, c.id ${dir}`),
          );
        }
      }
      expect(await pages('/api/inventory-reports/inventar-po-lokaciji', token, 2, rows)).toEqual(
        await plain(sql`c.naziv collate trasa_sr, c.id`),
      );
      for (const url of [
        '/api/inventory-reports/inventar-po-lokaciji?page=50&limit=2',
        '/api/inventory-reports/inventar-po-lokaciji?page=50&limit=2&sort=ukupnoRsd',
      ]) {
        const past = (await t.call({ method: 'GET', url, token })).json() as PerLocationPage;
        const [n] = await rowsOf(sql`select count(distinct cluster_id)::int as n from inventory_items where cluster_id = any(${ids})`);
        expect(past).toEqual({ inventoryPerLocation: [], totalResults: n?.n });
      }
    }
  });

  it('the summary per codebook entry: every sort both ways with every field, filters, pages past the end', async () => {
    for (const token of [admin, client]) {
      const ids = uuids(visibleOf(token));
      const plain = async (order: ReturnType<typeof sql>, where = sql`true`) =>
        await rowsOf(sql`select ty.id as "_id", ty.naziv, ty.kratak_naziv as "kratakNaziv", ty.tip, ty.sifra, ty.jedinica,
            sum(i.kolicina)::float8 as kolicina, sum(round(i.kolicina * i.cena_rsd, 2))::float8 as "ukupnoRsd",
            count(distinct i.cluster_id)::int as "brojLokacija", max(i.datum_primopredaje)::text as datum
          from inventory_items i join inventory_types ty on ty.id = i.type_id join clusters c on c.id = i.cluster_id
          where i.cluster_id = any(${ids}) and ${where} group by ty.id order by ${order}`);
      const rows = (b: Record<string, unknown>) => (b as unknown as SumPerTypePage).sumPerTypeInventory.map((r) => ({ ...r }));
      const keys: [string, ReturnType<typeof sql>][] = [
        ['naziv', sql`ty.naziv collate trasa_sr`],
        ['tip', sql`ty.tip collate trasa_sr`],
        ['sifra', sql`ty.sifra collate trasa_sr`],
        ['kolicina', sql`sum(i.kolicina)`],
        ['brojLokacija', sql`count(distinct i.cluster_id)`],
        ['datum', sql`max(i.datum_primopredaje)`],
        ['ukupnoRsd', sql`sum(round(i.kolicina * i.cena_rsd, 2))`],
      ];
      for (const path of ['naziv', 'datum']) {
        for (const [key, expression] of keys) {
          for (const order of ['asc', 'desc'] as const) {
            const dir = sql.raw(order);
            expect(await pages(`/api/inventory-reports/sumarno/${path}?sort=${key}&order=${order}`, token, 3, rows), key).toEqual(
              await plain(sql`${expression} ${dir}, ty.id ${dir}`),
            );
          }
        }
      }
      const byName = sql`ty.naziv collate trasa_sr, ty.tip, ty.id`;
      const location = seen[1] as { id: string; naziv: string };
      const filters: [string, ReturnType<typeof sql>][] = [
        [`lokacija=${location.id}`, sql`i.cluster_id = ${location.id}`],
        ['lokacija=nije-id', sql`false`],
        [`naziv=${encodeURIComponent('čačak')}`, sql`c.id = ${location.id}`],
        ['tip=Radovi', sql`ty.tip = 'Radovi'`],
        [
          'tip=Oprema&opstina=valjevo',
          sql`ty.tip = 'Oprema' and i.cluster_id in (select cs.cluster_id from cluster_settlements cs join settlements s on s.id = cs.settlement_id where 'Valjevo' = any(s.opstine))`,
        ],
      ];
      for (const [query, where] of filters) {
        const expected = await plain(byName, where);
        expect(await pages(`/api/inventory-reports/sumarno/naziv?${query}`, token, 2, rows), query).toEqual(expected);
        const body = (
          await t.call({ method: 'GET', url: `/api/inventory-reports/sumarno/datum?${query}&page=40&limit=2`, token })
        ).json() as SumPerTypePage;
        const [sum] =
          await rowsOf(sql`select count(distinct ty.id)::int as n, coalesce(sum(round(i.kolicina * i.cena_rsd, 2)), 0)::text as s
          from inventory_items i join inventory_types ty on ty.id = i.type_id join clusters c on c.id = i.cluster_id
          where i.cluster_id = any(${ids}) and ${where}`);
        expect(body, query).toEqual({ sumPerTypeInventory: [], totalResults: sum?.n, ukupnoRsd: Number(sum?.s) });
      }
    }
  });

  it('the inventory check (A13): every sort both ways, the item counts, the activity and the total', async () => {
    // Two locations with their A13 activity, one of them with a document (one more deleted).
    const [first, second] = seen as { id: string }[];
    const started = await setActivityState(t.db, (first as { id: string }).id, 'A13', { status: 'U toku', datumPocetka: '2026-04-01' });
    await setActivityState(t.db, (second as { id: string }).id, 'A13', { status: 'Završena', datumPocetka: '2026-03-01' });
    await t.db.execute(sql`insert into activity_files (activity_id, originalno_ime, stored_name, mimetype, size, deleted_at)
      values (${started.id}, 'a.pdf', 'a-1.pdf', 'application/pdf', 1, null), (${started.id}, 'b.pdf', 'b-1.pdf', 'application/pdf', 1, now())`);
    for (const token of [admin, client]) {
      const visible = token === admin ? sql`true` : sql`c.id = any(${uuids(visibleOf(client))})`;
      const items = sql`(select count(*) from inventory_items i where i.cluster_id = c.id)`;
      const files = sql`(select count(*)::int from activity_files f where f.activity_id = act.id and f.deleted_at is null)`;
      const plain = async (order: ReturnType<typeof sql>) =>
        (
          await rowsOf(sql`select c.id, ${items}::int as n, coalesce(a.status, false) as status,
              act.id as act_id, act.status as act_status, ${files} as files
            from clusters c left join a13_confirmations a on a.cluster_id = c.id
            left join activities act on act.cluster_id = c.id and act.code = 'A13'
            where ${visible} order by ${order}`)
        ).map((r) => ({
          _id: r.id,
          brojStavki: r.n,
          status: r.status,
          inventar: (r.n as number) > 0 ? INVENTORY.itemsPresent : INVENTORY.itemsAbsent,
          aktivnost: r.act_id ? { _id: r.act_id, status: r.act_status, brojFajlova: r.files } : null,
        }));
      const rows = (b: Record<string, unknown>) =>
        (b as A13Page).a13.map((r) => ({
          _id: r._id,
          brojStavki: r.brojStavki,
          status: r.status,
          inventar: r.inventar,
          aktivnost: r.aktivnost,
        }));
      const expectedAll = await plain(sql`c.naziv collate trasa_sr, c.id`);
      expect(expectedAll.filter((r) => r.aktivnost).length).toBeGreaterThan(0);
      // The total on a page and past the end.
      for (const page of [1, 2, 500]) {
        const body = (await t.call({ method: 'GET', url: `/api/A13?page=${page}&limit=2`, token })).json() as A13Page;
        expect({ page, total: body.totalResults }).toEqual({ page, total: expectedAll.length });
      }
      expect(await pages('/api/A13', token, 2, rows)).toEqual(expectedAll);
      for (const order of ['asc', 'desc'] as const) {
        const dir = sql.raw(order);
        expect(await pages(`/api/A13?sort=inventar&order=${order}`, token, 2, rows)).toEqual(
          await plain(sql`${items} > 0 ${dir}, c.id ${dir}`),
        );
        expect(await pages(`/api/A13?sort=status&order=${order}`, token, 2, rows)).toEqual(
          await plain(sql`coalesce(a.status, false) ${dir}, c.id ${dir}`),
        );
      }
    }
  });
});
