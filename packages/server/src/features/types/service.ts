import { asTyped, GROUP_TYPE_CODES, type GroupTypeDto, type groupTypeSchema, USERS } from '@trasa/domain';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { groups, groupTypes } from '../../db/schema.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { conflict, notFound } from '../../platform/errors.js';
import { lockNames, sameFoldedName } from '../../platform/names.js';
import { FOREIGN_KEY_VIOLATION, onConstraint, UNIQUE_VIOLATION } from '../../platform/pgErrors.js';

export type RequestInfo = { ip: string; url: string };

/** The codebook's texts (USERS in @trasa/domain; ours, in the Latin style of the codebook). */
export const TYPE_TEXTS = {
  created: USERS.typeCreated,
  edited: USERS.typeEdited,
  deleted: USERS.typeDeleted,
  nameTaken: USERS.typeNameTaken,
};

type GroupTypeRow = typeof groupTypes.$inferSelect;

export function presentType(row: GroupTypeRow): GroupTypeDto {
  return { _id: row.id, naziv: row.naziv, kratakNaziv: row.kratakNaziv, code: row.code };
}

const nameTaken = () => conflict(TYPE_TEXTS.nameTaken, { naziv: TYPE_TEXTS.nameTaken });

/**
 * Names are unique with case and script folded ('Izvođač' = 'ИЗВОЂАЧ', platform/names.ts); the index on
 * lower(naziv) holds only the case, so writers serialise on one lock while they check.
 */
async function assertNameFree(db: Executor, naziv: string, exceptId?: string): Promise<void> {
  await lockNames(db, 'group-types');
  const [taken] = await db
    .select({ id: groupTypes.id })
    .from(groupTypes)
    .where(and(sameFoldedName(groupTypes.naziv, naziv), exceptId ? ne(groupTypes.id, exceptId) : undefined))
    .limit(1);
  if (taken) throw nameTaken();
}

/** The built-in types first, in their fixed order, then the codebook's own by name. */
export async function listTypes(ctx: AppContext): Promise<GroupTypeDto[]> {
  const rows = await ctx.db
    .select()
    .from(groupTypes)
    .orderBy(sql`array_position(${sql.param([...GROUP_TYPE_CODES])}::text[], ${groupTypes.code})`, groupTypes.naziv, groupTypes.id);
  return rows.map(presentType);
}

export async function createType(
  ctx: AppContext,
  actor: Actor,
  input: z.output<typeof groupTypeSchema>,
  req: RequestInfo,
): Promise<GroupTypeDto> {
  return ctx.db.transaction(async (tx) => {
    await assertNameFree(tx, input.naziv);
    const [row] = await tx
      .insert(groupTypes)
      .values({ naziv: input.naziv, kratakNaziv: input.kratakNaziv })
      .onConflictDoNothing()
      .returning();
    if (!row) throw nameTaken();
    await writeLog(tx, { actor, ...req, message: `Korisnik ${asTyped(actor.email)} je dodao tip grupe ${asTyped(row.naziv)}.` });
    return presentType(row);
  });
}

/** Renames a type (built-in ones too: their code, which the rules use, stays). */
export async function editType(
  ctx: AppContext,
  actor: Actor,
  id: string,
  input: z.output<typeof groupTypeSchema>,
  req: RequestInfo,
): Promise<GroupTypeDto> {
  return ctx.db.transaction(async (tx) => {
    const [existing] = await tx.select().from(groupTypes).where(eq(groupTypes.id, id)).limit(1);
    if (!existing) throw notFound();
    await assertNameFree(tx, input.naziv, id);
    const [row] = await onConstraint(
      () => tx.update(groupTypes).set({ naziv: input.naziv, kratakNaziv: input.kratakNaziv }).where(eq(groupTypes.id, id)).returning(),
      { [UNIQUE_VIOLATION]: nameTaken },
    );
    if (!row) throw notFound();
    await writeLog(tx, { actor, ...req, message: `Korisnik ${asTyped(actor.email)} je izmenio tip grupe ${asTyped(existing.naziv)}.` });
    return presentType(row);
  });
}

/** Built-in types (with a code) and types some group has are kept. */
export async function deleteType(ctx: AppContext, actor: Actor, id: string, req: RequestInfo): Promise<string> {
  return ctx.db.transaction(async (tx) => {
    const [existing] = await tx.select().from(groupTypes).where(eq(groupTypes.id, id)).for('update');
    if (!existing) throw notFound();
    if (existing.code !== null) throw conflict(USERS.typeBuiltin);
    const [used] = await tx.select({ id: groups.id }).from(groups).where(eq(groups.typeId, id)).limit(1);
    if (used) throw conflict(USERS.typeInUse);
    await onConstraint(() => tx.delete(groupTypes).where(eq(groupTypes.id, id)), {
      [FOREIGN_KEY_VIOLATION]: () => conflict(USERS.typeInUse),
    });
    await writeLog(tx, { actor, ...req, message: `Korisnik ${asTyped(actor.email)} je obrisao tip grupe ${asTyped(existing.naziv)}.` });
    return TYPE_TEXTS.deleted;
  });
}
