import {
  addDays,
  CONTRACTS,
  type ContractDto,
  type ContractFileDto,
  type ContractListItem,
  type ContractLocation,
  type DeadlineColour,
  deadlineColour,
  type Sorting,
  type SortKey,
} from '@trasa/domain';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { groups, groupTypes } from '../../db/schema.js';
import { clusterGroups, clusters, contractClusters, contractFiles, contractGroups, contracts } from '../../db/schema-clusters.js';
import { type Executor, preparedOn, serbianOrder } from '../../platform/database.js';
import { offsetOf, type Paging } from '../../platform/paging.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import { type ContractBrief, clusterStatusSql, type GroupBrief, presentContractBrief } from '../clusters/presenter.js';
import { type ContractLineage, readableByGroupsCondition, readableKindCondition } from './policy.js';

/**
 * The contract shapes of docs/api/clusters-contracts.md "Shapes", built field by field. GroupBrief,
 * ContractBrief and the cluster status are the clusters feature's (one definition for both).
 */
export type { ContractBrief, ContractDto, ContractFileDto, ContractListItem, ContractLocation, GroupBrief };
export { presentContractBrief };

export type ContractRow = {
  id: string;
  kind: string;
  naziv: string;
  broj: string;
  status: string;
  datumPocetka: string;
  rokTrajanja: number;
  datumZavrsetka: string | null;
};

/** In progress while 'U toku'; finished at datumZavrsetka when 'Završen' (spec 2 §4). */
export function contractColour(row: ContractRow, today: Date = new Date()): DeadlineColour {
  return deadlineColour(
    {
      inProgress: row.status === CONTRACTS.statusInProgress,
      finished: row.status === CONTRACTS.statusFinished,
      start: row.datumPocetka,
      due: addDays(row.datumPocetka, row.rokTrajanja),
      finishedAt: row.datumZavrsetka,
    },
    today,
  );
}

export function presentFile(f: {
  id: string;
  originalnoIme: string;
  mimetype: string;
  size: number;
  createdAt: Date | string;
}): ContractFileDto {
  return { _id: f.id, originalnoIme: f.originalnoIme, mimetype: f.mimetype, size: f.size, createdAt: new Date(f.createdAt).toISOString() };
}

export const contractColumns = {
  id: contracts.id,
  kind: contracts.kind,
  naziv: contracts.naziv,
  broj: contracts.broj,
  status: contracts.status,
  datumPocetka: contracts.datumPocetka,
  rokTrajanja: contracts.rokTrajanja,
  datumZavrsetka: contracts.datumZavrsetka,
};

/**
 * Contracts with their documents, groups and linked clusters, as ContractDto needs them (one query).
 * The subqueries name `contracts` and `clusters` in full: drizzle leaves columns unqualified in a
 * one-table select (clusterStatusSql may refer to `clusters` too).
 */
const filesColumn = sql<ContractFileDto[]>`coalesce((
  select json_agg(json_build_object('_id', f.id, 'originalnoIme', f.originalno_ime, 'mimetype', f.mimetype, 'size', f.size,
    'createdAt', f.created_at) order by f.created_at, f.id)
  from ${contractFiles} f where f.contract_id = contracts.id), '[]'::json)`;

const groupsColumn = sql<GroupBrief[]>`coalesce((
  select json_agg(json_build_object('_id', g.id, 'naziv', g.naziv, 'tip', coalesce(t.naziv, ''), 'tipKod', t.code) order by g.naziv, g.id)
  from ${contractGroups} cg join ${groups} g on g.id = cg.group_id left join ${groupTypes} t on t.id = g.type_id
  where cg.contract_id = contracts.id), '[]'::json)`;

export function selectContracts(db: Executor) {
  return db
    .select({
      ...contractColumns,
      fajlovi: filesColumn,
      grupe: groupsColumn,
      lokacije: sql<ContractLocation[]>`coalesce((
        select json_agg(json_build_object(
          '_id', clusters.id,
          'naziv', clusters.naziv,
          'status', ${clusterStatusSql},
          'ugovor', (select gc.contract_id from ${contractClusters} gc where gc.cluster_id = clusters.id and gc.kind = 'contract'),
          'odgovoran', coalesce((
            select json_agg(json_build_object('_id', og.id, 'naziv', og.naziv) order by og.naziv, og.id)
            from ${clusterGroups} cgr join ${groups} og on og.id = cgr.group_id where cgr.cluster_id = clusters.id), '[]'::json)
        ) order by clusters.naziv, clusters.id)
        from ${contractClusters} cc join ${clusters} on clusters.id = cc.cluster_id where cc.contract_id = contracts.id), '[]'::json)`,
    })
    .from(contracts);
}

type SelectedContract = Awaited<ReturnType<ReturnType<typeof selectContracts>['execute']>>[number];

export function presentContract(row: SelectedContract, today: Date = new Date()): ContractDto {
  return {
    ...presentContractBrief(row),
    fajlovi: row.fajlovi.map((f) => ({ ...f, createdAt: new Date(f.createdAt).toISOString() })),
    lokacije: row.lokacije.map((l) => ({
      _id: l._id,
      naziv: l.naziv,
      status: l.status,
      ugovor: l.ugovor ?? null,
      odgovoran: l.odgovoran.map((g) => ({ _id: g._id, naziv: g.naziv })),
    })),
    grupe: row.grupe.map((g) => ({ _id: g._id, naziv: g.naziv, tip: g.tip, tipKod: g.tipKod ?? null })),
    boja: contractColour(row, today),
  };
}

/** Newest first (datumPocetka desc), then by name. */
export const contractOrder = [sql`${contracts.datumPocetka} desc`, serbianOrder(contracts.naziv), contracts.id] as const;

/** `sort` of the contracts lists (LIST_SORTS.contracts): rokZavrsetka is the due date, start + duration in days. */
export const CONTRACT_SORTS: SortMap<'contracts'> = {
  naziv: { text: contracts.naziv },
  broj: { text: contracts.broj },
  datumPocetka: { value: contracts.datumPocetka },
  rokTrajanja: { value: contracts.rokTrajanja },
  rokZavrsetka: { value: sql`(${contracts.datumPocetka} + ${contracts.rokTrajanja})` },
  status: { text: contracts.status },
};
export type ContractSorting = Sorting<SortKey<'contracts'>>;

/**
 * A list row's columns (issue 15 item 4): what the contracts table shows, the linked clusters counted
 * (contract_clusters' primary key) instead of listed with their status and groups (111 KB per 10 rows
 * before; the detail lists them).
 */
function selectContractRows(db: Executor) {
  return db
    .select({
      ...contractColumns,
      fajlovi: filesColumn,
      grupe: groupsColumn,
      brojLokacija: sql<number>`(select count(*)::int from ${contractClusters} cc where cc.contract_id = contracts.id)`,
      // pageOfContracts' total, counted before LIMIT and OFFSET.
      total: sql<number>`(count(*) over ())::int`,
    })
    .from(contracts);
}

type SelectedContractRow = Awaited<ReturnType<ReturnType<typeof selectContractRows>['execute']>>[number];

export function presentContractListItem(row: SelectedContractRow, today: Date = new Date()): ContractListItem {
  return {
    ...presentContractBrief(row),
    fajlovi: row.fajlovi.map((f) => ({ ...f, createdAt: new Date(f.createdAt).toISOString() })),
    grupe: row.grupe.map((g) => ({ _id: g._id, naziv: g.naziv, tip: g.tip, tipKod: g.tipKod ?? null })),
    boja: contractColour(row, today),
    brojLokacija: row.brojLokacija,
  };
}

/** A page's list rows as the answer: the total from the rows, or (a page past the end) counted on its own. */
async function answerOfPage(
  db: Executor,
  rows: SelectedContractRow[],
  offset: number,
  where: () => SQL,
  today: Date,
): Promise<{ items: ContractListItem[]; totalResults: number }> {
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && offset > 0) {
    const [counted] = await db.select({ n: sql<number>`count(*)::int` }).from(contracts).where(where());
    total = counted?.n ?? 0;
  }
  return { items: rows.map((r) => presentContractListItem(r, today)), totalResults: total };
}

/**
 * One page of contracts matching `where` (a condition over `contracts`), as list rows coloured as of
 * `today`. The total comes with the page's rows (`count(*) over ()`, counted before LIMIT and OFFSET:
 * one statement, the condition planned once); only a page past the end, which has no row to carry it,
 * counts on its own.
 */
export async function pageOfContracts(
  db: Executor,
  where: SQL,
  paging: Paging & ContractSorting,
  today: Date = new Date(),
): Promise<{ items: ContractListItem[]; totalResults: number }> {
  const offset = offsetOf(paging);
  const rows = await selectContractRows(db)
    .where(where)
    .orderBy(...orderOf(CONTRACT_SORTS, paging, contractOrder, contracts.id))
    .limit(paging.limit)
    .offset(offset);
  return answerOfPage(db, rows, offset, () => where, today);
}

/**
 * A kind's page in the default order (GET /api/{route} without `sort`: what every contracts screen opens
 * on) as named prepared statements built once, every contract's or a lineage's (its group ids one
 * uuid[]): pageOfContracts' statement with the kind, the ids and the limit as parameters. Building it
 * (drizzle) and planning it (PostgreSQL, ~1 ms for its subqueries) each time cost more than running it;
 * PostgreSQL keeps the generic plan, a walk of contracts_list_order_idx (drizzle/0035) stopped by the
 * limit, the lineage's semi-join a probe of contract_groups' primary key per contract. Page 1 has a
 * statement without OFFSET: with an offset parameter the generic plan's cost counts an unknown offset (a
 * tenth of the rows) before the first row and PostgreSQL never chooses it, planning every run afresh.
 */
function defaultPageStatement(db: Executor, name: string, readable: SQL, withOffset: boolean) {
  const page = selectContractRows(db)
    .where(and(eq(contracts.kind, sql.placeholder('kind')), readable))
    .orderBy(...contractOrder)
    .limit(sql.placeholder('limit'));
  return (withOffset ? page.offset(sql.placeholder('offset')) : page).prepare(name);
}
type DefaultPageStatement = ReturnType<typeof defaultPageStatement>;
const defaultPages = new Map<string, DefaultPageStatement>();

export async function defaultPageOfContracts(
  db: Executor,
  kind: string,
  lineage: ContractLineage,
  paging: Paging,
  today: Date = new Date(),
): Promise<{ items: ContractListItem[]; totalResults: number }> {
  if (!lineage.all && lineage.ids.length === 0) return { items: [], totalResults: 0 };
  const offset = offsetOf(paging);
  const name = `contract_page${lineage.all ? '' : '_lineage'}${offset > 0 ? '_at' : ''}`;
  let statement = defaultPages.get(name);
  if (!statement) {
    const readable = lineage.all ? sql`true` : readableByGroupsCondition(sql.placeholder('groups'));
    statement = defaultPageStatement(db, name, readable, offset > 0);
    defaultPages.set(name, statement);
  }
  const rows = await preparedOn(statement, db).execute({
    kind,
    limit: paging.limit,
    ...(offset > 0 && { offset }),
    ...(!lineage.all && { groups: lineage.ids }),
  });
  return answerOfPage(db, rows, offset, () => readableKindCondition(kind, lineage), today);
}
