import { DATA_KEYS, FINISHED, IN_PROGRESS, NOT_STARTED } from '@trasa/domain';
import { and, count, eq, isNull } from 'drizzle-orm';
import { activityComments, activityFiles } from '../../db/schema-activities.js';
import type { ClusterWorkflow } from './workflow.js';
import { AUTOMATIC_AFTER, podaciOf } from './workflowRecords.js';

/** What the Admin's reactivation of an activity takes back in a cluster's workflow (ClusterWorkflow). */

/**
 * Untouched since it started: in progress, with no data of its own (A7's holder list is A6.1's copy),
 * no live file (of any revision) and no comment. Anything a person left on it keeps it running.
 */
export async function untouched(wf: ClusterWorkflow, code: string): Promise<boolean> {
  const row = wf.row(code);
  if (row.status !== IN_PROGRESS) return false;
  const own = podaciOf(row).filter((d) => !(code === 'A7' && (d.key === DATA_KEYS.holders || d.key === DATA_KEYS.holderNames)));
  if (own.length > 0) return false;
  const [files] = await wf.tx
    .select({ n: count() })
    .from(activityFiles)
    .where(and(eq(activityFiles.activityId, row.id), isNull(activityFiles.deletedAt)));
  if ((files?.n ?? 0) > 0) return false;
  const [comments] = await wf.tx.select({ n: count() }).from(activityComments).where(eq(activityComments.activityId, row.id));
  return (comments?.n ?? 0) === 0;
}

/**
 * After a reactivation: the successors of `code` that started from its finish and are untouched go
 * back to 'Nije započeta' (dates and decision cleared), and so on down the chain.
 */
export async function resetUntouchedSuccessors(wf: ClusterWorkflow, code: string): Promise<void> {
  for (const next of wf.entry(code).naredna) {
    if (!wf.has(next)) continue;
    if (AUTOMATIC_AFTER[code] === next) {
      await resetAutomatic(wf, next);
      continue;
    }
    if (!(await untouched(wf, next))) continue;
    wf.patch(next, { status: NOT_STARTED, datumPocetka: null, rokZavrsetka: null, datumZavrsetka: null, faults: null });
    wf.reset.push(next);
    await resetUntouchedSuccessors(wf, next);
  }
}

/**
 * A reactivated control (A5.1, A10.1) takes back what its positive decision did: the automatic
 * activity it finished (A6, A11) goes back to 'Nije započeta' — A6 without its copy of the LU — when
 * nothing after it was worked on (each successor not started or untouched); then those successors go
 * back too. When a person already works after it, it stays finished. The next positive decision
 * finishes it again.
 */
async function resetAutomatic(wf: ClusterWorkflow, code: string): Promise<void> {
  if (wf.row(code).status !== FINISHED) return;
  for (const next of wf.entry(code).naredna) {
    if (!wf.has(next)) continue;
    const status = wf.row(next).status;
    if (status === FINISHED || (status === IN_PROGRESS && !(await untouched(wf, next)))) return;
  }
  const row = wf.patch(code, { status: NOT_STARTED, datumPocetka: null, rokZavrsetka: null, datumZavrsetka: null, faults: null });
  await wf.tx
    .update(activityFiles)
    .set({ deletedAt: new Date() })
    .where(and(eq(activityFiles.activityId, row.id), isNull(activityFiles.deletedAt)));
  wf.filesChanged();
  wf.reset.push(code);
  await resetUntouchedSuccessors(wf, code);
}
