import { NOT_STARTED } from '@trasa/domain';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { users } from '../db/schema.js';
import { activities, ijoHolders } from '../db/schema-activities.js';
import { clusterSettlements, clusters, contractClusters, settlements } from '../db/schema-clusters.js';
import { selectUserWithRelations } from '../features/users/presenter.js';
import { type Actor, toActor } from '../platform/auth.js';
import type { Db, Executor } from '../platform/database.js';
import type { ActivityFileStore } from '../shared/activityFileStore.js';
import { ensureClusterActivities } from '../shared/activityReference.js';
import { seedDemoIjos } from './demoIjo.js';
import { linkDemoClusters } from './demoLinks.js';
import { type ClusterInfo, Scene } from './demoScene.js';
import { addWorkflowClusters, DEMO_STORIES, DEMO_WORKFLOW_CLUSTERS, type Story } from './demoStories.js';

export { DEMO_STORIES, DEMO_WORKFLOW_CLUSTERS, DEMO_WORKFLOW_SETTLEMENTS } from './demoStories.js';

/**
 * The demo's workflow (issue 9): clusters at every stage, run through the same service functions the
 * screens call (start, data, uploads, finish, control decisions, comments), each step at a past `today`
 * so start dates, deadlines and lateness are real relative to the day of seeding:
 *
 * - not started: 'Raška - Jošanička Banja' (under contract; the e2e activity journey starts it) and
 *   'Kosjerić - Seča Reka' (under no contract at all: its workflow can't start);
 * - early: 'Čajetina 2 - Mačkat' (A1, one route file of two), 'Užice 1 - Kremna' (A2 twelve days late:
 *   red), 'Čajetina 1 - Sirogojno' (A3 and A4), 'Bajina Bašta 1 - Perućac' (A3 and the control A4.1 on
 *   their last days: orange);
 * - permits: 'Ivanjica - Kušići' (A5.1 'Odbijen IDR', IDR redone, LU obtained; A7 with three of four
 *   holders' fees, late: red; A8), 'Arilje - Brekovo' (A4.1 'Sa primedbama' and A4 in revision 1;
 *   A9.1 'Sa primedbama', A9 in revision 1, late: red);
 * - works: 'Užice 2 - Stapari' (IOL not needed; A13 and A14 with the first construction log);
 * - late in the flow: 'Nova Varoš - Akmačići' (A23.1 'Sa primedbama', then A24), 'Priboj - Kratovo'
 *   (A26.1 on its last day: orange, and A27);
 * - finished: 'Bajina Bašta 2 - Rogačica' (all activities 'Završena', A14.1 once with remarks, two late).
 *
 * Every A6.1 names real public-authority holders (seed/demoIjo.ts), every finished A7 their fees. A
 * cluster whose A1 has started is left as it is, and each cluster's story is one transaction, so running
 * the seed again adds nothing. The e2e journeys rely on Kremna (the most overdue activity of all, the
 * only one of its cluster), on Perućac's two orange rows being the only orange ones with the supervision
 * among them, and on Raška staying unstarted.
 */

/** The demo users with these emails who are active, as actors for the workflow's service functions. */
export async function actorsOf(db: Executor, emails: string[]): Promise<Map<string, Actor>> {
  const rows = await selectUserWithRelations(db).where(and(inArray(users.email, emails), eq(users.status, 'aktivan')));
  return new Map(rows.filter((r) => r.user.deletedAt === null).map((r) => [r.user.email, toActor(r)] as const));
}

/** A story's cluster as the scene plays it: its settlements (the non-incidental ones, in order) with defaults for missing figures. */
export async function clusterInfo(db: Executor, id: string, naziv: string, duzina: number | null, vrednost: number | null) {
  const naselja = await db
    .select({
      id: settlements.id,
      naziv: settlements.naziv,
      code: settlements.code,
      domacinstva: settlements.brojDomacinstava,
      skole: settlements.brojSkola,
    })
    .from(clusterSettlements)
    .innerJoin(settlements, eq(settlements.id, clusterSettlements.settlementId))
    .where(and(eq(clusterSettlements.clusterId, id), eq(clusterSettlements.usputno, false)))
    .orderBy(clusterSettlements.position);
  return {
    id,
    naziv,
    duzina: Number(duzina ?? 20),
    vrednost: Number(vrednost ?? 25_000_000),
    naselja: naselja.map((s) => ({ ...s, domacinstva: s.domacinstva ?? 100, skole: s.skole ?? 0 })),
  } satisfies ClusterInfo;
}

/**
 * Adds the extra clusters, links them like the others (seed/demoLinks.ts), and plays each story on a
 * cluster whose A1 has not started (run after seedDemo, seedDemoClusters, seedDemoContracts and
 * linkDemoClusters). `store` is the activity file store of the DATA_DIR the server uses.
 * Answers how many clusters it added and how many activities it moved (started or finished).
 */
export async function seedDemoActivities(db: Db, store: ActivityFileStore): Promise<{ clusters: number; activities: number }> {
  await seedDemoIjos(db);
  const added = await addWorkflowClusters(db);
  await linkDemoClusters(db);
  const rows = await db
    .select({
      id: clusters.id,
      naziv: clusters.naziv,
      duzina: clusters.indikativnaDuzinaKlastera,
      vrednost: clusters.ugovorenaVrednostKlastera,
    })
    .from(clusters)
    .where(
      inArray(clusters.naziv, [
        ...DEMO_STORIES.map((s) => s.cluster),
        ...DEMO_WORKFLOW_CLUSTERS.map((c) => c.naziv),
        'Raška - Jošanička Banja',
      ]),
    );
  await ensureClusterActivities(
    db,
    rows.map((r) => r.id),
  );
  const holderIds = new Map(
    (await db.select({ id: ijoHolders.id, naziv: ijoHolders.naziv }).from(ijoHolders)).map((h) => [h.naziv.toLowerCase(), h.id]),
  );
  const actors = await actorsOf(db, [...new Set(DEMO_STORIES.flatMap(storyEmails))]);
  let moved = 0;
  for (const story of DEMO_STORIES) {
    const row = rows.find((r) => r.naziv === story.cluster);
    if (!row) continue;
    moved += await db.transaction(async (tx) => {
      // The cluster's row locked first, as every workflow step does: a second seed at once waits, then skips.
      await tx.select({ id: clusters.id }).from(clusters).where(eq(clusters.id, row.id)).for('update');
      const [a1] = await tx
        .select({ status: activities.status })
        .from(activities)
        .where(and(eq(activities.clusterId, row.id), eq(activities.code, 'A1')));
      if (a1?.status !== NOT_STARTED) return 0;
      const [contract] = await tx
        .select({ id: contractClusters.contractId })
        .from(contractClusters)
        .where(and(eq(contractClusters.clusterId, row.id), eq(contractClusters.kind, 'contract')))
        .limit(1);
      if (!contract) return 0;
      const info = await clusterInfo(tx, row.id, row.naziv, row.duzina, row.vrednost);
      await new Scene(tx, store, info, actors, story, holderIds).play();
      const [count] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(activities)
        .where(and(eq(activities.clusterId, row.id), ne(activities.status, NOT_STARTED)));
      return count?.n ?? 0;
    });
  }
  return { clusters: added, activities: moved };
}

/** The emails of everyone who acts in a story: its people, the notes' and the steps' notes' authors. */
export function storyEmails(story: Story): string[] {
  return [
    ...Object.values(story.people),
    ...(story.notes ?? []).map((n) => n[2]),
    ...story.steps.flatMap(([, , extra]) => (extra?.note ? [extra.note[0]] : [])),
  ] as string[];
}
