import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, withoutKeptVerify } from '../../../test/harness.js';
import {
  createCluster,
  createContract,
  createGroup,
  createOrgTree,
  createUser,
  linkClusterToContract,
  tokenFor,
} from '../../seed/factories.js';

/**
 * A user's cluster scope (GET /api/location) is kept under the groups' version its user was read with
 * (platform/auth.ts load_active_user, Actor.groupsVersion) and read again exactly when a group changed,
 * through any path, and only then; a Rukovodilac's subtree (GET /api/user) is read on every request.
 */
const t = useTestApp();

let tree: Awaited<ReturnType<typeof createOrgTree>>;
let managerToken: string;
let employeeToken: string;
let team: { id: string };
let clusterOfTeam: { id: string };
let elsewhere: { id: string };

beforeAll(async () => {
  tree = await createOrgTree(t.db, 'Zadrž');
  managerToken = await tokenFor(t.ctx, tree.manager);
  employeeToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id }));
  elsewhere = await createGroup(t.db, { naziv: 'Zadrž Drugde', type: 'IZVODJAC' });
  team = await createGroup(t.db, { naziv: 'Zadrž Tim Novi', type: 'IZVODJAC', parentId: elsewhere.id });
  await createUser(t.db, { role: 'Zaposleni', groupId: team.id, ime: 'Zadržan', prezime: 'Članović' });
  clusterOfTeam = await createCluster(t.db, { naziv: 'Klaster Zadrž Tima', groupIds: [elsewhere.id] });
});

const setParent = (group: string, parent: string) => t.db.execute(sql`update groups set parent_id = ${parent} where id = ${group}`);

/** Whether the manager's users list holds the team's member, and whether the employee sees the team's cluster. */
async function sees(): Promise<[boolean, boolean]> {
  const users = await t.call({ method: 'GET', url: '/api/user?page=1&limit=1000', token: managerToken });
  expect(users.statusCode, users.body).toBe(200);
  const clusters = await t.call({ method: 'GET', url: '/api/location?page=1&limit=1000', token: employeeToken });
  expect(clusters.statusCode, clusters.body).toBe(200);
  return [
    (users.json().users as { prezime: string }[]).some((u) => u.prezime === 'Članović'),
    (clusters.json().locations as { _id: string }[]).some((c) => c._id === clusterOfTeam.id),
  ];
}

describe("a request's cluster scope kept by the groups' version, the subtree read afresh", () => {
  it('follows every change of the tree and of the flags, and is read again only then', async () => {
    expect(await sees()).toEqual([false, false]);
    // The team moved under the manager's group: the manager sees its member. The firm that holds the
    // cluster placed above the employee's root: the employee's group inherits it.
    await setParent(team.id, tree.mid.id);
    expect(await sees()).toEqual([true, false]);
    await setParent(tree.root.id, elsewhere.id);
    expect(await sees()).toEqual([true, true]);
    await t.db.execute(sql`update groups set parent_id = null where id = ${tree.root.id}`);
    expect(await sees()).toEqual([true, false]);
    // sveVideci given to the employee's parent: every cluster.
    await t.db.execute(sql`update groups set sve_videci = true where id = ${tree.mid.id}`);
    expect(await sees()).toEqual([true, true]);
    await t.db.execute(sql`update groups set sve_videci = false where id = ${tree.mid.id}`);
    expect(await sees()).toEqual([true, false]);
    // A change made with the triggers off (the version unmoved): the subtree is read afresh (the team's
    // member gone at once), the cluster scope is kept; the next change that moves the version brings it
    // back to the truth.
    await withoutKeptVerify(t, async () => {
      await t.db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.execute(sql`update groups set parent_id = ${elsewhere.id} where id = ${team.id}`);
        await tx.execute(sql`update groups set parent_id = ${elsewhere.id} where id = ${tree.root.id}`);
      });
      expect(await sees()).toEqual([false, false]);
    });
    await t.db.execute(sql`update groups set kratak_naziv = 'ZDR' where id = ${elsewhere.id}`);
    expect(await sees()).toEqual([false, true]);
  });
});

describe("a limited scope's visible clusters kept by the visibility version (drizzle/0033)", () => {
  it('follow every change of a cluster’s groups, a contract’s clusters and a contract’s groups, and are read again only then', async () => {
    const firm = await createGroup(t.db, { naziv: 'Vidlj Firma', type: 'IZVODJAC' });
    const other = await createGroup(t.db, { naziv: 'Vidlj Druga', type: 'IZVODJAC' });
    const employee = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: firm.id }));
    const manager = await tokenFor(t.ctx, await createUser(t.db, { role: 'Rukovodilac', groupId: firm.id }));
    const own = await createCluster(t.db, { naziv: 'Vidlj Svoj', groupIds: [firm.id] });
    const target = await createCluster(t.db, { naziv: 'Vidlj Meta', groupIds: [other.id] });
    await t.db.execute(sql`insert into topics (cluster_id, opis, group_id) values (${target.id}, 'Vidlj tema mete', ${other.id}),
      (${own.id}, 'Vidlj tema svoja', ${firm.id})`);
    const contract = await createContract(t.db, { kind: 'contractIzv', groupIds: [other.id] });

    /**
     * For both people: whether the target cluster is in their clusters list, its search, its autocomplete
     * and their topics (with the totals of the list and the topics), as [list, search, autocomplete, topics].
     */
    const answers = async () => {
      const seen: boolean[][] = [];
      for (const token of [employee, manager]) {
        const list = await t.call({ method: 'GET', url: '/api/location?page=1&limit=10', token });
        const search = await t.call({
          method: 'GET',
          url: `/api/search/location?eng=vidlj&srb=${encodeURIComponent('видљ')}&page=1&limit=10`,
          token,
        });
        const complete = await t.call({ method: 'GET', url: `/api/location/get/autocomplete?value=vidlj`, token });
        const topicList = await t.call({ method: 'GET', url: '/api/topic?page=1&limit=10', token });
        for (const res of [list, search, complete, topicList]) expect(res.statusCode, res.body).toBe(200);
        const inList = (list.json().locations as { _id: string }[]).some((c) => c._id === target.id);
        const inSearch = (search.json().locations as { _id: string }[]).some((c) => c._id === target.id);
        const inComplete = (complete.json().locations as { _id: string }[]).some((c) => c._id === target.id);
        const inTopics = (topicList.json().data as { locationId: string }[]).some((c) => c.locationId === target.id);
        expect(list.json().totalResults).toBe(inList ? 2 : 1);
        expect(search.json().totalResults).toBe(inSearch ? 2 : 1);
        expect(topicList.json().total).toBe(inTopics ? 2 : 1);
        seen.push([inList, inSearch, inComplete, inTopics]);
      }
      expect(seen[1]).toEqual(seen[0]);
      return seen[0] ?? [];
    };
    /** Whether the target is seen, every answer agreeing. */
    const sees = async () => {
      const [inList, ...others] = await answers();
      expect(others).toEqual([inList, inList, inList]);
      return inList;
    };

    expect(await sees()).toBe(false);
    // A responsible group added, then taken away.
    await t.db.execute(sql`insert into cluster_groups (cluster_id, group_id) values (${target.id}, ${firm.id})`);
    expect(await sees()).toBe(true);
    await t.db.execute(sql`delete from cluster_groups where cluster_id = ${target.id} and group_id = ${firm.id}`);
    expect(await sees()).toBe(false);
    // Through a contract: linked to the cluster while the firm is not among its groups, then the firm
    // added to them, then the cluster unlinked.
    await linkClusterToContract(t.db, contract, target.id);
    expect(await sees()).toBe(false);
    await t.db.execute(sql`insert into contract_groups (contract_id, group_id) values (${contract.id}, ${firm.id})`);
    expect(await sees()).toBe(true);
    await t.db.execute(sql`delete from contract_clusters where contract_id = ${contract.id} and cluster_id = ${target.id}`);
    expect(await sees()).toBe(false);
    await linkClusterToContract(t.db, contract, target.id);
    expect(await sees()).toBe(true);
    await t.db.execute(sql`delete from contract_groups where contract_id = ${contract.id} and group_id = ${firm.id}`);
    expect(await sees()).toBe(false);
    // A change made with the triggers off (the version unmoved) shows the clusters are indeed kept: the
    // search and the topics read the kept ids and still leave the cluster out, while the plain list and
    // the autocomplete work their condition out in the statement. The next change that moves the version
    // brings every answer back to the truth.
    await withoutKeptVerify(t, async () => {
      await t.db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.execute(sql`insert into cluster_groups (cluster_id, group_id) values (${target.id}, ${firm.id})`);
      });
      expect(await answers()).toEqual([true, false, true, false]);
    });
    await t.db.execute(sql`delete from cluster_groups where cluster_id = ${own.id} and group_id = ${other.id}`);
    await t.db.execute(sql`insert into cluster_groups (cluster_id, group_id) values (${own.id}, ${other.id})`);
    expect(await sees()).toBe(true);
  });
});

describe("the Admin's users total: past the exact count, the planner's estimate, asked on every request", () => {
  it('follows the statistics at once', async () => {
    const admin = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
    const total = async () => {
      const res = await t.call({ method: 'GET', url: '/api/user?page=1&limit=10', token: admin });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().totalResults as number;
    };
    const live = async () =>
      (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from users where deleted_at is null`)).rows[0]?.n ?? 0;
    expect(await total()).toBe(await live());
    // Statistics that make the table look like millions of rows: past the exact count's limit the
    // estimate is the answer; back to the truth, the exact count again.
    await t.db.execute(sql`analyze users`);
    await t.db.execute(sql`update pg_class set reltuples = relpages * 100000 where oid = 'users'::regclass`);
    expect(await total()).toBeGreaterThan(20_000);
    await t.db.execute(sql`analyze users`);
    expect(await total()).toBe(await live());
  });
});
