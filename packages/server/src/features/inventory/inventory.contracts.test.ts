import { CLUSTERS, INVENTORY, type InventoryContractsPage } from '@trasa/domain';
import { describe, expect, it } from 'vitest';
import { said } from '../../../test/harness.js';
import { multipartBody, samplePdf } from '../contracts/testDocuments.js';
import {
  admin,
  client,
  contractor,
  guest,
  hidden,
  json,
  manager,
  newContract,
  schoolA,
  schoolB,
  setupInventory,
  t,
} from './inventorySetup.js';

setupInventory();
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
    expect(refused.json().message).toBe(said(INVENTORY.notAllowed));
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
    expect(again.json().errors.broj).toBe(said(INVENTORY.contractNumberTaken));
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
    expect(asUgovor.json().errors.ugovor).toBe(said(CLUSTERS.chooseContract));
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
    expect(errors.naziv).toBe(said(INVENTORY.required));
    expect(errors.broj).toBe(said(INVENTORY.required));
    expect(errors.datumPocetka).toBe(said(INVENTORY.invalidDate));
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
    expect(up.odbijeni).toEqual([{ originalnoIme: 'lazni.pdf', razlog: said('Pogrešan tip fajla'), polje: 'fajl1' }]);
    expect(up.message).toBe(said(INVENTORY.documentsUploaded));
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
    expect(none.message).toBe(said('Ниједан документ није сачуван.'));
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
    expect(json(linked).message).toBe(said(INVENTORY.locationsLinked));
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
    expect(json(un).message).toBe(said(INVENTORY.locationUnlinked));
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
    expect(edited.message).toBe(said(INVENTORY.contractEdited));
    expect(await detail()).toMatchObject({ naziv: 'Isporuka izmenjena', broj: 'INV-E2/2026' });
    const before = await detail();
    const empty = await edit(id, { naziv: ' ', broj: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toMatchObject({ naziv: said(INVENTORY.required), broj: said(INVENTORY.required) });
    const badDate = await edit(id, { datumPocetka: 'juče' });
    expect(badDate.json().errors.datumPocetka).toBe(said(INVENTORY.invalidDate));
    const taken = await edit(id, { broj: 'inv-f/2026' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errors.broj).toBe(said(INVENTORY.contractNumberTaken));
    expect((await edit(id, { naziv: 'Tuđa izmena' }, contractor)).statusCode).toBe(403);
    expect(await detail()).toEqual(before);
    // Its own number, in another spelling, is not "taken".
    expect(json(await edit(id, { broj: 'inv-e2 /2026' })).message).toBe(said(INVENTORY.contractEdited));
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
