import type { CommentsPage, MessageResponse } from '@trasa/domain';
import { api } from '../../api/client';
import type { PageParams, SearchText } from '../../api/users';

/** The comments list (docs/api/logs-comments-ijo.md): GET /api/comment, GET /api/search/comment, DELETE /api/comment/. */

export type { CommentListDto, CommentsPage } from '@trasa/domain';
export const COMMENT_LIST_KEY = ['comment-list'] as const;

export function listComments(params: PageParams, signal?: AbortSignal): Promise<CommentsPage> {
  return api('/comment', { query: params, signal });
}

export function searchComments(params: PageParams & SearchText, signal?: AbortSignal): Promise<CommentsPage> {
  return api('/search/comment', { query: params, signal });
}

export function deleteComments(komentari: string[]): Promise<MessageResponse> {
  return api('/comment/', { method: 'DELETE', body: { komentari } });
}
