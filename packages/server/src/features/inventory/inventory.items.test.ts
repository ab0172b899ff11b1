import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  type A13Page,
  type A13Stats,
  type AllInventoryPage,
  CLUSTERS,
  INVENTORY,
  type InventoryItemDto,
  type InvTypeDto,
  type PerLocationPage,
  type StocktakingList,
  type SumPerTypePage,
} from '@trasa/domain';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { said } from '../../../test/harness.js';
import { activities, activityFiles } from '../../db/schema-activities.js';
import { inventoryItems } from '../../db/schema-inventory.js';
import { setActivityState } from '../../seed/factories.js';
import { activityFileStore } from '../../shared/activityFileStore.js';
import { samplePdf } from '../contracts/testDocuments.js';
import { admin, client, hidden, json, newContract, newType, schoolA, schoolB, setupInventory, t } from './inventorySetup.js';

setupInventory();

describe('items, reports, A13 and the cluster delete', () => {
  let contractId: string;
  let ont: InvTypeDto;
  let cable: InvTypeDto;
  let works: InvTypeDto;
  let rack: InvTypeDto;

  beforeAll(async () => {
    contractId = json(await newContract('INV-3/2026'), 201).document as string;
    json(
      await t.call({
        method: 'PATCH',
        url: `/api/link/location-to-contract/${contractId}`,
        token: admin,
        payload: { lokacije: [schoolA.id, schoolB.id, hidden.id] },
      }),
    );
    ont = await newType({ naziv: 'ONT Huawei HG8245', tip: 'Oprema', cena: 5200, valuta: 'RSD', sifra: 'OP-01', redniBroj: 1 });
    cable = await newType({
      naziv: 'Optički kabl 12 vlakana',
      tip: 'Materijal',
      cena: 0.85,
      valuta: 'EUR',
      cenaRsd: 99.6,
      sifra: 'MA-01',
      jedinica: 'm',
    });
    works = await newType({ naziv: 'Instalacioni radovi', tip: 'Radovi', cena: 15000, valuta: 'RSD', sifra: 'RA-01' });
    rack = await newType({ naziv: 'Rek orman 19"', tip: 'Oprema', cena: 23990.9, valuta: 'RSD', sifra: 'OP-02', redniBroj: 2 });
  });

  const add = async (body: Record<string, unknown>, token = client, status = 201) =>
    json(await t.call({ method: 'POST', url: '/api/inventory', token, payload: body }), status).item as InventoryItemDto;

  it("records items under the location's only contract, refuses bad values in Serbian, and computes the figures", async () => {
    const bad = await t.call({
      method: 'POST',
      url: '/api/inventory',
      token: client,
      payload: { invType: ont._id, lokacija: schoolA.id, kolicina: '', cenaRsd: 'abc', datumPrimopredaje: '2026-13-01' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({
      kolicina: said(INVENTORY.required),
      cenaRsd: said(INVENTORY.mustBeNumber),
      datumPrimopredaje: said(INVENTORY.invalidDate),
    });
    // Hostile values: a zero or negative quantity, a huge price, an object for a number, an unknown type.
    const hostile = [
      { kolicina: 0, errors: { kolicina: said(INVENTORY.quantityPositive) } },
      { kolicina: -3, errors: { kolicina: said(INVENTORY.mustBeNumber) } },
      { cenaRsd: '1e308', errors: { cenaRsd: said(INVENTORY.mustBeNumber) } },
      { cenaRsd: 10 ** 13, errors: { cenaRsd: said(INVENTORY.invalidNumber) } },
      { kolicina: { $gt: 0 }, errors: { kolicina: said(INVENTORY.required) } },
    ];
    for (const h of hostile) {
      const res = await t.call({
        method: 'POST',
        url: '/api/inventory',
        token: client,
        payload: {
          invType: ont._id,
          lokacija: schoolA.id,
          kolicina: 1,
          cenaRsd: 1,
          datumPrimopredaje: '2026-04-01',
          ...h,
          errors: undefined,
        },
      });
      expect(res.statusCode, JSON.stringify(h)).toBe(400);
      expect(res.json().errors, JSON.stringify(h)).toMatchObject(h.errors);
    }
    const unknownType = await t.call({
      method: 'POST',
      url: '/api/inventory',
      token: client,
      payload: {
        invType: '00000000-0000-4000-8000-000000000000',
        lokacija: schoolA.id,
        kolicina: 1,
        cenaRsd: 1,
        datumPrimopredaje: '2026-04-01',
      },
    });
    expect(unknownType.statusCode).toBe(400);
    expect(unknownType.json().errors.invType).toBe(said(INVENTORY.unknownType));
    const outside = await t.call({
      method: 'POST',
      url: '/api/inventory',
      token: client,
      payload: { invType: ont._id, lokacija: hidden.id, kolicina: 1, cenaRsd: 1, datumPrimopredaje: '2026-04-01' },
    });
    expect(outside.statusCode).toBe(404);

    const a1 = await add({ invType: ont._id, lokacija: schoolA.id, kolicina: 2, cenaRsd: 5200, datumPrimopredaje: '2026-04-01' });
    expect(a1.ugovor?._id).toBe(contractId);
    expect(a1.ukupnoRsd).toBe(10400);
    await add({ invType: cable._id, lokacija: schoolA.id, kolicina: '120,5', cenaRsd: '99,6', datumPrimopredaje: '2026-04-02' });
    await add({ invType: works._id, lokacija: schoolA.id, kolicina: 1, cenaRsd: 15000, datumPrimopredaje: '2026-04-03' });
    await add({ invType: ont._id, lokacija: schoolB.id, kolicina: 1, cenaRsd: 5000, datumPrimopredaje: '2026-05-10' });
    await add({ invType: rack._id, lokacija: schoolB.id, kolicina: 1, cenaRsd: 23990.9, datumPrimopredaje: '2026-05-11' });
    await add({ invType: cable._id, lokacija: hidden.id, kolicina: 10, cenaRsd: 100, datumPrimopredaje: '2026-05-12' }, admin);

    // Figures computed here from what was recorded (kolicina × cenaRsd per item).
    const a = { ont: 2 * 5200, cable: Math.round(120.5 * 99.6 * 100) / 100, works: 15000 };
    const b = { ont: 5000, rack: 23990.9 };
    const seenTotal = a.ont + a.cable + a.works + b.ont + b.rack;

    const all = json(await t.call({ method: 'GET', url: '/api/inventory-reports/sve?page=1&limit=3', token: client })) as AllInventoryPage;
    expect(all.totalResults).toBe(5);
    expect(all.allInventory).toHaveLength(3);
    expect(all.allInventory[0]?.datumPrimopredaje).toBe('2026-05-11');
    expect(all.ukupnoRsd).toBeCloseTo(seenTotal, 2);
    const adminAll = json(await t.call({ method: 'GET', url: '/api/inventory-reports/sve', token: admin })) as AllInventoryPage;
    expect(adminAll.totalResults).toBe(6);
    const searched = json(
      await t.call({ method: 'GET', url: '/api/inventory-reports/sve?eng=opticki', token: client }),
    ) as AllInventoryPage;
    expect(searched.allInventory.map((i) => i.lokacija._id)).toEqual([schoolA.id]);

    const byName = json(await t.call({ method: 'GET', url: '/api/inventory-reports/sumarno/naziv', token: client })) as SumPerTypePage;
    const ontRow = byName.sumPerTypeInventory.find((r) => r._id === ont._id);
    expect(ontRow).toMatchObject({ kolicina: 3, ukupnoRsd: a.ont + b.ont, brojLokacija: 2, datum: '2026-05-10' });
    expect(byName.sumPerTypeInventory.map((r) => r.naziv)).toEqual(
      [...byName.sumPerTypeInventory.map((r) => r.naziv)].sort((x, y) => x.localeCompare(y, 'sr')),
    );
    const byDate = json(await t.call({ method: 'GET', url: '/api/inventory-reports/sumarno/datum', token: client })) as SumPerTypePage;
    expect(byDate.sumPerTypeInventory[0]?._id).toBe(rack._id);
    const valjevo = json(
      await t.call({ method: 'GET', url: '/api/inventory-reports/sumarno/naziv?opstina=valjevo', token: client }),
    ) as SumPerTypePage;
    expect(valjevo.sumPerTypeInventory.map((r) => r._id).sort()).toEqual([ont._id, rack._id].sort());
    expect(valjevo.ukupnoRsd).toBeCloseTo(b.ont + b.rack, 2);
    const oprema = json(
      await t.call({ method: 'GET', url: `/api/inventory-reports/sumarno/naziv?tip=Oprema&lokacija=${schoolA.id}`, token: client }),
    ) as SumPerTypePage;
    expect(oprema.sumPerTypeInventory).toHaveLength(1);
    expect(oprema.sumPerTypeInventory[0]).toMatchObject({ _id: ont._id, kolicina: 2, ukupnoRsd: a.ont });
    expect((await t.call({ method: 'GET', url: '/api/inventory-reports/sumarno/cena', token: client })).statusCode).toBe(400);

    const per = json(await t.call({ method: 'GET', url: '/api/inventory-reports/inventar-po-lokaciji', token: client })) as PerLocationPage;
    expect(per.totalResults).toBe(2);
    expect(per.inventoryPerLocation.find((r) => r._id === schoolA.id)).toMatchObject({
      brojStavki: 3,
      oprema: a.ont,
      materijal: a.cable,
      radovi: a.works,
      ukupnoRsd: a.ont + a.cable + a.works,
      opstina: 'Mionica',
    });

    const list = json(
      await t.call({
        method: 'GET',
        url: `/api/inventory-reports/popisna-lista?naziv=${encodeURIComponent(schoolB.naziv)}`,
        token: client,
      }),
    ) as StocktakingList;
    expect(list.locId).toBe(schoolB.id);
    expect(list.oprema.map((r) => [r.naziv, r.kolicina, r.ukupnoRsd])).toEqual([
      [ont.naziv, 1, b.ont],
      [rack.naziv, 1, b.rack],
    ]);
    expect(list.materijali).toEqual([]);
    expect(list.ukupnoRsd).toBeCloseTo(b.ont + b.rack, 2);
    expect(
      (await t.call({ method: 'GET', url: `/api/inventory-reports/popisna-lista?naziv=${hidden.id}`, token: client })).statusCode,
    ).toBe(404);
    expect((await t.call({ method: 'GET', url: '/api/inventory-reports/popisna-lista', token: client })).statusCode).toBe(404);
  });

  it('edits and deletes items; a type in use, a contract with items and a location with items stay', async () => {
    const item = await add({ invType: works._id, lokacija: schoolB.id, kolicina: 1, cenaRsd: 100, datumPrimopredaje: '2026-06-01' });
    const edited = json(
      await t.call({
        method: 'PATCH',
        url: `/api/inventory/${item._id}`,
        token: client,
        payload: { invType: works._id, kolicina: 2, cenaRsd: 150, datumPrimopredaje: '2026-06-02' },
      }),
    );
    expect((edited.item as InventoryItemDto).ukupnoRsd).toBe(300);
    const listed = json(await t.call({ method: 'GET', url: `/api/inventory?lokacija=${schoolB.id}`, token: client })) as {
      inventory: InventoryItemDto[];
      ukupnoRsd: number;
    };
    expect(listed.inventory.find((i) => i._id === item._id)?.datumPrimopredaje).toBe('2026-06-02');
    expect(json(await t.call({ method: 'DELETE', url: `/api/inventory/${item._id}`, token: client })).message).toBe(
      said(INVENTORY.itemDeleted),
    );
    expect((await t.call({ method: 'DELETE', url: `/api/inventory/${item._id}`, token: client })).statusCode).toBe(404);

    const typeDelete = await t.call({ method: 'DELETE', url: `/api/inv-type/${ont._id}`, token: client });
    expect(typeDelete.statusCode).toBe(409);
    const contractDelete = await t.call({ method: 'DELETE', url: `/api/contract/${contractId}`, token: client });
    expect(contractDelete.statusCode).toBe(409);
    const unlink = await t.call({
      method: 'PATCH',
      url: `/api/link/unlink/${contractId}`,
      token: client,
      payload: { lokacija: schoolA.id },
    });
    expect(unlink.statusCode).toBe(409);
    const clusterDelete = await t.call({ method: 'DELETE', url: `/api/location/${schoolA.id}`, token: admin });
    expect(clusterDelete.statusCode).toBe(409);
    expect(clusterDelete.json().message).toBe(
      said(CLUSTERS.deleteBlocked({ openTopics: 0, documents: 0, startedActivities: 0, inventory: 3 })),
    );
    // An empty contract goes (its links with it).
    const empty = json(await newContract('INV-PRAZAN'), 201).document as string;
    json(
      await t.call({ method: 'PATCH', url: `/api/link/location-to-contract/${empty}`, token: client, payload: { lokacije: [schoolA.id] } }),
    );
    expect(json(await t.call({ method: 'DELETE', url: `/api/contract/${empty}`, token: client })).message).toBe(
      said(INVENTORY.contractDeleted),
    );
    // A location on two contracts: an item must name one.
    const second = json(await newContract('INV-DRUGI'), 201).document as string;
    json(
      await t.call({
        method: 'PATCH',
        url: `/api/link/location-to-contract/${second}`,
        token: client,
        payload: { lokacije: [schoolB.id] },
      }),
    );
    const ambiguous = await t.call({
      method: 'POST',
      url: '/api/inventory',
      token: client,
      payload: { invType: ont._id, lokacija: schoolB.id, kolicina: 1, cenaRsd: 1, datumPrimopredaje: '2026-07-01' },
    });
    expect(ambiguous.statusCode).toBe(400);
    expect(ambiguous.json().errors.ugovor).toBe(said(INVENTORY.chooseContract));
    const foreign = await t.call({
      method: 'POST',
      url: '/api/inventory',
      token: client,
      payload: { invType: ont._id, lokacija: schoolA.id, ugovor: second, kolicina: 1, cenaRsd: 1, datumPrimopredaje: '2026-07-01' },
    });
    expect(foreign.json().errors.ugovor).toBe(said(INVENTORY.locationNotOnContract));
    json(await t.call({ method: 'PATCH', url: `/api/link/unlink/${second}`, token: client, payload: { lokacija: schoolB.id } }));
  });

  it('A13: listed per visible location, confirmed and undone on the record, the activity untouched; stats; both spellings', async () => {
    const act = await setActivityState(t.db, schoolA.id, 'A13', { status: 'U toku', datumPocetka: '2026-04-01' });
    const page = json(await t.call({ method: 'GET', url: '/api/A13?page=1&limit=10', token: client })) as A13Page;
    expect(page.totalResults).toBe(2);
    const rowA = page.a13.find((r) => r._id === schoolA.id);
    expect(rowA).toMatchObject({
      status: false,
      inventar: INVENTORY.itemsPresent,
      aktivnost: { _id: act.id, status: 'U toku', brojFajlova: 0 },
    });
    const lower = json(await t.call({ method: 'GET', url: '/api/a13?eng=divci', token: client })) as A13Page;
    expect(lower.a13.map((r) => r._id)).toEqual([schoolB.id]);

    const on = json(await t.call({ method: 'PATCH', url: `/api/A13/${schoolA.id}`, token: client, payload: { status: true } }));
    expect(on.message).toBe(said(INVENTORY.statusChanged));
    const stats = json(await t.call({ method: 'GET', url: '/api/A13/get/stats', token: client })) as A13Stats;
    expect(stats).toEqual({ potvrdjeno: 1, nijePotvrdjeno: 1, ukupno: 2 });
    const [after] = await t.db.select({ status: activities.status }).from(activities).where(eq(activities.id, act.id));
    expect(after?.status).toBe('U toku');
    json(await t.call({ method: 'PATCH', url: `/api/a13/${schoolA.id}`, token: client, payload: { status: false } }));
    const all = json(await t.call({ method: 'GET', url: '/api/a13/get-all', token: client })) as {
      a13: { _id: string; status: boolean }[];
    };
    expect(all.a13.find((r) => r._id === schoolA.id)?.status).toBe(false);
    expect((await t.call({ method: 'PATCH', url: `/api/A13/${hidden.id}`, token: client, payload: { status: true } })).statusCode).toBe(
      404,
    );
    const notBool = await t.call({ method: 'PATCH', url: `/api/A13/${schoolA.id}`, token: client, payload: { status: 'da' } });
    expect(notBool.statusCode).toBe(400);

    const none = await t.call({ method: 'GET', url: `/api/a13/download-files?aktId=${act.id}&lokId=${schoolA.id}`, token: client });
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe(said(INVENTORY.noDocument));
    const store = activityFileStore(t.ctx.config.dataDir);
    const pdf = samplePdf('Zapisnik o primopredaji');
    const stored = await store.save(Readable.from([pdf]), 'Zapisnik.pdf', { maxBytes: pdf.length + 1 });
    await t.db.insert(activityFiles).values({
      activityId: act.id,
      storedName: stored.storedName,
      originalnoIme: 'Zapisnik.pdf',
      mimetype: stored.mimetype,
      size: stored.size,
    });
    const zip = await t.call({ method: 'GET', url: `/api/A13/download-files?aktId=${act.id}&lokId=${schoolA.id}`, token: client });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(String(zip.headers['content-disposition'])).toContain(
      encodeURIComponent(`${schoolA.naziv}-a13.zip`).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
    );
    expect(zip.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect(zip.rawPayload.includes(Buffer.from('Zapisnik.pdf'))).toBe(true);
    expect((await t.call({ method: 'GET', url: `/api/a13/download-files?lokId=${hidden.id}`, token: client })).statusCode).toBe(404);
  });

  it('the school e-mail is read and edited through the location calls', async () => {
    const bad = await t.call({
      method: 'PATCH',
      url: `/api/inventory/location/${schoolA.id}`,
      token: client,
      payload: { email: 'nije-adresa' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.email).toBe(said(INVENTORY.invalidEmail));
    const ok = json(
      await t.call({
        method: 'PATCH',
        url: `/api/inventory/location/${schoolA.id}`,
        token: client,
        payload: { email: 'Skola@Mionica.edu.rs' },
      }),
    );
    expect((ok.location as { email: string }).email).toBe('skola@mionica.edu.rs');
    const got = json(await t.call({ method: 'GET', url: `/api/inventory/location/${schoolA.id}`, token: client }));
    expect(got.location).toMatchObject({ email: 'skola@mionica.edu.rs', brojStavki: 3, naziv: schoolA.naziv });
    expect((await t.call({ method: 'GET', url: `/api/inventory/location/${hidden.id}`, token: client })).statusCode).toBe(404);
    // The list of a location outside the caller's visibility is 404 too (its rows are never read), as is one
    // that does not exist.
    expect((await t.call({ method: 'GET', url: `/api/inventory?lokacija=${hidden.id}`, token: client })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: `/api/inventory?lokacija=${randomUUID()}`, token: client })).statusCode).toBe(404);
    const [n] = await t.db
      .select({ id: inventoryItems.id })
      .from(inventoryItems)
      .where(and(eq(inventoryItems.clusterId, schoolA.id)))
      .limit(1);
    expect(n).toBeDefined();
  });
});
