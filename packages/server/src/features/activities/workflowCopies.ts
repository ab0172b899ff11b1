import { activityRevision, checkedHolderIds, DATA_KEYS, type DataItem, FINISHED, holderIds } from '@trasa/domain';
import { and, eq, isNull } from 'drizzle-orm';
import { activityFiles } from '../../db/schema-activities.js';
import type { ClusterWorkflow } from './workflow.js';
import { type ActivityRow, holderItems, holderNames, liveFilesOf, podaciOf } from './workflowRecords.js';

/**
 * What the flow copies from one activity to another inside a step of a cluster's workflow
 * (ClusterWorkflow): A5.1's documents into A6, A6.1's holders into A7.
 */

/** A6's copies of A5.1's documents of the current revision (the LU); the copies of an earlier decision are deleted. */
export async function copyFiles(wf: ClusterWorkflow, from: ActivityRow, to: ActivityRow): Promise<void> {
  const revision = activityRevision(from);
  const source = (await liveFilesOf(wf.tx, from.id)).filter((f) => f.revision === revision);
  await wf.tx
    .update(activityFiles)
    .set({ deletedAt: new Date() })
    .where(and(eq(activityFiles.activityId, to.id), isNull(activityFiles.deletedAt)));
  wf.filesChanged();
  if (source.length === 0) return;
  if (!wf.store) throw new Error('a file store is needed to place documents');
  const at = Date.now();
  const copies = [];
  for (const [i, f] of source.entries()) {
    // A document missing from the disk is not copied (it could not be downloaded either).
    const storedName = await wf.store.copy(f.storedName).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (!storedName) continue;
    wf.storedNames.push(storedName);
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
  if (copies.length > 0) await wf.tx.insert(activityFiles).values(copies);
}

/**
 * A7's holders follow A6.1 (spec 3 §4 "A6.1"): Ijos and IjoNazivi are copied; the done marks and fees
 * of holders still on the list stay (fee names follow the holders' names), the others go. A finished
 * A7 keeps its record; it takes the list when it starts again.
 */
export async function copyHoldersToA7(wf: ClusterWorkflow): Promise<void> {
  if (!wf.has('A7') || !wf.has('A6.1')) return;
  const a7 = wf.row('A7');
  if (a7.status === FINISHED) return;
  const source = podaciOf(wf.row('A6.1'));
  const ids = holderIds(source);
  const names = await holderNames(wf.tx, ids);
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
  wf.patch('A7', { podaci });
}
