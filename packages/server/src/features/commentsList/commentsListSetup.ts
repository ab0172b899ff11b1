import type { CommentListDto, LIST_SORTS } from '@trasa/domain';
import { desc, sql } from 'drizzle-orm';
import { beforeAll, expect } from 'vitest';
import { activityOf, addComment } from '../../../test/activityData.js';
import { type TestApp, useTestApp } from '../../../test/harness.js';
import { activityComments } from '../../db/schema-activities.js';
import { orderOf } from '../../platform/sorting.js';
import { createCluster, createContract, createOrgTree, createUser, tokenFor } from '../../seed/factories.js';
import { COMMENT_SORTS } from './service.js';

/**
 * What the comments list tests share (commentsList.*.test.ts): an org tree's users and tokens, clusters seen
 * in each way and their comments, and helpers to call the list.
 */

/** The running test file's app (set by its set-up: the modules are shared between a worker's files). */
export let t: TestApp;

export let adminToken: string;
export let managerToken: string;
export let leafToken: string;
export let otherToken: string;
export let guestToken: string;
export const ids: Record<string, string> = {};
export let clusterIds: { mine: string; contracted: string; foreign: string };

export const at = (minute: number) => new Date(Date.UTC(2025, 5, 1, 9, minute, 0));

export const list = (url: string, token = adminToken) => t.call({ method: 'GET', url, token });
/** The list's order as the SortMap gives it (newest first by default): the oracle's ORDER BY. */
export const listOrder = (sort: (typeof LIST_SORTS.comments)[number] | undefined, order: 'asc' | 'desc') =>
  orderOf(COMMENT_SORTS, { sort, order }, [desc(activityComments.createdAt), desc(activityComments.id)], activityComments.id);
export const komentari = (body: { comments: CommentListDto[] }) => body.comments.map((c) => c.komentar);

/** A contract without groups on `clusterId`, and the leaf's root group (its contract's, the contracted cluster's). */
export async function contractOnly(clusterId: string) {
  const contract = await createContract(t.db, { kind: 'contractIzv', groupIds: [] });
  await t.db.execute(
    sql`insert into contract_clusters (contract_id, cluster_id, kind) values (${contract.id}, ${clusterId}, 'contractIzv')`,
  );
  const [root] = (
    await t.db.execute<{ id: string }>(sql`select g.group_id as id from contract_groups g
      join contract_clusters c on c.contract_id = g.contract_id where c.cluster_id = ${clusterIds.contracted} limit 1`)
  ).rows;
  if (!root) throw new Error('no root group');
  /** The root given to the contract's groups (only 'visibility' moves), or taken away again. */
  return {
    give: () => t.db.execute(sql`insert into contract_groups (contract_id, group_id) values (${contract.id}, ${root.id})`),
    take: () => t.db.execute(sql`delete from contract_groups where contract_id = ${contract.id} and group_id = ${root.id}`),
  };
}

/**
 * Registers the set-up of the calling test file: its own app and data, read through the bindings above
 * while its tests run (vitest isolate: false shares this module between a worker's files).
 */
export function setupCommentsList(): void {
  const app = useTestApp();
  beforeAll(async () => {
    t = app;
    const tree = await createOrgTree(t.db, 'Kom');
    adminToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
    managerToken = await tokenFor(t.ctx, tree.manager);
    const author = await createUser(t.db, {
      role: 'Zaposleni',
      groupId: tree.leaf.id,
      ime: 'Đorđe',
      prezime: 'Živković',
      email: 'djordje@izvodjac.rs',
    });
    leafToken = await tokenFor(t.ctx, author);
    otherToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: tree.other.id }));
    guestToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Gost' }));
    const gone = await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id, ime: 'Obrisani', prezime: 'Korisnik' });
    // The leaf sees its own cluster (responsible: its parent, mid) and one by a contract of the root;
    // the supervision firm's cluster stays foreign to it.
    const mine = await createCluster(t.db, { naziv: 'Klaster Šabac', groupIds: [tree.mid.id] });
    const contract = await createContract(t.db, { kind: 'contractIzv', groupIds: [tree.root.id] });
    const contracted = await createCluster(t.db, { naziv: 'Klaster Čačak', contract });
    const foreign = await createCluster(t.db, { naziv: 'Klaster Niš', groupIds: [tree.other.id] });
    clusterIds = { mine: mine.id, contracted: contracted.id, foreign: foreign.id };
    const a1 = await activityOf(t.db, mine.id, 'A1');
    const a7 = await activityOf(t.db, contracted.id, 'A7');
    const a2 = await activityOf(t.db, foreign.id, 'A2');
    ids.a1 = a1.id;
    ids.first = (
      await addComment(t.db, { activityId: a1.id, userId: author.id, komentar: 'Trasa prelazi preko njive.', createdAt: at(1) })
    ).id;
    ids.second = (
      await addComment(t.db, { activityId: a7.id, userId: gone.id, komentar: 'Čeka se saglasnost Srbijagasa.', createdAt: at(2) })
    ).id;
    ids.third = (await addComment(t.db, { activityId: a2.id, userId: null, komentar: 'Надзор: датум потврђен.', createdAt: at(3) })).id;
    // The author of the second deleted their account (anonymised, marked deleted).
    const deleted = await t.call({ method: 'DELETE', url: '/api/user/my-profile', token: await tokenFor(t.ctx, gone) });
    expect(deleted.statusCode).toBe(200);
  });
}
