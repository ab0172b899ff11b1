import { type ActivityState, activityRevision, staleStateReason } from '@trasa/domain';
import { and, eq } from 'drizzle-orm';
import { activities } from '../../db/schema-activities.js';
import type { LogActor } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { conflict, notFound } from '../../platform/errors.js';
import { appToday } from '../../platform/time.js';
import {
  type ClusterScope,
  clusterScopeOf,
  SCOPE_ALL,
  type ScopeQuery,
  scopeQueryOf,
  visibleClusterCondition,
} from '../clusters/policy.js';

/**
 * Who may do what on an activity (server-behaviour.md "Activities"; spec 3 §4, §6):
 * - see it (detail, files, comments): whoever sees its cluster (features/clusters/policy.ts); an activity
 *   of a cluster out of sight answers 404 like a missing one;
 * - change it (save data, upload, delete files of the current revision, finish, resolve a control): a
 *   Zaposleni whose group type is among the activity's `odgovoran`; a Rukovodilac or Admin sees but never acts;
 * - start A1: a Zaposleni of a NARUCILAC group;
 * - reactivate a finished activity: the Admin.
 *
 * The seed and jobs act as the system (SYSTEM): they skip who-may checks, never the workflow's rules.
 */
export type SystemActor = { system: true /** Shown in the audit trail as the user. */; label: string; user?: LogActor };
export const SYSTEM: SystemActor = { system: true, label: 'Sistem' };
/** Who performs a workflow step: a signed-in user, or the system (seed, jobs). */
export type Performer = Actor | SystemActor;

export function isSystem(p: Performer): p is SystemActor {
  return 'system' in p && p.system === true;
}

export type ActivityOptions = {
  /** 'Today' as YYYY-MM-DD (tests and the demo seed run the flow at past dates); default the application's day (platform/time.ts). */
  today?: string;
  /** Where the request came from (audit trail). */
  req?: { ip: string; url: string };
};

export function todayOf(opts: ActivityOptions | undefined): string {
  return opts?.today ?? appToday();
}

/** A Zaposleni whose group type is one of `odgovoran` (the activity's responsible parties). */
export function isResponsible(actor: Actor, odgovoran: readonly string[]): boolean {
  const type = actor.group?.typeCode;
  return actor.role === 'Zaposleni' && !!type && odgovoran.includes(type);
}

export function mayAct(p: Performer, odgovoran: readonly string[]): boolean {
  return isSystem(p) || isResponsible(p, odgovoran);
}

/** Starting A1 by hand: a Zaposleni of a client (NARUCILAC) group. */
export function mayStartA1(p: Performer): boolean {
  return isSystem(p) || (p.role === 'Zaposleni' && p.group?.typeCode === 'NARUCILAC');
}

export function mayReactivate(p: Performer): boolean {
  return isSystem(p) || p.role === 'Admin';
}

export async function scopeOfPerformer(db: Executor, p: Performer): Promise<ClusterScope> {
  return isSystem(p) ? { all: true } : clusterScopeOf(db, p);
}

/** The performer's scope as worked out inside a step's first statement (clusters/policy.ts scopeQueryOf). */
export function scopeQueryOfPerformer(p: Performer): ScopeQuery {
  return isSystem(p) ? SCOPE_ALL : scopeQueryOf(p);
}

/** Every document of a cluster in one zip: the Admin, or a group that sees everything. */
export function mayDownloadAll(p: Performer, scope: Pick<ClusterScope, 'all'>): boolean {
  return isSystem(p) || p.role === 'Admin' || scope.all;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

export type Located = { id: string; clusterId: string; code: string };

/** The activity, when it exists and its cluster is in the scope; otherwise (also a malformed id) 404. */
export async function locateActivity(db: Executor, scope: ClusterScope, activityId: string): Promise<Located> {
  if (!isUuid(activityId)) throw notFound();
  const [row] = await db
    .select({ id: activities.id, clusterId: activities.clusterId, code: activities.code })
    .from(activities)
    .where(and(eq(activities.id, activityId), visibleClusterCondition(scope, activities.clusterId)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/**
 * A change that names the state it was made on (`stanje`: status and revision as the screen showed them;
 * a queued change always does) is refused with 409 and the reason (finished meanwhile, a new revision, or
 * changed) when the activity has moved on; without one nothing is compared.
 */
export function assertSameState(row: { status: string; returned: number; version: number }, made: ActivityState | undefined): void {
  if (!made) return;
  const reason = staleStateReason({ status: row.status, revizija: activityRevision(row) }, made);
  if (reason) throw conflict(reason);
}
