import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  type A13Page,
  type A13Stats,
  type AllInventoryPage,
  CLUSTERS,
  INVENTORY,
  type InventoryContractsPage,
  type InventoryItemDto,
  type InvTypeDto,
  type PerLocationPage,
  type StocktakingList,
  type SumPerTypePage,
} from '@trasa/domain';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { activities, activityFiles } from '../../db/schema-activities.js';
import { inventoryItems } from '../../db/schema-inventory.js';
import { createCluster, createGroup, createSettlement, createUser, setActivityState, tokenFor } from '../../seed/factories.js';
import { activityFileStore } from '../../shared/activityFileStore.js';
import { multipartBody, samplePdf } from '../contracts/testDocuments.js';

const t = useTestApp();

let admin: string;
/** A Zaposleni of a Naručilac group: keeps the inventory of the clusters the group sees. */
let client: string;
/** A Zaposleni of a contractor's group, and a Naručilac group's manager: refused. */
let contractor: string;
let manager: string;
let guest: string;
let schoolA: { id: string; naziv: string };
let schoolB: { id: string; naziv: string };
let hidden: { id: string; naziv: string };

const json = (res: { statusCode: number; body: string; json: () => unknown }, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as Record<string, unknown>;
};

beforeAll(async () => {
  const nar = await createGroup(t.db, { type: 'NARUCILAC' });
  const izv = await createGroup(t.db, { type: 'IZVODJAC' });
  admin = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
  client = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: nar.id }));
  contractor = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: izv.id }));
  manager = await tokenFor(t.ctx, await createUser(t.db, { role: 'Rukovodilac', groupId: nar.id }));
  guest = await tokenFor(t.ctx, await createUser(t.db, { role: 'Gost' }));
  const n1 = await createSettlement(t.db, { naziv: 'Mionica', opstine: ['Mionica'] });
  const n2 = await createSettlement(t.db, { naziv: 'Divci', opstine: ['Valjevo'] });
  schoolA = await createCluster(t.db, { naziv: 'OŠ „Mionica“ Mionica', groupIds: [nar.id], naselja: [n1.id] });
  schoolB = await createCluster(t.db, { naziv: 'OŠ „Divci“ Valjevo', groupIds: [nar.id], naselja: [n2.id] });
  hidden = await createCluster(t.db, { naziv: 'OŠ Skrivena', groupIds: [izv.id] });
});

async function newContract(broj: string, token = client, naziv = `Isporuka opreme ${broj}`) {
  const res = await t.call({
    method: 'POST',
    url: '/api/contract',
    token,
    payload: { inventory: true, naziv, broj, datumPocetka: '2026-03-01' },
  });
  return res;
}

async function newType(body: Record<string, unknown>, token = client): Promise<InvTypeDto> {
  const res = await t.call({ method: 'POST', url: '/api/inv-type', token, payload: body });
  return json(res, 201).invType as InvTypeDto;
}

describe('who keeps the inventory', () => {
  it('the Admin and a Naručilac employee; a contractor, a manager and a guest get 403, anonymous 401', async () => {
    for (const url of ['/api/inv-type', '/api/A13', '/api/a13/get-all', '/api/A13/get/stats', '/api/school-notification']) {
      expect((await t.call({ method: 'GET', url, token: admin })).statusCode, url).toBe(200);
      expect((await t.call({ method: 'GET', url, token: client })).statusCode, url).toBe(200);
      for (const token of [contractor, manager, guest]) {
        const res = await t.call({ method: 'GET', url, token });
        expect(res.statusCode, url).toBe(403);
      }
      expect((await t.call({ method: 'GET', url })).statusCode).toBe(401);
    }
    const refused = await t.call({ method: 'GET', url: '/api/inv-type', token: contractor });
    expect(refused.json().message).toBe(INVENTORY.notAllowed);
  });

  it("spec 2's general contracts stay the Admin's when the inventory keepers pass the same paths", async () => {
    expect((await t.call({ method: 'GET', url: '/api/contract', token: client })).statusCode).toBe(403);
    expect((await t.call({ method: 'GET', url: '/api/contract?inventory=true', token: contractor })).statusCode).toBe(403);
    const general = await t.call({
      method: 'POST',
      url: '/api/contract',
      token: client,
      payload: { naziv: 'Opšti', broj: 'G-1', datumPocetka: '2026-01-01', rokTrajanja: 30 },
    });
    expect(general.statusCode).toBe(403);
    expect((await newContract('INV-X', contractor)).statusCode).toBe(403);
  });
});

describe('inventory contracts', () => {
  it('are created on POST /api/contract with inventory, listed only with ?inventory=true, numbers unique among them', async () => {
    const created = json(await newContract('INV-1/2026'), 201);
    expect(created.document).toMatch(/^[0-9a-f-]{36}$/);
    const again = await newContract('inv - 1/2026');
    expect(again.statusCode).toBe(409);
    expect(again.json().errors.broj).toBe(INVENTORY.contractNumberTaken);
    // A general contract may carry the same number: another kind, another numbering.
    const general = await t.call({
      method: 'POST',
      url: '/api/contract',
      token: admin,
      payload: { naziv: 'Opšti ugovor', broj: 'INV-1/2026', datumPocetka: '2026-01-01', rokTrajanja: 30 },
    });
    expect(general.statusCode, general.body).toBe(201);

    const generalList = json(await t.call({ method: 'GET', url: '/api/contract?limit=1000', token: admin })) as {
      contracts: { _id: string }[];
    };
    expect(generalList.contracts.some((c) => c._id === created.document)).toBe(false);
    const inv = json(
      await t.call({ method: 'GET', url: '/api/contract?inventory=true&limit=100', token: client }),
    ) as InventoryContractsPage;
    expect(inv.contracts.map((c) => c._id)).toContain(created.document);
    expect(inv.contracts.every((c) => c.inventory)).toBe(true);
    expect(inv.contracts.some((c) => c._id === general.json().document)).toBe(false);
    const found = json(
      await t.call({ method: 'GET', url: '/api/search/contract?inventory=true&eng=inv-1', token: admin }),
    ) as InventoryContractsPage;
    expect(found.contracts.map((c) => c.broj)).toEqual(['INV-1/2026']);
    // Never a cluster's general contract: spec 2's detail and linking don't know it.
    expect((await t.call({ method: 'GET', url: `/api/contractIzv/${created.document}`, token: admin })).statusCode).toBe(404);
    const asUgovor = await t.call({
      method: 'POST',
      url: '/api/location',
      token: admin,
      payload: { naziv: 'Klaster sa pogrešnim ugovorom', ugovor: created.document },
    });
    expect(asUgovor.statusCode).toBe(400);
    expect(asUgovor.json().errors.ugovor).toBe(CLUSTERS.chooseContract);
    // The detail on spec 2's path answers the inventory contract.
    const detail = json(await t.call({ method: 'GET', url: `/api/contract/${created.document}`, token: client }));
    expect((detail.contract as { broj: string; inventory: boolean }).inventory).toBe(true);
  });

  it('checks the required fields in Serbian and changes nothing', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/contract',
      token: client,
      payload: { inventory: true, naziv: ' ', datumPocetka: 'juče' },
    });
    expect(res.statusCode).toBe(400);
    const errors = res.json().errors as Record<string, string>;
    expect(errors.naziv).toBe(INVENTORY.required);
    expect(errors.broj).toBe(INVENTORY.required);
    expect(errors.datumPocetka).toBe(INVENTORY.invalidDate);
  });

  it('keeps documents checked by content, links visible schools only, and unlinks', async () => {
    const id = json(await newContract('INV-2/2026'), 201).document as string;
    const form = await multipartBody({}, [
      { field: 'fajl0', name: 'ugovor.pdf', content: samplePdf('Ugovor o isporuci') },
      { field: 'fajl1', name: 'lazni.pdf', content: Buffer.from('nije pdf') },
    ]);
    const up = json(
      await t.call({ method: 'POST', url: `/api/contract/contract/${id}`, token: client, payload: form.payload, headers: form.headers }),
    );
    expect((up.contract as { fajlovi: unknown[] }).fajlovi).toHaveLength(1);
    expect(up.odbijeni).toEqual([{ originalnoIme: 'lazni.pdf', razlog: 'Pogrešan tip fajla', polje: 'fajl1' }]);
    expect(up.message).toBe(INVENTORY.documentsUploaded);
    // Every document refused: the message says that none was saved.
    const refusedOnly = await multipartBody({}, [{ field: 'fajl0', name: 'opet-lazni.pdf', content: Buffer.from('nije pdf') }]);
    const none = json(
      await t.call({
        method: 'POST',
        url: `/api/contract/contract/${id}`,
        token: client,
        payload: refusedOnly.payload,
        headers: refusedOnly.headers,
      }),
    );
    expect(none.message).toBe('Ниједан документ није сачуван.');
    expect((none.contract as { fajlovi: unknown[] }).fajlovi).toHaveLength(1);
    const fileId = (up.contract as { fajlovi: { _id: string }[] }).fajlovi[0]?._id;
    const dl = await t.call({ method: 'GET', url: `/api/files/inventory-contract/${id}/${fileId}`, token: client });
    expect(dl.statusCode).toBe(200);
    expect(dl.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const hiddenLink = await t.call({
      method: 'PATCH',
      url: `/api/link/location-to-contract/${id}`,
      token: client,
      payload: { lokacije: [schoolA.id, hidden.id] },
    });
    expect(hiddenLink.statusCode).toBe(404);
    const linked = await t.call({
      method: 'PATCH',
      url: `/api/link/location-to-contract/${id}`,
      token: client,
      payload: { lokacije: [schoolA.id, schoolB.id] },
    });
    expect(json(linked).message).toBe(INVENTORY.locationsLinked);
    const detail = json(await t.call({ method: 'GET', url: `/api/inventory-contract/${id}`, token: client })) as {
      contract: { naziv: string; lokacije: { _id: string; naselje: string; opstina: string; stanje: string }[] };
    };
    expect(detail.contract.lokacije.map((l) => l._id).sort()).toEqual([schoolA.id, schoolB.id].sort());
    expect(detail.contract.lokacije.find((l) => l._id === schoolA.id)).toMatchObject({
      naselje: 'Mionica',
      opstina: 'Mionica',
      stanje: INVENTORY.itemsAbsent,
    });
    // The Admin sees every location, the hidden one too.
    json(await t.call({ method: 'PATCH', url: `/api/link/location-to-contract/${id}`, token: admin, payload: { lokacije: [hidden.id] } }));
    const asClient = json(await t.call({ method: 'GET', url: `/api/inventory-contract/${id}`, token: client })) as {
      contract: { lokacije: unknown[] };
    };
    expect(asClient.contract.lokacije).toHaveLength(2);
    const un = await t.call({ method: 'PATCH', url: `/api/link/unlink/${id}`, token: client, payload: { lokacija: schoolB.id } });
    expect(json(un).message).toBe(INVENTORY.locationUnlinked);
    for (const lokacija of [schoolA.id, hidden.id]) {
      json(await t.call({ method: 'PATCH', url: `/api/link/unlink/${id}`, token: admin, payload: { lokacija } }));
    }
    // The general contract's linking is untouched: a cluster's `ugovor` is never an inventory contract.
    const loc = json(await t.call({ method: 'GET', url: `/api/location/${schoolA.id}`, token: admin })) as {
      location?: { ugovor: unknown };
      ugovor?: unknown;
    };
    expect((loc.location ?? loc).ugovor).toBeNull();
  });
});

describe('inventory contracts edited and located', () => {
  const edit = async (id: string, fields: Record<string, string>, token = client) => {
    const form = await multipartBody(fields, []);
    return t.call({ method: 'POST', url: `/api/contract/contract/${id}`, token, payload: form.payload, headers: form.headers });
  };

  it('edits naziv, broj and datumPocetka after creation with the creation rules, and changes nothing when refused', async () => {
    const id = json(await newContract('INV-E/2026'), 201).document as string;
    json(await newContract('INV-F/2026'), 201);
    const detail = async () =>
      json(await t.call({ method: 'GET', url: `/api/contract/${id}`, token: client })).contract as Record<string, unknown>;
    const edited = json(await edit(id, { naziv: 'Isporuka izmenjena', broj: 'INV-E2/2026', datumPocetka: '2026-02-01' }));
    expect(edited.message).toBe(INVENTORY.contractEdited);
    expect(await detail()).toMatchObject({ naziv: 'Isporuka izmenjena', broj: 'INV-E2/2026' });
    const before = await detail();
    const empty = await edit(id, { naziv: ' ', broj: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toMatchObject({ naziv: INVENTORY.required, broj: INVENTORY.required });
    const badDate = await edit(id, { datumPocetka: 'juče' });
    expect(badDate.json().errors.datumPocetka).toBe(INVENTORY.invalidDate);
    const taken = await edit(id, { broj: 'inv-f/2026' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errors.broj).toBe(INVENTORY.contractNumberTaken);
    expect((await edit(id, { naziv: 'Tuđa izmena' }, contractor)).statusCode).toBe(403);
    expect(await detail()).toEqual(before);
    // Its own number, in another spelling, is not "taken".
    expect(json(await edit(id, { broj: 'inv-e2 /2026' })).message).toBe(INVENTORY.contractEdited);
  });

  it('the linking picker answers the inventory keepers (spec 3 §7) with the locations they see', async () => {
    const url = '/api/link/get/autocomplete/locations?value=OŠ';
    const names = (res: { json: () => unknown }) =>
      (res.json() as { locations: { nazivLokacije: string }[] }).locations.map((l) => l.nazivLokacije);
    const asClient = await t.call({ method: 'GET', url, token: client });
    expect(asClient.statusCode).toBe(200);
    expect(names(asClient)).toEqual(expect.arrayContaining([schoolA.naziv, schoolB.naziv]));
    expect(names(asClient)).not.toContain(hidden.naziv);
    expect(names(await t.call({ method: 'GET', url, token: admin }))).toContain(hidden.naziv);
    for (const token of [contractor, manager, guest]) expect((await t.call({ method: 'GET', url, token })).statusCode).toBe(403);
    expect((await t.call({ method: 'GET', url })).statusCode).toBe(401);
  });
});

describe('codebook', () => {
  it('follows the price in dinars for RSD, needs cenaRsd otherwise, and keeps names unique within a tip (folded)', async () => {
    const ont = await newType({ naziv: 'ONT terminal GPON', tip: 'Oprema', cena: '4.500,00'.replace('.', ''), valuta: 'RSD', cenaRsd: 1 });
    expect(ont).toMatchObject({ cena: 4500, cenaRsd: 4500, valuta: 'RSD', jedinica: 'kom' });
    const missing = await t.call({
      method: 'POST',
      url: '/api/inv-type',
      token: client,
      payload: { naziv: 'Switch', tip: 'Oprema', cena: 120, valuta: 'EUR' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.cenaRsd).toBe(INVENTORY.required);
    const sw = await newType({ naziv: 'Switch 24 porta', tip: 'Oprema', cena: 120, valuta: 'EUR', cenaRsd: '14.070,50'.replace('.', '') });
    expect(sw).toMatchObject({ cena: 120, cenaRsd: 14070.5, valuta: 'EUR' });
    const dup = await t.call({
      method: 'POST',
      url: '/api/inv-type',
      token: client,
      payload: { naziv: 'СВИЦХ 24 ПОРТА', tip: 'Oprema', cena: 1, valuta: 'RSD' },
    });
    expect(dup.statusCode).toBe(201); // 'Свицх' folds to 'svich', not 'switch'
    const same = await t.call({
      method: 'POST',
      url: '/api/inv-type',
      token: client,
      payload: { naziv: 'ont TERMINAL gpon', tip: 'Oprema', cena: 1, valuta: 'RSD' },
    });
    expect(same.statusCode).toBe(409);
    expect(same.json().errors.naziv).toBe(INVENTORY.typeNameTaken);
    const cyr = await t.call({
      method: 'POST',
      url: '/api/inv-type',
      token: client,
      payload: { naziv: 'ОНТ терминал ГПОН', tip: 'Oprema', cena: 1, valuta: 'RSD' },
    });
    expect(cyr.statusCode).toBe(409);
    // The same name in another tip is another entry.
    expect(
      (
        await t.call({
          method: 'POST',
          url: '/api/inv-type',
          token: client,
          payload: { naziv: 'ONT terminal GPON', tip: 'Radovi', cena: 1, valuta: 'RSD' },
        })
      ).statusCode,
    ).toBe(201);
    const bad = await t.call({
      method: 'POST',
      url: '/api/inv-type',
      token: client,
      payload: { naziv: 'X', tip: 'Hrana', cena: '-5', valuta: 'DIN' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({ tip: INVENTORY.invalidTip, valuta: INVENTORY.invalidValuta, cena: INVENTORY.mustBeNumber });
    const list = json(await t.call({ method: 'GET', url: '/api/inv-type?tip=Radovi', token: client })) as { invTypes: InvTypeDto[] };
    expect(list.invTypes.every((x) => x.tip === 'Radovi')).toBe(true);
  });
});

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
      kolicina: INVENTORY.required,
      cenaRsd: INVENTORY.mustBeNumber,
      datumPrimopredaje: INVENTORY.invalidDate,
    });
    // Hostile values: a zero or negative quantity, a huge price, an object for a number, an unknown type.
    const hostile = [
      { kolicina: 0, errors: { kolicina: INVENTORY.quantityPositive } },
      { kolicina: -3, errors: { kolicina: INVENTORY.mustBeNumber } },
      { cenaRsd: '1e308', errors: { cenaRsd: INVENTORY.mustBeNumber } },
      { cenaRsd: 10 ** 13, errors: { cenaRsd: INVENTORY.invalidNumber } },
      { kolicina: { $gt: 0 }, errors: { kolicina: INVENTORY.required } },
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
    expect(unknownType.json().errors.invType).toBe(INVENTORY.unknownType);
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
    expect(json(await t.call({ method: 'DELETE', url: `/api/inventory/${item._id}`, token: client })).message).toBe(INVENTORY.itemDeleted);
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
    expect(clusterDelete.json().message).toBe(CLUSTERS.deleteBlocked({ openTopics: 0, documents: 0, startedActivities: 0, inventory: 3 }));
    // An empty contract goes (its links with it).
    const empty = json(await newContract('INV-PRAZAN'), 201).document as string;
    json(
      await t.call({ method: 'PATCH', url: `/api/link/location-to-contract/${empty}`, token: client, payload: { lokacije: [schoolA.id] } }),
    );
    expect(json(await t.call({ method: 'DELETE', url: `/api/contract/${empty}`, token: client })).message).toBe(INVENTORY.contractDeleted);
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
    expect(ambiguous.json().errors.ugovor).toBe(INVENTORY.chooseContract);
    const foreign = await t.call({
      method: 'POST',
      url: '/api/inventory',
      token: client,
      payload: { invType: ont._id, lokacija: schoolA.id, ugovor: second, kolicina: 1, cenaRsd: 1, datumPrimopredaje: '2026-07-01' },
    });
    expect(foreign.json().errors.ugovor).toBe(INVENTORY.locationNotOnContract);
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
    expect(on.message).toBe(INVENTORY.statusChanged);
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
    expect(none.json().message).toBe(INVENTORY.noDocument);
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
    expect(bad.json().errors.email).toBe(INVENTORY.invalidEmail);
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
