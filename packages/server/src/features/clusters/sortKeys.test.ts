import { FINISHED, IN_PROGRESS, type SortOrder } from '@trasa/domain';
import { eq, like, type SQL, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { activities } from '../../db/schema-activities.js';
import { clusters } from '../../db/schema-clusters.js';
import { orderOf } from '../../platform/sorting.js';
import { createCluster, createContract, createGroup, createUser, setActivityState, tokenFor } from '../../seed/factories.js';
import { CLUSTER_SORT_DEFINITIONS } from './service.js';

/**
 * The clusters list sorted by a computed key (responsible contractors — the groups of type Izvođač, as
 * the column shows them — and the general contract: kept on the cluster by migration 0021's triggers
 * and 0032's; the status kept by 0017's): every page,
 * both ways, must be the clusters in the order of the keys' plain definitions (CLUSTER_SORT_DEFINITIONS),
 * ties by the id, empty values (no group, no contract, no activities) where PostgreSQL puts them.
 */
const t = useTestApp();
let adminToken: string;

beforeAll(async () => {
  adminToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
  const [zec, cvetko, djuric] = [
    await createGroup(t.db, { naziv: 'Zec tim' }),
    await createGroup(t.db, { naziv: 'Čvetko tim' }),
    await createGroup(t.db, { naziv: 'Đurić tim' }),
  ];
  // A supervisor first in Serbian order: the contractor column's order must not follow it.
  const nadzor = await createGroup(t.db, { naziv: 'Anđeo nadzor', type: 'NADZOR' });
  const contractOf = async (naziv: string) => createContract(t.db, { kind: 'contract', naziv });
  const ugovori = [await contractOf('Ugovor Ćuprija'), await contractOf('Ugovor Cer'), await contractOf('Ugovor Ćuprija')];
  // Eight clusters: groups 0–3 (ties in the joined names too), a contract or none, activities in every state.
  const specs = [
    { groupIds: [zec.id, cvetko.id], contract: ugovori[0] },
    { groupIds: [djuric.id, nadzor.id], contract: ugovori[1] },
    { groupIds: [], contract: undefined },
    { groupIds: [cvetko.id, zec.id], contract: ugovori[2] },
    { groupIds: [djuric.id, cvetko.id, zec.id], contract: undefined },
    { groupIds: [djuric.id], contract: ugovori[0] },
    { groupIds: [], contract: ugovori[1] },
    { groupIds: [zec.id, nadzor.id], contract: undefined },
  ];
  for (const [i, spec] of specs.entries()) {
    const c = await createCluster(t.db, { naziv: `Qsk ${i}`, groupIds: spec.groupIds, contract: spec.contract });
    if (i % 4 === 1) await setActivityState(t.db, c.id, 'A1', { status: FINISHED });
    if (i % 4 === 2) await setActivityState(t.db, c.id, 'A2', { status: IN_PROGRESS });
    if (i % 4 === 3) {
      await setActivityState(t.db, c.id, 'A1', { status: FINISHED });
      await t.db.update(activities).set({ status: FINISHED }).where(eq(activities.clusterId, c.id));
    }
  }
});

/** Every page of the list sorted by each key, both ways, against the keys' plain definitions. */
async function expectListOrders(label: string) {
  for (const sort of ['odgovoran', 'status', 'ugovor'] as const) {
    for (const order of ['asc', 'desc'] as SortOrder[]) {
      const expected = (
        await t.db
          .select({ id: clusters.id })
          .from(clusters)
          .where(like(clusters.naziv, 'Qsk %'))
          .orderBy(...orderOf(CLUSTER_SORT_DEFINITIONS, { sort, order }, [], clusters.id))
      ).map((r) => r.id);
      const got: string[] = [];
      for (let page = 1; page < 20; page++) {
        const res = await t.call({
          method: 'GET',
          url: `/api/search/location?eng=qsk&srb=qsk&sort=${sort}&order=${order}&limit=3&page=${page}`,
          token: adminToken,
        });
        expect(res.statusCode, res.body).toBe(200);
        const rows = (res.json() as { locations: { _id: string }[] }).locations;
        got.push(...rows.map((r) => r._id));
        if (rows.length < 3) break;
      }
      expect(got, `${label}: ${sort} ${order}`).toEqual(expected);
      expect(expected.length, label).toBeGreaterThanOrEqual(7);
    }
  }
  // The kept keys (migration 0021) hold exactly the definitions' values, on every cluster.
  const definition = (key: 'odgovoran' | 'ugovor') => (CLUSTER_SORT_DEFINITIONS[key] as { text: SQL }).text;
  const drifted = await t.db.execute<{ naziv: string }>(sql`select naziv from ${clusters}
    where sort_groups is distinct from ${definition('odgovoran')} or sort_contract is distinct from ${definition('ugovor')}`);
  expect(drifted.rows, label).toEqual([]);
}

describe('the clusters list sorted by a computed key', () => {
  it('pages in the order of the plain definitions, both ways (groups, status, contract)', async () => {
    await expectListOrders('at the start');
    // The data is not trivial: all three statuses, clusters without groups or contract, ties of contracts.
    const status = (CLUSTER_SORT_DEFINITIONS.status as { value: SQL }).value;
    const ranks = await t.db
      .select({ k: sql<number>`${status}` })
      .from(clusters)
      .where(like(clusters.naziv, 'Qsk %'));
    expect(new Set(ranks.map((r) => r.k)).size).toBe(3);
    // The contractors' names only: the supervisor, first in Serbian order, is not in the key.
    const keys = await t.db
      .select({ naziv: clusters.naziv, key: sql<string | null>`${clusters}.sort_groups` })
      .from(clusters)
      .where(like(clusters.naziv, 'Qsk %'))
      .orderBy(clusters.naziv);
    expect(keys.map((k) => k.key)).toEqual([
      'Čvetko tim, Zec tim',
      'Đurić tim',
      null,
      'Čvetko tim, Zec tim',
      'Čvetko tim, Đurić tim, Zec tim',
      'Đurić tim',
      null,
      'Zec tim',
    ]);
  });

  it('keeps the stored keys through every change of the links and the names', async () => {
    const q = (text: string) => t.db.execute(sql.raw(text));
    const changes: [string, string][] = [
      ['a group renamed', `update groups set naziv = 'Ćevap tim' where naziv = 'Zec tim'`],
      [
        'a contractor made a supervisor',
        `update groups set type_id = (select id from group_types where code = 'NADZOR') where naziv = 'Čvetko tim'`,
      ],
      [
        'a supervisor made a contractor',
        `update groups set type_id = (select id from group_types where code = 'IZVODJAC') where naziv = 'Anđeo nadzor'`,
      ],
      ['a contract renamed', `update contracts set naziv = 'Ugovor Aleksinac' where naziv = 'Ugovor Cer'`],
      [
        'a group linked',
        `insert into cluster_groups (cluster_id, group_id) select c.id, g.id from clusters c, groups g where c.naziv = 'Qsk 2' and g.naziv = 'Đurić tim'`,
      ],
      ['a group unlinked', `delete from cluster_groups where cluster_id = (select id from clusters where naziv = 'Qsk 0')`],
      [
        'a link moved to another cluster',
        `update cluster_groups set cluster_id = (select id from clusters where naziv = 'Qsk 6') where cluster_id = (select id from clusters where naziv = 'Qsk 7')`,
      ],
      [
        'a general contract made a works contract',
        `update contract_clusters set kind = 'contractIzv' where cluster_id = (select id from clusters where naziv = 'Qsk 5')`,
      ],
      [
        'a contract linked',
        `insert into contract_clusters (contract_id, cluster_id, kind) select k.id, c.id, 'contract' from contracts k, clusters c where k.naziv = 'Ugovor Aleksinac' and c.naziv = 'Qsk 4'`,
      ],
      ['a group unlinked everywhere', `delete from cluster_groups where group_id = (select id from groups where naziv = 'Đurić tim')`],
      [
        'a contract unlinked everywhere',
        `delete from contract_clusters where contract_id = (select id from contracts where naziv = 'Ugovor Aleksinac')`,
      ],
      ['a cluster deleted', `delete from clusters where naziv = 'Qsk 3'`],
    ];
    for (const [label, statement] of changes) {
      await q(statement);
      await expectListOrders(label);
    }
  });
});
