import { activityRevision, addDays, FINISHED, IN_PROGRESS, NOT_STARTED, type RuleInput } from '@trasa/domain';
import { type LogEntry, logValues } from '../../platform/audit.js';
import { type Executor, preparedOn, runNamed } from '../../platform/database.js';
import { notFound } from '../../platform/errors.js';
import type { ActivityFileStore } from '../../shared/activityFileStore.js';
import type { ScopeQuery } from '../clusters/policy.js';
import { isUuid } from './policy.js';
import { copyFiles, copyHoldersToA7 } from './workflowCopies.js';
import { resetUntouchedSuccessors, untouched } from './workflowReactivation.js';
import { type ActivityRow, type CatalogueRow, clusterSettlementsOf, isAutomatic, liveFilesOf, podaciOf } from './workflowRecords.js';
import { lockStatement, type RuleFile, recordsStatement, writeStatement } from './workflowStatements.js';

// The records, statements and helpers of a step live in their own modules; importers read them from here.
export {
  type ActivityRow,
  AUTOMATIC,
  AUTOMATIC_AFTER,
  type CatalogueRow,
  clusterSettlementsOf,
  holderItems,
  holderNames,
  isAutomatic,
  liveFilesOf,
  podaciOf,
} from './workflowRecords.js';
export { locateVisible } from './workflowStatements.js';

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
  /** Files stored during the transaction (copies: workflowCopies.ts); removed by the caller if it rolls back. */
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
    readonly store?: ActivityFileStore,
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
      typed_spans: l.typedSpans ?? null,
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
    if (code === 'A6') await copyFiles(this, from, updated);
    this.autoFinished.push(code);
    // A decision taken again in a revision chain re-checks what follows the automatic activity too.
    await this.startReadySuccessors(code, from.recheck);
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

  /** Untouched since it started (nothing a person left on it): workflowReactivation.ts. */
  untouched(code: string): Promise<boolean> {
    return untouched(this, code);
  }

  /** After a reactivation, the untouched successors of `code` go back to 'Nije započeta': workflowReactivation.ts. */
  resetUntouchedSuccessors(code: string): Promise<void> {
    return resetUntouchedSuccessors(this, code);
  }

  /** A7 takes A6.1's holders: workflowCopies.ts. */
  copyHoldersToA7(): Promise<void> {
    return copyHoldersToA7(this);
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
