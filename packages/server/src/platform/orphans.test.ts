import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { COMMON } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activityOf } from '../../test/activityData.js';
import { useTestApp } from '../../test/harness.js';
import { activityFiles } from '../db/schema-activities.js';
import { contractFiles } from '../db/schema-clusters.js';
import { addContractDocument, minimalPdf } from '../seed/demoContracts.js';
import { createCluster, createContract, createUser, tokenFor } from '../seed/factories.js';
import { activityFileStore } from '../shared/activityFileStore.js';
import { DELETED_FILE_RETENTION_DAYS, ORPHAN_MIN_AGE_MS, sweepOrphans } from './orphans.js';

/** The start-up sweep of the file store (platform/orphans.ts; docs/decisions.md "Crash safety of stored files"). */
const t = useTestApp();

async function put(dir: string, name: string, ageMs: number): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  await fs.writeFile(file, 'x');
  const when = new Date(Date.now() - ageMs);
  await fs.utimes(file, when, when);
  return file;
}

const exists = (file: string) =>
  fs
    .stat(file)
    .then(() => true)
    .catch(() => false);

function recorder() {
  const lines: { level: string; msg: string; obj: unknown }[] = [];
  return {
    lines,
    log: {
      info: (obj: unknown, msg?: string) => void lines.push({ level: 'info', msg: msg ?? '', obj }),
      warn: (obj: unknown, msg?: string) => void lines.push({ level: 'warn', msg: msg ?? '', obj }),
    } as never,
  };
}

describe('start-up sweep of the file store', () => {
  it('removes old files no row names and old import temp files; keeps referenced, young and foreign ones', async () => {
    const dataDir = t.ctx.config.dataDir;
    const filesDir = path.join(dataDir, 'files');
    const tmpDir = path.join(dataDir, 'tmp');
    const old = ORPHAN_MIN_AGE_MS + 60_000;

    // Referenced: a contract document and an activity file (a deleted one too: revisions keep their files).
    const contract = await createContract(t.db);
    const doc = await addContractDocument(t.db, t.ctx.files, contract.id, { originalName: 'ugovor.pdf', content: minimalPdf(['Ugovor']) });
    const cluster = await createCluster(t.db, { contract });
    const a1 = await activityOf(t.db, cluster.id, 'A1');
    const store = activityFileStore(dataDir);
    const live = await store.save(Readable.from([minimalPdf(['Trasa'])]), 'trasa.pdf', { maxBytes: 1_000_000 });
    const gone = await store.save(Readable.from([minimalPdf(['Stara'])]), 'stara.pdf', { maxBytes: 1_000_000 });
    for (const [f, deletedAt] of [
      [live, null],
      [gone, new Date()],
    ] as const) {
      await t.db.insert(activityFiles).values({
        activityId: a1.id,
        storedName: f.storedName,
        originalnoIme: f.originalName,
        mimetype: f.mimetype,
        size: f.size,
        deletedAt,
      });
    }
    // Referenced files are old too: age alone never removes a file.
    for (const name of [doc.storedName, live.storedName, gone.storedName]) {
      const when = new Date(Date.now() - old);
      await fs.utimes(path.join(filesDir, name), when, when);
    }

    const orphan = await put(filesDir, randomUUID(), old);
    const young = await put(filesDir, randomUUID(), 60_000);
    const foreign = await put(filesDir, 'README.txt', old);
    const staleImport = await put(tmpDir, `import-${randomUUID()}`, old);
    const freshImport = await put(tmpDir, `import-${randomUUID()}`, 1_000);
    const backupStaging = await put(tmpDir, 'backup-abc123', old);

    const { lines, log } = recorder();
    const result = await sweepOrphans({ db: t.db, dataDir, log });

    expect(result.removedFiles).toEqual([path.basename(orphan)]);
    expect(result.removedTemp).toEqual([path.basename(staleImport)]);
    expect(result.keptYoung).toBe(1);
    expect(result.missing).toEqual([]);
    expect(await exists(orphan)).toBe(false);
    expect(await exists(staleImport)).toBe(false);
    for (const kept of [young, foreign, freshImport, backupStaging]) expect(await exists(kept)).toBe(true);
    for (const name of [doc.storedName, live.storedName, gone.storedName]) expect(await exists(path.join(filesDir, name))).toBe(true);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe('info');
    expect(lines[0]?.msg).toContain('removed 1 stored file(s) no row references and 1 temporary file(s)');

    // A second start finds nothing more to do and says nothing.
    const again = recorder();
    const second = await sweepOrphans({ db: t.db, dataDir, log: again.log });
    expect(second.removedFiles).toEqual([]);
    expect(again.lines).toEqual([]);
  });

  it(`removes the bytes of activity documents deleted over ${DELETED_FILE_RETENTION_DAYS} days ago and keeps their rows`, async () => {
    const dataDir = t.ctx.config.dataDir;
    const filesDir = path.join(dataDir, 'files');
    const cluster = await createCluster(t.db, { contract: await createContract(t.db) });
    const a2 = await activityOf(t.db, cluster.id, 'A2');
    const store = activityFileStore(dataDir);
    const day = 86_400_000;
    const saved = async (text: string) => store.save(Readable.from([minimalPdf([text])]), `${text}.pdf`, { maxBytes: 1_000_000 });
    const expired = await saved('Istekao');
    const recent = await saved('Skoro');
    const shared = await saved('Deljen');
    const row = async (f: Awaited<ReturnType<typeof saved>>, deletedAt: Date | null) =>
      (
        await t.db
          .insert(activityFiles)
          .values({
            activityId: a2.id,
            storedName: f.storedName,
            originalnoIme: f.originalName,
            mimetype: f.mimetype,
            size: f.size,
            deletedAt,
          })
          .returning({ id: activityFiles.id })
      )[0]?.id as string;
    const expiredId = await row(expired, new Date(Date.now() - (DELETED_FILE_RETENTION_DAYS + 1) * day));
    await row(recent, new Date(Date.now() - (DELETED_FILE_RETENTION_DAYS - 1) * day));
    // One stored name, deleted long ago in one row and live in another: the live row keeps it.
    await row(shared, new Date(Date.now() - (DELETED_FILE_RETENTION_DAYS + 5) * day));
    await row(shared, null);

    const { lines, log } = recorder();
    const result = await sweepOrphans({ db: t.db, dataDir, log });
    expect(result.purgedDeleted).toEqual([expired.storedName]);
    expect(await exists(path.join(filesDir, expired.storedName))).toBe(false);
    for (const kept of [recent, shared]) expect(await exists(path.join(filesDir, kept.storedName))).toBe(true);
    // The row stays, the record of the upload and of its deletion; a purged file is not "missing".
    expect(await t.db.select().from(activityFiles).where(eq(activityFiles.id, expiredId))).toHaveLength(1);
    expect(result.missing.map((m) => m.storedName)).not.toContain(expired.storedName);
    expect(lines.find((l) => l.msg.includes('deleted more than'))?.level).toBe('info');
    const again = await sweepOrphans({ db: t.db, dataDir, log: recorder().log });
    expect(again.purgedDeleted).toEqual([]);
    expect(again.missing.map((m) => m.storedName)).not.toContain(expired.storedName);
  });

  it('keeps a row whose file is missing, warns about it, and its download answers 404', async () => {
    const dataDir = t.ctx.config.dataDir;
    const contract = await createContract(t.db);
    const doc = await addContractDocument(t.db, t.ctx.files, contract.id, { originalName: 'izgubljen.pdf', content: minimalPdf(['X']) });
    await fs.rm(path.join(dataDir, 'files', doc.storedName));

    const { lines, log } = recorder();
    const result = await sweepOrphans({ db: t.db, dataDir, log });
    expect(result.missing).toContainEqual({ table: 'contract_files', id: doc.id, storedName: doc.storedName });
    expect(lines.find((l) => l.level === 'warn')?.msg).toMatch(/row\(s\) name a file that is not in/);
    // The row stays: it is the record of the upload.
    expect(await t.db.select().from(contractFiles).where(eq(contractFiles.id, doc.id))).toHaveLength(1);

    await createUser(t.db, { role: 'Admin' });
    const token = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
    const res = await t.call({ method: 'GET', url: `/api/files/contract/${contract.id}/${doc.id}`, token });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: COMMON.notFound });
  });
});
