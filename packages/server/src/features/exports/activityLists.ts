import { formatDate, IN_PROGRESS, KLIZNO, RESPONSIBLE_PARTIES, rolesFor, searchQuery } from '@trasa/domain';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { activities, activityCatalogue } from '../../db/schema-activities.js';
import { clusters, contractClusters, contracts } from '../../db/schema-clusters.js';
import type { Cell } from '../../platform/xlsxWriter.js';
import { daysLeft, todayOf } from '../../shared/activityColour.js';
import { rokOf } from '../notifications/presenter.js';
import { inProgressCondition, notificationsCondition } from '../notifications/service.js';
import { ours } from './cells.js';
import { define, type ExportColumn, type ExportPlan } from './lists.js';
import { TEXTS } from './texts.js';

/**
 * The activity lists (spec 3 §2.2 notifications, §2.4 the Admin's activities in progress): activities
 * 'U toku', nearest deadline first (klizno last), with the lists' own conditions
 * (features/notifications/service.ts notificationsCondition, inProgressCondition).
 */

/** The general contract of the activity's cluster. */
const contractNaziv = sql<string | null>`(select k.naziv from ${contractClusters} cc join ${contracts} k on k.id = cc.contract_id
  where cc.cluster_id = ${activities.clusterId} and cc.kind = 'contract' limit 1)`;

/** Raw values selected (the cells are computed from them: rok and days left as the list's presenter does). */
function activityPlan(ctx: AppContext, where: SQL, title: string, withContract: boolean): ExportPlan {
  const today = todayOf();
  const value = (header: string, width: number, v: ExportColumn['value']): ExportColumn => ({ header, width, value: v });
  const days = (header: string, width: number, v: ExportColumn['value']): ExportColumn => ({ header, width, value: v, format: 'count' });
  const columns: ExportColumn[] = [
    value(TEXTS.activityCode, 8, activities.code),
    value(TEXTS.naziv, 30, activityCatalogue.naziv),
    value(TEXTS.topicCluster, 22, clusters.naziv),
    value(TEXTS.responsible, 14, sql`array_to_string(${activityCatalogue.odgovoran}, ',')`),
    value(TEXTS.activityStart, 10, sql`${activities.datumPocetka}::text`),
    value(TEXTS.activityDeadline, 10, sql`${activities.rokZavrsetka}::text`),
    days(TEXTS.daysLeft, 9, sql`${activityCatalogue.rok}`),
  ];
  if (withContract) columns.push(value(TEXTS.contract, 22, sql`coalesce(${contractNaziv}, ${TEXTS.empty})`));
  const query = ctx.db
    .select(Object.fromEntries(columns.map((c, i) => [`c${i}`, c.value])) as Record<string, SQL>)
    .from(activities)
    .innerJoin(activityCatalogue, eq(activityCatalogue.code, activities.code))
    .innerJoin(clusters, eq(clusters.id, activities.clusterId))
    .where(and(eq(activities.status, IN_PROGRESS), where))
    .orderBy(sql`${activities.rokZavrsetka} asc nulls last`, activities.id);
  const cells = (row: unknown[]): Cell[] => {
    const [code, naziv, cluster, odgovoran, start, due, catalogueRok, contract] = row as [
      string,
      string,
      string,
      string,
      string | null,
      string | null,
      number | null,
      string | undefined,
    ];
    const rok = rokOf({ datumPocetka: start, rokZavrsetka: due, rok: catalogueRok });
    const left = daysLeft({ status: IN_PROGRESS, rokZavrsetka: due } as Parameters<typeof daysLeft>[0], today);
    const responsible = odgovoran
      .split(',')
      .filter(Boolean)
      .map((c) => TEXTS.responsibleParties[c] ?? c)
      .join(', ');
    // The catalogue's names and the responsible parties are the product's words (cells.ts).
    const out: Cell[] = [
      code,
      ours(naziv),
      cluster,
      responsible ? ours(responsible) : TEXTS.empty,
      formatDate(start) || TEXTS.empty,
      due ? formatDate(due) : rok === KLIZNO ? ours(KLIZNO) : String(rok),
      left === null ? TEXTS.empty : left,
    ];
    if (withContract) out.push(contract ?? TEXTS.empty);
    return out;
  };
  return { title, columns, query: query.toSQL(), cells };
}

/** GET /api/activity/notifications, /api/search/notification: for the caller's responsible party and visible clusters. */
export const notificationsList = define({
  name: 'notifications',
  roles: rolesFor('notices'),
  query: searchQuery.partial({ page: true, limit: true }),
  plan: async (ctx, actor, q) => {
    const where = await notificationsCondition(ctx.db, actor, q);
    return activityPlan(ctx, where ?? sql`false`, TEXTS.titles.notifications, false);
  },
});

const COLOURS = ['blue', 'orange', 'red', 'green', 'greenRed', 'white'] as const;
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** GET /api/activity/in-progress (Admin): filtered by general contract, cluster, responsible party and colour, and searched. */
export const inProgressList = define({
  name: 'in-progress',
  roles: rolesFor('activitiesInProgress'),
  query: searchQuery.partial({ page: true, limit: true }).extend({
    contract: optional(z.uuid()),
    cluster: optional(z.uuid()),
    odgovoran: optional(z.enum(RESPONSIBLE_PARTIES)),
    boja: optional(z.enum(COLOURS)),
  }),
  plan: async (ctx, _actor, q) => activityPlan(ctx, inProgressCondition(q), TEXTS.titles.inProgress, true),
});
