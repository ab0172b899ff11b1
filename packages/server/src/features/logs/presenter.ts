import type { LogDto } from '@trasa/domain';
import type { auditLogs } from '../../db/schema.js';
import { loggedSentence } from '../../platform/audit.js';

/** A log row as presented (the folded search column is never shown). */
export type LogRow = Omit<typeof auditLogs.$inferSelect, 'searchText'>;

/** A row as answered: `message` with its typed values marked, put in the reader's script as it is sent (routes.ts). */
export function presentLog(row: LogRow): LogDto {
  return {
    _id: row.id,
    user: row.userLabel,
    ip: row.ip,
    message: loggedSentence(row.message, row.typedSpans),
    url: row.url,
    group: row.groupCirilica,
    createdAt: row.createdAt.toISOString(),
  };
}
