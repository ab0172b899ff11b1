import { addDays, CLUSTERS, CONTRACTS, USERS } from '@trasa/domain';
import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { said } from '../../../test/harness.js';
import { auditLogs, groups } from '../../db/schema.js';
import { contractGroups, contracts } from '../../db/schema-clusters.js';
import {
  admin,
  body,
  create,
  createOk,
  edit,
  employeeIzv,
  get,
  guest,
  izv,
  izv2,
  managerIzv,
  nad,
  pro,
  setupContracts,
  t,
} from './contractsSetup.js';

setupContracts();
describe('POST /api/{route}', () => {
  it('creates a contract of each kind; typed ones with groups of their type', async () => {
    const cases = [
      { route: 'contract', itemKey: 'contract', grupe: undefined },
      { route: 'contractIzv', itemKey: 'contractIzv', grupe: [izv.id, izv2.id] },
      { route: 'contractPro', itemKey: 'contractPro', grupe: [pro.id] },
      { route: 'contractNad', itemKey: 'contractNad', grupe: [nad.id] },
    ];
    for (const c of cases) {
      const res = await create(c.route, { ...body, broj: `${c.route}-1`, ...(c.grupe && { grupe: c.grupe }) });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toEqual({ message: said(CONTRACTS.created), document: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      const got = await get(c.route, res.json().document);
      expect(got.statusCode, got.body).toBe(200);
      const dto = got.json()[c.itemKey];
      expect(dto).toMatchObject({
        _id: res.json().document,
        naziv: body.naziv,
        broj: `${c.route}-1`,
        status: 'U toku',
        datumPocetka: '2026-01-10',
        rokTrajanja: 90,
        datumZavrsetka: null,
        rokZavrsetka: addDays('2026-01-10', 90),
        route: c.route,
        fajlovi: [],
        lokacije: [],
      });
      expect(['blue', 'orange', 'red', 'white']).toContain(dto.boja);
      expect(dto.grupe.map((g: { _id: string }) => g._id).sort()).toEqual([...(c.grupe ?? [])].sort());
      if (c.grupe)
        expect(dto.grupe[0]).toEqual({
          _id: expect.any(String),
          naziv: expect.any(String),
          tip: expect.any(String),
          tipKod: expect.any(String),
        });
    }
    const [log] = await t.db.select().from(auditLogs).where(like(auditLogs.message, '%kreirao ugovor nadzora%contractNad-1%'));
    expect(log).toBeTruthy();
  });

  it('answers the form messages for missing and malformed fields', async () => {
    const missing = await create('contract', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toMatchObject({
      naziv: CLUSTERS.required,
      broj: CLUSTERS.required,
      datumPocetka: CLUSTERS.required,
      rokTrajanja: CLUSTERS.mustBeNumber,
    });
    const notNumber = await create('contract', { ...body, rokTrajanja: 'devedeset' });
    expect(notNumber.statusCode).toBe(400);
    expect(notNumber.json()).toMatchObject({ message: said(CLUSTERS.mustBeNumber), errors: { rokTrajanja: said(CLUSTERS.mustBeNumber) } });
    const blankName = await create('contract', { ...body, naziv: '   ' });
    expect(blankName.json()).toMatchObject({ message: said(CLUSTERS.required), errors: { naziv: said(CLUSTERS.required) } });
    const badDate = await create('contract', { ...body, datumPocetka: '2026-02-30' });
    expect(badDate.json().errors).toMatchObject({ datumPocetka: said(CLUSTERS.required) });
    // rokTrajanja typed as text is a number.
    expect((await create('contract', { ...body, rokTrajanja: '90' })).statusCode).toBe(201);
  });

  it('refuses groups of the wrong type, reserved or unknown; the general contract takes none', async () => {
    const [reserved] = await t.db.select().from(groups).where(eq(groups.reserved, true));
    const refusals = [
      { route: 'contractIzv', grupe: [pro.id] },
      { route: 'contractIzv', grupe: [izv.id, nad.id] },
      { route: 'contractPro', grupe: [izv.id] },
      { route: 'contractNad', grupe: [reserved?.id] },
      { route: 'contractNad', grupe: ['00000000-0000-4000-8000-000000000000'] },
      { route: 'contract', grupe: [izv.id] },
    ];
    const before = await t.db.select({ id: contracts.id }).from(contracts);
    for (const r of refusals) {
      const res = await create(r.route, { ...body, ...(r.grupe && { grupe: r.grupe }) });
      expect(res.statusCode, `${r.route} ${JSON.stringify(r.grupe)}`).toBe(400);
      expect(res.json()).toEqual({ message: said(USERS.invalidOption), errors: { grupe: said(USERS.invalidOption) } });
    }
    expect(await t.db.select({ id: contracts.id }).from(contracts)).toHaveLength(before.length);
  });

  it('is for Admin only', async () => {
    for (const token of [employeeIzv, managerIzv, guest]) {
      expect((await create('contractIzv', { ...body, grupe: [izv.id] }, token)).statusCode).toBe(403);
    }
  });
});

describe('POST /api/{route}/{route}/:id (edit)', () => {
  it('edits naziv, dates and groups sent as strings (grupe as a JSON array or repeated)', async () => {
    const id = await createOk('contractIzv', { ...body, broj: 'E-1', grupe: [izv.id] });
    const res = await edit('contractIzv', id, {
      naziv: 'Izmenjen ugovor',
      datumPocetka: '2026-02-01',
      rokTrajanja: '120',
      grupe: JSON.stringify([izv2.id]),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(said(CONTRACTS.edited));
    expect(res.json().contract).toMatchObject({
      _id: id,
      naziv: 'Izmenjen ugovor',
      broj: 'E-1',
      datumPocetka: '2026-02-01',
      rokTrajanja: 120,
    });
    expect(res.json().contract.grupe.map((g: { _id: string }) => g._id)).toEqual([izv2.id]);
    const repeated = await edit('contractIzv', id, {
      naziv: 'Izmenjen ugovor',
      datumPocetka: '2026-02-01',
      rokTrajanja: '120',
      grupe: [izv.id, izv2.id],
    });
    expect(repeated.json().contract.grupe).toHaveLength(2);
    // grupe left out keeps the groups; a JSON body edits too.
    const json = await t.call({
      method: 'POST',
      url: `/api/contractIzv/contractIzv/${id}`,
      token: admin,
      payload: { naziv: 'JSON izmena', datumPocetka: '2026-02-01', rokTrajanja: 30 },
    });
    expect(json.statusCode, json.body).toBe(200);
    expect(json.json().contract).toMatchObject({ naziv: 'JSON izmena', rokTrajanja: 30 });
    expect(json.json().contract.grupe).toHaveLength(2);
    const [log] = await t.db.select().from(auditLogs).where(like(auditLogs.message, '%izmenio ugovor izvođača JSON izmena%'));
    expect(log).toBeTruthy();
  });

  it('needs naziv, datumPocetka and rokTrajanja together, with the form messages', async () => {
    const id = await createOk('contract', { ...body, broj: 'E-2' });
    const res = await edit('contract', id, { naziv: 'Samo naziv' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toMatchObject({ datumPocetka: said(CLUSTERS.required), rokTrajanja: said(CLUSTERS.mustBeNumber) });
    const notNumber = await edit('contract', id, { naziv: 'X', datumPocetka: '2026-01-01', rokTrajanja: 'mnogo' });
    expect(notNumber.json()).toMatchObject({ message: said(CLUSTERS.mustBeNumber), errors: { rokTrajanja: said(CLUSTERS.mustBeNumber) } });
    const empty = await edit('contract', id, { naziv: '', datumPocetka: '2026-01-01', rokTrajanja: '' });
    expect(empty.json().errors).toMatchObject({ naziv: said(CLUSTERS.required), rokTrajanja: said(CLUSTERS.mustBeNumber) });
    expect((await get('contract', id)).json().contract.naziv).toBe(body.naziv);
  });

  it('refuses groups of the wrong type, a malformed grupe, and groups on the general contract; nothing changes', async () => {
    const id = await createOk('contractPro', { ...body, broj: 'E-3', grupe: [pro.id] });
    const fields = { naziv: 'Novo', datumPocetka: '2026-01-01', rokTrajanja: '10' };
    for (const grupe of [JSON.stringify([izv.id]), '[nije json', JSON.stringify({ a: 1 })]) {
      const res = await edit('contractPro', id, { ...fields, grupe });
      expect(res.statusCode, grupe).toBe(400);
      expect(res.json().errors).toEqual({ grupe: said(USERS.invalidOption) });
    }
    const after = (await get('contractPro', id)).json().contractPro;
    expect(after.naziv).toBe(body.naziv);
    expect(after.grupe.map((g: { _id: string }) => g._id)).toEqual([pro.id]);
    const general = await createOk('contract', { ...body, broj: 'E-4' });
    expect((await edit('contract', general, { ...fields, grupe: JSON.stringify([izv.id]) })).statusCode).toBe(400);
    expect((await edit('contract', general, { ...fields, grupe: '[]' })).statusCode).toBe(200);
  });

  it('finishes a contract; a finished one refuses every further change (409)', async () => {
    const id = await createOk('contractNad', { ...body, broj: 'E-5', grupe: [nad.id] });
    const fields = { naziv: 'Nadzor', datumPocetka: '2026-01-10', rokTrajanja: '90' };
    // 'Završen' needs its end date (spec 2 §4).
    const noDate = await edit('contractNad', id, { ...fields, status: 'Završen' });
    expect(noDate.statusCode).toBe(400);
    expect(noDate.json().errors).toEqual({ datumZavrsetka: said(CONTRACTS.finishDateRequired) });
    // Back in progress, an end date is dropped.
    const back = await edit('contractNad', id, { ...fields, status: 'U toku', datumZavrsetka: '2026-03-01' });
    expect(back.json().contract).toMatchObject({ status: 'U toku', datumZavrsetka: null });
    const done = await edit('contractNad', id, { ...fields, status: 'Završen', datumZavrsetka: '2026-03-01' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().contract).toMatchObject({ status: 'Završen', datumZavrsetka: '2026-03-01', boja: 'green' });
    const late = await edit('contractNad', id, { ...fields, naziv: 'Ponovo', status: 'U toku' });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(said('Završen ugovor se ne može menjati.'));
    const json = await t.call({
      method: 'POST',
      url: `/api/contractNad/contractNad/${id}`,
      token: admin,
      payload: { ...fields, rokTrajanja: 1 },
    });
    expect(json.statusCode).toBe(409);
    const [row] = await t.db.select().from(contracts).where(eq(contracts.id, id));
    expect(row).toMatchObject({ naziv: 'Nadzor', status: 'Završen', datumZavrsetka: '2026-03-01' });
  });

  it('finished late is striped; an invalid status is refused', async () => {
    const id = await createOk('contract', { ...body, broj: 'E-6', datumPocetka: '2026-01-01', rokTrajanja: 10 });
    const bad = await edit('contract', id, { naziv: 'X', datumPocetka: '2026-01-01', rokTrajanja: '10', status: 'Otkazan' });
    expect(bad.statusCode).toBe(400);
    const late = await edit('contract', id, {
      naziv: 'X',
      datumPocetka: '2026-01-01',
      rokTrajanja: '10',
      status: 'Završen',
      datumZavrsetka: '2026-02-01',
    });
    expect(late.json().contract.boja).toBe('greenRed');
  });

  it('answers 404 for a missing contract and one of another kind', async () => {
    const id = await createOk('contract', { ...body, broj: 'E-7' });
    const fields = { naziv: 'X', datumPocetka: '2026-01-01', rokTrajanja: '10' };
    expect((await edit('contractIzv', id, fields)).statusCode).toBe(404);
    expect((await edit('contract', '00000000-0000-4000-8000-000000000000', fields)).statusCode).toBe(404);
    expect((await edit('contract', id, fields, employeeIzv)).statusCode).toBe(403);
  });
});

describe('DELETE /api/{route}/:id', () => {
  it('deletes the contract with its groups; 404 under another kind or twice', async () => {
    const id = await createOk('contractIzv', { ...body, broj: 'D-1', grupe: [izv.id] });
    expect((await t.call({ method: 'DELETE', url: `/api/contractPro/${id}`, token: admin })).statusCode).toBe(404);
    const res = await t.call({ method: 'DELETE', url: `/api/contractIzv/${id}`, token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: said(CONTRACTS.deleted) });
    expect(await t.db.select().from(contracts).where(eq(contracts.id, id))).toEqual([]);
    expect(
      await t.db
        .select()
        .from(contractGroups)
        .where(and(eq(contractGroups.contractId, id))),
    ).toEqual([]);
    expect((await t.call({ method: 'DELETE', url: `/api/contractIzv/${id}`, token: admin })).statusCode).toBe(404);
    const [log] = await t.db.select().from(auditLogs).where(like(auditLogs.message, '%obrisao ugovor izvođača%D-1%'));
    expect(log).toBeTruthy();
  });
});
