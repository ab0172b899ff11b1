import fs from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/harness.js';
import { loginFailures, users } from '../db/schema.js';
import { createUser } from '../seed/factories.js';
import { filesSnapshot, fingerprinter } from './fingerprint.js';

/** The snapshots the property tests compare: they see every committed write and nothing else. */
const t = useTestApp();

describe('fingerprints of the database and the file store', () => {
  it('sees an insert, an update that keeps the values, a delete; not a rolled-back write', async () => {
    const f = fingerprinter(t.db, { ignore: ['login_failures'] });
    const user = await createUser(t.db);
    let before = await f.snapshot();
    expect(await f.changedSince(before)).toEqual([]);

    await t.db.update(users).set({ ime: user.ime }).where(eq(users.id, user.id));
    expect(await f.changedSince(before)).toEqual(['users']);

    // A user deleted or inserted also moves the users' search version (drizzle/0029); the update above,
    // which kept the values, moved nothing there.
    before = await f.snapshot();
    await t.db.delete(users).where(eq(users.id, user.id));
    expect(await f.changedSince(before)).toEqual(['report_cache_state', 'users']);

    before = await f.snapshot();
    await createUser(t.db);
    expect(await f.changedSince(before)).toEqual(['report_cache_state', 'users']);

    before = await f.snapshot();
    await t.db
      .transaction(async (tx) => {
        await createUser(tx);
        await tx.execute(sql`select 1/0`);
      })
      .catch(() => undefined);
    expect(await f.changedSince(before)).toEqual([]);

    // Ignored tables are not compared.
    before = await f.snapshot();
    await t.db.insert(loginFailures).values({ key: 'fuzz', count: 1 });
    expect(await f.changedSince(before)).toEqual([]);
  });

  it('sees a stored file or an import temp file added or removed', async () => {
    const dataDir = t.ctx.config.dataDir;
    const before = await filesSnapshot(dataDir);
    await fs.mkdir(path.join(dataDir, 'tmp'), { recursive: true });
    const temp = path.join(dataDir, 'tmp', 'import-x');
    await fs.writeFile(temp, 'x');
    expect(await filesSnapshot(dataDir)).not.toBe(before);
    await fs.rm(temp);
    expect(await filesSnapshot(dataDir)).toBe(before);
  });
});
