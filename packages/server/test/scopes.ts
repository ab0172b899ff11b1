import { eq } from 'drizzle-orm';
import { users } from '../src/db/schema.js';
import { type ClusterScope, clusterScopeOf } from '../src/features/clusters/policy.js';
import { selectUserWithRelations } from '../src/features/users/presenter.js';
import { toActor } from '../src/platform/auth.js';
import type { Executor } from '../src/platform/database.js';
import { createCluster, createContract, createOrgTree } from '../src/seed/factories.js';

/** The cluster scope of a stored user, as a request of theirs computes it (clusterScopeOf of their actor). */
export async function scopeOfUser(db: Executor, user: { id: string }): Promise<ClusterScope> {
  const [row] = await selectUserWithRelations(db).where(eq(users.id, user.id));
  if (!row) throw new Error('no user');
  return clusterScopeOf(db, toActor(row));
}

/**
 * An organisation (createOrgTree) and three clusters named `${tag} …`: the leaf's own (responsible), one
 * seen through a contract of the root (the group tree), and one of the supervision only.
 */
export async function scopedClusters(db: Executor, tag: string) {
  const tree = await createOrgTree(db, tag);
  const own = await createCluster(db, { naziv: `${tag} Ćuprija`, groupIds: [tree.leaf.id] });
  const contract = await createContract(db, { kind: 'contractIzv', naziv: `${tag} ugovor`, groupIds: [tree.root.id] });
  const byContract = await createCluster(db, { naziv: `${tag} Arilje`, contract });
  const foreign = await createCluster(db, { naziv: `${tag} Bor`, groupIds: [tree.other.id] });
  return { tree, own, byContract, foreign };
}
