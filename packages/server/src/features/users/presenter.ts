import type { GroupRef, RoleKey, SavedTable, UserDto } from '@trasa/domain';
import { eq, getTableColumns } from 'drizzle-orm';
import { groups, groupTypes, roles, users } from '../../db/schema.js';
import { type Executor, serbianOrder } from '../../platform/database.js';

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

export function presentGroupRef(row: UserWithRelations): GroupRef | null {
  if (!row.group) return null;
  return {
    _id: row.group.id,
    naziv: row.group.naziv,
    kratakNaziv: row.group.kratakNaziv,
    tip: row.type?.naziv ?? '',
    tipKod: row.type?.code ?? null,
    cirilica: row.group.cirilica,
    sveVideci: row.group.sveVideci,
  };
}

/** The API's user: built field by field, so hashes and codes can never leak. */
export function presentUser(row: UserWithRelations): UserDto {
  const u = row.user;
  return {
    _id: u.id,
    ime: u.ime,
    prezime: u.prezime,
    email: u.email,
    emailPotvrdjen: u.emailPotvrdjen,
    rola: row.role.baseRole as RoleKey,
    rolaId: row.role.id,
    rolaNaziv: row.role.imeRole,
    status: u.status === 'aktivan' ? 'aktivan' : 'neaktivan',
    grupa: presentGroupRef(row),
    tabela: Array.isArray(u.tables) ? (u.tables as SavedTable[]) : [],
    pismo: u.pismo === 'lat' ? 'lat' : 'cyr',
  };
}

/** Lists of users are ordered by last name, then first name (the id keeps pages stable). */
export const userOrder = [serbianOrder(users.prezime), serbianOrder(users.ime), users.id] as const;
