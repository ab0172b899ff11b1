import { auditLogs } from '../db/schema.js';
import type { Executor } from './database.js';

export type LogActor = { id: string; ime: string; prezime: string; email: string; group: { id: string; cirilica: string } | null };

/** One row of the audit trail (server-behaviour.md "Logs"): who, from where, what. */
export async function writeLog(
  db: Executor,
  entry: { actor: LogActor | null; ip: string; url: string; message: string; userLabel?: string },
): Promise<void> {
  const a = entry.actor;
  await db.insert(auditLogs).values({
    userId: a?.id ?? null,
    userLabel: entry.userLabel ?? (a ? `${a.ime} ${a.prezime} (${a.email})` : ''),
    ip: entry.ip,
    url: entry.url,
    message: entry.message,
    groupId: a?.group?.id ?? null,
    groupCirilica: a?.group?.cirilica ?? '',
  });
}
