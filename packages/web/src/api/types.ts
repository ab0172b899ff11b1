import type { GroupTypeDto, MessageResponse } from '@trasa/domain';
import { api } from './client';

/** Group types of the codebook (GET/POST /api/types, PATCH/DELETE /api/types/{id}). */

export type GroupTypeBody = { naziv: string; kratakNaziv: string };

export async function listTypes(signal?: AbortSignal): Promise<GroupTypeDto[]> {
  return (await api<{ types: GroupTypeDto[] }>('/types', { signal })).types;
}

export function createType(body: GroupTypeBody): Promise<Partial<MessageResponse>> {
  return api('/types', { method: 'POST', body });
}

export function editType(id: string, body: GroupTypeBody): Promise<Partial<MessageResponse>> {
  return api(`/types/${encodeURIComponent(id)}`, { method: 'PATCH', body });
}

export function deleteType(id: string): Promise<Partial<MessageResponse>> {
  return api(`/types/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
