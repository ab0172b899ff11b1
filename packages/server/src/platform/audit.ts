import { asTyped, markSpans, typedSpans } from '@trasa/domain';
import { auditLogs } from '../db/schema.js';
import type { Executor } from './database.js';

export type LogActor = { id: string; ime: string; prezime: string; email: string; group: { id: string; cirilica: string } | null };
/**
 * `message`: the sentence with its typed values (names, addresses, file names) marked by the domain's
 * asTyped, so a reader gets its fixed words in their script and the names as typed (logText).
 */
export type LogEntry = { actor: LogActor | null; ip: string; url: string; message: string; userLabel?: string };

/** The columns of an audit row for `entry` (writeLog, or a statement that writes it with other changes). */
export function logValues(entry: LogEntry): typeof auditLogs.$inferInsert {
  const a = entry.actor;
  const { text, spans } = typedSpans(entry.message);
  return {
    userId: a?.id ?? null,
    userLabel: entry.userLabel ?? (a ? `${a.ime} ${a.prezime} (${a.email})` : ''),
    ip: entry.ip,
    url: entry.url,
    message: text,
    typedSpans: spans,
    groupId: a?.group?.id ?? null,
    groupCirilica: a?.group?.cirilica ?? '',
  };
}

/**
 * A stored sentence as a composed text again (its typed values marked), to be read in the reader's script
 * (toScript): the fixed words converted, the names as typed. A row written before its spans were kept
 * (null) reads as written, wholly: which of its words were typed is not known, and a name is never
 * changed by a guess.
 */
export function loggedSentence(message: string, spans: readonly number[] | null): string {
  return spans === null ? asTyped(message) : markSpans(message, spans);
}

/** One row of the audit trail (server-behaviour.md "Logs"): who, from where, what. */
export async function writeLog(db: Executor, entry: LogEntry): Promise<void> {
  await db.insert(auditLogs).values(logValues(entry));
}
