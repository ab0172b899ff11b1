import { ACTIVITIES, IJO, MAX_LIMIT, rolesFor, searchQuery } from '@trasa/domain';
import { desc, eq, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { auditLogs, users } from '../../db/schema.js';
import { activities, activityCatalogue, activityComments } from '../../db/schema-activities.js';
import { clusters } from '../../db/schema-clusters.js';
import { loggedSentence } from '../../platform/audit.js';
import type { Cell } from '../../platform/xlsxWriter.js';
import { clusterScopeOf } from '../clusters/policy.js';
import { commentListCondition } from '../commentsList/service.js';
import { listIjos } from '../ijo/service.js';
import { logScopeOf } from '../logs/policy.js';
import { logListCondition } from '../logs/service.js';
import { listPriorities } from '../priorities/service.js';
import { listRoles } from '../roles/service.js';
import { listTypes } from '../types/service.js';
import { ours, oursSql } from './cells.js';
import { define, type ExportColumn } from './lists.js';
import { inBatches, primed } from './serviceRows.js';
import { TEXTS } from './texts.js';

/**
 * The exports of the Admin's and the staff's other lists (issue 10 item 3): the logs and the comments
 * (spec 3 §2.5, §2.6) through a cursor, with their lists' own conditions (logs/service.ts
 * logListCondition, commentsList/service.ts commentListCondition); IJO holders, roles, priorities and
 * group types (small codebooks) as their list services answer them.
 */

const col = (header: string, width: number, value: ExportColumn['value']): ExportColumn => ({ header, width, value });
const searchable = searchQuery.partial({ page: true, limit: true });
/** HH:mm:ss DD-MM-YYYY in Belgrade, as the screens show log and comment times. */
const logTime = (column: ExportColumn['value']) => sql<string>`to_char(${column} at time zone 'Europe/Belgrade', 'HH24:MI:SS DD-MM-YYYY')`;
const selectOf = (columns: ExportColumn[]) => Object.fromEntries(columns.map((c, i) => [`c${i}`, c.value])) as Record<string, SQL>;

/** GET /api/log, /api/search/log (and /app/logovi/{naziv}: `group`): the caller's scope, newest first. */
const logsList = define({
  name: 'logs',
  roles: rolesFor('logs', 'logsOfGroup'),
  query: searchable.extend({ group: z.string().trim().max(200).optional() }),
  plan: async (ctx, actor, q) => {
    const scope = await logScopeOf(ctx.db, actor, q.group);
    const columns = [
      col(TEXTS.logTime, 17, logTime(auditLogs.createdAt)),
      col(TEXTS.logUser, 24, auditLogs.userLabel),
      col(TEXTS.logMessage, 60, auditLogs.message),
      col(TEXTS.group, 22, auditLogs.groupCirilica),
      col(TEXTS.logIp, 14, auditLogs.ip),
      col(TEXTS.logUrl, 30, auditLogs.url),
    ];
    // The sentence's typed spans ride after the shown columns: its fixed words in the reader's script, the names as typed.
    const query = ctx.db
      .select({ ...selectOf(columns), spans: auditLogs.typedSpans })
      .from(auditLogs)
      .where(logListCondition(scope, q))
      .orderBy(desc(auditLogs.createdAt), desc(auditLogs.id));
    const cells = (row: unknown[]): Cell[] => {
      const [time, user, message, group, ip, url, spans] = row as [string, string, string, string, string, string, number[] | null];
      return [time, user, ours(loggedSentence(message, spans)), group, ip, url];
    };
    return { title: TEXTS.titles.logs, columns, query: query.toSQL(), cells };
  },
});

/** GET /api/comment, /api/search/comment: comments of the visible clusters, newest first; deleted authors as such. */
const commentsList = define({
  name: 'comments',
  roles: rolesFor('comments'),
  query: searchable,
  plan: async (ctx, actor, q) => {
    const scope = await clusterScopeOf(ctx.db, actor);
    const present = sql`(${users.id} is not null and ${users.deletedAt} is null)`;
    const columns = [
      col(TEXTS.ime, 22, sql`(case when ${present} then ${users.ime} || ' ' || ${users.prezime} else ${ours(ACTIVITIES.deletedUser)} end)`),
      col(TEXTS.comment, 50, activityComments.komentar),
      col(TEXTS.email, 26, sql`(case when ${present} then ${users.email} else ${TEXTS.empty} end)`),
      col(TEXTS.topicCluster, 22, clusters.naziv),
      col(TEXTS.activity, 30, oursSql(sql`${activities.code} || ' - ' || ${activityCatalogue.naziv}`)),
      col(TEXTS.logTime, 17, logTime(activityComments.createdAt)),
    ];
    const query = ctx.db
      .select(selectOf(columns))
      .from(activityComments)
      .innerJoin(activities, eq(activities.id, activityComments.activityId))
      .innerJoin(activityCatalogue, eq(activityCatalogue.code, activities.code))
      .innerJoin(clusters, eq(clusters.id, activities.clusterId))
      .leftJoin(users, eq(users.id, activityComments.userId))
      .where(commentListCondition(scope, q))
      .orderBy(desc(activityComments.createdAt), desc(activityComments.id));
    return { title: TEXTS.titles.comments, columns, query: query.toSQL() };
  },
});

/** GET /api/ijo: every holder, by name. */
const ijoList = define({
  name: 'ijo',
  roles: rolesFor('ijo', 'activity'),
  query: z.object({}),
  plan: async (ctx) => {
    const rows = (await listIjos(ctx)).map((i) => [i.naziv, ours(IJO.odgovoranLabels[i.odgovoran] ?? i.odgovoran)]);
    return {
      title: TEXTS.titles.ijo,
      columns: [
        { header: TEXTS.naziv, width: 50 },
        { header: TEXTS.ijoPayer, width: 20 },
      ],
      batches: await primed(inBatches(rows)),
    };
  },
});

/** GET /api/role: the roles the caller sees, built-in first. */
const rolesList = define({
  name: 'roles',
  roles: rolesFor('roles', 'roleEdit'),
  query: z.object({}),
  plan: async (ctx, actor) => {
    const { roles } = await listRoles(ctx, actor, { page: 1, limit: MAX_LIMIT });
    // A built-in role's names are the product's; the base role is a shipped name.
    const rows = roles.map((r) => [
      r.ugradjena ? ours(r.imeRole) : r.imeRole,
      r.ugradjena ? ours(r.kratakNaziv) : r.kratakNaziv,
      ours(r.osnovnaRola),
      ours(r.ugradjena ? TEXTS.yes : TEXTS.no),
    ]);
    return {
      title: TEXTS.titles.roles,
      columns: [
        { header: TEXTS.imeRole, width: 24 },
        { header: TEXTS.kratakNaziv, width: 16 },
        { header: TEXTS.osnovnaRola, width: 16 },
        { header: TEXTS.builtIn, width: 10 },
      ],
      batches: await primed(inBatches(rows)),
    };
  },
});

/** GET /api/priority: the priorities codebook, by number. */
const prioritiesList = define({
  name: 'priorities',
  roles: rolesFor('codebooks', 'topics'),
  query: z.object({}),
  plan: async (ctx) => {
    const rows = (await listPriorities(ctx)).map((p) => [p.naziv, p.broj]);
    return {
      title: TEXTS.titles.priorities,
      columns: [
        { header: TEXTS.naziv, width: 40 },
        { header: TEXTS.broj, width: 10 },
      ],
      batches: await primed(inBatches(rows)),
    };
  },
});

/** GET /api/types: the group types, built-in first. */
const groupTypesList = define({
  name: 'group-types',
  roles: rolesFor('codebooks', 'groups', 'myAccount'),
  query: z.object({}),
  plan: async (ctx) => {
    // A built-in type's names are the product's.
    const rows = (await listTypes(ctx)).map((t) => [
      t.code ? ours(t.naziv) : t.naziv,
      t.code ? ours(t.kratakNaziv) : t.kratakNaziv,
      ours(t.code ? TEXTS.yes : TEXTS.no),
    ]);
    return {
      title: TEXTS.titles.groupTypes,
      columns: [
        { header: TEXTS.naziv, width: 36 },
        { header: TEXTS.kratakNaziv, width: 16 },
        { header: TEXTS.builtIn, width: 10 },
      ],
      batches: await primed(inBatches(rows)),
    };
  },
});

export const AUDIT_LISTS = [logsList, commentsList, ijoList, rolesList, prioritiesList, groupTypesList];
