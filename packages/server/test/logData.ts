import { auditLogs } from '../src/db/schema.js';
import type { Executor } from '../src/platform/database.js';

export type LogSpec = {
  message?: string;
  userLabel?: string;
  ip?: string;
  url?: string;
  group?: { id: string; cirilica: string } | null;
  createdAt?: Date;
};

/** Audit rows as writeLog leaves them, with a chosen time (the logs list is ordered by it). */
export async function addLogs(db: Executor, specs: LogSpec[]) {
  const rows: (typeof auditLogs.$inferSelect)[] = [];
  // A statement takes at most 65,535 parameters: 1,000 rows of 7 at a time.
  for (let i = 0; i < specs.length; i += 1000) rows.push(...(await insertLogs(db, specs.slice(i, i + 1000))));
  return rows;
}

function insertLogs(db: Executor, specs: LogSpec[]) {
  return db
    .insert(auditLogs)
    .values(
      specs.map((s) => ({
        message: s.message ?? 'Korisnik test@primer.rs se prijavio.',
        userLabel: s.userLabel ?? 'Test Testić (test@primer.rs)',
        ip: s.ip ?? '127.0.0.1',
        url: s.url ?? '/api/user/login',
        groupId: s.group?.id ?? null,
        groupCirilica: s.group?.cirilica ?? '',
        ...(s.createdAt && { createdAt: s.createdAt }),
      })),
    )
    .returning();
}
