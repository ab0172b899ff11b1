import { z } from 'zod';
import { COMMENT_LIST, LOGS } from '../messages/logs.js';
import { pageQuery } from './common.js';
import { sortQuery } from './sorting.js';
import { searchQuery } from './users.js';

/**
 * /app/logovi/{naziv} lists one group's logs: `group` is the name as in that URL segment (the group's
 * name or its Cyrillic name, slashes written as dashes: nameSegment).
 */
const groupFilter = z.string().trim().max(200).optional();
export const logListQuery = pageQuery.extend({ group: groupFilter, ...sortQuery('logs') });
export const logSearchQuery = searchQuery.extend({ group: groupFilter, ...sortQuery('logs') });
export type LogListQuery = z.output<typeof logListQuery>;
export type LogSearchQuery = z.output<typeof logSearchQuery>;

/** At most this many ids in one delete (a page of the largest size the screens offer, with margin). */
export const MAX_DELETE_IDS = 1000;

const ids = (none: string) =>
  z
    .array(z.uuid(), { error: none })
    .min(1, { error: none })
    .max(MAX_DELETE_IDS)
    .transform((list) => [...new Set(list)]);

/** DELETE /api/log/ (Admin). */
export const deleteLogsSchema = z.object({ logIds: ids(LOGS.noneChosen) });
/** DELETE /api/comment/ (Admin). */
export const deleteCommentsSchema = z.object({ komentari: ids(COMMENT_LIST.noneChosen) });
