import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { literalText, sqlDirection, sqlIdent, sqlLiteral } from './sqlText.js';

/** What the code writes into SQL text itself (platform/sqlText.ts; docs/decisions.md "Security: SQL text"). */
const text = (q: ReturnType<typeof sql>) => new PgDialect().sqlToQuery(q).sql;

describe('an identifier (sqlIdent)', () => {
  it('is written double-quoted when listed, an inner quote doubled', () => {
    expect(text(sql`select k.${sqlIdent('contractIzv', ['contract', 'contractIzv'])}`)).toBe('select k."contractIzv"');
    expect(text(sqlIdent('a"b', ['a"b']))).toBe('"a""b"');
  });
  it('is refused when not listed', () => {
    const allowed: readonly string[] = ['comments', 'topics'];
    for (const name of ['users', 'comments"; drop table users; --', 'Comments', '']) {
      expect(() => sqlIdent(name, allowed)).toThrow(/not allowed/);
    }
  });
});

describe('a constant (sqlLiteral) and a direction (sqlDirection)', () => {
  it('write a literal that cannot end early or start a comment', () => {
    expect(text(sqlLiteral("U toku'; --"))).toBe("E'U toku''; --'");
    expect(text(sqlLiteral('a\\'))).toBe("E'a\\\\'");
    expect(text(sql`1-${sqlLiteral(-1)}`)).toBe('1-(-1)');
    expect(text(sqlLiteral(20000))).toBe('20000');
    expect(text(sqlLiteral(false))).toBe('false');
    expect(text(sqlLiteral(null))).toBe('null');
    expect(text(sql`x ${sqlDirection('desc')}, y ${sqlDirection('asc')}`)).toBe('x desc, y asc');
    expect(() => sqlDirection('desc; drop table users' as 'desc')).toThrow(/not allowed/);
  });
  it('refuse what has no exact literal', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, { toString: () => '1' }, new Date(0), [1], undefined, 'a\0']) {
      expect(() => literalText(value)).toThrow(/^SQL literal: /);
    }
  });
});

/**
 * Every `sql.raw` and `sql.identifier` of the server's sources (tests aside) takes one string literal
 * ('…', "…", or `…` without substitutions): anything computed goes through platform/sqlText.ts
 * (sqlIdent for a name from a list, sqlLiteral for a constant, sqlDirection), or is a bound parameter.
 * A textual check: a call spelled otherwise (an alias of sql.raw) is not seen.
 */
describe('text written into SQL by the sources', () => {
  const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const sources = (readdirSync(src, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && path.basename(f) !== 'sqlText.ts')
    .map((f) => ({ file: f, code: readFileSync(path.join(src, f), 'utf8') }));
  const literalCall = /^sql\.(raw|identifier)\(\s*('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`[^`$\\]*`)\s*,?\s*\)/;

  it('is a string literal in every sql.raw and sql.identifier call', () => {
    expect(sources.length).toBeGreaterThan(50);
    const offending: string[] = [];
    let calls = 0;
    for (const { file, code } of sources) {
      for (const m of code.matchAll(/sql\.(raw|identifier)\b/g)) {
        calls++;
        if (!literalCall.test(code.slice(m.index))) {
          const line = code.slice(0, m.index).split('\n').length;
          offending.push(`${file}:${line}: ${code.slice(m.index, m.index + 60).split('\n')[0]}`);
        }
      }
    }
    expect(calls).toBeGreaterThan(0);
    expect(offending).toEqual([]);
  });

  it('tells a computed argument from a literal', () => {
    const check = (code: string) => literalCall.test(code);
    expect(check("sql.raw('desc')")).toBe(true);
    expect(check('sql.raw(\n  `a, b`,\n)')).toBe(true);
    expect(check('sql.identifier("id")')).toBe(true);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a call with a substitution
    expect(check('sql.raw(`k."${kind}"`)')).toBe(false);
    expect(check('sql.raw(String(n))')).toBe(false);
    expect(check("sql.raw(order === 'desc' ? 'desc' : 'asc')")).toBe(false);
    expect(check("sql.raw('a' + b)")).toBe(false);
    expect(check('sql.identifier(list)')).toBe(false);
  });
});
