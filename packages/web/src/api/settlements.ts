import type { MessageResponse, SettlementDto, SettlementsPage, settlementSchema } from '@trasa/domain';
import type { z } from 'zod';
import { api } from './client';
import type { PageParams, SearchText } from './users';

/** Settlements of the codebook (docs/api/clusters-contracts.md "Settlements and priorities"). */

export type { SettlementDto, SettlementsPage };
export type SettlementBody = z.output<typeof settlementSchema>;
export type SettlementSaved = MessageResponse & { naselje: SettlementDto };

export function listSettlements(params: PageParams, signal?: AbortSignal): Promise<SettlementsPage> {
  return api('/naselje', { query: params, signal });
}

export function searchSettlements(params: PageParams & SearchText, signal?: AbortSignal): Promise<SettlementsPage> {
  return api('/search/naselje', { query: params, signal });
}

/** Every settlement (without page and limit the server answers all of them): the cluster form's pickers. */
export async function allSettlements(signal?: AbortSignal): Promise<SettlementDto[]> {
  return (await api<SettlementsPage>('/naselje', { signal })).naselja;
}

export function createSettlement(body: SettlementBody): Promise<SettlementSaved> {
  return api('/naselje', { method: 'POST', body });
}

export function editSettlement(id: string, body: SettlementBody): Promise<SettlementSaved> {
  return api(`/naselje/${encodeURIComponent(id)}`, { method: 'PATCH', body });
}

export function deleteSettlement(id: string): Promise<MessageResponse> {
  return api(`/naselje/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
