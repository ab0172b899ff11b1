import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/harness.js';
import { groups } from '../db/schema.js';
import { createGroup } from '../seed/factories.js';
import { connect, namedStatement, preparedOn, runBatch, runNamed } from './database.js';

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

describe("the pool's session settings", () => {
  it('every connection runs without JIT, in a transaction too; a connection of its own keeps the default', async () => {
    // Ten at once: each on a connection of its own (the pool holds up to ten).
    const settings = await Promise.all(
      Array.from({ length: 10 }, () => t.db.execute<{ jit: string }>(sql`select current_setting('jit') as jit, pg_sleep(0.02)`)),
    );
    expect(settings.map((r) => r.rows[0]?.jit)).toEqual(Array(10).fill('off'));
    const inTx = await t.db.transaction((tx) => tx.execute<{ jit: string }>(sql`select current_setting('jit') as jit`));
    expect(inTx.rows[0]?.jit).toBe('off');
    const own = connect((t.db.$client as unknown as { options: { connectionString: string } }).options.connectionString, 1);
    try {
      expect((await own.execute<{ jit: string }>(sql`select current_setting('jit') as jit`)).rows[0]?.jit).toBe('off');
      const raw = await own.$client.connect();
      try {
        await raw.query('reset jit');
        expect((await raw.query('select current_setting($1) as jit', ['jit'])).rows[0]?.jit).toBe('on');
      } finally {
        raw.release();
      }
    } finally {
      await own.$client.end();
    }
  });
});

describe('statements sent as one batch', () => {
  it('keep their values exactly, hold a set local for the batch only, and roll back together', async () => {
    // Values written into the text: quotes, backslashes, LIKE's signs, both scripts, a number.
    const texts = ["O'Brien", "it''s", 'a\\b\\', '100%_\\%', 'Ђорђе "Đorđe"', "'; select 1; --"];
    for (const text of texts) {
      const [, rows] = await runBatch(t.db, [sql`set local enable_sort = off`, sql`select ${text}::text as text, ${42} as n`]);
      expect(rows).toEqual([{ text, n: 42 }]);
    }
    const [shown] = await runBatch(t.db, [sql`set local enable_sort = off`, sql`show enable_sort`]).then((r) => r.slice(1));
    expect(shown).toEqual([{ enable_sort: 'off' }]);
    // Every pooled connection is back to the default afterwards.
    const after = await Promise.all(Array.from({ length: 12 }, () => t.db.execute<{ enable_sort: string }>(sql`show enable_sort`)));
    expect(after.map((r) => r.rows[0]?.enable_sort)).toEqual(Array(12).fill('on'));
    // A failing statement undoes the ones before it and leaves the connection usable.
    const group = await createGroup(t.db, { naziv: 'Pre serije' });
    await expect(
      runBatch(t.db, [sql`update ${groups} set naziv = ${'U seriji'} where id = ${group.id}`, sql`select 1 / 0`]),
    ).rejects.toThrow(/division by zero/);
    const [row] = await t.db.select({ naziv: groups.naziv }).from(groups).where(eq(groups.id, group.id));
    expect(row?.naziv).toBe('Pre serije');
    expect((await t.db.execute(sql`select 1 as one`)).rows).toEqual([{ one: 1 }]);
  });
});

describe('a batch with standard_conforming_strings off', () => {
  it("reads its values as written: a backslash before a quote does not end the string (E'…')", async () => {
    // A database or role may turn the setting off; drizzle's plain '…' would then read \' as a quote.
    const url = (t.db.$client as unknown as { options: { connectionString: string } }).options.connectionString;
    const off = connect(url, 1);
    try {
      await off.execute(sql`set standard_conforming_strings = off`);
      expect((await off.execute<{ s: string }>(sql`select current_setting('standard_conforming_strings') as s`)).rows[0]?.s).toBe('off');
      for (const text of ["a\\'; select 1; --", 'a\\b', "O'Brien", '\\']) {
        const [rows] = await runBatch(off, [sql`select ${text}::text as text`]);
        expect(rows).toEqual([{ text }]);
      }
    } finally {
      await off.$client.end();
    }
  });
});

describe("a batch's values", () => {
  it('are written as literals that read back exactly: strings, finite numbers, bigints, booleans, null', async () => {
    const texts = ['$1', "$1'; select 1; --", "E'x'", '\\', "\\'", '$$ $tag$', 'a\nb\tc', '🙂 Ђ'];
    for (const text of texts) {
      const [rows] = await runBatch(t.db, [sql`select ${text}::text as text`]);
      expect(rows).toEqual([{ text }]);
    }
    // A negative number right after a minus must not start a comment (a-${n} → a-(-1)).
    const [numbers] = await runBatch(t.db, [
      sql`select 1-${-1} as two, ${0.1}::float8 as tenth, ${1e21}::float8 as big, ${-0} as zero, ${-5n}::int8 as neg, ${2n ** 62n}::int8 as wide`,
    ]);
    expect(numbers).toEqual([{ two: 2, tenth: 0.1, big: 1e21, zero: 0, neg: '-5', wide: String(2n ** 62n) }]);
    const [others] = await runBatch(t.db, [sql`select ${true} as yes, ${false} as no, ${null}::text as nothing`]);
    expect(others).toEqual([{ yes: true, no: false, nothing: null }]);
  });

  it('are refused, before anything is sent, when not a string, a finite number, a bigint, a boolean or null', async () => {
    const group = await createGroup(t.db, { naziv: 'Pre odbijanja' });
    const tricky: unknown[] = [
      { toString: () => "x'; update groups set naziv = 'upisano'; --" },
      { a: 1 },
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      new Date('2026-01-01T00:00:00Z'),
      sql.param([1, 2]),
      sql.placeholder('id'),
      'a\u0000b',
      Symbol('s'),
    ];
    for (const value of tricky) {
      await expect(
        runBatch(t.db, [sql`update ${groups} set naziv = ${'Promenjeno'} where id = ${group.id}`, sql`select ${value} as v`]),
      ).rejects.toThrow(/^runBatch: /);
    }
    const [row] = await t.db.select({ naziv: groups.naziv }).from(groups).where(eq(groups.id, group.id));
    expect(row?.naziv).toBe('Pre odbijanja');
    // A fragment with drizzle's own inlined values is refused too (its objects would be written by toString).
    await expect(runBatch(t.db, [sql`select ${{ toString: () => '1' }} as v`.inlineParams()])).rejects.toThrow(/^runBatch: /);
  });
});
