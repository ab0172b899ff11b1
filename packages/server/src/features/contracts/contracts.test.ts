import { addDays, CLUSTERS, CONTRACTS, USERS } from '@trasa/domain';
import { and, eq, like, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { auditLogs, groups, users } from '../../db/schema.js';
import { contractGroups, contracts } from '../../db/schema-clusters.js';
import { toActor } from '../../platform/auth.js';
import { createCluster, createContract, createGroup, createUser, tokenFor } from '../../seed/factories.js';
import { selectUserWithRelations } from '../users/presenter.js';
import { contractLineageOf } from './policy.js';
import { multipartBody } from './testDocuments.js';

const t = useTestApp();

let admin: string;
let izv: Awaited<ReturnType<typeof createGroup>>;
let izv2: Awaited<ReturnType<typeof createGroup>>;
let pro: Awaited<ReturnType<typeof createGroup>>;
let nad: Awaited<ReturnType<typeof createGroup>>;
let employeeIzv: string;
let employeeIzv2: string;
let employeeSees: string;
let managerIzv: string;
let guest: string;

beforeAll(async () => {
  admin = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
  izv = await createGroup(t.db, { naziv: 'Optika Test', type: 'IZVODJAC' });
  izv2 = await createGroup(t.db, { naziv: 'Kabl Test', type: 'IZVODJAC' });
  pro = await createGroup(t.db, { naziv: 'Projektant Test', type: 'PROJEKTANT' });
  nad = await createGroup(t.db, { naziv: 'Nadzor Test', type: 'NADZOR' });
  const sees = await createGroup(t.db, { naziv: 'Ministarstvo Test', type: 'NARUCILAC', sveVideci: true });
  employeeIzv = await tokenFor(t.ctx, await createUser(t.db, { groupId: izv.id }));
  employeeIzv2 = await tokenFor(t.ctx, await createUser(t.db, { groupId: izv2.id }));
  employeeSees = await tokenFor(t.ctx, await createUser(t.db, { groupId: sees.id }));
  managerIzv = await tokenFor(t.ctx, await createUser(t.db, { role: 'Rukovodilac', groupId: izv.id }));
  guest = await tokenFor(t.ctx, await createUser(t.db, { role: 'Gost' }));
});

const body = { naziv: 'Izgradnja mreže Čačak', broj: '12/2026', datumPocetka: '2026-01-10', rokTrajanja: 90 };

async function create(route: string, payload: object, token = admin) {
  return t.call({ method: 'POST', url: `/api/${route}`, token, payload });
}
async function createOk(route: string, payload: object): Promise<string> {
  const res = await create(route, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().document;
}
async function get(route: string, id: string, token = admin) {
  return t.call({ method: 'GET', url: `/api/${route}/${id}`, token });
}
async function edit(route: string, id: string, fields: Record<string, string | string[]>, token = admin) {
  const form = await multipartBody(fields);
  return t.call({ method: 'POST', url: `/api/${route}/${route}/${id}`, token, ...form });
}

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
      expect(res.json()).toEqual({ message: CONTRACTS.created, document: expect.stringMatching(/^[0-9a-f-]{36}$/) });
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
    expect(notNumber.json()).toMatchObject({ message: CLUSTERS.mustBeNumber, errors: { rokTrajanja: CLUSTERS.mustBeNumber } });
    const blankName = await create('contract', { ...body, naziv: '   ' });
    expect(blankName.json()).toMatchObject({ message: CLUSTERS.required, errors: { naziv: CLUSTERS.required } });
    const badDate = await create('contract', { ...body, datumPocetka: '2026-02-30' });
    expect(badDate.json().errors).toMatchObject({ datumPocetka: CLUSTERS.required });
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
      expect(res.json()).toEqual({ message: USERS.invalidOption, errors: { grupe: USERS.invalidOption } });
    }
    expect(await t.db.select({ id: contracts.id }).from(contracts)).toHaveLength(before.length);
  });

  it('is for Admin only', async () => {
    for (const token of [employeeIzv, managerIzv, guest]) {
      expect((await create('contractIzv', { ...body, grupe: [izv.id] }, token)).statusCode).toBe(403);
    }
  });
});

describe('GET /api/{route} and /api/search/{route}', () => {
  let mine: string;
  let theirs: string;
  let older: string;
  let nadzor: Awaited<ReturnType<typeof createGroup>>;
  beforeAll(async () => {
    nadzor = await createGroup(t.db, { type: 'NADZOR' });
    mine = (
      await createContract(t.db, {
        kind: 'contractNad',
        naziv: 'Nadzor Šabac',
        broj: 'N-1',
        datumPocetka: '2026-03-01',
        groupIds: [nadzor.id],
      })
    ).id;
    older = (
      await createContract(t.db, {
        kind: 'contractNad',
        naziv: 'Nadzor Užice',
        broj: 'N-2',
        datumPocetka: '2025-03-01',
        groupIds: [nadzor.id],
      })
    ).id;
    const otherNad = await createGroup(t.db, { type: 'NADZOR' });
    theirs = (
      await createContract(t.db, {
        kind: 'contractNad',
        naziv: 'Nadzor Leskovac',
        broj: 'N-3',
        datumPocetka: '2026-06-01',
        groupIds: [otherNad.id],
      })
    ).id;
  });

  it('lists newest first under the kind key, with totalResults and paging', async () => {
    const res = await t.call({ method: 'GET', url: '/api/contractNad?page=1&limit=50', token: admin });
    expect(res.statusCode).toBe(200);
    const list = res.json().contractsNad as { _id: string; datumPocetka: string }[];
    expect(res.json().totalResults).toBe(list.length);
    const dates = list.map((c) => c.datumPocetka);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(list.map((c) => c._id)).toEqual(expect.arrayContaining([mine, older, theirs]));
    const page2 = (await t.call({ method: 'GET', url: '/api/contractNad?page=2&limit=1', token: admin })).json();
    expect(page2.contractsNad.map((c: { _id: string }) => c._id)).toEqual([list[1]?._id]);
    const general = (await t.call({ method: 'GET', url: '/api/contract', token: admin })).json();
    expect(general).toHaveProperty('contracts');
    expect(general.contracts.every((c: { route: string }) => c.route === 'contract')).toBe(true);
  });

  it('list rows carry what the table shows: the linked clusters counted, listed by the detail only (issue 15)', async () => {
    await createCluster(t.db, { naziv: 'Klaster Lista 1', contract: { id: mine, kind: 'contractNad' } });
    await createCluster(t.db, { naziv: 'Klaster Lista 2', contract: { id: mine, kind: 'contractNad' } });
    for (const url of ['/api/contractNad?page=1&limit=1000', `/api/search/contractNad?eng=${encodeURIComponent('Šabac')}`]) {
      const rows = (await t.call({ method: 'GET', url, token: admin })).json().contractsNad as Record<string, unknown>[];
      const row = rows.find((c) => c._id === mine);
      expect(row).toMatchObject({ _id: mine, naziv: 'Nadzor Šabac', broj: 'N-1', brojLokacija: 2, fajlovi: [], route: 'contractNad' });
      expect(row).not.toHaveProperty('lokacije');
      expect(Object.keys(row ?? {}).sort()).toEqual(
        [
          '_id',
          'boja',
          'broj',
          'brojLokacija',
          'datumPocetka',
          'datumZavrsetka',
          'fajlovi',
          'grupe',
          'naziv',
          'rokTrajanja',
          'rokZavrsetka',
          'route',
          'status',
        ].sort(),
      );
      expect(((row?.grupe ?? []) as { _id: string }[]).map((g) => g._id)).toEqual([nadzor.id]);
    }
    const list = (await t.call({ method: 'GET', url: '/api/contractNad?limit=50', token: admin })).json().contractsNad;
    expect(list.find((c: { _id: string }) => c._id === older)).toMatchObject({ brojLokacija: 0 });
    const detail = (await get('contractNad', mine)).json().contractNad;
    expect(detail.lokacije.map((l: { naziv: string }) => l.naziv)).toEqual(['Klaster Lista 1', 'Klaster Lista 2']);
    expect(detail).not.toHaveProperty('brojLokacija');
  });

  it('shows a Zaposleni the typed contracts of their group only (all with sveVideci)', async () => {
    const nadEmployee = await tokenFor(t.ctx, await createUser(t.db, { groupId: nadzor.id }));
    const own = (await t.call({ method: 'GET', url: '/api/contractNad?limit=100', token: nadEmployee })).json();
    expect(own.contractsNad.map((c: { _id: string }) => c._id).sort()).toEqual([mine, older].sort());
    expect(own.totalResults).toBe(2);
    expect((await get('contractNad', mine, nadEmployee)).statusCode).toBe(200);
    expect((await get('contractNad', theirs, nadEmployee)).statusCode).toBe(404);
    const none = (await t.call({ method: 'GET', url: '/api/contractNad', token: employeeIzv2 })).json();
    expect(none).toEqual({ contractsNad: [], totalResults: 0 });
    expect((await get('contractNad', mine, employeeIzv2)).statusCode).toBe(404);
    const all = (await t.call({ method: 'GET', url: '/api/contractNad?limit=100', token: employeeSees })).json();
    expect(all.contractsNad.map((c: { _id: string }) => c._id)).toEqual(expect.arrayContaining([mine, older, theirs]));
    expect((await get('contractNad', theirs, employeeSees)).statusCode).toBe(200);
    // The general list is Admin's; the typed lists are not a Rukovodilac's or a guest's.
    expect((await t.call({ method: 'GET', url: '/api/contract', token: employeeIzv })).statusCode).toBe(403);
    expect((await t.call({ method: 'GET', url: '/api/contractIzv', token: managerIzv })).statusCode).toBe(403);
    expect((await t.call({ method: 'GET', url: '/api/contractIzv', token: guest })).statusCode).toBe(403);
  });

  it('a contract of another kind, or a malformed id, is not found under this route', async () => {
    expect((await get('contractIzv', mine)).statusCode).toBe(404);
    expect((await get('contractNad', 'nije-id')).statusCode).toBe(400);
  });

  it('searches naziv and broj in either script, within the same rule', async () => {
    const search = async (params: Record<string, string>, token = admin) => {
      const res = await t.call({ method: 'GET', url: `/api/search/contractNad?${new URLSearchParams(params)}`, token });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().contractsNad.map((c: { _id: string }) => c._id);
    };
    expect(await search({ eng: 'sabac', srb: 'сабац' })).toEqual([mine]);
    expect(await search({ eng: 'Шабац' })).toEqual([mine]);
    expect(await search({ eng: 'N-3' })).toEqual([theirs]);
    expect(await search({ eng: '%' })).toEqual([]);
    const nadEmployee = await tokenFor(t.ctx, await createUser(t.db, { groupId: nadzor.id }));
    expect(await search({ eng: 'nadzor', limit: '100' }, nadEmployee)).toEqual([mine, older]);
    const plain = (await t.call({ method: 'GET', url: '/api/contractNad?limit=100', token: admin })).json();
    expect((await t.call({ method: 'GET', url: '/api/search/contractNad?eng=&limit=100', token: admin })).json()).toEqual(plain);
  });
});

describe('the group tree: a Zaposleni reads the contracts of their group and its ancestors (contractLineageOf)', () => {
  let firm: { id: string };
  let team: { id: string };
  let crew: { id: string };
  let other: { id: string };
  let ofFirm: string;
  let ofOther: string;
  const ids = (list: { _id: string }[]) => list.map((c) => c._id);
  const list = async (token: string, query = 'page=1&limit=100') => {
    const res = await t.call({ method: 'GET', url: `/api/contractPro?${query}`, token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { contractsPro: { _id: string }[]; totalResults: number };
  };
  const sees = async (token: string) => {
    const plain = await list(token);
    expect(plain.totalResults).toBe(plain.contractsPro.length);
    // The prepared default order, a sorted list and a search answer the same rule.
    const sorted = await list(token, 'page=1&limit=100&sort=naziv&order=desc');
    expect(new Set(ids(sorted.contractsPro))).toEqual(new Set(ids(plain.contractsPro)));
    expect(sorted.totalResults).toBe(plain.totalResults);
    const found = await t.call({ method: 'GET', url: '/api/search/contractPro?eng=stablo&limit=100', token });
    const searched = ids(found.json().contractsPro);
    return { listed: ids(plain.contractsPro), searched };
  };
  const groupsVersion = async () =>
    (await t.db.execute<{ v: string }>(sql`select version::text as v from report_cache_state where name = 'groups'`)).rows[0]?.v;

  beforeAll(async () => {
    firm = await createGroup(t.db, { naziv: 'Stablo Projektant', type: 'PROJEKTANT' });
    team = await createGroup(t.db, { naziv: 'Stablo Projektant Tim', type: 'PROJEKTANT', parentId: firm.id });
    crew = await createGroup(t.db, { naziv: 'Stablo Projektant Ekipa', type: 'PROJEKTANT', parentId: team.id });
    other = await createGroup(t.db, { naziv: 'Stablo Drugi Projektant', type: 'PROJEKTANT' });
    ofFirm = (await createContract(t.db, { kind: 'contractPro', naziv: 'Stablo projekat firme', broj: 'S-1', groupIds: [firm.id] })).id;
    ofOther = (await createContract(t.db, { kind: 'contractPro', naziv: 'Stablo projekat drugih', broj: 'S-2', groupIds: [other.id] })).id;
  });

  it("shows a team, and its own team, the company's contract (list, sorted, search, detail); an unrelated group not", async () => {
    for (const groupId of [team.id, crew.id, firm.id]) {
      const token = await tokenFor(t.ctx, await createUser(t.db, { groupId }));
      const { listed, searched } = await sees(token);
      expect(listed).toEqual([ofFirm]);
      expect(searched).toEqual([ofFirm]);
      expect((await get('contractPro', ofFirm, token)).statusCode).toBe(200);
      expect((await get('contractPro', ofOther, token)).statusCode).toBe(404);
    }
    const stranger = await tokenFor(t.ctx, await createUser(t.db, { groupId: other.id }));
    expect((await sees(stranger)).listed).toEqual([ofOther]);
    expect((await get('contractPro', ofFirm, stranger)).statusCode).toBe(404);
    // The parent does not read its team's contract (the rule walks up, not down).
    const ofTeam = (await createContract(t.db, { kind: 'contractPro', naziv: 'Stablo projekat tima', groupIds: [team.id] })).id;
    const atFirm = await tokenFor(t.ctx, await createUser(t.db, { groupId: firm.id }));
    expect((await get('contractPro', ofTeam, atFirm)).statusCode).toBe(404);
    expect((await get('contractPro', ofTeam, await tokenFor(t.ctx, await createUser(t.db, { groupId: crew.id })))).statusCode).toBe(200);
    await t.db.delete(contracts).where(eq(contracts.id, ofTeam));
  });

  it('shows every contract under an ancestor with sveVideci', async () => {
    const ministry = await createGroup(t.db, { naziv: 'Stablo Ministarstvo', type: 'NARUCILAC', sveVideci: true });
    const sector = await createGroup(t.db, { naziv: 'Stablo Sektor', type: 'NARUCILAC', parentId: ministry.id, sveVideci: false });
    const unit = await createGroup(t.db, { naziv: 'Stablo Odsek', type: 'NARUCILAC', parentId: sector.id, sveVideci: false });
    const token = await tokenFor(t.ctx, await createUser(t.db, { groupId: unit.id }));
    const { listed, searched } = await sees(token);
    expect(listed).toEqual(expect.arrayContaining([ofFirm, ofOther]));
    expect(searched).toEqual(expect.arrayContaining([ofFirm, ofOther]));
    expect((await list(token)).totalResults).toBe((await list(admin)).totalResults);
    expect((await get('contractPro', ofOther, token)).statusCode).toBe(200);
  });

  it('follows a group moved under another parent: the groups version moves and the kept lineage is read again', async () => {
    const mover = await createGroup(t.db, { naziv: 'Stablo Selidba', type: 'PROJEKTANT', parentId: other.id });
    const token = await tokenFor(t.ctx, await createUser(t.db, { groupId: mover.id }));
    expect((await sees(token)).listed).toEqual([ofOther]);
    expect((await get('contractPro', ofOther, token)).statusCode).toBe(200);
    const before = await groupsVersion();
    await t.db.update(groups).set({ parentId: firm.id }).where(eq(groups.id, mover.id));
    expect(await groupsVersion()).not.toBe(before);
    expect((await sees(token)).listed).toEqual([ofFirm]);
    expect((await get('contractPro', ofOther, token)).statusCode).toBe(404);
    expect((await get('contractPro', ofFirm, token)).statusCode).toBe(200);
    await t.db.update(groups).set({ parentId: null }).where(eq(groups.id, mover.id));
    expect(await list(token)).toEqual({ contractsPro: [], totalResults: 0 });
    expect((await get('contractPro', ofFirm, token)).statusCode).toBe(404);
  });

  it("reads a Rukovodilac's own lineage (not their subtree's), afresh inside a transaction", async () => {
    const [row] = await selectUserWithRelations(t.db).where(
      eq(users.id, (await createUser(t.db, { role: 'Rukovodilac', groupId: team.id })).id),
    );
    const manager = { ...toActor(row as NonNullable<typeof row>), groupsVersion: await groupsVersion() };
    const lineage = await contractLineageOf(t.db, manager);
    expect(lineage.all === false && new Set(lineage.ids)).toEqual(new Set([team.id, firm.id]));
    expect(await t.db.transaction((tx) => contractLineageOf(tx, manager))).toEqual(lineage);
    expect(await contractLineageOf(t.db, { ...manager, group: null })).toEqual({ all: false, ids: [] });
  });

  it('counts the total with the page, and on its own for a page past the end', async () => {
    const all = await list(admin);
    expect(all.totalResults).toBe(all.contractsPro.length);
    expect(all.totalResults).toBeGreaterThanOrEqual(2);
    for (const query of ['page=1&limit=1', 'page=2&limit=1', 'page=1&limit=1&sort=broj', 'page=2&limit=1&sort=broj&order=desc']) {
      const page = await list(admin, query);
      expect(page.contractsPro, query).toHaveLength(1);
      expect(page.totalResults, query).toBe(all.totalResults);
    }
    expect((await list(admin, 'page=2&limit=1')).contractsPro).toEqual([all.contractsPro[1]]);
    for (const query of ['page=1000&limit=10', 'page=1000&limit=10&sort=naziv']) {
      expect(await list(admin, query), query).toEqual({ contractsPro: [], totalResults: all.totalResults });
    }
    const stranger = await tokenFor(t.ctx, await createUser(t.db, { groupId: other.id }));
    expect(await list(stranger, 'page=50&limit=10')).toEqual({ contractsPro: [], totalResults: 1 });
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
    expect(res.json().message).toBe(CONTRACTS.edited);
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
    expect(res.json().errors).toMatchObject({ datumPocetka: CLUSTERS.required, rokTrajanja: CLUSTERS.mustBeNumber });
    const notNumber = await edit('contract', id, { naziv: 'X', datumPocetka: '2026-01-01', rokTrajanja: 'mnogo' });
    expect(notNumber.json()).toMatchObject({ message: CLUSTERS.mustBeNumber, errors: { rokTrajanja: CLUSTERS.mustBeNumber } });
    const empty = await edit('contract', id, { naziv: '', datumPocetka: '2026-01-01', rokTrajanja: '' });
    expect(empty.json().errors).toMatchObject({ naziv: CLUSTERS.required, rokTrajanja: CLUSTERS.mustBeNumber });
    expect((await get('contract', id)).json().contract.naziv).toBe(body.naziv);
  });

  it('refuses groups of the wrong type, a malformed grupe, and groups on the general contract; nothing changes', async () => {
    const id = await createOk('contractPro', { ...body, broj: 'E-3', grupe: [pro.id] });
    const fields = { naziv: 'Novo', datumPocetka: '2026-01-01', rokTrajanja: '10' };
    for (const grupe of [JSON.stringify([izv.id]), '[nije json', JSON.stringify({ a: 1 })]) {
      const res = await edit('contractPro', id, { ...fields, grupe });
      expect(res.statusCode, grupe).toBe(400);
      expect(res.json().errors).toEqual({ grupe: USERS.invalidOption });
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
    expect(noDate.json().errors).toEqual({ datumZavrsetka: CONTRACTS.finishDateRequired });
    // Back in progress, an end date is dropped.
    const back = await edit('contractNad', id, { ...fields, status: 'U toku', datumZavrsetka: '2026-03-01' });
    expect(back.json().contract).toMatchObject({ status: 'U toku', datumZavrsetka: null });
    const done = await edit('contractNad', id, { ...fields, status: 'Završen', datumZavrsetka: '2026-03-01' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().contract).toMatchObject({ status: 'Završen', datumZavrsetka: '2026-03-01', boja: 'green' });
    const late = await edit('contractNad', id, { ...fields, naziv: 'Ponovo', status: 'U toku' });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('Završen ugovor se ne može menjati.');
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
    expect(res.json()).toEqual({ message: CONTRACTS.deleted });
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
