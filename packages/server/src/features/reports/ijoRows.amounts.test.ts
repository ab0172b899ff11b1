import { parseAmount } from '@trasa/domain';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AMOUNTS, randomAmounts, setupIjoRows, t } from './ijoRowsSetup.js';

setupIjoRows();
describe('trasa_amount and trasa_trim (migration 0015)', () => {
  it('read every input as parseAmount and String.prototype.trim do', async () => {
    const inputs = [...AMOUNTS, ...randomAmounts(3000)];
    const result = await t.db.execute<{ n: string; amount: string | null; trimmed: string }>(
      sql`select x.n::text as n, trasa_amount(x.v)::text as amount, trasa_trim(x.v) as trimmed
        from jsonb_array_elements_text(${JSON.stringify(inputs)}::jsonb) with ordinality x(v, n) order by x.n`,
    );
    expect(result.rows).toHaveLength(inputs.length);
    const mismatches = result.rows
      .map((r, i) => ({
        input: inputs[i] ?? '',
        sql: r.amount === null ? null : Number(r.amount),
        js: parseAmount(inputs[i]),
        trim: r.trimmed,
      }))
      .filter((r) => !Object.is(r.sql, r.js === 0 ? 0 : r.js) || r.trim !== r.input.trim());
    expect(mismatches).toEqual([]);
    // The chosen inputs cover both outcomes.
    expect(AMOUNTS.filter((a) => parseAmount(a) === null).length).toBeGreaterThan(20);
    expect(AMOUNTS.filter((a) => parseAmount(a) !== null).length).toBeGreaterThan(20);
    const [nul] = (await t.db.execute<{ a: string | null }>(sql`select trasa_amount(null)::text as a`)).rows;
    expect(nul?.a).toBeNull();
  });

  it('a bound value is folded without an error, and the report inlines trasa_amount (a call per row cost 25 µs)', async () => {
    for (const v of ['abc', '1e5', '12 500 RSD', '1000000000000.00001', '99999999999999999999999']) {
      const [row] = (await t.db.execute<{ a: string | null }>(sql`select trasa_amount(${v})::text as a`)).rows;
      expect(row?.a == null ? null : Number(row.a), v).toBe(parseAmount(v));
    }
    const plan = await t.db.execute<{ 'QUERY PLAN': string }>(sql`explain (verbose) select trasa_amount(naziv) from ijo_holders`);
    const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toContain('CASE WHEN');
    expect(text).not.toMatch(/\btrasa_amount\(/);
  });
});
