import type { RoleDto } from '@trasa/domain';
import type { RoleRow } from './policy.js';

/** `editable`: whether the caller may edit the role (policy.ts editableRoleIds). */
export function presentRole(row: RoleRow, editable: boolean): RoleDto {
  return {
    _id: row.id,
    imeRole: row.imeRole,
    kratakNaziv: row.kratakNaziv,
    osnovnaRola: row.baseRole,
    ugradjena: row.builtin,
    izmenljiva: editable,
  };
}
