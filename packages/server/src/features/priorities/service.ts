import type { prioritySchema } from '@trasa/domain';
import { asTyped } from '@trasa/domain';
import { and, asc, eq, ne } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { priorities } from '../../db/schema-clusters.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { conflict, notFound } from '../../platform/errors.js';
import { lockNames, sameFoldedName } from '../../platform/names.js';

export type RequestInfo = { ip: string; url: string };
export type PriorityInput = z.output<typeof prioritySchema>;
export type PriorityDto = { _id: string; naziv: string; broj: number };

/** Texts of the priorities codebook the domain does not have yet (Latin, like the codebook screen). */
export const PRIORITY_TEXTS = {
  created: 'Uspešno ste dodali prioritet.',
  edited: 'Uspešno ste izmenili prioritet.',
  deleted: 'Uspešno ste obrisali prioritet.',
  nameTaken: 'Prioritet sa tim nazivom već postoji.',
} as const;

type PriorityRow = typeof priorities.$inferSelect;

export function presentPriority(row: PriorityRow): PriorityDto {
  return { _id: row.id, naziv: row.naziv, broj: row.broj };
}

const nameTaken = () => conflict(PRIORITY_TEXTS.nameTaken, { naziv: PRIORITY_TEXTS.nameTaken });

/**
 * Names are unique with case and script folded ('Visok' = 'ВИСОК', platform/names.ts). The table has no
 * unique index yet, so writers take one lock for the codebook: two concurrent saves of one name can't
 * both pass the check.
 */
async function assertNameFree(tx: Executor, naziv: string, exceptId?: string): Promise<void> {
  await lockNames(tx, 'priorities');
  const [taken] = await tx
    .select({ id: priorities.id })
    .from(priorities)
    .where(and(sameFoldedName(priorities.naziv, naziv), exceptId ? ne(priorities.id, exceptId) : undefined))
    .limit(1);
  if (taken) throw nameTaken();
}

/** GET /api/priority: by broj (1 Nizak, 2 Srednji, 3 Visok), then name. */
export async function listPriorities(ctx: AppContext): Promise<PriorityDto[]> {
  const rows = await ctx.db.select().from(priorities).orderBy(asc(priorities.broj), asc(priorities.naziv), asc(priorities.id));
  return rows.map(presentPriority);
}

export async function createPriority(ctx: AppContext, actor: Actor, input: PriorityInput, req: RequestInfo): Promise<PriorityDto> {
  return ctx.db.transaction(async (tx) => {
    await assertNameFree(tx, input.naziv);
    const [row] = await tx.insert(priorities).values({ naziv: input.naziv, broj: input.broj }).returning();
    if (!row) throw new Error('priority not created');
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je dodao prioritet ${asTyped(row.naziv)} (${asTyped(row.broj)}).`,
    });
    return presentPriority(row);
  });
}

export async function editPriority(
  ctx: AppContext,
  actor: Actor,
  id: string,
  input: PriorityInput,
  req: RequestInfo,
): Promise<PriorityDto> {
  return ctx.db.transaction(async (tx) => {
    const [existing] = await tx.select().from(priorities).where(eq(priorities.id, id)).for('update');
    if (!existing) throw notFound();
    await assertNameFree(tx, input.naziv, id);
    const [row] = await tx.update(priorities).set({ naziv: input.naziv, broj: input.broj }).where(eq(priorities.id, id)).returning();
    if (!row) throw notFound();
    await writeLog(tx, { actor, ...req, message: `Korisnik ${asTyped(actor.email)} je izmenio prioritet ${asTyped(existing.naziv)}.` });
    return presentPriority(row);
  });
}

/** Nothing refers to a priority row (topics keep their prioritet as a value), so any one may go. */
export async function deletePriority(ctx: AppContext, actor: Actor, id: string, req: RequestInfo): Promise<string> {
  return ctx.db.transaction(async (tx) => {
    const [existing] = await tx.delete(priorities).where(eq(priorities.id, id)).returning();
    if (!existing) throw notFound();
    await writeLog(tx, { actor, ...req, message: `Korisnik ${asTyped(actor.email)} je obrisao prioritet ${asTyped(existing.naziv)}.` });
    return PRIORITY_TEXTS.deleted;
  });
}
