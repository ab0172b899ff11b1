import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { groups, users } from '../../db/schema.js';
import { contractClusters } from '../../db/schema-clusters.js';
import { type Actor, toActor } from '../../platform/auth.js';
import {
  createCluster,
  createContract,
  createGroup,
  createOrgTree,
  createUser,
  linkClusterToContract,
  tokenFor,
} from '../../seed/factories.js';
import { multipartBody, samplePdf } from '../contracts/testDocuments.js';
import { selectUserWithRelations } from '../users/presenter.js';
import { assertClusterVisible, clusterScopeOf, isClusterVisible, visibleClusterCondition } from './policy.js';

const t = useTestApp();

async function actorOf(user: { id: string }): Promise<Actor> {
  const [row] = await selectUserWithRelations(t.db).where(eq(users.id, user.id));
  if (!row) throw new Error('no user');
  return toActor(row);
}

let tree: Awaited<ReturnType<typeof createOrgTree>>;
let viaContract: { id: string };
let ofLeaf: { id: string };

beforeAll(async () => {
  tree = await createOrgTree(t.db, 'Politika');
  ofLeaf = await createCluster(t.db, { naziv: 'Politika Leaf', groupIds: [tree.leaf.id] });
  viaContract = await createCluster(t.db, { naziv: 'Politika Ugovor' });
  const izv = await createContract(t.db, { kind: 'contractIzv', groupIds: [tree.leaf.id] });
  await createCluster(t.db, { naziv: 'Politika Tuđi', groupIds: [tree.other.id] });
  await linkClusterToContract(t.db, izv, viaContract.id);
});

describe('cluster policy', () => {
  it('gives each role its scope', async () => {
    expect(await clusterScopeOf(t.db, await actorOf(await createUser(t.db, { role: 'Admin' })))).toEqual({ all: true });
    expect(await clusterScopeOf(t.db, await actorOf(await createUser(t.db, { role: 'Gost' })))).toEqual({ all: false, groupIds: [] });
    // A Zaposleni: their group and its ancestors (the group tree); a Rukovodilac: their subtree and
    // the ancestors of their group.
    const employee = await actorOf(await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id }));
    const own = await clusterScopeOf(t.db, employee);
    expect(own.all === false && new Set(own.groupIds)).toEqual(new Set([tree.leaf.id, tree.mid.id, tree.root.id]));
    const scope = await clusterScopeOf(t.db, await actorOf(tree.manager));
    expect(scope.all === false && new Set(scope.groupIds)).toEqual(new Set([tree.mid.id, tree.leaf.id, tree.root.id]));
    const allSeeing = await createGroup(t.db, { sveVideci: true });
    expect(await clusterScopeOf(t.db, await actorOf(await createUser(t.db, { role: 'Zaposleni', groupId: allSeeing.id })))).toEqual({
      all: true,
    });
    const noGroup = await actorOf(await createUser(t.db, { role: 'Zaposleni', groupId: null }));
    expect(await clusterScopeOf(t.db, noGroup)).toEqual({ all: false, groupIds: [] });
  });

  it('checks one cluster (404 outside, also for a malformed id) and filters other tables by their cluster column', async () => {
    const employee = await actorOf(await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id }));
    expect(await isClusterVisible(t.db, employee, ofLeaf.id)).toBe(true);
    expect(await isClusterVisible(t.db, employee, viaContract.id)).toBe(true);
    expect(await isClusterVisible(t.db, employee, 'nije-id')).toBe(false);
    const stranger = await actorOf(await createUser(t.db, { role: 'Zaposleni', groupId: tree.other.id }));
    await expect(assertClusterVisible(t.db, stranger, ofLeaf.id)).rejects.toMatchObject({ statusCode: 404 });
    await expect(assertClusterVisible(t.db, { all: false, groupIds: [] }, ofLeaf.id)).rejects.toMatchObject({ statusCode: 404 });
    await expect(assertClusterVisible(t.db, { all: true }, ofLeaf.id)).resolves.toBeUndefined();

    const scope = await clusterScopeOf(t.db, employee);
    const links = await t.db
      .select({ clusterId: contractClusters.clusterId })
      .from(contractClusters)
      .where(and(eq(contractClusters.kind, 'contractIzv'), visibleClusterCondition(scope, contractClusters.clusterId)));
    expect(links.map((l) => l.clusterId)).toContain(viaContract.id);
    const strangers = await t.db
      .select({ clusterId: contractClusters.clusterId })
      .from(contractClusters)
      .where(visibleClusterCondition(await clusterScopeOf(t.db, stranger), contractClusters.clusterId));
    expect(strangers.map((l) => l.clusterId)).not.toContain(viaContract.id);
  });
});

/**
 * Visibility follows the group tree (docs/decisions.md): a contractor company C under a holding P, with
 * a team T and T's team G; a sibling company S under P. A contract with grupe [C] is linked to K, and
 * T is responsible for cluster L.
 */
describe('visibility follows the group tree', () => {
  let P: { id: string; naziv: string };
  let C: { id: string; naziv: string };
  let T: { id: string; naziv: string };
  let G: { id: string; naziv: string };
  let S: { id: string; naziv: string };
  let K: { id: string };
  let L: { id: string };
  let contract: { id: string };
  let fileId: string;
  const tok: Record<string, string> = {};

  beforeAll(async () => {
    P = await createGroup(t.db, { naziv: 'Stablo Holding', type: 'IZVODJAC' });
    C = await createGroup(t.db, { naziv: 'Stablo Izvođač', type: 'IZVODJAC', parentId: P.id });
    T = await createGroup(t.db, { naziv: 'Stablo Izvođač Tim', type: 'IZVODJAC', parentId: C.id });
    G = await createGroup(t.db, { naziv: 'Stablo Izvođač Tim Ekipa', type: 'IZVODJAC', parentId: T.id });
    S = await createGroup(t.db, { naziv: 'Stablo Susedi', type: 'IZVODJAC', parentId: P.id });
    const izv = await createContract(t.db, { kind: 'contractIzv', naziv: 'Stablo ugovor', groupIds: [C.id] });
    contract = izv;
    K = await createCluster(t.db, { naziv: 'Stablo K', contract: izv });
    L = await createCluster(t.db, { naziv: 'Stablo L', groupIds: [T.id] });
    const user = async (role: 'Zaposleni' | 'Rukovodilac', groupId: string) => tokenFor(t.ctx, await createUser(t.db, { role, groupId }));
    tok.admin = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
    tok.c = await user('Zaposleni', C.id);
    tok.t = await user('Zaposleni', T.id);
    tok.g = await user('Zaposleni', G.id);
    tok.s = await user('Zaposleni', S.id);
    tok.p = await user('Zaposleni', P.id);
    tok.managerP = await user('Rukovodilac', P.id);
    tok.managerT = await user('Rukovodilac', T.id);
    tok.managerS = await user('Rukovodilac', S.id);
    const form = await multipartBody({}, [{ field: 'fajl0', name: 'Stablo.pdf', content: samplePdf('Stablo'), type: 'application/pdf' }]);
    const up = await t.call({ method: 'POST', url: `/api/contractIzv/contractIzv/${izv.id}`, token: tok.admin, ...form });
    expect(up.statusCode, up.body).toBe(200);
    fileId = up.json().contract.fajlovi[0]._id;
  });

  const listed = async (token: string) => {
    const res = await t.call({ method: 'GET', url: '/api/location?page=1&limit=1000', token });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().locations as { _id: string }[]).map((l) => l._id);
  };
  const detail = async (token: string, id: string) => (await t.call({ method: 'GET', url: `/api/location/${id}`, token })).statusCode;
  const download = async (token: string) =>
    (await t.call({ method: 'GET', url: `/api/files/contractIzv/${contract.id}/${fileId}`, token })).statusCode;
  const documents = async (token: string, id: string) =>
    (await t.call({ method: 'GET', url: `/api/link/documentsIzv/location?locationId=${id}`, token })).statusCode;

  it("shows a cluster of the company's contract to its teams and their teams (list, detail, documents)", async () => {
    for (const who of ['c', 't', 'g'] as const) {
      const token = tok[who] as string;
      expect(await listed(token), who).toContain(K.id);
      expect(await detail(token, K.id), who).toBe(200);
      expect(await documents(token, K.id), who).toBe(200);
      expect(await download(token), who).toBe(200);
    }
  });

  it("lists the company's contract for its teams' employees, not for a sibling company's or the holding's", async () => {
    const contractIds = async (token: string) => {
      const res = await t.call({ method: 'GET', url: '/api/contractIzv?page=1&limit=100', token });
      expect(res.statusCode, res.body).toBe(200);
      return JSON.stringify(res.json());
    };
    for (const who of ['c', 't', 'g'] as const) {
      expect(await contractIds(tok[who] as string), who).toContain(contract.id);
      expect((await t.call({ method: 'GET', url: `/api/contractIzv/${contract.id}`, token: tok[who] })).statusCode, who).toBe(200);
    }
    for (const who of ['s', 'p'] as const) {
      expect(await contractIds(tok[who] as string), who).not.toContain(contract.id);
      expect((await t.call({ method: 'GET', url: `/api/contractIzv/${contract.id}`, token: tok[who] })).statusCode, who).toBe(404);
    }
  });

  it("shows a team's cluster to the team's teams, not to the company above it", async () => {
    expect(await listed(tok.g as string)).toContain(L.id);
    expect(await detail(tok.g as string, L.id)).toBe(200);
    expect(await listed(tok.c as string)).not.toContain(L.id);
    expect(await detail(tok.c as string, L.id)).toBe(404);
  });

  it("hides it from a sibling company and from the holding's own employees (404 on detail and downloads)", async () => {
    for (const who of ['s', 'p', 'managerS'] as const) {
      const token = tok[who] as string;
      expect(await listed(token), who).not.toContain(K.id);
      expect(await detail(token, K.id), who).toBe(404);
      expect(await documents(token, K.id), who).toBe(404);
      expect(await download(token), who).toBe(404);
    }
  });

  it('shows it to a Rukovodilac above the company and to a Rukovodilac of a team', async () => {
    for (const who of ['managerP', 'managerT'] as const) {
      const token = tok[who] as string;
      expect(await listed(token), who).toContain(K.id);
      expect(await detail(token, K.id), who).toBe(200);
      expect(await download(token), who).toBe(200);
    }
    expect(await listed(tok.managerP as string)).toContain(L.id);
  });

  it("offers a topic on the cluster to the company's teams, not to the sibling or the holding", async () => {
    const res = await t.call({ method: 'GET', url: `/api/topic/grupe?locationId=${K.id}`, token: tok.t });
    expect(res.statusCode, res.body).toBe(200);
    const offered = (res.json().groups as { _id: string }[]).map((g) => g._id);
    expect(offered).toEqual(expect.arrayContaining([C.id, T.id, G.id]));
    expect(offered).not.toContain(S.id);
    expect(offered).not.toContain(P.id);

    const refused = await t.call({ method: 'POST', url: '/api/topic', token: tok.g, payload: { locationId: K.id, odgovoran: S.id } });
    expect(refused.statusCode, refused.body).toBe(400);
    const opened = await t.call({ method: 'POST', url: '/api/topic', token: tok.g, payload: { locationId: K.id, odgovoran: C.id } });
    expect(opened.statusCode, opened.body).toBe(201);
    const topicId = opened.json().data._id as string;
    // The responsible group answers by equality: T sees the topic but does not answer for C.
    const seen = await t.call({ method: 'GET', url: `/api/topic/${topicId}`, token: tok.t });
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json().canComment).toBe(false);
    const comment = (token: string, payload: object) => t.call({ method: 'POST', url: `/api/topic/${topicId}/komentar`, token, payload });
    expect((await comment(tok.c as string, { tekst: 'Sestrinska firma', noviOdgovoran: S.id })).statusCode).toBe(400);
    const handed = await comment(tok.c as string, { tekst: 'Tim preuzima', noviOdgovoran: T.id });
    expect(handed.statusCode, handed.body).toBe(200);
    expect(handed.json().data.odgovoran._id).toBe(T.id);
    expect((await comment(tok.t as string, { tekst: 'Preuzeto' })).statusCode).toBe(200);
  });

  it('inherits sveVideci from an ancestor (as the demo seed stores it), for employees, managers and topic groups', async () => {
    const ministry = await createGroup(t.db, { naziv: 'Stablo Ministarstvo', type: 'NARUCILAC', sveVideci: true });
    const sector = await createGroup(t.db, { naziv: 'Stablo Sektor', type: 'NARUCILAC', parentId: ministry.id, sveVideci: false });
    const employee = await actorOf(await createUser(t.db, { role: 'Zaposleni', groupId: sector.id }));
    expect(await clusterScopeOf(t.db, employee)).toEqual({ all: true });
    expect(await clusterScopeOf(t.db, await actorOf(await createUser(t.db, { role: 'Rukovodilac', groupId: sector.id })))).toEqual({
      all: true,
    });
    const res = await t.call({ method: 'GET', url: `/api/topic/grupe?locationId=${K.id}`, token: tok.admin });
    expect((res.json().groups as { _id: string }[]).map((g) => g._id)).toEqual(expect.arrayContaining([ministry.id, sector.id]));
  });

  it('stops on a corrupted, cyclic tree', async () => {
    const a = await createGroup(t.db, { type: 'IZVODJAC' });
    const b = await createGroup(t.db, { type: 'IZVODJAC', parentId: a.id });
    await t.db.update(groups).set({ parentId: b.id }).where(eq(groups.id, a.id));
    try {
      const cycled = await createCluster(t.db, { groupIds: [a.id] });
      const scope = await clusterScopeOf(t.db, await actorOf(await createUser(t.db, { role: 'Rukovodilac', groupId: b.id })));
      expect(scope.all === false && new Set(scope.groupIds)).toEqual(new Set([a.id, b.id]));
      const res = await t.call({ method: 'GET', url: `/api/topic/grupe?locationId=${cycled.id}`, token: tok.admin });
      const offered = (res.json().groups as { _id: string }[]).map((g) => g._id);
      expect(offered).toEqual(expect.arrayContaining([a.id, b.id]));
    } finally {
      await t.db
        .update(groups)
        .set({ parentId: null })
        .where(inArray(groups.id, [a.id]));
    }
  });
});
