import { randomBytes } from 'node:crypto';
import type { GroupTypeCode, RoleKey } from '@trasa/domain';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { groups, groupTypes, roles, users } from '../db/schema.js';
import { activities } from '../db/schema-activities.js';
import {
  clusterGroups,
  clusterSettlements,
  clusters,
  contractClusters,
  contractGroups,
  contracts,
  settlements,
} from '../db/schema-clusters.js';
import { builtinRoleId } from '../platform/builtinRoles.js';
import type { Executor } from '../platform/database.js';
import { currentEpoch } from '../platform/epoch.js';
import { hashPassword } from '../platform/passwords.js';
import { ensureClusterActivities } from '../shared/activityReference.js';

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

export async function createGroupType(db: Executor, spec: { naziv?: string; kratakNaziv?: string } = {}) {
  const naziv = spec.naziv ?? `Tip ${unique()}`;
  const [row] = await db
    .insert(groupTypes)
    .values({ naziv, kratakNaziv: spec.kratakNaziv ?? naziv.slice(0, 10) })
    .returning();
  if (!row) throw new Error('group type not created');
  return row;
}

/** An extra role (as made on /app/role), carrying the permissions of `baseRole`. */
export async function createRole(db: Executor, spec: { imeRole?: string; kratakNaziv?: string; baseRole?: RoleKey } = {}) {
  const imeRole = spec.imeRole ?? `Rola ${unique()}`;
  const [row] = await db
    .insert(roles)
    .values({ imeRole, kratakNaziv: spec.kratakNaziv ?? imeRole.slice(0, 10), baseRole: spec.baseRole ?? 'Zaposleni', builtin: false })
    .returning();
  if (!row) throw new Error('role not created');
  return row;
}

export type UserSpec = {
  role?: RoleKey;
  /** An extra role's id (createRole); `role` then names its base. */
  roleId?: string;
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
      roleId: spec.roleId ?? (await builtinRoleId(db, role)),
      groupId: role === 'Admin' || role === 'Gost' ? null : (spec.groupId ?? null),
      status: spec.status ?? 'aktivan',
      emailPotvrdjen: spec.emailPotvrdjen ?? (spec.status ?? 'aktivan') === 'aktivan',
    })
    .returning();
  if (!row) throw new Error('user not created');
  return row;
}

/** A bearer token for a user, as login would issue it (in the database's current epoch). */
export async function tokenFor(ctx: AppContext, user: { id: string; tokenVersion: number }): Promise<string> {
  return ctx.tokens.sign({ sub: user.id, tv: user.tokenVersion, ep: await currentEpoch(ctx.db) });
}

/**
 * A contractor with three levels of groups (root → mid → leaf), a separate supervision firm, and a
 * Rukovodilac of the middle level: their scope is mid and leaf, never root or other.
 */
export async function createOrgTree(db: Executor, tag: string = unique()) {
  const root = await createGroup(db, { naziv: `Izvođač ${tag}`, type: 'IZVODJAC' });
  const mid = await createGroup(db, { naziv: `Izvođač ${tag} Sever`, type: 'IZVODJAC', parentId: root.id });
  const leaf = await createGroup(db, { naziv: `Izvođač ${tag} Sever Tim`, type: 'IZVODJAC', parentId: mid.id });
  const other = await createGroup(db, { naziv: `Nadzor ${tag}`, type: 'NADZOR' });
  const manager = await createUser(db, { role: 'Rukovodilac', groupId: mid.id, ime: 'Milan', prezime: 'Rukovodić' });
  return { root, mid, leaf, other, manager };
}

export type SettlementSpec = {
  code?: string;
  naziv?: string;
  maticniBroj?: string;
  opstine?: string[];
  brojDomacinstava?: number | null;
  brojSkola?: number | null;
};

/** A settlement (naselje); `code` is its registry id (the API's `id`). */
export async function createSettlement(db: Executor, spec: SettlementSpec = {}) {
  const [row] = await db
    .insert(settlements)
    .values({
      code: spec.code ?? `N-${unique()}`,
      naziv: spec.naziv ?? `Naselje ${unique()}`,
      maticniBroj: spec.maticniBroj ?? '',
      opstine: spec.opstine ?? [],
      brojDomacinstava: spec.brojDomacinstava ?? null,
      brojSkola: spec.brojSkola ?? null,
    })
    .returning();
  if (!row) throw new Error('settlement not created');
  return row;
}

export type ContractSpec = {
  kind?: 'contract' | 'contractIzv' | 'contractPro' | 'contractNad';
  naziv?: string;
  broj?: string;
  status?: 'U toku' | 'Završen';
  datumPocetka?: string;
  rokTrajanja?: number;
  datumZavrsetka?: string | null;
  /** contract_groups (typed contracts). */
  groupIds?: string[];
};

/** A contract row of any kind (general by default), with its groups. */
export async function createContract(db: Executor, spec: ContractSpec = {}) {
  const [row] = await db
    .insert(contracts)
    .values({
      kind: spec.kind ?? 'contract',
      naziv: spec.naziv ?? `Ugovor ${unique()}`,
      broj: spec.broj ?? `${unique()}/2025`,
      status: spec.status ?? 'U toku',
      datumPocetka: spec.datumPocetka ?? '2025-01-15',
      rokTrajanja: spec.rokTrajanja ?? 365,
      datumZavrsetka: spec.datumZavrsetka ?? null,
    })
    .returning();
  if (!row) throw new Error('contract not created');
  if (spec.groupIds?.length) await db.insert(contractGroups).values(spec.groupIds.map((groupId) => ({ contractId: row.id, groupId })));
  return row;
}

/** Links a cluster to a contract (contract_clusters, with the contract's kind). */
export async function linkClusterToContract(db: Executor, contract: { id: string; kind: string }, clusterId: string): Promise<void> {
  await db.insert(contractClusters).values({ contractId: contract.id, clusterId, kind: contract.kind });
}

export type ClusterSpec = {
  naziv?: string;
  groupIds?: string[];
  naselja?: string[];
  usputnaNaselja?: string[];
  indikativnaDuzinaKlastera?: number | null;
  ugovorenaVrednostKlastera?: number | null;
  /** A contract (any kind) to link the cluster to. */
  contract?: { id: string; kind: string };
};

/** A cluster (lokacija) with its responsible groups, settlements and, optionally, a contract link. */
export async function createCluster(db: Executor, spec: ClusterSpec = {}) {
  const [row] = await db
    .insert(clusters)
    .values({
      naziv: spec.naziv ?? `Klaster ${unique()}`,
      indikativnaDuzinaKlastera: spec.indikativnaDuzinaKlastera ?? null,
      ugovorenaVrednostKlastera: spec.ugovorenaVrednostKlastera ?? null,
    })
    .returning();
  if (!row) throw new Error('cluster not created');
  if (spec.groupIds?.length) await db.insert(clusterGroups).values(spec.groupIds.map((groupId) => ({ clusterId: row.id, groupId })));
  const linked = [
    ...(spec.naselja ?? []).map((settlementId, position) => ({ clusterId: row.id, settlementId, usputno: false, position })),
    ...(spec.usputnaNaselja ?? []).map((settlementId, position) => ({ clusterId: row.id, settlementId, usputno: true, position })),
  ];
  if (linked.length) await db.insert(clusterSettlements).values(linked);
  if (spec.contract) await linkClusterToContract(db, spec.contract, row.id);
  // Like the service: every cluster has its activity records from the start.
  await ensureClusterActivities(db, [row.id]);
  return row;
}

export type ActivityState = {
  status?: 'Nije započeta' | 'U toku' | 'Završena';
  datumPocetka?: string | null;
  rokZavrsetka?: string | null;
  datumZavrsetka?: string | null;
  returned?: number;
};

/**
 * Puts one activity of a cluster into a state directly, as the workflow would have left it (tests and
 * the demo, without going through the workflow). The cluster gets its activity records first.
 */
export async function setActivityState(db: Executor, clusterId: string, code: string, state: ActivityState) {
  await ensureClusterActivities(db, [clusterId]);
  const [row] = await db
    .update(activities)
    .set({ ...state, updatedAt: new Date() })
    .where(and(eq(activities.clusterId, clusterId), eq(activities.code, code)))
    .returning();
  if (!row) throw new Error(`activity ${code} of cluster ${clusterId} missing`);
  return row;
}
