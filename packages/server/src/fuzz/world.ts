import type { RoleKey } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { groups } from '../db/schema.js';
import { contractClusters } from '../db/schema-clusters.js';
import type { Db } from '../platform/database.js';
import { fileStore } from '../platform/files.js';
import { seedDemo } from '../seed/demo.js';
import { seedDemoClusters } from '../seed/demoClusters.js';
import { seedDemoContracts } from '../seed/demoContracts.js';
import { seedDemoIjos } from '../seed/demoIjo.js';
import { linkDemoClusters } from '../seed/demoLinks.js';
import { seedDemoTopics } from '../seed/demoTopics.js';
import { driveCluster } from '../seed/drive.js';
import { activityFileStore } from '../shared/activityFileStore.js';
import type { Pools } from './arbitraries.js';

/**
 * The data the property tests run against: the demo seed (groups, users, clusters, contracts with their
 * documents, topics, a cluster's activities with their files — on disk under the test's DATA_DIR), and the pools
 * the arbitraries draw from: ids of existing records of every table, words for path parameters.
 */
export async function seedWorld(db: Db, dataDir: string): Promise<void> {
  await seedDemo(db);
  await seedDemoClusters(db);
  await seedDemoContracts(db, fileStore(dataDir));
  await linkDemoClusters(db);
  await seedDemoTopics(db);
  await seedDemoIjos(db);
  // One cluster's workflow driven to A6 (activity files, data, a finished control) — the demo's own
  // activity stories take ~15 s, too long for every `npm test`.
  const [linked] = await db
    .select({ id: contractClusters.clusterId })
    .from(contractClusters)
    .where(eq(contractClusters.kind, 'contract'))
    .limit(1);
  if (linked) await driveCluster({ db, store: activityFileStore(dataDir) }, linked.id, { until: 'A6' });
}

/** Which tables' ids a route's path is about. */
const ROUTE_WORDS: Record<string, string[]> = {
  users: ['/user', 'userId', 'guestId'],
  groups: ['/group', '/topic/grupe'],
  roles: ['/role'],
  group_types: ['/types'],
  settlements: ['/naselje'],
  priorities: ['/priority'],
  clusters: ['/location', 'locationId', '/link'],
  contracts: ['/contract', 'contractId', '/link'],
  contract_files: ['/files/contract'],
  topics: ['/topic'],
  topic_comments: ['/komentar'],
  activities: ['/activity', 'activityId', '/comment'],
  activity_files: ['/files/activity', 'fileId'],
  activity_comments: ['/comment'],
  ijo_holders: ['/ijo'],
  smtp_servers: ['/smtp'],
  mail_outbox: ['/outbox'],
  audit_logs: ['/log'],
  report_snapshots: ['/report'],
};

export async function poolsOf(db: Db, fieldNames: string[]): Promise<Pools> {
  const { rows: tables } = await db.$client.query<{ name: string }>(
    `select table_name as name from information_schema.columns
     where table_schema = 'public' and column_name = 'id' and data_type = 'uuid' order by table_name`,
  );
  const ids: string[] = [];
  for (const { name } of tables) {
    const { rows } = await db.$client.query<{ id: string }>(`select id::text from public."${name}" order by id limit 3`);
    ids.push(...rows.map((r) => r.id));
  }
  const { rows: codes } = await db.$client.query<{ code: string }>('select code from activity_catalogue order by code limit 40');
  const words = [
    ...codes.map((c) => c.code),
    'contract',
    'contractIzv',
    'contractPro',
    'contractNad',
    'true',
    'false',
    '0',
    '1',
    '2',
    'izvodjac',
    'projektant',
    'nadzor',
    'korisnici',
  ];
  const byTable = new Map<string, string[]>();
  for (const { name } of tables) {
    const { rows } = await db.$client.query<{ id: string }>(`select id::text from public."${name}" order by id limit 3`);
    byTable.set(
      name,
      rows.map((r) => r.id),
    );
  }
  const idsFor = (path: string) =>
    Object.entries(ROUTE_WORDS).flatMap(([table, words]) => (words.some((w) => path.includes(w)) ? (byTable.get(table) ?? []) : []));
  return { ids, words, fieldNames, idsFor };
}

/** The group a fresh caller of each role joins: the ministry (sees everything) or a contractor. */
export async function callerGroups(db: Db): Promise<Partial<Record<RoleKey, string>>> {
  const byName = async (naziv: string) => (await db.select({ id: groups.id }).from(groups).where(eq(groups.naziv, naziv)))[0]?.id;
  return {
    Rukovodilac: await byName('Optika Gradnja d.o.o.'),
    Zaposleni: await byName('Ministarstvo informisanja i telekomunikacija'),
  };
}
