import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/harness.js';
import { groups } from '../db/schema.js';
import { createGroup } from '../seed/factories.js';
import { namedStatement, preparedOn, runNamed } from './database.js';

/** Statements written once (platform/database.ts): they run where they are asked to, pool or transaction. */
const t = useTestApp();

const groupName = namedStatement<{ naziv: string }>(
  'test_group_name',
  sql`select naziv from ${groups} where id = ${sql.placeholder('id')}`,
);

describe('statements written once', () => {
  it("run on a transaction's connection: they see its uncommitted change, the pool does not", async () => {
    const group = await createGroup(t.db, { naziv: 'Pre izmene' });
    const prepared = t.db
      .select({ naziv: groups.naziv })
      .from(groups)
      .where(eq(groups.id, sql.placeholder('id')))
      .prepare('test_group_name_drizzle');
    await t.db
      .transaction(async (tx) => {
        await tx.update(groups).set({ naziv: 'U transakciji' }).where(eq(groups.id, group.id));
        expect((await runNamed(tx, groupName, { id: group.id })).rows).toEqual([{ naziv: 'U transakciji' }]);
        expect(await preparedOn(prepared, tx).execute({ id: group.id })).toEqual([{ naziv: 'U transakciji' }]);
        // The pool's connections don't see the open transaction's change.
        expect((await runNamed(t.db, groupName, { id: group.id })).rows).toEqual([{ naziv: 'Pre izmene' }]);
        expect(await preparedOn(prepared, t.db).execute({ id: group.id })).toEqual([{ naziv: 'Pre izmene' }]);
        tx.rollback();
      })
      .catch(() => undefined);
    // Run again and again across the pool's connections (each prepares the name once), after the rollback.
    for (let i = 0; i < 12; i++) expect((await runNamed(t.db, groupName, { id: group.id })).rows[0]?.naziv).toBe('Pre izmene');
  });
});
