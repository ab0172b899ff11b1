import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { users } from '../../db/schema.js';
import { contractClusters } from '../../db/schema-clusters.js';
import { type Actor, toActor } from '../../platform/auth.js';
import { createCluster, createContract, createGroup, createOrgTree, createUser, linkClusterToContract } from '../../seed/factories.js';
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
    const employee = await actorOf(await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id }));
    expect(await clusterScopeOf(t.db, employee)).toEqual({ all: false, groupIds: [tree.leaf.id] });
    const scope = await clusterScopeOf(t.db, await actorOf(tree.manager));
    expect(scope.all === false && new Set(scope.groupIds)).toEqual(new Set([tree.mid.id, tree.leaf.id]));
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
