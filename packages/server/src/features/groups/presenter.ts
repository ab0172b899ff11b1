import type { GroupDto } from '@trasa/domain';
import { eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { groups, groupTypes, users } from '../../db/schema.js';
import type { Executor } from '../../platform/database.js';
import { inScope, type Scope } from './policy.js';

const parent = alias(groups, 'parent');

/** Groups with their type, parent, children and member count, as GroupDto needs them. */
export function selectGroups(db: Executor) {
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
      children: sql<{ _id: string; naziv: string }[]>`coalesce((
        select json_agg(json_build_object('_id', c.id, 'naziv', c.naziv) order by c.naziv)
        from ${groups} c where c.parent_id = ${groups.id} and not c.reserved), '[]'::json)`,
      members: sql<number>`(select count(*)::int from ${users} u where u.group_id = ${groups.id} and u.deleted_at is null)`,
    })
    .from(groups)
    .leftJoin(groupTypes, eq(groupTypes.id, groups.typeId))
    .leftJoin(parent, eq(parent.id, groups.parentId));
}

export type GroupListRow = Awaited<ReturnType<ReturnType<typeof selectGroups>['execute']>>[number];

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
