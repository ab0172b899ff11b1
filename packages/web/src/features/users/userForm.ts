import { GROUPLESS_ROLES, type GroupListItem, type RoleDto, roleIn, type UserDto } from '@trasa/domain';
import { useMemo } from 'react';
import type { SelectOption } from '../../components/FormSelect';
import { groupOptions } from '../../queries/groups';
import { baseRoleOf, roleOptions } from '../../queries/roles';
import { roleName } from '../../shipped';
import { UI } from '../../texts';

export const STATUS_OPTIONS: SelectOption[] = [
  { value: 'aktivan', label: UI.statusAktivan },
  { value: 'neaktivan', label: UI.statusNeaktivan },
];

/** Gost and Admin have no group (spec 1 §4): the group field is disabled and cleared for them. */
export function isGroupless(roles: readonly RoleDto[], roleId: string | undefined): boolean {
  const base = baseRoleOf(roles.find((r) => r._id === roleId));
  return base !== null && roleIn(base, GROUPLESS_ROLES);
}

/** Role choices, keeping the user's current role even when the signed-in user couldn't hand it out. */
export function useRoleChoices(roles: readonly RoleDto[], current?: UserDto): SelectOption[] {
  return useMemo(() => {
    const options = roleOptions(roles);
    if (current?.rolaId && !options.some((o) => o.value === current.rolaId)) {
      options.push({ value: current.rolaId, label: roleName(current.rolaNaziv || current.rola) });
    }
    return options;
  }, [roles, current]);
}

/** Group choices, keeping the user's current group even when it isn't offered. */
export function useGroupChoiceOptions(groups: readonly GroupListItem[] | undefined, current?: UserDto): SelectOption[] {
  return useMemo(() => {
    const options = groupOptions(groups ?? []);
    const g = current?.grupa;
    if (g && !options.some((o) => o.value === g._id)) options.push({ value: g._id, label: g.naziv });
    return options;
  }, [groups, current]);
}
