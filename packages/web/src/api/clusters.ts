import type {
  ActivityBrief,
  ClusterStatus,
  GroupBrief,
  LocationDto,
  LocationListItem,
  LocationOption,
  LocationsPage,
  MessageResponse,
} from '@trasa/domain';
import { api } from './client';
import type { PageParams, SearchText } from './users';

/** Clusters (locations) of docs/api/clusters-contracts.md "Clusters". */

export type { ActivityBrief, ClusterStatus, GroupBrief, LocationDto, LocationListItem, LocationOption, LocationsPage };

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

/** A page of the visible clusters as the lists and pickers carry them (LocationListItem; the detail has the rest). */
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

/** Up to 20 visible clusters whose name contains the text, in either script (GET /api/location/get/autocomplete). */
export async function autocompleteLocations(value: string, signal?: AbortSignal): Promise<LocationOption[]> {
  return (await api<{ locations: LocationOption[] }>('/location/get/autocomplete', { query: { value }, signal })).locations;
}
