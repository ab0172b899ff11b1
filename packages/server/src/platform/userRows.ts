import { eq, getTableColumns } from 'drizzle-orm';
import { groups, groupTypes, roles, users } from '../db/schema.js';
import type { Executor } from './database.js';

/** What selectUserWithRelations reads: the user row, its role and group (and the group's type). */
export const userWithRelationsFields = {
  user: getTableColumns(users),
  role: { id: roles.id, imeRole: roles.imeRole, baseRole: roles.baseRole },
  group: {
    id: groups.id,
    naziv: groups.naziv,
    kratakNaziv: groups.kratakNaziv,
    cirilica: groups.cirilica,
    sveVideci: groups.sveVideci,
  },
  type: { naziv: groupTypes.naziv, code: groupTypes.code },
};

/** A user row with its role and group (and the group's type), as every presenter needs it. */
export function selectUserWithRelations(db: Executor) {
  return db
    .select(userWithRelationsFields)
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .leftJoin(groups, eq(groups.id, users.groupId))
    .leftJoin(groupTypes, eq(groupTypes.id, groups.typeId));
}

export type UserWithRelations = Awaited<ReturnType<ReturnType<typeof selectUserWithRelations>['execute']>>[number];
