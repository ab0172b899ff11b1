import type { IjoBody, IjoDto, IjoList, MessageResponse } from '@trasa/domain';
import { api } from '../../api/client';

/** Public-authority holders (docs/api/logs-comments-ijo.md): GET/POST /api/ijo, PATCH/DELETE /api/ijo/{id}. */

export type { IjoBody, IjoDto };
export type IjoSaved = MessageResponse & { ijo: IjoDto };

export const IJO_KEY = ['ijo'] as const;

/** Every holder, by name. */
export async function listIjos(signal?: AbortSignal): Promise<IjoDto[]> {
  return (await api<IjoList>('/ijo', { signal })).ijos;
}

export function createIjo(body: IjoBody): Promise<IjoSaved> {
  return api('/ijo', { method: 'POST', body });
}

export function editIjo(id: string, body: IjoBody): Promise<IjoSaved> {
  return api(`/ijo/${encodeURIComponent(id)}`, { method: 'PATCH', body });
}

export function deleteIjo(id: string): Promise<MessageResponse> {
  return api(`/ijo/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
