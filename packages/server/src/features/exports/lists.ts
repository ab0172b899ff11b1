import {
  CONTRACT_GROUP_TYPE,
  type ContractKind,
  pageQuery,
  type RoleKey,
  rolesFor,
  searchQuery,
  TOPIC_PRIORITIES,
  TOPIC_STATUSES,
  USERS,
} from '@trasa/domain';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { alias } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { groups, groupTypes, roles, users } from '../../db/schema.js';
import {
  clusterGroups,
  clusters,
  contractClusters,
  contractFiles,
  contractGroups,
  contracts,
  settlements,
  topics,
} from '../../db/schema-clusters.js';
import type { Actor } from '../../platform/auth.js';
import { serbianOrder } from '../../platform/database.js';
import { notFound } from '../../platform/errors.js';
import { matchCondition, searchTerms } from '../../platform/textSearch.js';
import type { Cell, NumberFormat, SheetColumn } from '../../platform/xlsxWriter.js';
import { clusterScopeOf, visibleClusterCondition } from '../clusters/policy.js';
import { clusterOrder, clusterStatusSql } from '../clusters/presenter.js';
import { clusterMatchCondition } from '../clusters/search.js';
import { kindDef } from '../contracts/kinds.js';
import { contractOrder } from '../contracts/presenter.js';
import { contractListCondition } from '../contracts/service.js';
import { groupCondition, inScope, isGuestCondition, memberCondition, scopeOf, visibleUserCondition } from '../groups/policy.js';
import { settlementOrder } from '../settlements/presenter.js';
import { topicSearchCondition } from '../topics/service.js';
import { userOrder } from '../users/presenter.js';
import { ours, oursSql } from './cells.js';
import type { RenderedQuery } from './cursor.js';
import { TEXTS } from './texts.js';

/**
 * The exported lists (issue 10 item 3): each with the roles, filters, visibility and order of its list
 * call, and the columns its screen shows (Serbian headers as the tables have them). A list's rows are
 * selected already formatted (dates DD.MM.YYYY, labels for codes), in the order of its columns, so a
 * fetched row is written as it comes. A label, a yes or no and a shipped name are marked as the product's
 * words (cells.ts), written in the reader's script.
 */

export type ExportColumn = SheetColumn & { value: SQL | AnyPgColumn };
export type ExportPlan = {
  /** The title on each PDF page and the sheet's name. */
  title: string;
  columns: SheetColumn[];
  /** A fetched row (an array, in column order) as cells. */
  cells?: (row: unknown[]) => Cell[];
} & (
  | {
      /** The rows' query, rendered: its select list is the columns' values, in order (read through a cursor). */
      query: RenderedQuery;
    }
  | {
      /**
       * Or the rows as the list's own service answers them (reports computed beside SQL, small
       * codebooks), batch by batch (page by page of the service). Called once the file starts.
       */
      batches: () => AsyncGenerator<unknown[][]>;
    }
);
export type ExportList<Q extends z.ZodObject = z.ZodObject> = {
  /** /api/export/{name} and the file's name. */
  name: string;
  roles: RoleKey[];
  query: Q;
  plan: (ctx: AppContext, actor: Actor, q: z.output<Q>) => Promise<ExportPlan>;
};

/** A list with its query's type inferred for `plan`. */
export const define = <Q extends z.ZodObject>(list: ExportList<Q>): ExportList => list as unknown as ExportList;

/** The list's own query parameters; paging is accepted (the list's URL as it is) and ignored. */
const searchable = searchQuery.partial({ page: true, limit: true });
const optionalId = z.union([z.uuid({ error: USERS.invalidOption }), z.literal('')]).optional();

/** Builds the select of `columns` (their values in order) over `from`, as drizzle renders it. */
export function selectOf(ctx: AppContext, columns: ExportColumn[]) {
  return ctx.db.select(Object.fromEntries(columns.map((c, i) => [`c${i}`, c.value])) as Record<string, SQL | AnyPgColumn>);
}

export const dateText = (column: AnyPgColumn | SQL) => sql<string>`coalesce(to_char(${column}, 'DD.MM.YYYY'), '')`;
const label = (column: AnyPgColumn | SQL, labels: Record<string, string>) =>
  sql<string>`(case ${column} ${sql.join(
    Object.entries(labels).map(([k, v]) => sql`when ${k} then ${ours(v)}`),
    sql` `,
  )} else ${column} end)`;
const yesNo = (column: AnyPgColumn) => sql<string>`(case when ${column} then ${ours(TEXTS.yes)} else ${ours(TEXTS.no)} end)`;
/** A built-in role's or group type's name is the product's (ours); a name someone gave is data. */
const shippedWhen = (builtin: SQL | AnyPgColumn, name: SQL | AnyPgColumn) =>
  sql<string>`(case when ${builtin} then ${oursSql(name)} else ${name} end)`;
const orEmpty = (value: SQL | AnyPgColumn) => sql<string>`coalesce(${value}, ${TEXTS.empty})`;

export const col = (header: string, width: number, value: SQL | AnyPgColumn, format?: NumberFormat): ExportColumn =>
  format ? { header, width, value, format } : { header, width, value };

/** GET /api/user (and /api/search/user): Admin every user, a Rukovodilac their subtree; `groupId` narrows, `roleId` as users-per-role. */
const usersList = define({
  name: 'users',
  roles: rolesFor('users'),
  query: searchable.extend({ groupId: optionalId, roleId: optionalId }),
  plan: async (ctx, actor, q) => {
    const scope = await scopeOf(ctx.db, actor);
    let where: SQL = q.roleId ? (and(visibleUserCondition(scope), eq(users.roleId, q.roleId)) as SQL) : memberCondition(scope);
    if (q.groupId) {
      if (!scope.all && !inScope(scope, q.groupId)) throw notFound();
      where = and(where, eq(users.groupId, q.groupId)) as SQL;
    }
    const columns = [
      col(TEXTS.ime, 14, users.ime),
      col(TEXTS.prezime, 16, users.prezime),
      col(TEXTS.email, 30, users.email),
      col(TEXTS.role, 14, shippedWhen(roles.builtin, sql`coalesce(nullif(${roles.imeRole}, ''), ${roles.baseRole})`)),
      col(TEXTS.group, 26, orEmpty(groups.naziv)),
      col(TEXTS.status, 12, label(users.status, TEXTS.userStatus)),
    ];
    const query = selectOf(ctx, columns)
      .from(users)
      .innerJoin(roles, eq(roles.id, users.roleId))
      .leftJoin(groups, eq(groups.id, users.groupId))
      .where(and(where, matchCondition(users.searchText, searchTerms(termsOf(q)))))
      .orderBy(...userOrder);
    return { title: TEXTS.titles.users, columns, query: query.toSQL() };
  },
});

/** GET /api/user/guests: every guest. */
const guestsList = define({
  name: 'guests',
  roles: rolesFor('users'),
  query: searchable,
  plan: async (ctx, _actor, q) => {
    const columns = [
      col(TEXTS.ime, 16, users.ime),
      col(TEXTS.prezime, 18, users.prezime),
      col(TEXTS.email, 32, users.email),
      col(TEXTS.emailPotvrdjen, 14, yesNo(users.emailPotvrdjen)),
      col(TEXTS.status, 12, label(users.status, TEXTS.userStatus)),
    ];
    const query = selectOf(ctx, columns)
      .from(users)
      .where(and(sql`${users.deletedAt} is null`, isGuestCondition(), matchCondition(users.searchText, searchTerms(termsOf(q)))))
      .orderBy(...userOrder);
    return { title: TEXTS.titles.guests, columns, query: query.toSQL() };
  },
});

const parentGroup = alias(groups, 'parent');

/** GET /api/group (and /api/search/group): the groups of the caller's scope. */
const groupsList = define({
  name: 'groups',
  roles: rolesFor('groups'),
  query: searchable,
  plan: async (ctx, actor, q) => {
    const scope = await scopeOf(ctx.db, actor);
    // A Rukovodilac does not learn the group above their subtree (presentGroup).
    const parentVisible = scope.all
      ? sql`true`
      : scope.groupIds.length
        ? sql`${parentGroup.id} in (${sql.join(
            scope.groupIds.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`
        : sql`false`;
    const columns = [
      col(TEXTS.naziv, 30, groups.naziv),
      col(TEXTS.kratakNaziv, 12, groups.kratakNaziv),
      col(TEXTS.tip, 14, orEmpty(shippedWhen(sql`${groupTypes.code} is not null`, groupTypes.naziv))),
      col(
        TEXTS.parentGroup,
        28,
        sql`(case when ${parentVisible} then coalesce(${parentGroup.naziv}, ${TEXTS.empty}) else ${TEXTS.empty} end)`,
      ),
      col(TEXTS.seesAll, 10, yesNo(groups.sveVideci)),
    ];
    const query = selectOf(ctx, columns)
      .from(groups)
      .leftJoin(groupTypes, eq(groupTypes.id, groups.typeId))
      .leftJoin(parentGroup, eq(parentGroup.id, groups.parentId))
      .where(and(groupCondition(scope), matchCondition(groups.searchText, searchTerms(termsOf(q)))))
      .orderBy(serbianOrder(groups.naziv), groups.id);
    return { title: TEXTS.titles.groups, columns, query: query.toSQL() };
  },
});

/** GET /api/location (and /api/search/location): the clusters the caller sees. */
const clustersList = define({
  name: 'clusters',
  roles: rolesFor('clusters', 'myClusters'),
  query: searchable,
  plan: async (ctx, actor, q) => {
    const scope = await clusterScopeOf(ctx.db, actor);
    const contractors = sql<string>`coalesce((select string_agg(g.naziv, ', ' order by g.naziv, g.id)
      from ${clusterGroups} cg join ${groups} g on g.id = cg.group_id join ${groupTypes} t on t.id = g.type_id
      where cg.cluster_id = clusters.id and t.code = 'IZVODJAC'), ${TEXTS.empty})`;
    const contract = sql<string>`coalesce((select k.naziv from ${contractClusters} cc join ${contracts} k on k.id = cc.contract_id
      where cc.cluster_id = clusters.id and cc.kind = 'contract' limit 1), ${TEXTS.empty})`;
    const columns = [
      col(TEXTS.clusterName, 30, clusters.naziv),
      col(TEXTS.responsibleContractor, 30, contractors),
      col(TEXTS.status, 12, label(clusterStatusSql, TEXTS.clusterStatus)),
      col(TEXTS.contract, 30, contract),
    ];
    const query = selectOf(ctx, columns)
      .from(clusters)
      .where(and(visibleClusterCondition(scope), clusterMatchCondition(searchTerms(termsOf(q)))))
      .orderBy(...clusterOrder);
    return { title: TEXTS.titles.clusters, columns, query: query.toSQL() };
  },
});

/** GET /api/naselje (and /api/search/naselje): the settlements codebook. */
const settlementsList = define({
  name: 'settlements',
  roles: rolesFor('codebooks', 'clusterEdit'),
  query: searchable,
  plan: async (ctx, _actor, q) => {
    const count = (column: AnyPgColumn) => sql`${column}`;
    const columns = [
      col(TEXTS.settlementId, 8, settlements.code),
      col(TEXTS.naziv, 22, settlements.naziv),
      col(TEXTS.maticniBroj, 14, settlements.maticniBroj),
      col(TEXTS.opstina, 20, sql`array_to_string(${settlements.opstine}, ', ')`),
      col(TEXTS.operator, 12, settlements.operator),
      col(TEXTS.javniPoziv, 10, settlements.javniPoziv),
      col(TEXTS.brojDomacinstava, 12, count(settlements.brojDomacinstava), 'count'),
      col(TEXTS.brojSkola, 8, count(settlements.brojSkola), 'count'),
      col(TEXTS.indirectHouseholdsShort, 14, count(settlements.brojIndirektnoPokrivenihDomacinstava), 'count'),
      col(TEXTS.indirectSchoolsShort, 12, count(settlements.brojIndirektnoPokrivenihSkola), 'count'),
    ];
    const query = selectOf(ctx, columns)
      .from(settlements)
      .where(matchCondition(settlements.searchText, searchTerms(termsOf(q))))
      .orderBy(...settlementOrder);
    return { title: TEXTS.titles.settlements, columns, query: query.toSQL() };
  },
});

/** GET /api/{kind} (and /api/search/{kind}): the contracts of one kind the caller may read. */
function contractsList(kind: ContractKind): ExportList {
  const def = kindDef(kind);
  return define({
    name: kind,
    roles: def.readers,
    query: searchable,
    plan: async (ctx, actor, q) => {
      const columns = [
        col(TEXTS.naziv, 26, contracts.naziv),
        col(TEXTS.broj, 12, contracts.broj),
        col(TEXTS.datumPocetka, 11, dateText(contracts.datumPocetka)),
        col(TEXTS.rokTrajanja, 10, contracts.rokTrajanja),
        col(TEXTS.rokZavrsetka, 11, dateText(sql`${contracts.datumPocetka} + ${contracts.rokTrajanja}`)),
        col(TEXTS.status, 10, label(contracts.status, TEXTS.clusterStatus)),
      ];
      if (CONTRACT_GROUP_TYPE[kind] !== null) {
        const header = TEXTS.groupsOfKind[kind as Exclude<ContractKind, 'contract'>];
        const names = sql`coalesce((select string_agg(g.naziv, ', ' order by g.naziv, g.id) from ${contractGroups} cg
          join ${groups} g on g.id = cg.group_id where cg.contract_id = contracts.id), ${TEXTS.empty})`;
        columns.push(col(header, 24, names));
      }
      columns.push(
        col(TEXTS.documentCount, 9, sql`(select count(*)::int from ${contractFiles} f where f.contract_id = contracts.id)`, 'count'),
        col(TEXTS.clusterCount, 9, sql`(select count(*)::int from ${contractClusters} cc where cc.contract_id = contracts.id)`, 'count'),
      );
      const query = selectOf(ctx, columns)
        .from(contracts)
        .where(await contractListCondition(ctx.db, def, actor, q))
        .orderBy(...contractOrder);
      return { title: TEXTS.titles[kind], columns, query: query.toSQL() };
    },
  });
}

/** GET /api/topic: topics of visible clusters, filtered by status and priority, searched, newest change first. */
const topicsList = define({
  name: 'topics',
  roles: rolesFor('topics'),
  query: pageQuery.partial().extend({
    q: z.string().max(200).optional().default(''),
    qAlt: z.string().max(200).optional().default(''),
    status: z
      .enum(['', ...TOPIC_STATUSES], { error: USERS.invalidOption })
      .optional()
      .default(''),
    prioritet: z
      .enum(['', ...TOPIC_PRIORITIES], { error: USERS.invalidOption })
      .optional()
      .default(''),
  }),
  plan: async (ctx, actor, q) => {
    const scope = await clusterScopeOf(ctx.db, actor);
    const columns = [
      col(TEXTS.topicCluster, 24, clusters.naziv),
      col(TEXTS.topicDescription, 50, topics.opis),
      col(TEXTS.topicPriority, 10, label(topics.prioritet, TEXTS.priority)),
      col(TEXTS.status, 10, label(topics.status, TEXTS.topicStatus)),
      col(
        TEXTS.topicDeadline,
        14,
        sql`coalesce(to_char(${topics.rok} at time zone 'Europe/Belgrade', 'DD.MM.YYYY HH24:MI'), ${TEXTS.empty})`,
      ),
    ];
    const query = selectOf(ctx, columns)
      .from(topics)
      .innerJoin(clusters, eq(clusters.id, topics.clusterId))
      .innerJoin(groups, eq(groups.id, topics.groupId))
      .where(
        and(
          visibleClusterCondition(scope, topics.clusterId),
          q.status ? eq(topics.status, q.status) : undefined,
          q.prioritet ? eq(topics.prioritet, q.prioritet) : undefined,
          topicSearchCondition(q.q, q.qAlt),
        ),
      )
      .orderBy(desc(topics.updatedAt), desc(topics.id));
    return { title: TEXTS.titles.topics, columns, query: query.toSQL() };
  },
});

function termsOf(q: { eng?: string; srb?: string }) {
  return { eng: q.eng ?? '', srb: q.srb ?? '' };
}

export const EXPORT_LISTS: ExportList[] = [
  usersList,
  guestsList,
  groupsList,
  clustersList,
  settlementsList,
  contractsList('contract'),
  contractsList('contractIzv'),
  contractsList('contractPro'),
  contractsList('contractNad'),
  topicsList,
];
