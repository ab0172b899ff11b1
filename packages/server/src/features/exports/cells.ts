import { type Script, toScript } from '@trasa/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Cell } from '../../platform/xlsxWriter.js';

/**
 * An exported cell is data (a name, a number, a date: written as stored) unless the product words or
 * composes it — a status, a yes or no, a label for a code, a total's caption, a shipped name (a built-in
 * group type, a catalogue activity) — which is marked with `ours` and written in the reader's script
 * (routes.ts). Typed values inside such a cell are marked with the domain's asTyped and stay as typed.
 * The mark is a Unicode noncharacter (U+FDD2), never part of a stored text.
 */
export const OURS = '\uFDD2';

/** A cell the product words or composes (see OURS). */
export const ours = (text: string): string => OURS + text;

/** In SQL: `value` (a text expression) marked as the product's words (see OURS). */
export const oursSql = (value: SQL | AnyPgColumn) => sql<string>`(${OURS} || ${value})`;

/** A cell as written for a reader of `script`: the product's words converted, data as stored. */
export function cellInScript(cell: Cell, script: Script): Cell {
  if (typeof cell !== 'string' || !cell.startsWith(OURS)) return cell;
  return toScript(cell.slice(OURS.length), script);
}
