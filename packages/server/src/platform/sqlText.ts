import { type SQL, sql } from 'drizzle-orm';

/**
 * What the code itself writes into SQL text (docs/decisions.md "Security: SQL text"). A value from a
 * request is always a bound parameter (drizzle's `${value}`); text is written only from constants, and
 * only through these helpers or `sql.raw` of a string literal (sqlText.test.ts keeps it so).
 */

/**
 * A value as a literal: a string as an escape string (E'…', backslashes and quotes doubled, read the
 * same whatever standard_conforming_strings says), a finite number or a bigint as its digits (in
 * parentheses when negative: `a-${n}` must not become a comment), a boolean, null. Anything else — an
 * object (a Date, an array, a Placeholder) whose toString would reach the text, NaN, ±Infinity,
 * undefined, a string holding NUL (which ends a simple query's text) — is a programming error: it throws.
 */
export function literalText(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      if (value.includes('\0')) throw new TypeError('SQL literal: a string holds NUL');
      return `E'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`SQL literal: a number is not finite (${value})`);
      return value < 0 ? `(${value})` : String(value);
    case 'bigint':
      return value < 0n ? `(${value})` : String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      throw new TypeError(
        `SQL literal: a value of type ${value === undefined ? 'undefined' : Object.prototype.toString.call(value)} cannot be written into SQL text`,
      );
  }
}

/** A constant of the code as a literal in the text (literalText), e.g. a status the statement compares with. */
export function sqlLiteral(value: string | number | bigint | boolean | null): SQL {
  return sql.raw(literalText(value));
}

/**
 * An identifier (a column, a table, a CTE's column) the statement names from a list the code gives:
 * refused (a programming error) when not in `allowed`, double-quoted with an inner quote doubled.
 */
export function sqlIdent<const N extends string>(name: N, allowed: readonly N[]): SQL {
  if (!allowed.includes(name)) throw new TypeError(`SQL identifier not allowed: ${JSON.stringify(name)}`);
  return sql.raw(`"${name.replace(/"/g, '""')}"`);
}

/** A sort direction as its keyword; anything but 'asc' or 'desc' is refused. */
export function sqlDirection(order: 'asc' | 'desc'): SQL {
  if (order === 'desc') return sql.raw('desc');
  if (order === 'asc') return sql.raw('asc');
  throw new TypeError(`SQL direction not allowed: ${JSON.stringify(order)}`);
}
