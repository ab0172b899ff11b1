import type { LogsPage, MessageResponse } from '@trasa/domain';
import { api } from '../../api/client';
import type { PageParams, SearchText } from '../../api/users';

/** The audit log (docs/api/logs-comments-ijo.md): GET /api/log, GET /api/search/log, DELETE /api/log/. */

export type { LogDto, LogsPage } from '@trasa/domain';
export const LOGS_KEY = ['logs'] as const;

/** `group`: /app/logovi/{naziv}'s segment, one group's rows. */
export function listLogs(params: PageParams & { group?: string }, signal?: AbortSignal): Promise<LogsPage> {
  return api('/log', { query: params, signal });
}

export function searchLogs(params: PageParams & SearchText & { group?: string }, signal?: AbortSignal): Promise<LogsPage> {
  return api('/search/log', { query: params, signal });
}

export function deleteLogs(logIds: string[]): Promise<MessageResponse> {
  return api('/log/', { method: 'DELETE', body: { logIds } });
}
