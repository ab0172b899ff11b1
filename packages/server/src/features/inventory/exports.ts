import { INVENTORY, INVENTORY_TIPOVI, pageQuery, SUM_SORTS, searchQuery } from '@trasa/domain';
import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { clusters } from '../../db/schema-clusters.js';
import {
  a13Confirmations,
  inventoryContractFiles,
  inventoryContractLocations,
  inventoryContracts,
  inventoryItems,
  inventoryTypes,
  schoolNotifications,
} from '../../db/schema-inventory.js';
import { serbianOrder } from '../../platform/database.js';
import { matchCondition, searchTerms } from '../../platform/textSearch.js';
import { assertClusterVisible, type ClusterScope, clusterScopeOf, visibleClusterCondition } from '../clusters/policy.js';
import { ours, oursSql } from '../exports/cells.js';
import type { RenderedQuery } from '../exports/cursor.js';
import { col, dateText, define, type ExportColumn, type ExportList, selectOf } from '../exports/lists.js';
import { assertInventoryUser } from './access.js';
import { itemSearch, sumFilterQuery, sumWhere } from './reports.js';

/**
 * Exports of every inventory list (docs/api/inventory.md "Exports"; features/exports): the list's
 * filters, visibility and order, the columns its table shows. The route lets Admin and Zaposleni in;
 * each plan refuses anyone without the inventory right (403), like the lists.
 */

const KEEPERS: ('Admin' | 'Zaposleni')[] = ['Admin', 'Zaposleni'];
const searchable = searchQuery.partial({ page: true, limit: true });
const money = (value: SQL | AnyPgColumn) => sql<number>`round(${value}, 2)::float8`;
const lineValue = sql`round(${inventoryItems.kolicina} * ${inventoryItems.cenaRsd}, 2)`;
const termsOf = (q: { eng?: string | undefined; srb?: string | undefined }) => searchTerms({ eng: q.eng ?? '', srb: q.srb ?? '' });
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
/** Yes or no, and the other words of the columns, are the product's (exports/cells.ts): in the reader's script. */
const yesNo = (value: SQL) => sql<string>`(case when ${value} then ${ours('Да')} else ${ours('Не')} end)`;
/** The codebook's kind (Materijal, Oprema, Radovi) is a shipped word. */
const tipText = oursSql(inventoryTypes.tip);

/**
 * One inventory list's export: the keepers' roles, the inventory right checked (403) and the caller's
 * visible clusters read (then `check`, if any) before `rows` builds the select of its columns, rendered
 * for the cursor. `rows` returns the query unawaited (a drizzle query is a thenable: awaited, it runs).
 */
function inventoryList<Q extends z.ZodObject>(list: {
  name: string;
  title: string;
  query: Q;
  columns: () => ExportColumn[];
  check?: (ctx: AppContext, scope: ClusterScope, q: z.output<Q>) => Promise<void>;
  rows: (ctx: AppContext, scope: ClusterScope, q: z.output<Q>, columns: ExportColumn[]) => { toSQL: () => RenderedQuery };
}): ExportList {
  return define({
    name: list.name,
    roles: KEEPERS,
    query: list.query,
    plan: async (ctx, actor, q) => {
      assertInventoryUser(actor);
      const scope = await clusterScopeOf(ctx.db, actor);
      await list.check?.(ctx, scope, q);
      const columns = list.columns();
      const query = list.rows(ctx, scope, q, columns);
      return { title: list.title, columns, query: query.toSQL() };
    },
  });
}

const itemColumns = () => [
  col('Локација', 26, clusters.naziv),
  col('Шифра', 9, inventoryTypes.sifra),
  col('Назив', 30, inventoryTypes.naziv),
  col('Тип', 10, tipText),
  col('Количина', 9, sql<number>`${inventoryItems.kolicina}::float8`, 'quantity'),
  col('Јед.', 5, inventoryTypes.jedinica),
  col('Цена RSD', 11, money(inventoryItems.cenaRsd), 'money'),
  col('Укупно RSD', 12, money(lineValue), 'money'),
  col('Датум примопредаје', 11, dateText(inventoryItems.datumPrimopredaje)),
  col('Уговор', 14, sql<string>`coalesce(${inventoryContracts.broj}, '')`),
];

const contractsList = inventoryList({
  name: 'inventory-contracts',
  title: 'Уговори за инвентар',
  query: searchable,
  columns: () => [
    col('Назив', 34, inventoryContracts.naziv),
    col('Број', 14, inventoryContracts.broj),
    col('Датум почетка', 11, dateText(inventoryContracts.datumPocetka)),
    col('Датум завршетка', 11, dateText(inventoryContracts.datumZavrsetka)),
    // The contract named with its table: in a select of one table drizzle writes its columns bare, and a bare
    // "id" inside the subquery would be the file's own (the documents were always counted 0).
    col(
      'Локација',
      9,
      sql`(select count(*)::int from ${inventoryContractLocations} l where l.contract_id = ${inventoryContracts}.id)`,
      'count',
    ),
    col(
      'Документа',
      9,
      sql`(select count(*)::int from ${inventoryContractFiles} f where f.contract_id = ${inventoryContracts}.id)`,
      'count',
    ),
  ],
  rows: (ctx, _scope, q, columns) =>
    selectOf(ctx, columns)
      .from(inventoryContracts)
      .where(matchCondition(inventoryContracts.searchText, termsOf(q)))
      .orderBy(desc(inventoryContracts.createdAt), asc(inventoryContracts.id)),
});

const typesList = inventoryList({
  name: 'inv-types',
  title: 'Шифарник опреме',
  query: pageQuery.partial().extend({ tip: z.enum(INVENTORY_TIPOVI).optional() }),
  columns: () => [
    col('Ред. бр.', 7, inventoryTypes.redniBroj, 'count'),
    col('Шифра', 9, inventoryTypes.sifra),
    col('Назив', 34, inventoryTypes.naziv),
    col('Кратак назив', 14, inventoryTypes.kratakNaziv),
    col('Тип', 10, tipText),
    col('Јед.', 5, inventoryTypes.jedinica),
    col('Цена', 10, money(inventoryTypes.cena), 'amount'),
    col('Валута', 6, inventoryTypes.valuta),
    col('Цена RSD', 11, money(inventoryTypes.cenaRsd), 'money'),
    col('Гаранција (мес.)', 9, inventoryTypes.trajanjeGarancije, 'count'),
  ],
  rows: (ctx, _scope, q, columns) =>
    selectOf(ctx, columns)
      .from(inventoryTypes)
      .where(q.tip ? eq(inventoryTypes.tip, q.tip) : undefined)
      .orderBy(
        asc(inventoryTypes.tip),
        sql`${inventoryTypes.redniBroj} asc nulls last`,
        serbianOrder(inventoryTypes.naziv),
        asc(inventoryTypes.id),
      ),
});

const itemsFrom = (ctx: AppContext, columns: ExportColumn[]) =>
  selectOf(ctx, columns)
    .from(inventoryItems)
    .innerJoin(inventoryTypes, eq(inventoryTypes.id, inventoryItems.typeId))
    .innerJoin(clusters, eq(clusters.id, inventoryItems.clusterId))
    .leftJoin(inventoryContracts, eq(inventoryContracts.id, inventoryItems.contractId));

const locationItemsList = inventoryList({
  name: 'inventory',
  title: 'Инвентар локације',
  query: z.object({ lokacija: z.uuid().optional(), ugovor: z.uuid().optional() }),
  columns: itemColumns,
  check: async (ctx, scope, q) => {
    if (q.lokacija) await assertClusterVisible(ctx.db, scope, q.lokacija);
  },
  rows: (ctx, scope, q, columns) =>
    itemsFrom(ctx, columns)
      .where(
        and(
          visibleClusterCondition(scope, inventoryItems.clusterId),
          q.lokacija ? eq(inventoryItems.clusterId, q.lokacija) : undefined,
          q.ugovor ? eq(inventoryItems.contractId, q.ugovor) : undefined,
        ),
      )
      .orderBy(desc(inventoryItems.datumPrimopredaje), desc(inventoryItems.createdAt), asc(inventoryItems.id)),
});

const allList = inventoryList({
  name: 'inventory-all',
  title: 'Листа свих ставки',
  query: searchable,
  columns: itemColumns,
  rows: (ctx, scope, q, columns) =>
    itemsFrom(ctx, columns)
      .where(and(visibleClusterCondition(scope, inventoryItems.clusterId), itemSearch(termsOf(q))))
      .orderBy(
        desc(inventoryItems.datumPrimopredaje),
        serbianOrder(clusters.naziv),
        serbianOrder(inventoryTypes.naziv),
        asc(inventoryItems.id),
      ),
});

const sumList = inventoryList({
  name: 'inventory-sum',
  title: 'Сумарно по ставци',
  query: pageQuery.partial().extend({ sort: z.enum(SUM_SORTS).optional().default('naziv'), ...sumFilterQuery }),
  columns: () => [
    col('Шифра', 9, inventoryTypes.sifra),
    col('Назив', 34, inventoryTypes.naziv),
    col('Тип', 10, tipText),
    col('Количина', 10, sql<number>`sum(${inventoryItems.kolicina})::float8`, 'quantity'),
    col('Јед.', 5, inventoryTypes.jedinica),
    col('Укупно RSD', 13, sql<number>`sum(${lineValue})::float8`, 'money'),
    col('Локација', 8, sql<number>`count(distinct ${inventoryItems.clusterId})::int`, 'count'),
    col('Последња примопредаја', 12, dateText(sql`max(${inventoryItems.datumPrimopredaje})`)),
  ],
  rows: (ctx, scope, q, columns) => {
    const order =
      q.sort === 'datum'
        ? [sql`max(${inventoryItems.datumPrimopredaje}) desc`, serbianOrder(inventoryTypes.naziv), asc(inventoryTypes.id)]
        : [serbianOrder(inventoryTypes.naziv), asc(inventoryTypes.tip), asc(inventoryTypes.id)];
    return selectOf(ctx, columns)
      .from(inventoryItems)
      .innerJoin(inventoryTypes, eq(inventoryTypes.id, inventoryItems.typeId))
      .innerJoin(clusters, eq(clusters.id, inventoryItems.clusterId))
      .where(sumWhere(scope, q))
      .groupBy(inventoryTypes.id)
      .orderBy(...order);
  },
});

const tipValue = (tip: string) => sql<number>`coalesce(sum(${lineValue}) filter (where ${inventoryTypes.tip} = ${tip}), 0)::float8`;

const perLocationList = inventoryList({
  name: 'inventory-per-location',
  title: 'Стање по локацији',
  query: searchable,
  columns: () => [
    col('Локација', 30, clusters.naziv),
    col('Ставки', 7, sql<number>`count(*)::int`, 'count'),
    col('Материјал RSD', 13, tipValue('Materijal'), 'money'),
    col('Опрема RSD', 13, tipValue('Oprema'), 'money'),
    col('Радови RSD', 13, tipValue('Radovi'), 'money'),
    col('Укупно RSD', 13, sql<number>`sum(${lineValue})::float8`, 'money'),
    col('A13', 6, yesNo(sql`exists (select 1 from ${a13Confirmations} a where a.cluster_id = ${clusters.id} and a.status)`)),
  ],
  rows: (ctx, scope, q, columns) =>
    selectOf(ctx, columns)
      .from(inventoryItems)
      .innerJoin(inventoryTypes, eq(inventoryTypes.id, inventoryItems.typeId))
      .innerJoin(clusters, eq(clusters.id, inventoryItems.clusterId))
      .where(and(visibleClusterCondition(scope, inventoryItems.clusterId), matchCondition(clusters.searchText, termsOf(q))))
      .groupBy(clusters.id)
      .orderBy(serbianOrder(clusters.naziv), asc(clusters.id)),
});

const notificationsList = inventoryList({
  name: 'school-notifications',
  title: 'Обавештене школе',
  query: searchable,
  columns: () => [
    col('Локација', 30, clusters.naziv),
    col('Имејл', 26, schoolNotifications.email),
    col('Мејл послат', 9, yesNo(sql`${schoolNotifications.mailPoslat}`)),
    col('Послато', 11, dateText(schoolNotifications.createdAt)),
    col('Потврда школе', 9, yesNo(sql`${schoolNotifications.confirmedAt} is not null`)),
    col('Датум потврде', 11, dateText(schoolNotifications.confirmedAt)),
  ],
  rows: (ctx, scope, q, columns) => {
    const terms = termsOf(q);
    return selectOf(ctx, columns)
      .from(schoolNotifications)
      .innerJoin(clusters, eq(clusters.id, schoolNotifications.clusterId))
      .where(
        and(
          visibleClusterCondition(scope, schoolNotifications.clusterId),
          terms.length
            ? sql`(${matchCondition(clusters.searchText, terms)} or ${sql.join(
                terms.map((t) => sql`lower(${schoolNotifications.email}) like '%' || lower(${escapeLike(t)}) || '%'`),
                sql` or `,
              )})`
            : undefined,
        ),
      )
      .orderBy(desc(schoolNotifications.createdAt), desc(schoolNotifications.id));
  },
});

const a13List = inventoryList({
  name: 'a13',
  title: 'Провера инвентара',
  query: searchable,
  columns: () => [
    col('Назив', 34, clusters.naziv),
    col(
      'A13',
      12,
      sql<string>`(case when coalesce(${a13Confirmations.status}, false) then ${ours(INVENTORY.a13Confirmed)} else ${ours(INVENTORY.a13NotConfirmed)} end)`,
    ),
    col(
      'Инвентар',
      20,
      sql<string>`(case when exists (select 1 from ${inventoryItems} i where i.cluster_id = ${clusters.id}) then ${ours(INVENTORY.itemsPresent)} else ${ours(INVENTORY.itemsAbsent)} end)`,
    ),
  ],
  rows: (ctx, scope, q, columns) =>
    selectOf(ctx, columns)
      .from(clusters)
      .leftJoin(a13Confirmations, eq(a13Confirmations.clusterId, clusters.id))
      .where(and(visibleClusterCondition(scope), matchCondition(clusters.searchText, termsOf(q))))
      .orderBy(serbianOrder(clusters.naziv), asc(clusters.id)),
});

export const INVENTORY_LISTS: ExportList[] = [
  contractsList,
  typesList,
  locationItemsList,
  allList,
  sumList,
  perLocationList,
  notificationsList,
  a13List,
];
