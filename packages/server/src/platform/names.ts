import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from './database.js';

/**
 * Names people pick from a list (roles, priorities, group types, groups under one parent) are unique with
 * case, script and diacritics folded: 'Beograd', 'BEOGRAD' and 'Београд' are one name (trasa_fold in the
 * database equals foldForSearch in the domain). Until a migration adds the unique indexes on
 * trasa_fold(naziv), writers of one kind of name take one transaction lock, so two concurrent saves of
 * one name can't both pass the check.
 */
export async function lockNames(tx: Executor, kind: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`trasa:names:${kind}`}))`);
}

/** The column's folded value equals the folded text. */
export function sameFoldedName(column: AnyPgColumn | SQL, text: string): SQL {
  return sql`trasa_fold(${column}) = trasa_fold(${text})`;
}
