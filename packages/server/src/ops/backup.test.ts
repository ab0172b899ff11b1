import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/harness.js';
import { users } from '../db/schema.js';
import { contractFiles, topics } from '../db/schema-clusters.js';
import { samplePdf } from '../features/contracts/testDocuments.js';
import { createCluster, createContract, createOrgTree, createUser, tokenFor } from '../seed/factories.js';
import { backup, restore } from './backup.js';

const t = useTestApp();
let work: string;
let url: string;

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'trasa-backup-test-'));
  url = t.db.$client.options.connectionString ?? '';
});
afterAll(() => fs.rm(work, { recursive: true, force: true }));

/**
 * Every public table's rows, each table ordered by its text form: what a restore must give back. The kept
 * answers' data versions (report_cache_state's counters) are not data: loading the rows moves them, as any
 * write does (migration 0020), so only their names are compared; the database's epoch (its row 'epoch',
 * platform/epoch.ts) is a restore's own and left out.
 */
async function snapshot(): Promise<Record<string, string[]>> {
  const tables = await t.db.execute<{ name: string }>(
    sql`select relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r' order by 1`,
  );
  const out: Record<string, string[]> = {};
  for (const { name } of tables.rows) {
    const text = name === 'report_cache_state' ? `t.name` : 't::text';
    const where = name === 'report_cache_state' ? ` where t.name <> 'epoch'` : '';
    const rows = await t.db.execute<{ r: string }>(sql.raw(`select ${text} as r from public."${name}" t${where} order by 1`));
    out[name] = rows.rows.map((r) => r.r);
  }
  return out;
}

const sha = async (file: string) =>
  createHash('sha256')
    .update(await fs.readFile(file))
    .digest('hex');

describe('npm run backup / restore (issue 12, finding 16)', () => {
  it('round-trips the database and the files: backup, wipe, restore, compare', async () => {
    // data: people, a cluster with a topic, a contract with a stored document
    const tree = await createOrgTree(t.db, 'Rezerva');
    const author = await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id, ime: 'Đorđe', prezime: 'Šćepanović' });
    const cluster = await createCluster(t.db, { naziv: 'Čajetina — rezerva', groupIds: [tree.leaf.id] });
    await t.db
      .insert(topics)
      .values({ clusterId: cluster.id, groupId: tree.leaf.id, opis: 'Više redova\n"navodnici", (zagrade)\t\\', createdBy: author.id });
    const contract = await createContract(t.db, { naziv: 'Ugovor za rezervu' });
    const stored = await t.ctx.files.saveDocument(Readable.from([samplePdf('Rezerva')]), 'ugovor.pdf', {
      maxBytes: 1_000_000,
      allowed: ['pdf'],
    });
    await t.db.insert(contractFiles).values({
      contractId: contract.id,
      storedName: stored.storedName,
      originalnoIme: stored.originalName,
      mimetype: stored.mimetype,
      size: stored.size,
    });
    const filesDir = path.join(t.ctx.config.dataDir, 'files');
    const documentHash = await sha(path.join(filesDir, stored.storedName));
    // a file no row names is not part of the installation
    await fs.writeFile(path.join(filesDir, '00000000-0000-4000-8000-00000000dead'), 'siroče');
    const before = await snapshot();

    const archive = path.join(work, 'trasa.tar.gz');
    const { manifest } = await backup({ databaseUrl: url, dataDir: t.ctx.config.dataDir, out: archive });
    expect(manifest.files).toEqual({ count: 1, bytes: stored.size, missing: [] });
    expect(manifest.tables.find((x) => x.name === 'users')?.rows).toBe(before.users?.length);
    expect(manifest.migrations.length).toBeGreaterThan(0);
    expect((await fs.stat(archive)).mode & 0o077).toBe(0);

    // wipe: the database's schema and the files
    await t.db.execute(sql`drop schema public cascade`);
    await t.db.execute(sql`create schema public`);
    await t.db.execute(sql`drop schema drizzle cascade`);
    await fs.rm(filesDir, { recursive: true, force: true });

    // The test's own application is connected to the database: a running server as far as the restore can tell.
    await restore({ databaseUrl: url, dataDir: t.ctx.config.dataDir, archive, whileRunning: true });
    expect(await snapshot()).toEqual(before);
    expect(await sha(path.join(filesDir, stored.storedName))).toBe(documentHash);
    expect(existsSync(path.join(filesDir, '00000000-0000-4000-8000-00000000dead'))).toBe(false);

    // the application works on the restored data: a sign-in token of a restored user, a list, a download
    const token = await tokenFor(t.ctx, author);
    const res = await t.call({ method: 'GET', url: '/api/topic?limit=10', token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((x: { opis: string }) => x.opis)).toContain('Više redova\n"navodnici", (zagrade)\t\\');
    // the migration records came back: a second run of the migrations changes nothing
    const [migrated] = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)).rows;
    expect(migrated?.n).toBe(manifest.migrations.length);
  });

  it('refuses to overwrite a database holding data without --force, and a backup of a newer version', async () => {
    const archive = path.join(work, 'second.tar.gz');
    await backup({ databaseUrl: url, dataDir: t.ctx.config.dataDir, out: archive });
    const count = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(users))[0]?.n;
    const people = await count();
    await expect(restore({ databaseUrl: url, dataDir: t.ctx.config.dataDir, archive, whileRunning: true })).rejects.toThrow(
      /holds data: restore with --force/,
    );
    expect(await count()).toBe(people);
    await createUser(t.db, { email: 'posle.rezerve@primer.rs' });
    await restore({ databaseUrl: url, dataDir: t.ctx.config.dataDir, archive, force: true, whileRunning: true });
    expect(await count()).toBe(people);

    // a backup naming a migration this code does not have
    const staged = path.join(work, 'newer');
    await fs.mkdir(staged);
    const { execFileSync } = await import('node:child_process');
    execFileSync('tar', ['-xzf', archive, '-C', staged]);
    const manifestFile = path.join(staged, 'manifest.json');
    const manifest = JSON.parse(await fs.readFile(manifestFile, 'utf8'));
    manifest.migrations.push({ when: 9_999_999_999_999, hash: 'buducnost' });
    await fs.writeFile(manifestFile, JSON.stringify(manifest));
    const newer = path.join(work, 'newer.tar.gz');
    execFileSync('tar', ['-czf', newer, '-C', staged, '.']);
    await expect(
      restore({ databaseUrl: url, dataDir: t.ctx.config.dataDir, archive: newer, force: true, whileRunning: true }),
    ).rejects.toThrow(/newer/);
    expect(await count()).toBe(people);
  });
});
