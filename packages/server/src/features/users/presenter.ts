import type { GroupRef, RoleKey, SavedTable, UserDto } from '@trasa/domain';
import { users } from '../../db/schema.js';
import { serbianOrder } from '../../platform/database.js';

import type { UserWithRelations } from '../../platform/userRows.js';

export { selectUserWithRelations, type UserWithRelations, userWithRelationsFields } from '../../platform/userRows.js';

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
