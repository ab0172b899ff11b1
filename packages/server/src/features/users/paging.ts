import { type PageQuery, pageQuery, searchQuery } from '@trasa/domain';

/** `page` (1-based) and `limit`, clamped (pageQuery in @trasa/domain). */
export const pagingQuery = pageQuery;
export type Paging = PageQuery;

/** GET /api/search/*: the typed text (eng), its transliteration (srb) and the clamped paging. */
export const searchPagingQuery = searchQuery;

export const offsetOf = (p: Paging) => (p.page - 1) * p.limit;
