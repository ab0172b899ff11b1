import type {
  GroupBrief,
  MessageResponse,
  TopicAnswer,
  TopicCommentDto,
  TopicDto,
  TopicPriority,
  TopicStatus,
  TopicsPage,
} from '@trasa/domain';
import { api } from './client';
import type { PageParams } from './users';

/** Open issues (topics) of spec 2 §7 "Topics". */

export type { TopicAnswer, TopicCommentDto, TopicDto, TopicPriority, TopicStatus, TopicsPage };

/** GET /api/topic: q is the search text, qAlt its transliteration; '' for status or prioritet means all. */
export type TopicListParams = PageParams & {
  q: string;
  qAlt: string;
  status: TopicStatus | '';
  prioritet: TopicPriority | '';
};

/** POST /api/topic; rok is an ISO date-time or null. */
export type TopicCreateBody = {
  locationId: string;
  odgovoran: string;
  opis: string;
  rok: string | null;
  prioritet: TopicPriority;
};

/** PATCH /api/topic/{id} with an edit: omitted fields stay; rok null clears the deadline. */
export type TopicEditBody = {
  odgovoran: string;
  opis?: string;
  rok?: string | null;
  prioritet?: TopicPriority;
};

/** POST /api/topic/{id}/komentar: noviOdgovoran hands the topic over to that group. */
export type TopicCommentBody = { tekst: string; noviOdgovoran?: string | null };

export type TopicSaved = MessageResponse & { data: TopicDto };

const path = (id: string) => `/topic/${encodeURIComponent(id)}`;

export function listTopics(params: TopicListParams, signal?: AbortSignal): Promise<TopicsPage> {
  return api('/topic', { query: params, signal });
}

export function getTopic(id: string, signal?: AbortSignal): Promise<TopicAnswer> {
  return api(path(id), { signal });
}

export function createTopic(body: TopicCreateBody): Promise<TopicSaved> {
  return api('/topic', { method: 'POST', body });
}

export function editTopic(id: string, body: TopicEditBody): Promise<TopicSaved> {
  return api(path(id), { method: 'PATCH', body });
}

/** PATCH /api/topic/{id} with status zatvoren (spec 2 §4: there is no way back). */
export function closeTopic(id: string): Promise<TopicSaved> {
  return api(path(id), { method: 'PATCH', body: { status: 'zatvoren' } });
}

export function deleteTopic(id: string): Promise<MessageResponse> {
  return api(path(id), { method: 'DELETE' });
}

export function commentTopic(id: string, body: TopicCommentBody): Promise<{ data: TopicDto }> {
  return api(`${path(id)}/komentar`, { method: 'POST', body });
}

/** GET /api/topic/grupe: the groups a topic of the cluster can be given to (those that see the cluster). */
export async function topicGroups(locationId: string, signal?: AbortSignal): Promise<GroupBrief[]> {
  return (await api<{ groups: GroupBrief[] }>('/topic/grupe', { query: { locationId }, signal })).groups;
}
