import { auditLogs } from '../db/schema.js';
import type { Executor } from './database.js';

export type LogActor = { id: string; ime: string; prezime: string; email: string; group: { id: string; cirilica: string } | null };
export type LogEntry = { actor: LogActor | null; ip: string; url: string; message: string; userLabel?: string };

/** The columns of an audit row for `entry` (writeLog, or a statement that writes it with other changes). */
export function logValues(entry: LogEntry): typeof auditLogs.$inferInsert {
  const a = entry.actor;
  return {
    userId: a?.id ?? null,
    userLabel: entry.userLabel ?? (a ? `${a.ime} ${a.prezime} (${a.email})` : ''),
    ip: entry.ip,
    url: entry.url,
    message: entry.message,
    groupId: a?.group?.id ?? null,
    groupCirilica: a?.group?.cirilica ?? '',
  };
}

/** One row of the audit trail (server-behaviour.md "Logs"): who, from where, what. */
export async function writeLog(db: Executor, entry: LogEntry): Promise<void> {
  await db.insert(auditLogs).values(logValues(entry));
}
