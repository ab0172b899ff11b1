import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { inventoryContracts, inventoryItems, inventoryTypes, schoolNotifications } from '../db/schema-inventory.js';
import { createCluster, createGroup, createUser, setActivityState, tokenFor } from '../seed/factories.js';
import { serbianCompare } from './sorting.js';
import { expectRefused, get, getAs, orderIn, SERBIAN, SHUFFLED, setupSorting, t } from './sortingSetup.js';

setupSorting();
describe('inventory lists', () => {
  /** A Zaposleni of a Naručilac group: keeps the inventory of the group's locations only. */
  let client: string;
  const locations: string[] = SERBIAN.map((n) => `${n} Qinv`);
  const types: string[] = SERBIAN.map((n) => `${n} Qtip`);
  let store: { id: string };

  beforeAll(async () => {
    const nar = await createGroup(t.db, { type: 'NARUCILAC', naziv: 'Naručilac Qinv' });
    const izv = await createGroup(t.db, { type: 'IZVODJAC', naziv: 'Izvođač Qinv' });
    client = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: nar.id }));
    // The codebook: types in shuffled order, the price growing with the Serbian position.
    const typeIds = new Map<string, string>();
    for (const naziv of SHUFFLED) {
      const price = 100 + SERBIAN.indexOf(naziv);
      const [row] = await t.db
        .insert(inventoryTypes)
        .values({ naziv: `${naziv} Qtip`, tip: 'Oprema', cena: price, valuta: 'RSD', cenaRsd: price, sifra: `Q-${naziv.length}` })
        .returning();
      typeIds.set(naziv, row?.id ?? '');
    }
    // A location of the group per name with one item (its own type), one more the client doesn't see.
    for (const [i, naziv] of SHUFFLED.entries()) {
      const c = await createCluster(t.db, { naziv: `${naziv} Qinv`, groupIds: [nar.id] });
      await t.db.insert(inventoryItems).values({
        typeId: typeIds.get(naziv) ?? '',
        clusterId: c.id,
        kolicina: i + 1,
        cenaRsd: 10,
        datumPrimopredaje: `2026-02-1${i}`,
      });
      await t.db.insert(schoolNotifications).values({
        clusterId: c.id,
        email: `skola${i}@qsk.rs`,
        lista: {},
        codeHash: `qsk-${i}`,
        mailPoslat: i % 2 === 0,
        expiresAt: new Date(Date.UTC(2026, 5, 1 + i)),
      });
    }
    const hidden = await createCluster(t.db, { naziv: 'Čačak skriveni Qinv', groupIds: [izv.id] });
    await t.db
      .insert(inventoryItems)
      .values({ typeId: typeIds.get('Zec') ?? '', clusterId: hidden.id, kolicina: 7, cenaRsd: 10, datumPrimopredaje: '2026-02-20' });
    await t.db.insert(schoolNotifications).values({
      clusterId: hidden.id,
      email: 'skriveni@qsk.rs',
      lista: {},
      codeHash: 'qsk-h',
      expiresAt: new Date(Date.UTC(2026, 5, 1)),
    });
    // One location of the group holding every type (the location's inventory and the summary).
    store = await createCluster(t.db, { naziv: 'Magacin Qzb', groupIds: [nar.id] });
    for (const [i, naziv] of SHUFFLED.entries()) {
      await t.db.insert(inventoryItems).values({
        typeId: typeIds.get(naziv) ?? '',
        clusterId: store.id,
        kolicina: 10 - i,
        cenaRsd: 5,
        datumPrimopredaje: `2026-03-0${i + 1}`,
      });
    }
    for (const [i, naziv] of SHUFFLED.entries()) {
      await t.db
        .insert(inventoryContracts)
        .values({ naziv: `${naziv} Qic`, broj: `QIC-${i}`, brojKey: `qic-${i}`, datumPocetka: `2026-01-0${i + 1}` });
    }
  });

  it('the inventory check (GET /api/A13) sorts by the location in Serbian order; the client still sees only its locations', async () => {
    const up = await getAs(client, '/api/A13?eng=qinv&srb=qinv&sort=naziv&order=asc');
    expect(up.status).toBe(200);
    expect(up.body.a13.map((r: { lokacija: { naziv: string } }) => r.lokacija.naziv)).toEqual(locations);
    const down = await getAs(client, '/api/A13?eng=qinv&srb=qinv&sort=naziv&order=desc&limit=2&page=2');
    expect(down.body.a13.map((r: { lokacija: { naziv: string } }) => r.lokacija.naziv)).toEqual([locations[2], locations[1]]);
    expect(down.body.totalResults).toBe(5);
    const admin = await get('/api/A13?eng=qinv&srb=qinv&sort=naziv&order=desc');
    expect(admin.body.a13.map((r: { lokacija: { naziv: string } }) => r.lokacija.naziv)).toContain('Čačak skriveni Qinv');
    for (const sort of ['status', 'inventar']) expect((await getAs(client, `/api/a13?sort=${sort}&order=desc`)).status, sort).toBe(200);
    await expectRefused('/api/A13?sort=lokacija', client);
  });

  it('every item (GET /api/inventory-reports/sve) sorts by the type and the location; the value, quantity and others answer', async () => {
    const byType = await getAs(client, '/api/inventory-reports/sve?eng=qinv&srb=qinv&sort=naziv&order=asc&limit=50');
    expect(byType.status).toBe(200);
    expect(byType.body.allInventory.map((i: { invType: { naziv: string } }) => i.invType.naziv)).toEqual(types);
    const byPlace = await getAs(client, '/api/inventory-reports/sve?eng=qinv&srb=qinv&sort=lokacija&order=desc&limit=50');
    expect(byPlace.body.allInventory.map((i: { lokacija: { naziv: string } }) => i.lokacija.naziv)).toEqual([...locations].reverse());
    // Quantity i + 1 for the i-th location written (SHUFFLED): the value at one price follows it.
    const byValue = await getAs(client, '/api/inventory-reports/sve?eng=qinv&srb=qinv&sort=ukupnoRsd&order=desc&limit=50');
    expect(byValue.body.allInventory.map((i: { lokacija: { naziv: string } }) => i.lokacija.naziv)).toEqual(
      [...SHUFFLED].reverse().map((n) => `${n} Qinv`),
    );
    for (const sort of ['tip', 'sifra', 'kolicina', 'cenaRsd', 'datumPrimopredaje', 'ugovor'])
      expect((await getAs(client, `/api/inventory-reports/sve?sort=${sort}&order=desc`)).status, sort).toBe(200);
    await expectRefused('/api/inventory-reports/sve?sort=invType', client);
  });

  it("a location's items (GET /api/inventory) and the codebook (GET /api/inv-type) sort whole, in Serbian order", async () => {
    const items = await getAs(client, `/api/inventory?lokacija=${store.id}&sort=naziv&order=desc`);
    expect(items.status).toBe(200);
    expect(items.body.inventory.map((i: { invType: { naziv: string } }) => i.invType.naziv)).toEqual([...types].reverse());
    const byQuantity = await getAs(client, `/api/inventory?lokacija=${store.id}&sort=kolicina&order=asc`);
    expect(byQuantity.body.inventory.map((i: { kolicina: number }) => i.kolicina)).toEqual([6, 7, 8, 9, 10]);
    const codebook = await getAs(client, '/api/inv-type?tip=Oprema&sort=naziv&order=asc');
    expect(
      orderIn(
        codebook.body.invTypes.map((x: { naziv: string }) => x.naziv),
        types,
      ),
    ).toEqual(types);
    const byPrice = await getAs(client, '/api/inv-type?tip=Oprema&sort=cenaRsd&order=desc');
    expect(
      orderIn(
        byPrice.body.invTypes.map((x: { naziv: string }) => x.naziv),
        types,
      ),
    ).toEqual([...types].reverse());
    for (const sort of ['kratakNaziv', 'cena', 'sifra', 'jedinica', 'trajanjeGarancije', 'redniBroj'])
      expect((await getAs(client, `/api/inv-type?sort=${sort}`)).status, sort).toBe(200);
    await expectRefused(`/api/inventory?lokacija=${store.id}&sort=kolicina&order=up`, client);
    await expectRefused('/api/inv-type?sort=tip', client);
  });

  it('the summary per type and the state per location sort by their columns; the query sort overrides the path', async () => {
    const sum = await getAs(client, `/api/inventory-reports/sumarno/datum?lokacija=${store.id}&sort=naziv&order=asc`);
    expect(sum.status).toBe(200);
    expect(sum.body.sumPerTypeInventory.map((r: { naziv: string }) => r.naziv)).toEqual(types);
    const byQuantity = await getAs(client, `/api/inventory-reports/sumarno/naziv?lokacija=${store.id}&sort=kolicina&order=desc`);
    expect(byQuantity.body.sumPerTypeInventory.map((r: { kolicina: number }) => r.kolicina)).toEqual([10, 9, 8, 7, 6]);
    for (const sort of ['tip', 'sifra', 'brojLokacija', 'datum', 'ukupnoRsd'])
      expect((await getAs(client, `/api/inventory-reports/sumarno/naziv?sort=${sort}`)).status, sort).toBe(200);
    await expectRefused('/api/inventory-reports/sumarno/naziv?sort=jedinica', client);

    const places = await getAs(client, '/api/inventory-reports/inventar-po-lokaciji?eng=qinv&srb=qinv&sort=naziv&order=desc');
    expect(places.status).toBe(200);
    expect(places.body.inventoryPerLocation.map((r: { naziv: string }) => r.naziv)).toEqual([...locations].reverse());
    for (const sort of ['brojStavki', 'materijal', 'oprema', 'radovi', 'ukupnoRsd', 'a13', 'potvrdaSkole'])
      expect((await getAs(client, `/api/inventory-reports/inventar-po-lokaciji?sort=${sort}&order=desc`)).status, sort).toBe(200);
    await expectRefused('/api/inventory-reports/inventar-po-lokaciji?sort=opstina', client);
  });

  it('the notified schools sort by the location; the inventory contracts by their own keys (not those of spec 2)', async () => {
    const schools = await getAs(client, '/api/school-notification?eng=qinv&srb=qinv&sort=lokacija&order=asc');
    expect(schools.status).toBe(200);
    expect(schools.body.notifications.map((n: { lokacija: { naziv: string } }) => n.lokacija.naziv)).toEqual(locations);
    for (const sort of ['email', 'mailPoslat', 'datumSlanja', 'potvrdaSkole', 'mailPotvrdjen', 'istice'])
      expect((await getAs(client, `/api/school-notification?sort=${sort}&order=desc`)).status, sort).toBe(200);
    await expectRefused('/api/school-notification?sort=lista', client);

    const names = SERBIAN.map((n) => `${n} Qic`);
    const contracts = await getAs(client, '/api/search/contract?inventory=true&eng=qic&srb=qic&sort=naziv&order=asc');
    expect(contracts.status).toBe(200);
    expect(contracts.body.contracts.map((c: { naziv: string }) => c.naziv)).toEqual(names);
    const byStart = await getAs(client, '/api/search/contract?inventory=true&eng=qic&srb=qic&sort=datumPocetka&order=desc');
    expect(byStart.body.contracts.map((c: { broj: string }) => c.broj)).toEqual(['QIC-4', 'QIC-3', 'QIC-2', 'QIC-1', 'QIC-0']);
    for (const sort of ['broj', 'datumZavrsetka', 'status', 'brojLokacija'])
      expect((await getAs(client, `/api/contract?inventory=true&sort=${sort}&order=desc`)).status, sort).toBe(200);
    await expectRefused('/api/contract?inventory=true&sort=rokTrajanja', client);
  });
});

describe('reports', () => {
  let employee: string;
  const names = SERBIAN.map((n) => `${n} Qrep`);

  beforeAll(async () => {
    const group = await createGroup(t.db, { naziv: 'Izveštajna Qrep' });
    employee = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: group.id }));
    for (const naziv of [...SHUFFLED.map((n) => `${n} Qrep`), 'Čačak skriveni Qrep']) {
      const c = await createCluster(t.db, { naziv, groupIds: naziv.includes('skriveni') ? [] : [group.id] });
      await setActivityState(t.db, c.id, 'A9', { status: 'Završena', datumPocetka: '2026-01-05', datumZavrsetka: '2026-02-01' });
    }
  });

  it("the finished activities, an activity's and the route lengths report sort by the cluster; the employee's scope stays", async () => {
    const finished = await getAs(employee, '/api/report/finished?limit=100&sort=klaster&order=asc');
    expect(finished.status).toBe(200);
    expect(finished.body.clusters.map((c: { klaster: string }) => c.klaster)).toEqual(names);
    const activity = await getAs(employee, '/api/report/A9?eng=qrep&srb=qrep&sort=klaster&order=desc');
    expect(activity.status).toBe(200);
    expect(activity.body.rows.map((r: { klaster: { naziv: string } }) => r.klaster.naziv)).toEqual([...names].reverse());
    const lengths = await getAs(employee, '/api/report/duzine/A9?eng=qrep&srb=qrep&sort=klaster&order=asc&limit=2&page=2');
    expect(lengths.status).toBe(200);
    expect(lengths.body.rows.map((r: { klaster: { naziv: string } }) => r.klaster.naziv)).toEqual(names.slice(2, 4));
    for (const sort of ['ugovor', 'zavrsene']) expect((await getAs(employee, `/api/report/finished?sort=${sort}`)).status, sort).toBe(200);
    for (const sort of ['ugovor', 'status', 'datumPocetka', 'datumZavrsetka', 'rok'])
      expect((await getAs(employee, `/api/report/A9?sort=${sort}&order=desc`)).status, sort).toBe(200);
    for (const sort of ['ugovor', 'status', 'datumZavrsetka', 'duzina'])
      expect((await getAs(employee, `/api/report/duzine/A1?sort=${sort}&order=desc`)).status, sort).toBe(200);
    for (const sort of ['ugovor', 'klaster', 'imaoc', 'status', 'taksa', 'zaduzen', 'izvodjac'])
      expect((await get(`/api/report/ijo-takse?sort=${sort}&order=desc`)).status, sort).toBe(200);
    await expectRefused('/api/report/finished?sort=uRoku');
    await expectRefused('/api/report/A9?sort=podaci');
    await expectRefused('/api/report/duzine/A9?sort=naselje');
    await expectRefused('/api/report/ijo-takse?sort=ugovorBroj');
  });

  it('the in-memory comparator orders names as trasa_sr does (the IJO report itself sorts in SQL: ijoRows.test.ts)', async () => {
    const names = [
      ...SHUFFLED,
      'Dževad',
      'Džaković',
      'Ljubović',
      'Lazić',
      'Njegoš',
      'Novak',
      'Šabac',
      'Sava',
      'Žabljak',
      'Zlatibor',
      'avala',
      'Avala',
      'Klaster 10',
      'Klaster 9',
      'Ana-Marija',
      'Ana Marija',
    ];
    const inMemory = [...names].sort(serbianCompare);
    const result = await t.db.execute<{ v: string }>(
      sql`select v from jsonb_array_elements_text(${JSON.stringify(names)}::jsonb) v order by v collate trasa_sr`,
    );
    expect(inMemory).toEqual(result.rows.map((r) => r.v));
    expect([...SHUFFLED].sort(serbianCompare)).toEqual([...SERBIAN]);
  });
});
