import {
  activityRevision,
  addDays,
  checkedHolderIds,
  DATA_KEYS,
  type DataItem,
  FINISHED,
  holderIds,
  IN_PROGRESS,
  NOT_STARTED,
  type RuleInput,
} from '@trasa/domain';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import { auditLogs } from '../../db/schema.js';
import { activities, activityCatalogue, activityComments, activityFiles, ijoHolders } from '../../db/schema-activities.js';
import { clusterSettlements, clusters, settlements } from '../../db/schema-clusters.js';
import { type LogEntry, logValues } from '../../platform/audit.js';
import { type Executor, type NamedStatement, namedStatement, preparedOn, runNamed } from '../../platform/database.js';
import { notFound } from '../../platform/errors.js';
import type { ActivityFileStore } from '../../shared/activityFileStore.js';
import { type ScopeQuery, scopeGroupsQuery, scopeOfOneCluster } from '../clusters/policy.js';
import { isUuid } from './policy.js';

export type ActivityRow = typeof activities.$inferSelect;
export type CatalogueRow = typeof activityCatalogue.$inferSelect;

export const AUTOMATIC = 'AUTOMATSKI';
export const isAutomatic = (entry: Pick<CatalogueRow, 'odgovoran'>) => entry.odgovoran.includes(AUTOMATIC);

/** The A5.1 → A6 and A10.1 → A11 pairs: a positive decision finishes the automatic activity. */
export const AUTOMATIC_AFTER: Record<string, string> = { 'A5.1': 'A6', 'A10.1': 'A11' };

/** The cluster's settlements whose route A1 draws (one file each): its own, not the incidental ones. */
export async function clusterSettlementsOf(db: Executor, clusterId: string): Promise<{ _id: string; naziv: string }[]> {
  const rows = await db
    .select({ id: settlements.id, naziv: settlements.naziv })
    .from(clusterSettlements)
    .innerJoin(settlements, eq(settlements.id, clusterSettlements.settlementId))
    .where(and(eq(clusterSettlements.clusterId, clusterId), eq(clusterSettlements.usputno, false)))
    .orderBy(asc(clusterSettlements.position), asc(settlements.naziv));
  return rows.map((r) => ({ _id: r.id, naziv: r.naziv }));
}

/** Live files of an activity (what the rules count). */
export async function liveFilesOf(db: Executor, activityId: string) {
  return db
    .select()
    .from(activityFiles)
    .where(and(eq(activityFiles.activityId, activityId), isNull(activityFiles.deletedAt)))
    .orderBy(asc(activityFiles.createdAt), asc(activityFiles.id));
}

/** What the completion rules read of a live file. */
type RuleFile = { slot: string | null; revision: number };

export function podaciOf(row: ActivityRow): DataItem[] {
  return Array.isArray(row.podaci) ? (row.podaci as DataItem[]) : [];
}

/**
 * A step's statements, written once and run as named prepared statements (issue 9: building them with
 * drizzle on every finish was a fifth of the server's time, planning them a large share of PostgreSQL's).
 *
 * The lock: where the activity is, whether the performer sees its cluster (clusters/policy.ts
 * scopeOfOneCluster; one statement per kind of scope, the scope's group a parameter) and the cluster
 * row FOR UPDATE, in one statement.
 */
const lockStatements = new Map<string, NamedStatement<{ id: string; naziv: string; sees_all: boolean }>>();
function lockStatement(scope: ScopeQuery) {
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
const recordsStatement = (db: Executor) => {
  records ??= prepareRecords(db);
  return records;
};

/**
 * The write: every changed record (its held row as a whole: the cluster's lock keeps anybody else from
 * changing them meanwhile) and the step's audit rows, both as JSON, in one statement. The insert runs
 * whether or not the update's rows refer to it (a data-modifying WITH always runs once).
 */
const writeStatement = namedStatement(
  'wf_write',
  sql`with logged as (
      insert into ${auditLogs} (user_id, user_label, ip, url, message, group_id, group_cirilica)
      select l.user_id, l.user_label, l.ip, l.url, l.message, l.group_id, l.group_cirilica
      from jsonb_to_recordset(${sql.placeholder('logs')}::jsonb) as l(user_id uuid, user_label text, ip text, url text, message text,
        group_id uuid, group_cirilica text))
    update ${activities} a set
      status = v.status, datum_pocetka = v.datum_pocetka, datum_zavrsetka = v.datum_zavrsetka,
      rok_zavrsetka = v.rok_zavrsetka, version = v.version, returned = v.returned, faults = v.faults,
      recheck = v.recheck, podaci = v.podaci, updated_at = v.updated_at
    from jsonb_to_recordset(${sql.placeholder('records')}::jsonb) as v(id uuid, status text, datum_pocetka date, datum_zavrsetka date,
      rok_zavrsetka date, version integer, returned integer, faults boolean, recheck boolean, podaci jsonb,
      updated_at timestamptz)
    where a.id = v.id and a.cluster_id = ${sql.placeholder('cluster')}::uuid`,
);

/**
 * One cluster's workflow inside a transaction. `lockForActivity` takes the cluster row FOR UPDATE first, so every
 * workflow mutation of a cluster runs one after the other (two people finishing at once, two
 * predecessors finishing together) and then reads the cluster's activities fresh. Changes to the
 * activity records go to the rows held here at once and to the database in one statement at the end
 * of the step (`flush`, with the step's audit rows), still inside its transaction: nothing in a step
 * reads the activity records back from the database, so a finish that starts two successors writes
 * once instead of three times (issue 9).
 */
export class ClusterWorkflow {
  /** Codes the flow started (or restarted) or finished by itself in this transaction, for the audit trail. */
  readonly started: string[] = [];
  readonly autoFinished: string[] = [];
  readonly reset: string[] = [];
  /** Files stored during the transaction (copies); removed by the caller if it rolls back. */
  readonly storedNames: string[] = [];
  /** Whether the performer's scope is everything (read with the lock: lockForActivity). */
  seesAll = true;
  /** Codes whose held row differs from the database's until `flush`. */
  private readonly dirty = new Set<string>();
  /** Audit rows of the step, written by `flush`. */
  private readonly logs: LogEntry[] = [];
  /**
   * The live files of the step's activity, read with the records (the rules count them); dropped once
   * the step writes files (`filesChanged`), after which `ruleInput` reads them again.
   */
  private files: { activityId: string; list: RuleFile[] } | undefined;

  private constructor(
    readonly tx: Executor,
    readonly cluster: { id: string; naziv: string },
    private readonly catalogue: Map<string, CatalogueRow>,
    private readonly rows: Map<string, ActivityRow>,
    readonly today: string,
    private readonly store?: ActivityFileStore,
  ) {}

  /**
   * The cluster of an activity in `scope`, locked, in one statement (policy.ts locateActivity, the
   * cluster row FOR UPDATE and the performer's scope together: a finish is two round trips shorter,
   * issue 9), then its records (`read`); both prepared once (lockStatement, wf_records). 404 when the
   * activity is missing, outside the scope, or the id is malformed.
   */
  static async lockForActivity(
    tx: Executor,
    scope: ScopeQuery,
    activityId: string,
    today: string,
    store?: ActivityFileStore,
  ): Promise<ClusterWorkflow> {
    if (!isUuid(activityId)) throw notFound();
    const result = await runNamed(tx, lockStatement(scope), { activity: activityId, group: 'group' in scope ? scope.group : null });
    const found = result.rows[0];
    if (!found) throw notFound();
    const wf = await ClusterWorkflow.read(tx, { id: found.id, naziv: found.naziv }, today, store, activityId.toLowerCase());
    wf.seesAll = found.sees_all;
    return wf;
  }

  private static async read(
    tx: Executor,
    cluster: { id: string; naziv: string },
    today: string,
    store?: ActivityFileStore,
    activityId?: string,
  ): Promise<ClusterWorkflow> {
    // A new statement after the lock, so it reads what the step before this one committed. The cluster's
    // records with their catalogue entries in one round trip (every record has its entry: shared/activityReference.ts),
    // and the live files of the step's activity (what a finish's or a decision's rule counts).
    const rows = await preparedOn(recordsStatement(tx), tx).execute({ cluster: cluster.id, activity: activityId ?? null });
    const wf = new ClusterWorkflow(
      tx,
      cluster,
      new Map(rows.map((r) => [r.entry.code, r.entry])),
      new Map(rows.map((r) => [r.row.code, r.row])),
      today,
      store,
    );
    const own = rows.find((r) => r.row.id === activityId);
    if (own?.files) wf.files = { activityId: own.row.id, list: own.files };
    return wf;
  }

  entry(code: string): CatalogueRow {
    const entry = this.catalogue.get(code);
    if (!entry) throw notFound();
    return entry;
  }

  row(code: string): ActivityRow {
    const row = this.rows.get(code);
    if (!row) throw notFound();
    return row;
  }

  has(code: string): boolean {
    return this.rows.has(code);
  }

  byId(id: string): ActivityRow {
    for (const row of this.rows.values()) if (row.id === id) return row;
    throw notFound();
  }

  /**
   * Changes a record: at once in the rows held here (what the rest of the step decides on), in the
   * database at `flush`. Returns the changed row.
   */
  patch(code: string, set: Partial<Omit<ActivityRow, 'id' | 'clusterId' | 'code' | 'position' | 'updatedAt'>>): ActivityRow {
    const updated: ActivityRow = { ...this.row(code), ...set, updatedAt: new Date() };
    this.rows.set(code, updated);
    this.dirty.add(code);
    return updated;
  }

  /** An audit row of the step (written by `flush`, with the records). */
  log(entry: LogEntry): void {
    this.logs.push(entry);
  }

  /** The step wrote or removed files: the files read with the records no longer hold. */
  filesChanged(): void {
    this.files = undefined;
  }

  /**
   * Writes what the step changed: every changed record in one UPDATE (its held row as a whole: the
   * cluster's lock keeps anybody else from changing them meanwhile) and the audit rows in the same
   * statement. Called by the step before it commits; a second call writes only what changed since.
   */
  async flush(): Promise<void> {
    const changed = [...this.dirty].map((code) => this.row(code));
    const logs = this.logs.splice(0).map(logValues);
    this.dirty.clear();
    if (changed.length === 0 && logs.length === 0) return;
    const records = changed.map((r) => ({
      id: r.id,
      status: r.status,
      datum_pocetka: r.datumPocetka,
      datum_zavrsetka: r.datumZavrsetka,
      rok_zavrsetka: r.rokZavrsetka,
      version: r.version,
      returned: r.returned,
      faults: r.faults,
      recheck: r.recheck,
      podaci: r.podaci,
      updated_at: r.updatedAt.toISOString(),
    }));
    const audit = logs.map((l) => ({
      user_id: l.userId ?? null,
      user_label: l.userLabel ?? '',
      ip: l.ip ?? '',
      url: l.url ?? '',
      message: l.message,
      group_id: l.groupId ?? null,
      group_cirilica: l.groupCirilica ?? '',
    }));
    const result = await runNamed(this.tx, writeStatement, {
      logs: JSON.stringify(audit),
      records: JSON.stringify(records),
      cluster: this.cluster.id,
    });
    if (result.rowCount !== changed.length) throw notFound();
  }

  /** The deadline of an activity started today: start + rok days; none for 'klizno'. */
  deadline(code: string): string | null {
    const rok = this.entry(code).rok;
    return rok === null ? null : addDays(this.today, rok);
  }

  /**
   * Finished for the flow: 'Završena' (a control: accepted, faults false) and every predecessor settled
   * too. So a successor never starts from a stale finish while something before it is being redone.
   */
  settled(code: string, path = new Set<string>()): boolean {
    // `path` holds the codes being checked above this one: a cycle in a (corrupted) catalogue stops.
    if (path.has(code)) return false;
    const row = this.rows.get(code);
    const entry = this.catalogue.get(code);
    if (!row || !entry || row.status !== FINISHED) return false;
    if (entry.kontrolna && row.faults !== false) return false;
    path.add(code);
    const all = entry.prethodna.every((p) => this.settled(p, path));
    path.delete(code);
    return all;
  }

  /**
   * Starts an activity today: from 'Nije započeta', or again from 'Završena' with version + 1 (a new
   * revision: a control re-checks, an activity is redone). A7 takes A6.1's holders as it starts.
   */
  async start(code: string): Promise<void> {
    const row = this.row(code);
    const restart = row.status === FINISHED;
    this.patch(code, {
      status: IN_PROGRESS,
      datumPocetka: this.today,
      rokZavrsetka: this.deadline(code),
      datumZavrsetka: null,
      faults: null,
      version: restart ? row.version + 1 : row.version,
      // A restart belongs to a revision chain: its own finish re-checks what follows it too.
      recheck: restart,
    });
    if (code === 'A7') await this.copyHoldersToA7();
    this.started.push(code);
  }

  /**
   * After `code` finished: each successor whose predecessors are all settled starts (from 'Nije
   * započeta'); one in progress is left alone. A finished successor restarts (from 'Završena', a new
   * revision) only when `recheck`: `code` was redone in a revision chain (a control sent it back, or the
   * chain restarted it). A finish after the Admin's reactivation leaves finished successors as they are.
   * Automatic successors start only by their control's positive decision.
   */
  async startReadySuccessors(code: string, recheck: boolean): Promise<void> {
    for (const next of this.entry(code).naredna) {
      if (!this.has(next)) continue;
      const entry = this.entry(next);
      if (isAutomatic(entry)) continue;
      const row = this.row(next);
      if (row.status === IN_PROGRESS) continue;
      if (row.status === FINISHED && !recheck) continue;
      if (!entry.prethodna.every((p) => this.settled(p))) continue;
      await this.start(next);
    }
  }

  /** Finishes `code` today (a person's finish or a control's decision), then starts what became ready. */
  async finish(code: string, faults: boolean | null = null): Promise<void> {
    const recheck = this.row(code).recheck;
    this.patch(code, { status: FINISHED, datumZavrsetka: this.today, faults, recheck: false });
    if (faults !== true) await this.startReadySuccessors(code, recheck);
  }

  /**
   * A6 / A11 after the positive decision: finished today (restarted with version + 1 when it was
   * finished before). A6 holds copies of A5.1's documents of the current revision (the LU); the copies
   * of an earlier decision are deleted, so A6 always shows the latest LU. Then its successors start.
   */
  async finishAutomatic(code: string, from: ActivityRow): Promise<void> {
    if (!this.has(code)) return;
    const row = this.row(code);
    const version = row.status === NOT_STARTED ? row.version : row.version + 1;
    const updated = this.patch(code, {
      status: FINISHED,
      datumPocetka: this.today,
      rokZavrsetka: this.deadline(code),
      datumZavrsetka: this.today,
      faults: null,
      version,
    });
    if (code === 'A6') await this.copyFiles(from, updated);
    this.autoFinished.push(code);
    // A decision taken again in a revision chain re-checks what follows the automatic activity too.
    await this.startReadySuccessors(code, from.recheck);
  }

  private async copyFiles(from: ActivityRow, to: ActivityRow): Promise<void> {
    const revision = activityRevision(from);
    const source = (await liveFilesOf(this.tx, from.id)).filter((f) => f.revision === revision);
    await this.tx
      .update(activityFiles)
      .set({ deletedAt: new Date() })
      .where(and(eq(activityFiles.activityId, to.id), isNull(activityFiles.deletedAt)));
    this.filesChanged();
    if (source.length === 0) return;
    if (!this.store) throw new Error('a file store is needed to place documents');
    const at = Date.now();
    const copies = [];
    for (const [i, f] of source.entries()) {
      // A document missing from the disk is not copied (it could not be downloaded either).
      const storedName = await this.store.copy(f.storedName).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return null;
        throw err;
      });
      if (!storedName) continue;
      this.storedNames.push(storedName);
      copies.push({
        activityId: to.id,
        storedName,
        originalnoIme: f.originalnoIme,
        mimetype: f.mimetype,
        size: f.size,
        isRequired: f.isRequired,
        revision: activityRevision(to),
        slot: null,
        uploadedBy: f.uploadedBy,
        createdAt: new Date(at + i),
      });
    }
    if (copies.length > 0) await this.tx.insert(activityFiles).values(copies);
  }

  /**
   * A control sent `code` back: a new revision in progress from today (returned + 1, a new deadline);
   * its version stays.
   */
  async reopen(code: string): Promise<void> {
    const row = this.row(code);
    this.patch(code, {
      status: IN_PROGRESS,
      returned: row.returned + 1,
      datumPocetka: this.today,
      rokZavrsetka: this.deadline(code),
      datumZavrsetka: null,
      recheck: true,
    });
  }

  /**
   * Untouched since it started: in progress, with no data of its own (A7's holder list is A6.1's copy),
   * no live file (of any revision) and no comment. Anything a person left on it keeps it running.
   */
  async untouched(code: string): Promise<boolean> {
    const row = this.row(code);
    if (row.status !== IN_PROGRESS) return false;
    const own = podaciOf(row).filter((d) => !(code === 'A7' && (d.key === DATA_KEYS.holders || d.key === DATA_KEYS.holderNames)));
    if (own.length > 0) return false;
    const [files] = await this.tx
      .select({ n: count() })
      .from(activityFiles)
      .where(and(eq(activityFiles.activityId, row.id), isNull(activityFiles.deletedAt)));
    if ((files?.n ?? 0) > 0) return false;
    const [comments] = await this.tx.select({ n: count() }).from(activityComments).where(eq(activityComments.activityId, row.id));
    return (comments?.n ?? 0) === 0;
  }

  /**
   * After a reactivation: the successors of `code` that started from its finish and are untouched go
   * back to 'Nije započeta' (dates and decision cleared), and so on down the chain.
   */
  async resetUntouchedSuccessors(code: string): Promise<void> {
    for (const next of this.entry(code).naredna) {
      if (!this.has(next)) continue;
      if (AUTOMATIC_AFTER[code] === next) {
        await this.resetAutomatic(next);
        continue;
      }
      if (!(await this.untouched(next))) continue;
      this.patch(next, { status: NOT_STARTED, datumPocetka: null, rokZavrsetka: null, datumZavrsetka: null, faults: null });
      this.reset.push(next);
      await this.resetUntouchedSuccessors(next);
    }
  }

  /**
   * A reactivated control (A5.1, A10.1) takes back what its positive decision did: the automatic
   * activity it finished (A6, A11) goes back to 'Nije započeta' — A6 without its copy of the LU — when
   * nothing after it was worked on (each successor not started or untouched); then those successors go
   * back too. When a person already works after it, it stays finished. The next positive decision
   * finishes it again.
   */
  private async resetAutomatic(code: string): Promise<void> {
    if (this.row(code).status !== FINISHED) return;
    for (const next of this.entry(code).naredna) {
      if (!this.has(next)) continue;
      const status = this.row(next).status;
      if (status === FINISHED || (status === IN_PROGRESS && !(await this.untouched(next)))) return;
    }
    const row = this.patch(code, { status: NOT_STARTED, datumPocetka: null, rokZavrsetka: null, datumZavrsetka: null, faults: null });
    await this.tx
      .update(activityFiles)
      .set({ deletedAt: new Date() })
      .where(and(eq(activityFiles.activityId, row.id), isNull(activityFiles.deletedAt)));
    this.filesChanged();
    this.reset.push(code);
    await this.resetUntouchedSuccessors(code);
  }

  /**
   * A7's holders follow A6.1 (spec 3 §4 "A6.1"): Ijos and IjoNazivi are copied; the done marks and fees
   * of holders still on the list stay (fee names follow the holders' names), the others go. A finished
   * A7 keeps its record; it takes the list when it starts again.
   */
  async copyHoldersToA7(): Promise<void> {
    if (!this.has('A7') || !this.has('A6.1')) return;
    const a7 = this.row('A7');
    if (a7.status === FINISHED) return;
    const source = podaciOf(this.row('A6.1'));
    const ids = holderIds(source);
    const names = await holderNames(this.tx, ids);
    const present = new Set(ids);
    const old = podaciOf(a7);
    const kept = old.filter(
      (d) =>
        d.key !== DATA_KEYS.holders &&
        d.key !== DATA_KEYS.holderNames &&
        d.key !== DATA_KEYS.a7Checked &&
        !(d.key === DATA_KEYS.a7Fee && (!d.ref || !present.has(d.ref))),
    );
    const renamed = kept.map((d) => (d.key === DATA_KEYS.a7Fee && d.ref ? { ...d, naziv: names.get(d.ref) ?? d.naziv } : d));
    const checked = checkedHolderIds(old).filter((id) => present.has(id));
    const podaci: DataItem[] = [
      ...(ids.length > 0 ? holderItems(ids, names) : []),
      ...renamed,
      ...(checked.length > 0 ? [{ key: DATA_KEYS.a7Checked, naziv: 'Završeni IJO', vrednost: checked.join(',') }] : []),
    ];
    this.patch('A7', { podaci });
  }

  /** The completion rules' input for an activity of this cluster. */
  async ruleInput(code: string): Promise<RuleInput> {
    const row = this.row(code);
    const files = this.files?.activityId === row.id ? this.files.list : await liveFilesOf(this.tx, row.id);
    return {
      code,
      brojFajlova: this.entry(code).brojFajlova,
      returned: row.returned,
      revision: activityRevision(row),
      podaci: podaciOf(row),
      files: files.map((f) => ({ slot: f.slot, revision: f.revision })),
      settlements: code === 'A1' ? await clusterSettlementsOf(this.tx, this.cluster.id) : [],
    };
  }
}

/**
 * Holder names by id (existing holders only). With `lock` (a step that stores references to them) the
 * holders are key-share locked until the step commits: a concurrent delete (ijo/service.ts, FOR UPDATE)
 * waits and then sees the reference, or went first and the holder reads as missing.
 */
export async function holderNames(db: Executor, ids: readonly string[], lock = false): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const query = db
    .select({ id: ijoHolders.id, naziv: ijoHolders.naziv })
    .from(ijoHolders)
    .where(inArray(ijoHolders.id, [...ids]));
  const rows = lock ? await query.for('key share') : await query;
  return new Map(rows.map((r) => [r.id, r.naziv]));
}

/** The Ijos and IjoNazivi items of a holder list. */
export function holderItems(ids: readonly string[], names: Map<string, string>): DataItem[] {
  return [
    { key: DATA_KEYS.holders, naziv: 'IJO', vrednost: ids.join(',') },
    { key: DATA_KEYS.holderNames, naziv: 'Imaoci javnih ovlašćenja', vrednost: ids.map((id) => names.get(id) ?? id).join(', ') },
  ];
}
