import {
  type A13Page,
  type A13Row,
  type A13Stats,
  type AllInventoryPage,
  type ImportResponse,
  INVENTORY_TIPOVI,
  INVENTORY_VALUTE,
  type InventoryContractBody,
  type InventoryContractDetail,
  type InventoryContractDto,
  type InventoryContractsPage,
  type InventoryItemBody,
  type InventoryItemDto,
  type InventoryItemEditBody,
  type InventoryItemList,
  type InventoryLocationDto,
  type InventoryLocationRow,
  type InventoryTip,
  type InventoryValuta,
  type InvTypeBody,
  type InvTypeDto,
  type InvTypeList,
  type LocationOption,
  type MessageResponse,
  type NamedRef,
  type PerLocationPage,
  type PerLocationRow,
  type PublicStocktaking,
  type RefusedDocument,
  type SchoolNotificationDto,
  type SchoolNotificationsPage,
  type StocktakingList,
  type StocktakingRow,
  type SumPerTypePage,
  type SumPerTypeRow,
  type SumSort,
} from '@trasa/domain';
import { api, download, saveBlob } from './client';
import type { PageParams, SearchText } from './users';

/**
 * Inventory calls of spec 3 §7 ("A13", "Inventory contracts", "Inventory reports and school
 * notifications", "Inventory types and items"; docs/api/inventory.md).
 */

export type {
  A13Page,
  A13Row,
  A13Stats,
  AllInventoryPage,
  InventoryContractDetail,
  InventoryContractDto,
  InventoryContractsPage,
  InventoryItemDto,
  InventoryLocationDto,
  InventoryLocationRow,
  InventoryTip,
  InventoryValuta,
  InvTypeDto,
  NamedRef,
  PerLocationPage,
  PerLocationRow,
  PublicStocktaking,
  RefusedDocument,
  SchoolNotificationDto,
  SchoolNotificationsPage,
  StocktakingList,
  StocktakingRow,
  SumPerTypePage,
  SumPerTypeRow,
  SumSort,
};
export type InvTip = InventoryTip;
export const INV_TIPS = INVENTORY_TIPOVI;
export const VALUTE = INVENTORY_VALUTE;

export const INVENTORY_KEY = ['inventory'] as const;

export type { InventoryItemBody, InventoryItemEditBody, InvTypeBody };

type Search = Partial<SearchText>;

const enc = encodeURIComponent;

// Contracts ---------------------------------------------------------------------------------------

/** GET /api/contract?inventory=true, or /api/search/contract with the search text. */
export async function listInventoryContracts(params: PageParams & Search, signal?: AbortSignal) {
  const path = params.eng !== undefined ? '/search/contract' : '/contract';
  const data = await api<InventoryContractsPage>(path, { query: { ...params, inventory: true }, signal });
  return { rows: data.contracts ?? [], total: data.totalResults ?? 0 };
}

/** One inventory contract with its locations. */
export async function getInventoryContract(id: string, signal?: AbortSignal): Promise<InventoryContractDetail['contract']> {
  return (await api<InventoryContractDetail>(`/inventory-contract/${enc(id)}`, { signal })).contract;
}

/** POST /api/contract with inventory: true; `document` is the id the documents are posted to. */
export function createInventoryContract(body: Omit<InventoryContractBody, 'inventory'>) {
  return api<MessageResponse & { document: string }>('/contract', { method: 'POST', body: { ...body, inventory: true } });
}

/** Multipart POST /api/contract/contract/{documentId}: the documents as fajl0…fajlN. */
export function uploadInventoryContractDocuments(documentId: string, files: readonly File[]) {
  const form = new FormData();
  files.forEach((file, i) => {
    form.append(`fajl${i}`, file, file.name);
  });
  return api<MessageResponse & { odbijeni?: RefusedDocument[] }>(`/contract/contract/${enc(documentId)}`, { method: 'POST', body: form });
}

/**
 * Multipart POST /api/contract/contract/{id} with the contract's fields (an edit, validated as the
 * creation) and any new documents as fajl0…fajlN.
 */
export function editInventoryContract(id: string, body: Omit<InventoryContractBody, 'inventory'>, files: readonly File[]) {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string') form.append(name, value);
  files.forEach((file, i) => {
    form.append(`fajl${i}`, file, file.name);
  });
  return api<MessageResponse & { odbijeni?: RefusedDocument[] }>(`/contract/contract/${enc(id)}`, { method: 'POST', body: form });
}

export function deleteInventoryContract(id: string) {
  return api<MessageResponse>(`/contract/${enc(id)}`, { method: 'DELETE', query: { inventory: true } });
}

/**
 * GET /api/location/get/autocomplete?value: up to 20 visible locations whose name holds the typed text,
 * as {_id, naziv} (the inventory pickers search as the user types).
 */
export async function searchInventoryLocations(value: string, signal?: AbortSignal): Promise<NamedRef[]> {
  const data = await api<{ locations: LocationOption[] }>('/location/get/autocomplete', { query: { value }, signal });
  return (data.locations ?? []).map((l) => ({ _id: l._id, naziv: l.nazivLokacije }));
}

export function linkInventoryLocations(contractId: string, lokacije: string[]) {
  return api<MessageResponse>(`/link/location-to-contract/${enc(contractId)}`, { method: 'PATCH', body: { lokacije } });
}

export function unlinkInventoryLocation(contractId: string, lokacija: string) {
  return api<MessageResponse>(`/link/unlink/${enc(contractId)}`, { method: 'PATCH', body: { lokacija } });
}

// Types (codebook) ----------------------------------------------------------------------------------

/** The whole codebook (or one tip's); `sorting` a column of LIST_SORTS.invTypes (absent: the codebook's order). */
export async function listInvTypes(
  tip?: InventoryTip,
  signal?: AbortSignal,
  sorting: Pick<PageParams, 'sort' | 'order'> = {},
): Promise<InvTypeDto[]> {
  return (await api<InvTypeList>('/inv-type', { query: { tip, ...sorting }, signal })).invTypes ?? [];
}

export function createInvType(body: InvTypeBody) {
  return api<MessageResponse>('/inv-type', { method: 'POST', body });
}

export function editInvType(id: string, body: InvTypeBody) {
  return api<MessageResponse>(`/inv-type/${enc(id)}`, { method: 'PATCH', body });
}

export function deleteInvType(id: string) {
  return api<MessageResponse>(`/inv-type/${enc(id)}`, { method: 'DELETE' });
}

// Location and items --------------------------------------------------------------------------------

export async function getInventoryLocation(id: string, signal?: AbortSignal): Promise<InventoryLocationDto> {
  const data = await api<{ location: InventoryLocationDto } | InventoryLocationDto>(`/inventory/location/${enc(id)}`, { signal });
  return 'location' in data ? data.location : data;
}

/** PATCH /api/inventory/location/{id}: the school's e-mail ('' clears it). */
export function saveSchoolEmail(locationId: string, email: string) {
  return api<MessageResponse>(`/inventory/location/${enc(locationId)}`, { method: 'PATCH', body: { email } });
}

export function listInventory(
  query: Pick<PageParams, 'sort' | 'order'> & { lokacija?: string; ugovor?: string },
  signal?: AbortSignal,
): Promise<InventoryItemList> {
  return api<InventoryItemList>('/inventory', { query, signal });
}

export function createInventoryItem(body: InventoryItemBody) {
  return api<MessageResponse>('/inventory', { method: 'POST', body });
}

export function editInventoryItem(id: string, body: InventoryItemEditBody) {
  return api<MessageResponse>(`/inventory/${enc(id)}`, { method: 'PATCH', body });
}

export function deleteInventoryItem(id: string) {
  return api<MessageResponse>(`/inventory/${enc(id)}`, { method: 'DELETE' });
}

/** POST /api/inventory/import?lokacija={id} with the file in `file`; answers the per-row report. */
export function importInventory(lokacija: string, file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return api<ImportResponse>('/inventory/import', { method: 'POST', query: { lokacija }, body: form });
}

export async function downloadInventoryTemplate(fallbackName: string): Promise<void> {
  const { blob, fileName } = await download('/inventory/download-template');
  saveBlob(blob, fileName ?? fallbackName);
}

// Reports and school notifications --------------------------------------------------------------------

export function reportAll(params: PageParams & Search, signal?: AbortSignal) {
  return api<AllInventoryPage>('/inventory-reports/sve', { query: params, signal });
}

export function reportSummary(
  sort: SumSort,
  params: PageParams & { naziv?: string; lokacija?: string; opstina?: string; tip?: string },
  signal?: AbortSignal,
) {
  return api<SumPerTypePage>(`/inventory-reports/sumarno/${sort}`, { query: params, signal });
}

export function reportPerLocation(params: PageParams & Search, signal?: AbortSignal) {
  return api<PerLocationPage>('/inventory-reports/inventar-po-lokaciji', { query: params, signal });
}

/** GET /api/inventory-reports/popisna-lista?naziv= (a location's id or exact name). */
export function stocktakingList(location: string, signal?: AbortSignal) {
  return api<StocktakingList>('/inventory-reports/popisna-lista', { query: { naziv: location }, signal });
}

export function sendStocktakingList(
  locationId: string,
  body: { email: string; materijali: unknown[]; oprema: unknown[]; radovi: unknown[] },
) {
  return api<MessageResponse>(`/school-notification/${enc(locationId)}`, { method: 'POST', body });
}

export function listSchoolNotifications(params: PageParams & Search, signal?: AbortSignal) {
  return api<SchoolNotificationsPage>('/school-notification', { query: params, signal });
}

// A13 -------------------------------------------------------------------------------------------------

export function listA13(params: PageParams & Search, signal?: AbortSignal) {
  return api<A13Page>('/A13', { query: params, signal });
}

export function a13Stats(signal?: AbortSignal) {
  return api<A13Stats>('/A13/get/stats', { signal });
}

export function setA13Status(id: string, status: boolean) {
  return api<MessageResponse>(`/A13/${enc(id)}`, { method: 'PATCH', body: { status } });
}

/** GET /api/a13/download-files?aktId&lokId: the A13 documents as '<location name>-a13.zip'. */
export async function downloadA13(lokId: string, aktId: string | null, fallbackName: string): Promise<void> {
  const query = new URLSearchParams({ lokId });
  if (aktId) query.set('aktId', aktId);
  const { blob, fileName } = await download(`/a13/download-files?${query}`);
  saveBlob(blob, fileName ?? fallbackName);
}

// The school's public confirmation (no sign-in) ----------------------------------------------------------

export function readPublicStocktaking(token: string, signal?: AbortSignal) {
  return api<PublicStocktaking>('/public/popisna-lista', { query: { token }, signal, auth: false });
}

export function confirmPublicStocktaking(token: string) {
  return api<MessageResponse>('/public/popisna-lista/potvrdi', { method: 'POST', body: { token }, auth: false });
}
