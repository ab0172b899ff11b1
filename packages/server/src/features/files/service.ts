import type { Readable } from 'node:stream';
import {
  A20_TEST_TYPES,
  ACTIVITIES,
  type ActivityState,
  activityRevision,
  asTyped,
  FINISHED,
  holderIds,
  IN_PROGRESS,
  revisionFileName,
  toLatin,
} from '@trasa/domain';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { activities, activityCatalogue, activityFiles } from '../../db/schema-activities.js';
import { clusters } from '../../db/schema-clusters.js';
import type { Executor } from '../../platform/database.js';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import type { ActivityFileStore, StoredActivityFile } from '../../shared/activityFileStore.js';
import {
  type ActivityOptions,
  assertSameState,
  isSystem,
  isUuid,
  locateActivity,
  mayAct,
  mayDownloadAll,
  type Performer,
  scopeOfPerformer,
} from '../activities/policy.js';
import { audit, type StepResult, step, type WorkflowDeps } from '../activities/service.js';
import { type ClusterWorkflow, clusterSettlementsOf, isAutomatic, podaciOf } from '../activities/workflow.js';
import { assertClusterVisible, type ClusterScope } from '../clusters/policy.js';

export type FileDeps = WorkflowDeps & { store: ActivityFileStore };

/** The path of PATCH /api/activity/:type/:locationId/:activityId/:controlFlag/:version/:requiredFlag. */
export type UploadPath = {
  type: string;
  locationId: string;
  activityId: string;
  controlFlag: string;
  version: string;
  requiredFlag: string;
};

export type UploadInput = {
  /** A1: the settlement (id or name); A20: the test type 1–5; A7: the holder's id. */
  userInput?: string;
  /** A required document (counts for the rules) or an extra optional one. */
  isRequired?: boolean;
  /** The version the page showed: another one means the page is stale (409). */
  version?: number;
  /** The state the upload was made on (the query's status and revizija): a stale one is refused (409, the reason). */
  stanje?: ActivityState;
};

const flag = (value: string) => {
  if (value !== 'true' && value !== 'false') throw badRequest(ACTIVITIES.uploadFailed);
  return value === 'true';
};

/** The path's parts, checked: malformed ids 404, flags and version as the web sends them (else 400). */
export function parseUploadPath(path: UploadPath): {
  activityId: string;
  clusterId: string;
  code: string;
  version: number;
  required: boolean;
} {
  if (!isUuid(path.activityId) || !isUuid(path.locationId)) throw notFound();
  flag(path.controlFlag);
  if (!/^\d{1,9}$/.test(path.version)) throw badRequest(ACTIVITIES.uploadFailed);
  return {
    // UUIDs in any case name the same records (PostgreSQL answers lower case).
    activityId: path.activityId.toLowerCase(),
    clusterId: path.locationId.toLowerCase(),
    code: path.type,
    version: Number(path.version),
    required: flag(path.requiredFlag),
  };
}

type Target = { code: string; clusterId: string; version: number; stanje?: ActivityState };

/** The activity named by the path may take this performer's upload now (else 404/400/409/403). */
function assertTarget(wf: ClusterWorkflow, code: string, p: Performer, target: Target): void {
  const row = wf.row(code);
  const entry = wf.entry(code);
  if (wf.cluster.id !== target.clusterId) throw notFound();
  if (target.code !== code) throw badRequest(ACTIVITIES.wrongActivity);
  if (isAutomatic(entry) || !mayAct(p, entry.odgovoran)) throw forbidden(ACTIVITIES.notResponsible);
  assertSameState(row, target.stanje);
  if (row.status !== IN_PROGRESS) throw conflict(ACTIVITIES.notInProgress);
  if (row.version !== target.version) throw conflict(ACTIVITIES.staleVersion);
}

/**
 * Before the body is read (nothing is stored for a request that would be refused anyway): the same
 * checks as the upload itself, without the lock.
 */
export async function precheckUpload(deps: WorkflowDeps, p: Performer, path: UploadPath, stanje?: ActivityState): Promise<void> {
  const target = parseUploadPath(path);
  const scope = await scopeOfPerformer(deps.db, p);
  const located = await locateActivity(deps.db, scope, target.activityId);
  const [row] = await deps.db
    .select({
      status: activities.status,
      version: activities.version,
      returned: activities.returned,
      odgovoran: activityCatalogue.odgovoran,
    })
    .from(activities)
    .innerJoin(activityCatalogue, eq(activityCatalogue.code, activities.code))
    .where(eq(activities.id, located.id));
  if (!row) throw notFound();
  if (located.clusterId !== target.clusterId) throw notFound();
  if (located.code !== target.code) throw badRequest(ACTIVITIES.wrongActivity);
  if (row.odgovoran.includes('AUTOMATSKI') || !mayAct(p, row.odgovoran)) throw forbidden(ACTIVITIES.notResponsible);
  assertSameState(row, stanje);
  if (row.status !== IN_PROGRESS) throw conflict(ACTIVITIES.notInProgress);
  if (row.version !== target.version) throw conflict(ACTIVITIES.staleVersion);
}

const fold = (s: string) => toLatin(s).trim().toLowerCase();

/** The slot a file goes to: A1 a settlement of the cluster, A20 a test type, A7 a holder on A7's list. */
async function slotOf(wf: ClusterWorkflow, code: string, userInput: string | undefined, required: boolean): Promise<string | null> {
  const value = (userInput ?? '').trim();
  if (code === 'A1') {
    if (!value && !required) return null;
    const found = (await clusterSettlementsOf(wf.tx, wf.cluster.id)).find((s) => s._id === value || fold(s.naziv) === fold(value));
    if (!found) throw badRequest(ACTIVITIES.unknownSettlement, { userInput: ACTIVITIES.unknownSettlement });
    return found._id;
  }
  if (code === 'A20') {
    if (!value && !required) return null;
    const n = Number(value);
    if (!/^\d$/.test(value) || n < 1 || n > A20_TEST_TYPES.length)
      throw badRequest(ACTIVITIES.unknownTestType, { userInput: ACTIVITIES.unknownTestType });
    return value;
  }
  if (code === 'A7') {
    if (!value && !required) return null;
    if (!holderIds(podaciOf(wf.row(code))).includes(value))
      throw badRequest(ACTIVITIES.unknownHolder, { userInput: ACTIVITIES.unknownHolder });
    return value;
  }
  return null;
}

/**
 * Adds stored files to an activity in progress (the upload; the seed calls it with files it stored
 * itself): a responsible Zaposleni, the page's version current, A1/A20/A7 in a slot. Each file is kept
 * under revision = the activity's revision and, from revision 1 on, named '…_revizija=N.ext'. The
 * stored files are removed when anything is refused.
 */
export async function addActivityFiles(
  deps: FileDeps,
  p: Performer,
  activityId: string,
  files: readonly StoredActivityFile[],
  input: UploadInput & { path?: Omit<Target, 'version' | 'stanje'> },
  opts?: ActivityOptions,
): Promise<StepResult> {
  try {
    if (files.length === 0) throw badRequest(ACTIVITIES.noFiles);
    return await step(deps, p, activityId, opts, async (wf, code) => {
      const row = wf.row(code);
      assertTarget(wf, code, p, {
        code: input.path?.code ?? code,
        clusterId: input.path?.clusterId ?? wf.cluster.id,
        version: input.version ?? row.version,
        stanje: input.stanje,
      });
      const required = input.isRequired ?? true;
      const slot = await slotOf(wf, code, input.userInput, required);
      const revision = activityRevision(row);
      const at = Date.now();
      await wf.tx.insert(activityFiles).values(
        files.map((f, i) => ({
          activityId: row.id,
          storedName: f.storedName,
          originalnoIme: revisionFileName(f.originalName, revision),
          mimetype: f.mimetype,
          size: f.size,
          isRequired: required,
          revision,
          slot,
          uploadedBy: isSystem(p) ? null : p.id,
          createdAt: new Date(at + i),
        })),
      );
      wf.filesChanged();
      // A change to the activity (the reactivation rule counts files; lists sort by it).
      wf.patch(code, {});
      const names = files.map((f) => revisionFileName(f.originalName, revision)).join(', ');
      audit(wf, p, `dodao dokumente (${asTyped(names)}) na aktivnost ${asTyped(code)} na klasteru ${asTyped(wf.cluster.naziv)}`, opts);
    });
  } catch (err) {
    await Promise.all(files.map((f) => deps.store.remove(f.storedName).catch(() => undefined)));
    throw err;
  }
}

export type FilePath = { locationId: string; activityId: string; fileId: string };

/** Ids compare as the database writes them (a client may send upper case). */
const lower = (path: FilePath): FilePath => ({
  locationId: path.locationId.toLowerCase(),
  activityId: path.activityId.toLowerCase(),
  fileId: path.fileId.toLowerCase(),
});

/** The live file of the activity of the cluster in the path; 404 for anything else. */
async function fileOf(db: Executor, path: FilePath) {
  if (!isUuid(path.fileId) || !isUuid(path.locationId)) throw notFound();
  const [row] = await db
    .select({ file: activityFiles, clusterId: activities.clusterId })
    .from(activityFiles)
    .innerJoin(activities, eq(activities.id, activityFiles.activityId))
    .where(and(eq(activityFiles.id, path.fileId), eq(activityFiles.activityId, path.activityId), isNull(activityFiles.deletedAt)))
    .limit(1);
  if (!row || row.clusterId !== path.locationId) throw notFound();
  return row.file;
}

export type Download = { stream: Readable; originalnoIme: string; mimetype: string; size: number };

/** GET /api/files/activity/:locationId/:activityId/:fileId: whoever sees the cluster. */
export async function openActivityFile(deps: FileDeps, p: Performer, given: FilePath): Promise<Download> {
  const path = lower(given);
  const scope = await scopeOfPerformer(deps.db, p);
  await locateActivity(deps.db, scope, path.activityId);
  const file = await fileOf(deps.db, path);
  if (!(await deps.store.exists(file.storedName))) throw notFound();
  return { stream: deps.store.open(file.storedName), originalnoIme: file.originalnoIme, mimetype: file.mimetype, size: file.size };
}

/**
 * DELETE /api/files/activity/:locationId/:activityId/:fileId: a responsible Zaposleni (403), the
 * activity not finished (409), a file of the current revision (409 'Može se obrisati samo fajl tekuće
 * revizije.'). The file is marked deleted and kept on disk for the record.
 */
export async function deleteActivityFile(deps: FileDeps, p: Performer, given: FilePath, opts?: ActivityOptions): Promise<StepResult> {
  const path = lower(given);
  return step(deps, p, path.activityId, opts, async (wf, code) => {
    const row = wf.row(code);
    if (wf.cluster.id !== path.locationId) throw notFound();
    if (isAutomatic(wf.entry(code)) || !mayAct(p, wf.entry(code).odgovoran)) throw forbidden(ACTIVITIES.notResponsible);
    if (row.status === FINISHED) throw conflict(ACTIVITIES.finishedNoChanges);
    const file = await fileOf(wf.tx, path);
    if (file.revision !== activityRevision(row)) throw conflict(ACTIVITIES.oldRevisionFile);
    await wf.tx.update(activityFiles).set({ deletedAt: new Date() }).where(eq(activityFiles.id, file.id));
    wf.filesChanged();
    wf.patch(code, {});
    audit(
      wf,
      p,
      `obrisao dokument ${asTyped(file.originalnoIme)} sa aktivnosti ${asTyped(code)} na klasteru ${asTyped(wf.cluster.naziv)}`,
      opts,
    );
  });
}

export type ZipEntry = { name: string; storedName: string };
export type ZipPlan = { fileName: string; entries: ZipEntry[] };

/** Names unique within the archive: 'IDR.pdf', 'IDR (2).pdf', … */
function uniqueNames(entries: ZipEntry[]): ZipEntry[] {
  const used = new Set<string>();
  return entries.map((e) => {
    let name = e.name;
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    for (let i = 2; used.has(name.toLowerCase()); i++) name = `${stem} (${i})${ext}`;
    used.add(name.toLowerCase());
    return { ...e, name };
  });
}

/** A name fit for a zip entry or a download: no path separators or characters Windows refuses (display names carry no control characters). */
const safe = (s: string) => s.replace(/[\\/:*?"<>|]/g, '_').trim() || 'dokument';

/**
 * GET /api/files/zip?activityName=<activity id>&directory=<cluster id>: the activity's live documents
 * (whoever sees the cluster); without activityName, every activity's documents of the cluster in a
 * folder per code (the Admin or a sees-all group, 403 otherwise). Only what the archive holds is
 * planned here; the route streams it.
 */
export async function planZip(deps: FileDeps, p: Performer, query: { activityName?: string; directory?: string }): Promise<ZipPlan> {
  const scope: ClusterScope = await scopeOfPerformer(deps.db, p);
  const clusterId = (query.directory ?? '').toLowerCase();
  if (!isUuid(clusterId)) throw notFound();
  await assertClusterVisible(deps.db, scope, clusterId);
  const [cluster] = await deps.db.select({ naziv: clusters.naziv }).from(clusters).where(eq(clusters.id, clusterId));
  if (!cluster) throw notFound();
  const activityId = query.activityName?.trim() || undefined;
  if (activityId) {
    const located = await locateActivity(deps.db, scope, activityId);
    if (located.clusterId !== clusterId) throw notFound();
  } else if (!mayDownloadAll(p, scope)) {
    throw forbidden(ACTIVITIES.allFilesForbidden);
  }
  const rows = await deps.db
    .select({ code: activities.code, name: activityFiles.originalnoIme, storedName: activityFiles.storedName })
    .from(activityFiles)
    .innerJoin(activities, eq(activities.id, activityFiles.activityId))
    .where(
      and(eq(activities.clusterId, clusterId), activityId ? eq(activities.id, activityId) : undefined, isNull(activityFiles.deletedAt)),
    )
    .orderBy(asc(activities.position), asc(activityFiles.createdAt), asc(activityFiles.id));
  const entries = uniqueNames(
    rows.map((r) => ({ name: activityId ? safe(r.name) : `${r.code}/${safe(r.name)}`, storedName: r.storedName })),
  );
  const code = activityId ? (rows[0]?.code ?? (await locateActivity(deps.db, scope, activityId)).code) : 'dokumenta';
  return { fileName: `${safe(cluster.naziv)} - ${code}.zip`, entries };
}
