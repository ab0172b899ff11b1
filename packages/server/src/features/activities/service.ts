import {
  ACTIVITIES,
  ACTIVITY_STATUSES,
  type ActivityStatus,
  asTyped,
  controlLabels,
  DATA_KEYS,
  decisionProblems,
  FINISHED,
  finishProblems,
  IN_PROGRESS,
  NOT_STARTED,
} from '@trasa/domain';
import { and, eq } from 'drizzle-orm';
import { contractClusters } from '../../db/schema-clusters.js';
import type { Executor } from '../../platform/database.js';
import { type AppError, badRequest, conflict, forbidden } from '../../platform/errors.js';
import type { ActivityFileStore } from '../../shared/activityFileStore.js';
import type { ClusterScope } from '../clusters/policy.js';
import {
  type ActivityOptions,
  isSystem,
  mayAct,
  mayReactivate,
  mayStartA1,
  type Performer,
  scopeQueryOfPerformer,
  todayOf,
} from './policy.js';
import { AUTOMATIC_AFTER, ClusterWorkflow, isAutomatic } from './workflow.js';

/**
 * The activity workflow (spec 3 §4; design/activity-catalogue.md "Flow rules"): start A1, finish,
 * resolve a control, reactivate. Each step is one transaction that first locks the cluster row
 * (ClusterWorkflow.lockForActivity), so concurrent steps on one cluster run one after the other and see each
 * other's result: successors start exactly once.
 *
 * These functions are what the routes call and what the demo seed calls directly (with SYSTEM as the
 * performer, which skips who-may checks but never the workflow's rules; `today` runs the flow at a
 * past date). Each answers what happened; the routes present the activity afterwards.
 */
export type WorkflowDeps = { db: Executor; store?: ActivityFileStore };
export type StepResult = {
  activityId: string;
  clusterId: string;
  code: string;
  started: string[];
  autoFinished: string[];
  /** Whether the performer's cluster scope, as the step was checked with it, is everything (the answer's permissions). */
  scope: Pick<ClusterScope, 'all'>;
};

export function logMessage(p: Performer, action: string): string {
  return isSystem(p) ? `${p.label} je ${action}.` : `Korisnik ${asTyped(p.email)} je ${action}.`;
}

/** One audit row for a step, in the step's transaction (written with the step's changes: ClusterWorkflow.flush). */
export function audit(wf: ClusterWorkflow, p: Performer, action: string, opts: ActivityOptions | undefined): void {
  const req = opts?.req ?? { ip: '', url: '' };
  wf.log({
    actor: isSystem(p) ? (p.user ?? null) : p,
    ...(isSystem(p) && { userLabel: p.label }),
    ...req,
    message: logMessage(p, action),
  });
}

const on = (code: string, cluster: string) => `aktivnost ${code} na klasteru ${asTyped(cluster)}`;
const startedNote = (wf: ClusterWorkflow) => {
  const parts: string[] = [];
  if (wf.autoFinished.length > 0) parts.push(`završene automatski: ${wf.autoFinished.join(', ')}`);
  if (wf.started.length > 0) parts.push(`pokrenute: ${wf.started.join(', ')}`);
  if (wf.reset.length > 0) parts.push(`vraćene na početak: ${wf.reset.join(', ')}`);
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
};

/**
 * Runs a step on the activity's cluster: the cluster's lock and the performer's visibility in one
 * statement (404 outside it), then a fresh read. Files the step stored (A6's copy) are removed when it rolls back.
 */
export async function step(
  deps: WorkflowDeps,
  p: Performer,
  activityId: string,
  opts: ActivityOptions | undefined,
  body: (wf: ClusterWorkflow, code: string) => Promise<void>,
): Promise<StepResult> {
  const scope = scopeQueryOfPerformer(p);
  let wf: ClusterWorkflow | undefined;
  try {
    return await deps.db.transaction(async (tx) => {
      // Where the activity is, whether the performer sees it, and the cluster's lock: one statement.
      wf = await ClusterWorkflow.lockForActivity(tx, scope, activityId, todayOf(opts), deps.store);
      const row = wf.byId(activityId.toLowerCase());
      await body(wf, row.code);
      await wf.flush();
      return {
        activityId: row.id,
        clusterId: wf.cluster.id,
        code: row.code,
        started: [...wf.started],
        autoFinished: [...wf.autoFinished],
        scope: { all: wf.seesAll },
      };
    });
  } catch (err) {
    if (wf && deps.store) for (const name of wf.storedNames) await deps.store.remove(name).catch(() => undefined);
    throw err;
  }
}

/** Which problems a finish or decision refusal lists, by the field they are about (errors of the 400). */
function problemsError(problems: string[]): AppError {
  const errors: Record<string, string> = {};
  for (const p of problems) {
    const field = p.startsWith('Broj fajlova')
      ? 'fajlovi'
      : p === ACTIVITIES.enterField('datum')
        ? DATA_KEYS.date
        : p === ACTIVITIES.holdersUnchecked
          ? DATA_KEYS.a7Checked
          : p === ACTIVITIES.feesMissing
            ? DATA_KEYS.a7Fee
            : p.startsWith('Morate uneti broj') || p === ACTIVITIES.required
              ? 'vrednost'
              : '_';
    errors[field] ??= p;
  }
  return badRequest(problems.join(' '), errors);
}

async function underContract(tx: Executor, clusterId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: contractClusters.contractId })
    .from(contractClusters)
    .where(and(eq(contractClusters.clusterId, clusterId), eq(contractClusters.kind, 'contract')))
    .limit(1);
  return !!row;
}

type Step = (wf: ClusterWorkflow, code: string, p: Performer, opts: ActivityOptions | undefined) => Promise<void>;

/** A1 by hand (see startActivity). */
const doStart: Step = async (wf, code, p, opts) => {
  if (code !== 'A1') throw badRequest(ACTIVITIES.onlyA1Starts);
  if (!mayStartA1(p)) throw forbidden(ACTIVITIES.onlyClientStarts);
  if (wf.row(code).status !== NOT_STARTED) throw conflict(ACTIVITIES.alreadyStarted);
  if (!(await underContract(wf.tx, wf.cluster.id))) throw badRequest(ACTIVITIES.noContract);
  await wf.start(code);
  wf.started.splice(wf.started.indexOf(code), 1);
  audit(wf, p, `pokrenuo ${on(code, wf.cluster.naziv)}`, opts);
};

/** A person's finish (see finishActivity). */
const doFinish: Step = async (wf, code, p, opts) => {
  const entry = wf.entry(code);
  if (isAutomatic(entry)) throw badRequest(ACTIVITIES.automatic);
  if (entry.kontrolna) throw badRequest(ACTIVITIES.isControl);
  if (!mayAct(p, entry.odgovoran)) throw forbidden(ACTIVITIES.notResponsible);
  if (wf.row(code).status !== IN_PROGRESS) throw conflict(ACTIVITIES.notInProgress);
  const problems = finishProblems(await wf.ruleInput(code));
  if (problems.length > 0) throw problemsError(problems);
  await wf.finish(code);
  audit(wf, p, `završio ${on(code, wf.cluster.naziv)}${startedNote(wf)}`, opts);
};

/** The Admin's reactivation (see reactivateActivity). */
const doReactivate: Step = async (wf, code, p, opts) => {
  if (!mayReactivate(p)) throw forbidden(ACTIVITIES.onlyAdminReactivates);
  if (wf.row(code).status !== FINISHED) throw conflict(ACTIVITIES.notFinishedCannotReactivate);
  if (isAutomatic(wf.entry(code))) throw badRequest(ACTIVITIES.automatic);
  wf.patch(code, { status: IN_PROGRESS, datumZavrsetka: null, faults: null });
  await wf.resetUntouchedSuccessors(code);
  audit(wf, p, `ponovo aktivirao ${on(code, wf.cluster.naziv)}${startedNote(wf)}`, opts);
};

/**
 * Starts A1 by hand (spec 3 §4): only A1 ('Ručno se pokreće samo aktivnost A1.'), only a Zaposleni of
 * a client group (403 'Aktivnost A1 pokreće zaposleni naručioca.'), only when not started (409
 * 'Aktivnost je već pokrenuta.'), only under a general contract (400 spec 3 §8's text).
 */
export function startActivity(deps: WorkflowDeps, p: Performer, activityId: string, opts?: ActivityOptions): Promise<StepResult> {
  return step(deps, p, activityId, opts, (wf, code) => doStart(wf, code, p, opts));
}

/**
 * Finishes an activity in progress (status 'Završena'): not an automatic one or a control (they are
 * finished by decisions: 400), only by a responsible Zaposleni (403), only while 'U toku' (409), only
 * when the completion rule of its code holds (400 with the problems). Then the successors that became
 * ready start.
 */
export function finishActivity(deps: WorkflowDeps, p: Performer, activityId: string, opts?: ActivityOptions): Promise<StepResult> {
  return step(deps, p, activityId, opts, (wf, code) => doFinish(wf, code, p, opts));
}

/**
 * Resolves a control in progress (POST /api/activity/control): by a responsible Zaposleni, when the
 * decision's rule holds. faults=false finishes it and moves on (A5.1 also finishes A6 with the LU,
 * A10.1 finishes A11); faults=true finishes it with remarks and sends the controlled activity
 * (catalogue `kontrolise`) back as a new revision.
 */
export function resolveControl(
  deps: WorkflowDeps,
  p: Performer,
  controlId: string,
  faults: boolean,
  opts?: ActivityOptions,
): Promise<StepResult> {
  return step(deps, p, controlId, opts, async (wf, code) => {
    const entry = wf.entry(code);
    if (!entry.kontrolna) throw badRequest(ACTIVITIES.notControl);
    if (!mayAct(p, entry.odgovoran)) throw forbidden(ACTIVITIES.notResponsible);
    const control = wf.row(code);
    if (control.status !== IN_PROGRESS) throw conflict(ACTIVITIES.notInProgress);
    // What the control checks must be settled: not decided while it is being redone (reactivated).
    if (!entry.prethodna.every((prev) => !wf.has(prev) || wf.settled(prev))) throw conflict(ACTIVITIES.controlledNotFinished);
    const problems = decisionProblems(await wf.ruleInput(code), faults);
    if (problems.length > 0) throw problemsError(problems);
    const label = controlLabels(code)[faults ? 1 : 0];
    if (faults) {
      await wf.finish(code, true);
      const target = entry.kontrolise;
      if (target && wf.has(target)) await wf.reopen(target);
      const back = target && wf.has(target) ? `; ${target} vraćena na doradu (revizija ${wf.row(target).returned})` : '';
      audit(wf, p, `razrešio kontrolu ${asTyped(code)} na klasteru ${asTyped(wf.cluster.naziv)}: ${label}${back}`, opts);
      return;
    }
    await wf.finish(code, false);
    const automatic = AUTOMATIC_AFTER[code];
    if (automatic) await wf.finishAutomatic(automatic, control);
    audit(wf, p, `razrešio kontrolu ${asTyped(code)} na klasteru ${asTyped(wf.cluster.naziv)}: ${label}${startedNote(wf)}`, opts);
  });
}

/**
 * Reactivates a finished activity (Admin; 403 for anybody else): back to 'U toku' without an end date
 * (a control also without its decision); its successors that are untouched since they started go back
 * to 'Nije započeta', down the chain (ClusterWorkflow.untouched). The automatic ones can't be reactivated.
 */
export function reactivateActivity(deps: WorkflowDeps, p: Performer, activityId: string, opts?: ActivityOptions): Promise<StepResult> {
  return step(deps, p, activityId, opts, (wf, code) => doReactivate(wf, code, p, opts));
}

export type StatusChange = { kind: 'started' | 'finished' | 'reactivated' } & StepResult;

/**
 * POST /api/activity/activity-status: 'Završena' finishes; 'U toku' on a not-started activity starts it
 * (A1), on a finished one reactivates it (Admin), decided on the row read under the cluster lock.
 * 'U toku' on one in progress is 409 'Aktivnost je već pokrenuta.'; anything else 400 'Menjanje
 * statusa aktivnosti nije uspešno!'.
 */
export async function changeStatus(
  deps: WorkflowDeps,
  p: Performer,
  input: { status: string; activityId: string },
  opts?: ActivityOptions,
): Promise<StatusChange> {
  const status = input.status as ActivityStatus;
  let kind: StatusChange['kind'] = 'finished';
  const result = await step(deps, p, input.activityId, opts, async (wf, code) => {
    if (!ACTIVITY_STATUSES.includes(status) || status === NOT_STARTED) throw badRequest(ACTIVITIES.statusChangeFailed);
    if (status === FINISHED) return doFinish(wf, code, p, opts);
    const current = wf.row(code).status;
    if (current === NOT_STARTED) {
      kind = 'started';
      return doStart(wf, code, p, opts);
    }
    if (current === FINISHED) {
      kind = 'reactivated';
      return doReactivate(wf, code, p, opts);
    }
    throw conflict(ACTIVITIES.alreadyStarted);
  });
  return { kind, ...result };
}
