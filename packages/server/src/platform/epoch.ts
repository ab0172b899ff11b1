import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Executor } from './database.js';

/**
 * The database's epoch (docs/decisions.md "Operations: a restore starts a new epoch"): the row 'epoch'
 * of report_cache_state, whose `version` a restore sets to a new random number (ops/backup.ts) and
 * nothing else moves. A database never restored has no such row: its epoch is NEVER_RESTORED.
 *
 * A restore loads the backup's counters, and its load moves them as any write does, so a restored
 * data version may equal one a running server read before the restore (from other data). Every value
 * kept by data version is therefore kept under the epoch too, read in the same statement as the
 * versions, and every sign-in token names the epoch it was issued in (platform/tokens.ts): after a
 * restore no kept value matches and every session ends, on every server, without a restart.
 */
export const EPOCH_ROW = 'epoch';
export const NEVER_RESTORED = '0';

/** The current epoch as an SQL text expression (one primary-key probe). */
export const epochSql = sql`coalesce((select version::text from report_cache_state where name = 'epoch'), '0')`;

/** The current epoch, read on its own (a sign-in reads it before the user). */
export async function currentEpoch(db: Executor): Promise<string> {
  const result = await db.execute<{ epoch: string }>(sql`select ${epochSql} as epoch`);
  return result.rows[0]?.epoch ?? NEVER_RESTORED;
}

/** A new epoch: a random positive bigint (never NEVER_RESTORED), as text. */
export function newEpoch(): string {
  const value = randomBytes(8).readBigUInt64BE() & 0x7fff_ffff_ffff_ffffn;
  return value === 0n ? '1' : value.toString();
}
