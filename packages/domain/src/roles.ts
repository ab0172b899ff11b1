/** The four built-in roles. Permissions key on these keys, never on a role's editable display name. */
export const ROLE_KEYS = ['Admin', 'Rukovodilac', 'Zaposleni', 'Gost'] as const;
export type RoleKey = (typeof ROLE_KEYS)[number];

export const Role = {
  Admin: 'Admin',
  Manager: 'Rukovodilac',
  Employee: 'Zaposleni',
  Guest: 'Gost',
} as const satisfies Record<string, RoleKey>;

export function isRoleKey(value: unknown): value is RoleKey {
  return typeof value === 'string' && (ROLE_KEYS as readonly string[]).includes(value);
}

/** The spec compares roles case-insensitively. */
export function roleIn(role: string | null | undefined, allowed: readonly string[]): boolean {
  if (!role) return false;
  const r = role.toLowerCase();
  return allowed.some((a) => a.toLowerCase() === r);
}

/** Roles a user with `actor` role may hand out (spec 1 §6, server-behaviour "Groups, visibility and scope"). */
export function assignableRoles(actor: RoleKey): readonly RoleKey[] {
  if (actor === 'Admin') return ROLE_KEYS;
  if (actor === 'Rukovodilac') return ['Rukovodilac', 'Zaposleni', 'Gost'];
  return [];
}

/** Roles that never belong to a group. */
export const GROUPLESS_ROLES: readonly RoleKey[] = ['Admin', 'Gost'];
