import { randomBytes } from 'node:crypto';
import type { GroupTypeCode, RoleKey } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { builtinRoleId } from '../bootstrap.js';
import type { AppContext } from '../context.js';
import { groups, groupTypes, users } from '../db/schema.js';
import type { Executor } from '../platform/database.js';
import { hashPassword } from '../platform/passwords.js';

/** One factory system for tests and the demo seed. */

export const DEFAULT_PASSWORD = 'Lozinka123';
const hashes = new Map<string, Promise<string>>();
/** Hashing costs ~0.3 s; a password used by many factory users is hashed once. */
function cachedHash(password: string): Promise<string> {
  let h = hashes.get(password);
  if (!h) {
    h = hashPassword(password);
    hashes.set(password, h);
  }
  return h;
}

const unique = () => randomBytes(4).toString('hex');

export async function groupTypeId(db: Executor, code: GroupTypeCode): Promise<string> {
  const [row] = await db.select({ id: groupTypes.id }).from(groupTypes).where(eq(groupTypes.code, code)).limit(1);
  if (!row) throw new Error(`group type ${code} missing`);
  return row.id;
}

export type GroupSpec = {
  naziv?: string;
  kratakNaziv?: string;
  cirilica?: string;
  type?: GroupTypeCode;
  parentId?: string | null;
  sveVideci?: boolean;
};

export async function createGroup(db: Executor, spec: GroupSpec = {}) {
  const naziv = spec.naziv ?? `Grupa ${unique()}`;
  const [row] = await db
    .insert(groups)
    .values({
      naziv,
      kratakNaziv: spec.kratakNaziv ?? naziv.slice(0, 12),
      cirilica: spec.cirilica ?? naziv,
      typeId: await groupTypeId(db, spec.type ?? 'IZVODJAC'),
      parentId: spec.parentId ?? null,
      sveVideci: spec.sveVideci ?? false,
    })
    .returning();
  if (!row) throw new Error('group not created');
  return row;
}

export type UserSpec = {
  role?: RoleKey;
  ime?: string;
  prezime?: string;
  email?: string;
  password?: string;
  groupId?: string | null;
  status?: 'aktivan' | 'neaktivan';
  emailPotvrdjen?: boolean;
};

export async function createUser(db: Executor, spec: UserSpec = {}) {
  const role = spec.role ?? 'Zaposleni';
  const [row] = await db
    .insert(users)
    .values({
      ime: spec.ime ?? 'Petar',
      prezime: spec.prezime ?? 'Petrović',
      email: (spec.email ?? `korisnik.${unique()}@primer.rs`).toLowerCase(),
      passwordHash: await cachedHash(spec.password ?? DEFAULT_PASSWORD),
      roleId: await builtinRoleId(db, role),
      groupId: role === 'Admin' || role === 'Gost' ? null : (spec.groupId ?? null),
      status: spec.status ?? 'aktivan',
      emailPotvrdjen: spec.emailPotvrdjen ?? (spec.status ?? 'aktivan') === 'aktivan',
    })
    .returning();
  if (!row) throw new Error('user not created');
  return row;
}

/** A bearer token for a user, as login would issue it. */
export function tokenFor(ctx: AppContext, user: { id: string; tokenVersion: number }): Promise<string> {
  return ctx.tokens.sign({ sub: user.id, tv: user.tokenVersion });
}
