import type { MessageResponse, PriorityDto } from '@trasa/domain';
import { api } from './client';

/** Priorities of the codebook (GET/POST /api/priority, PATCH/DELETE /api/priority/{id}). */

export type { PriorityDto };
export type PriorityBody = { naziv: string; broj: number };
export type PrioritySaved = MessageResponse & { priority: PriorityDto };

/** The whole codebook, ordered by broj. */
export async function listPriorities(signal?: AbortSignal): Promise<PriorityDto[]> {
  return (await api<{ priorities: PriorityDto[] }>('/priority', { signal })).priorities;
}

export function createPriority(body: PriorityBody): Promise<PrioritySaved> {
  return api('/priority', { method: 'POST', body });
}

export function editPriority(id: string, body: PriorityBody): Promise<PrioritySaved> {
  return api(`/priority/${encodeURIComponent(id)}`, { method: 'PATCH', body });
}

export function deletePriority(id: string): Promise<MessageResponse> {
  return api(`/priority/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
