import { eq, sql } from 'drizzle-orm';
import { auditLogs } from '../../db/schema.js';
import { activities, activityCatalogue, activityFiles } from '../../db/schema-activities.js';
import { clusters } from '../../db/schema-clusters.js';
import { type Executor, type NamedStatement, namedStatement, runNamed } from '../../platform/database.js';
import { notFound } from '../../platform/errors.js';
import { type ScopeQuery, scopeGroupsQuery, scopeOfOneCluster } from '../clusters/policy.js';
import { isUuid } from './policy.js';

/** What the completion rules read of a live file. */
export type RuleFile = { slot: string | null; revision: number };

/**
 * A step's statements, written once and run as named prepared statements (issue 9: building them with
 * drizzle on every finish was a fifth of the server's time, planning them a large share of PostgreSQL's).
 *
 * The lock: where the activity is, whether the performer sees its cluster (clusters/policy.ts
 * scopeOfOneCluster; one statement per kind of scope, the scope's group a parameter) and the cluster
 * row FOR UPDATE, in one statement.
 */
const lockStatements = new Map<string, NamedStatement<{ id: string; naziv: string; sees_all: boolean }>>();
export function lockStatement(scope: ScopeQuery) {
  const { kind, seen } = parameterised(scope);
  let statement = lockStatements.get(kind);
  if (!statement) {
    statement = namedStatement(
      `wf_lock_${kind}`,
      sql`with ${seen.cte} target as (select a.cluster_id from ${activities} a where a.id = ${sql.placeholder('activity')})
      select c.id, c.naziv, ${seen.all} as sees_all from ${clusters} c
      where c.id = (select cluster_id from target) and ${seen.visible}
      for update of c`,
    );
    lockStatements.set(kind, statement);
  }
  return statement;
}

/** A scope's kind (one statement each) and scopeOfOneCluster's parts with the scope's group a parameter (`group`). */
function parameterised(scope: ScopeQuery) {
  const kind = 'fixed' in scope ? (scope.fixed ? 'all' : 'none') : scope.subtree ? 'subtree' : 'group';
  const query: ScopeQuery =
    'fixed' in scope ? scope : { groups: scopeGroupsQuery(sql.placeholder('group'), scope.subtree), group: '', subtree: scope.subtree };
  return { kind, seen: scopeOfOneCluster(query, sql`c.id`) };
}

const locateStatements = new Map<string, NamedStatement<{ id: string; sees_all: boolean }>>();

/**
 * An activity the performer sees (GET /api/activity/:id): its id and whether the scope is everything,
 * the scope worked out in the same statement (one prepared statement per kind of scope, like the
 * step's lock, without locking). 404 when missing, out of sight or malformed.
 */
export async function locateVisible(db: Executor, scope: ScopeQuery, activityId: string): Promise<{ id: string; seesAll: boolean }> {
  if (!isUuid(activityId)) throw notFound();
  const { kind, seen } = parameterised(scope);
  let statement = locateStatements.get(kind);
  if (!statement) {
    statement = namedStatement(
      `activity_visible_${kind}`,
      sql`with ${seen.cte} target as (select a.id, a.cluster_id from ${activities} a where a.id = ${sql.placeholder('activity')})
      select target.id, ${seen.all} as sees_all from target join ${clusters} c on c.id = target.cluster_id
      where ${seen.visible}`,
    );
    locateStatements.set(kind, statement);
  }
  const result = await runNamed(db, statement, { activity: activityId, group: 'group' in scope ? scope.group : null });
  const found = result.rows[0];
  if (!found) throw notFound();
  return { id: found.id, seesAll: found.sees_all };
}

/**
 * The cluster's records with their catalogue entries, and the live files of the step's activity
 * (`activity`; null reads none): a drizzle prepared select (it maps the rows), built once.
 */
function prepareRecords(db: Executor) {
  const activity = sql.placeholder('activity');
  const files = sql<RuleFile[] | null>`case when ${activities.id} = ${activity}::uuid then (
      select coalesce(json_agg(json_build_object('slot', f.slot, 'revision', f.revision)), '[]'::json)
      from ${activityFiles} f where f.activity_id = ${activities.id} and f.deleted_at is null) end`;
  return db
    .select({ row: activities, entry: activityCatalogue, files })
    .from(activities)
    .innerJoin(activityCatalogue, eq(activityCatalogue.code, activities.code))
    .where(eq(activities.clusterId, sql.placeholder('cluster')))
    .prepare('wf_records');
}
let records: ReturnType<typeof prepareRecords> | undefined;
export const recordsStatement = (db: Executor) => {
  records ??= prepareRecords(db);
  return records;
};

/**
 * The write: every changed record (its held row as a whole: the cluster's lock keeps anybody else from
 * changing them meanwhile) and the step's audit rows, both as JSON, in one statement. The insert runs
 * whether or not the update's rows refer to it (a data-modifying WITH always runs once).
 */
export const writeStatement = namedStatement(
  'wf_write',
  sql`with logged as (
      insert into ${auditLogs} (user_id, user_label, ip, url, message, typed_spans, group_id, group_cirilica)
      select l.user_id, l.user_label, l.ip, l.url, l.message, l.typed_spans, l.group_id, l.group_cirilica
      from jsonb_to_recordset(${sql.placeholder('logs')}::jsonb) as l(user_id uuid, user_label text, ip text, url text, message text,
        typed_spans integer[], group_id uuid, group_cirilica text))
    update ${activities} a set
      status = v.status, datum_pocetka = v.datum_pocetka, datum_zavrsetka = v.datum_zavrsetka,
      rok_zavrsetka = v.rok_zavrsetka, version = v.version, returned = v.returned, faults = v.faults,
      recheck = v.recheck, podaci = v.podaci, updated_at = v.updated_at
    from jsonb_to_recordset(${sql.placeholder('records')}::jsonb) as v(id uuid, status text, datum_pocetka date, datum_zavrsetka date,
      rok_zavrsetka date, version integer, returned integer, faults boolean, recheck boolean, podaci jsonb,
      updated_at timestamptz)
    where a.id = v.id and a.cluster_id = ${sql.placeholder('cluster')}::uuid`,
);
