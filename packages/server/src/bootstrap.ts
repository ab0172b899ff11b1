import { randomBytes } from 'node:crypto';
import { DEFAULT_GROUP_TYPES, ROLE_KEYS } from '@trasa/domain';
import { and, eq, isNull } from 'drizzle-orm';
import { groups, groupTypes, roles, users } from './db/schema.js';
import { builtinRoleId } from './platform/builtinRoles.js';
import type { Db, Executor } from './platform/database.js';
import { hashPassword } from './platform/passwords.js';
import { ensureClusterActivities, syncCatalogue } from './shared/activityReference.js';

/**
 * Reference data every installation has: the four roles, the five group types, the reserved Admin group,
 * the activity catalogue, and an activity record per catalogue entry on every cluster.
 */
export async function ensureReferenceData(db: Executor): Promise<void> {
  for (const key of ROLE_KEYS) {
    const [existing] = await db
      .select({ id: roles.id })
      .from(roles)
      .where(and(eq(roles.baseRole, key), eq(roles.builtin, true)))
      .limit(1);
    if (!existing)
      await db.insert(roles).values({ imeRole: key, kratakNaziv: key.slice(0, 3).toUpperCase(), baseRole: key, builtin: true });
  }
  for (const t of DEFAULT_GROUP_TYPES) {
    await db.insert(groupTypes).values(t).onConflictDoNothing({ target: groupTypes.code });
  }
  const [admin] = await db.select({ id: groups.id }).from(groups).where(eq(groups.reserved, true)).limit(1);
  if (!admin) {
    await db.insert(groups).values({ naziv: 'Admin', kratakNaziv: 'Admin', cirilica: 'Админ', reserved: true }).onConflictDoNothing();
  }
  await syncCatalogue(db);
  await ensureClusterActivities(db);
}

/**
 * On a database with no active Admin, creates one from ADMIN_EMAIL / ADMIN_PASSWORD; with those unset,
 * generates credentials and returns them so they can be printed once.
 */
export async function ensureFirstAdmin(
  db: Db,
  opts: { email?: string; password?: string },
): Promise<{ email: string; password: string; generated: boolean } | null> {
  const adminRole = await builtinRoleId(db, 'Admin');
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(roles.baseRole, 'Admin'), isNull(users.deletedAt)))
    .limit(1);
  if (existing) return null;
  const generated = !opts.email || !opts.password;
  const email = (opts.email || 'admin@trasa.local').trim().toLowerCase();
  const password = opts.password || `${randomBytes(12).toString('base64url')}a1`;
  await db.insert(users).values({
    ime: 'Admin',
    prezime: 'Trasa',
    email,
    emailPotvrdjen: true,
    status: 'aktivan',
    roleId: adminRole,
    passwordHash: await hashPassword(password),
  });
  return { email, password, generated };
}
