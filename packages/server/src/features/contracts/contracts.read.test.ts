import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { groups, users } from '../../db/schema.js';
import { contracts } from '../../db/schema-clusters.js';
import { toActor } from '../../platform/auth.js';
import { createCluster, createContract, createGroup, createUser, tokenFor } from '../../seed/factories.js';
import { selectUserWithRelations } from '../users/presenter.js';
import { admin, employeeIzv, employeeIzv2, employeeSees, get, guest, managerIzv, setupContracts, t } from './contractsSetup.js';
import { contractLineageOf } from './policy.js';

setupContracts();
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

  it('follows a group moved under another parent at once', async () => {
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

  it("reads a Rukovodilac's own lineage (not their subtree's), inside a transaction too", async () => {
    const [row] = await selectUserWithRelations(t.db).where(
      eq(users.id, (await createUser(t.db, { role: 'Rukovodilac', groupId: team.id })).id),
    );
    const manager = toActor(row as NonNullable<typeof row>);
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
