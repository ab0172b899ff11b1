import type { DeadlineColour, MessageResponse } from '@trasa/domain';
import { api } from './client';
import type { ContractBrief } from './contracts';
import type { SettlementDto } from './settlements';
import type { PageParams, SearchText } from './users';

/** Clusters (locations) of docs/api/clusters-contracts.md "Clusters". */

export type GroupBrief = { _id: string; naziv: string; tip: string; tipKod: string | null };

export type ClusterStatus = 'Nije započet' | 'U toku' | 'Završen';

/** An activity of a cluster as the activities table shows it (the activities come with the next issue). */
export type ActivityBrief = {
  _id: string;
  naziv?: string;
  status?: string;
  rok?: string | null;
  odgovoran?: { _id: string; naziv: string } | null;
  poslednjiKomentar?: string | null;
};

export type LocationDto = {
  _id: string;
  naziv: string;
  odgovoran: GroupBrief[];
  /** The general contract. */
  ugovor: ContractBrief | null;
  ugovori: { contractIzv: ContractBrief | null; contractPro: ContractBrief | null; contractNad: ContractBrief | null };
  indikativnaDuzinaKlastera: number | null;
  ugovorenaVrednostKlastera: number | null;
  naselja: SettlementDto[];
  usputnaNaselja: SettlementDto[];
  status: ClusterStatus;
  adresa: string | null;
  aktivnosti: ActivityBrief[];
  datumZavrsetka: string | null;
  boja: DeadlineColour;
};

export type LocationsPage = { locations: LocationDto[]; aktivne: number; totalResults: number };

/** The body of POST /api/location and PATCH /api/location/{id}; empty decimals and an untouched contract are left out. */
export type ClusterBody = {
  naziv: string;
  odgovoran: string[];
  ugovor?: string | null;
  indikativnaDuzinaKlastera?: number;
  ugovorenaVrednostKlastera?: number;
  naselja: string[];
  usputnaNaselja: string[];
};
export type ClusterSaved = MessageResponse & { location: LocationDto };

/** Pickers load up to 1000 clusters (spec 2 §9). */
export const PICKER_LIMIT = 1000;

export function listLocations(params: PageParams, signal?: AbortSignal): Promise<LocationsPage> {
  return api('/location', { query: params, signal });
}

export function searchLocations(params: PageParams & SearchText, signal?: AbortSignal): Promise<LocationsPage> {
  return api('/search/location', { query: params, signal });
}

export async function getLocation(id: string, signal?: AbortSignal): Promise<LocationDto> {
  return (await api<{ location: LocationDto }>(`/location/${encodeURIComponent(id)}`, { signal })).location;
}

export function createLocation(body: ClusterBody): Promise<ClusterSaved> {
  return api('/location', { method: 'POST', body });
}

export function editLocation(id: string, body: ClusterBody): Promise<ClusterSaved> {
  return api(`/location/${encodeURIComponent(id)}`, { method: 'PATCH', body });
}

export function deleteLocation(id: string): Promise<MessageResponse> {
  return api(`/location/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
