import type { GroupDto } from '@trasa/domain';
import { eq, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core';
import { groups, groupTypes } from '../../db/schema.js';
import type { Executor } from '../../platform/database.js';
import { inScope, type Scope } from './policy.js';

const parent = alias(groups, 'parent');

/** Groups with their type, parent and member count (one row each); children come from withCounts. */
export function selectGroupRows(db: Executor) {
  return db
    .select({
      id: groups.id,
      naziv: groups.naziv,
      kratakNaziv: groups.kratakNaziv,
      cirilica: groups.cirilica,
      sveVideci: groups.sveVideci,
      typeId: groups.typeId,
      typeNaziv: groupTypes.naziv,
      typeCode: groupTypes.code,
      parentId: parent.id,
      parentNaziv: parent.naziv,
      // Kept by triggers (drizzle/0016): the live members, not declared in the schema.
      members: sql<number>`${groups}.member_count`.mapWith(Number),
    })
    .from(groups)
    .leftJoin(groupTypes, eq(groupTypes.id, groups.typeId))
    .leftJoin(parent, eq(parent.id, groups.parentId));
}

type GroupBaseRow = Awaited<ReturnType<ReturnType<typeof selectGroupRows>['execute']>>[number];
export type GroupListRow = GroupBaseRow & { children: { _id: string; naziv: string }[] };

/**
 * The children of the given groups in one query (a grouped scan over the groups' parent index), whatever
 * their number: a page of 10 or the screens' whole list (limit=50000). The member counts are kept on the
 * groups (drizzle/0016): counting them here read 50,000 users per whole list (issue 15).
 */
export async function withCounts(db: Executor, rows: GroupBaseRow[]): Promise<GroupListRow[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const idList = sql`(select unnest(${`{${ids.join(',')}}`}::uuid[]))`;
  const result = await db.execute<{ id: string; children: { _id: string; naziv: string }[] }>(sql`
    select c.parent_id as id, json_agg(json_build_object('_id', c.id, 'naziv', c.naziv) order by c.naziv) as children
    from ${groups} c where c.parent_id in ${idList} and not c.reserved group by c.parent_id`);
  const extra = new Map(result.rows.map((r) => [r.id, r.children]));
  return rows.map((r) => ({ ...r, children: extra.get(r.id) ?? [] }));
}

/** Groups as GroupDto needs them: `await selectGroups(db, where, …)`. */
export async function selectGroups(
  db: Executor,
  where: SQL | undefined,
  opts: { orderBy?: (SQL | AnyPgColumn)[]; limit?: number; offset?: number } = {},
): Promise<GroupListRow[]> {
  const base = selectGroupRows(db)
    .where(where)
    .orderBy(...(opts.orderBy ?? []))
    .$dynamic();
  if (opts.limit !== undefined) base.limit(opts.limit);
  if (opts.offset !== undefined) base.offset(opts.offset);
  return withCounts(db, await base);
}

/**
 * The API's group, field by field. A Rukovodilac does not learn the group above their own (outside
 * their scope): nadredjenaGrupa is null there.
 */
export function presentGroup(row: GroupListRow, scope: Scope): GroupDto {
  return {
    _id: row.id,
    naziv: row.naziv,
    kratakNaziv: row.kratakNaziv,
    tip: row.typeNaziv ?? '',
    tipKod: row.typeCode ?? null,
    tipId: row.typeId ?? null,
    cirilica: row.cirilica,
    sveVideci: row.sveVideci,
    nadredjenaGrupa: row.parentId && inScope(scope, row.parentId) ? { _id: row.parentId, naziv: row.parentNaziv ?? '' } : null,
    podredjeneGrupe: row.children.map((c) => ({ _id: c._id, naziv: c.naziv })),
    brojClanova: row.members,
  };
}
