import type { LogDto } from '@trasa/domain';
import type { auditLogs } from '../../db/schema.js';

/** A log row as presented (the folded search column is never shown). */
export type LogRow = Omit<typeof auditLogs.$inferSelect, 'searchText'>;

export function presentLog(row: LogRow): LogDto {
  return {
    _id: row.id,
    user: row.userLabel,
    ip: row.ip,
    message: row.message,
    url: row.url,
    group: row.groupCirilica,
    createdAt: row.createdAt.toISOString(),
  };
}
