import { type A13Page, type AllInventoryPage, INVENTORY, type PerLocationPage, type SumPerTypePage } from '@trasa/domain';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setActivityState } from '../../seed/factories.js';
import { admin, client, pages, rowsOf, seen, setupTotals, t, uuids, visibleOf } from './totalsSetup.js';

setupTotals();
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
