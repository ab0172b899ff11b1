import type { CatalogueEdit, CatalogueEntryDto, MessageResponse } from '@trasa/domain';
import { api } from './client';

/** The activity catalogue of /app/aktivnosti (docs/api/notifications.md "Catalogue"). */

export type { CatalogueEdit, CatalogueEntryDto };

export async function listCatalogue(signal?: AbortSignal): Promise<CatalogueEntryDto[]> {
  return (await api<{ activities: CatalogueEntryDto[] }>('/activity/catalogue', { signal })).activities;
}

export function editCatalogueEntry(code: string, body: CatalogueEdit): Promise<MessageResponse & { activity: CatalogueEntryDto }> {
  return api(`/activity/catalogue/${encodeURIComponent(code)}`, { method: 'PATCH', body });
}
