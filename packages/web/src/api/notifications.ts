import type { ActivityRowDto, ActivityRowsPage, DeadlineColour, ResponsibleParty } from '@trasa/domain';
import { api } from './client';
import type { PageParams, SearchText } from './users';

/** Notifications and the Admin's activities in progress (docs/api/notifications.md). */

export type { ActivityRowDto, ActivityRowsPage };

export function listNotifications(params: PageParams, signal?: AbortSignal): Promise<ActivityRowsPage> {
  return api('/activity/notifications', { query: params, signal });
}

export function searchNotifications(params: PageParams & SearchText, signal?: AbortSignal): Promise<ActivityRowsPage> {
  return api('/search/notification', { query: params, signal });
}

export type InProgressFilters = {
  contract?: string;
  cluster?: string;
  odgovoran?: ResponsibleParty;
  boja?: DeadlineColour;
};

export function listInProgress(
  params: PageParams & Partial<SearchText> & InProgressFilters,
  signal?: AbortSignal,
): Promise<ActivityRowsPage> {
  return api('/activity/in-progress', { query: params, signal });
}
