import type { RoleDto } from '@trasa/domain';
import type { RoleRow } from './policy.js';

export function presentRole(row: RoleRow): RoleDto {
  return { _id: row.id, imeRole: row.imeRole, kratakNaziv: row.kratakNaziv, osnovnaRola: row.baseRole, ugradjena: row.builtin };
}
