import { asTyped, DATA_KEYS, IJO, type IjoDto, type ijoSchema } from '@trasa/domain';
import { and, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { activities, activityFiles, ijoHolders } from '../../db/schema-activities.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import { type Executor, serbianOrder } from '../../platform/database.js';
import { conflict, notFound } from '../../platform/errors.js';
import { onConstraint, UNIQUE_VIOLATION } from '../../platform/pgErrors.js';
import { assertMayEditIjo } from './policy.js';
import { presentIjo } from './presenter.js';

export type RequestInfo = { ip: string; url: string };
export type IjoInput = z.output<typeof ijoSchema>;

const nameTaken = () => conflict(IJO.nameTaken, { naziv: IJO.nameTaken });

/**
 * Names are unique with case, script, diacritics, punctuation and spacing folded (trasa_fold, then only
 * letters and digits: 'JP „Putevi Srbije“', 'jp putevi srbije' and 'ЈП Путеви Србије' are one holder).
 * The unique index on lower(naziv) holds within a script; the folded check runs under one lock for the
 * codebook, so two concurrent saves can't both pass it.
 */
const holderKey = (name: SQL) => sql`regexp_replace(trasa_fold(${name}), '[^[:alnum:]]+', '', 'g')`;

async function assertNameFree(tx: Executor, naziv: string, exceptId?: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('trasa:ijo-holders'))`);
  const [taken] = await tx
    .select({ id: ijoHolders.id })
    .from(ijoHolders)
    .where(
      and(sql`${holderKey(sql`${ijoHolders.naziv}`)} = ${holderKey(sql`${naziv}`)}`, exceptId ? ne(ijoHolders.id, exceptId) : undefined),
    )
    .limit(1);
  if (taken) throw nameTaken();
}

/** GET /api/ijo: every holder, in the Serbian alphabet's order. */
export async function listIjos(ctx: AppContext): Promise<IjoDto[]> {
  const rows = await ctx.db.select().from(ijoHolders).orderBy(serbianOrder(ijoHolders.naziv), ijoHolders.id);
  return rows.map(presentIjo);
}

export async function createIjo(ctx: AppContext, actor: Actor, input: IjoInput, req: RequestInfo): Promise<IjoDto> {
  assertMayEditIjo(actor);
  return onConstraint(
    () =>
      ctx.db.transaction(async (tx) => {
        await assertNameFree(tx, input.naziv);
        const [row] = await tx.insert(ijoHolders).values({ naziv: input.naziv, odgovoran: input.odgovoran }).returning();
        if (!row) throw new Error('holder not created');
        await writeLog(tx, {
          actor,
          ...req,
          message: `Korisnik ${asTyped(actor.email)} je dodao IJO ${asTyped(row.naziv)} (${row.odgovoran}).`,
        });
        return presentIjo(row);
      }),
    { [UNIQUE_VIOLATION]: nameTaken },
  );
}

export async function editIjo(ctx: AppContext, actor: Actor, id: string, input: IjoInput, req: RequestInfo): Promise<IjoDto> {
  assertMayEditIjo(actor);
  return onConstraint(
    () =>
      ctx.db.transaction(async (tx) => {
        const [existing] = await tx.select().from(ijoHolders).where(eq(ijoHolders.id, id)).for('update');
        if (!existing) throw notFound();
        await assertNameFree(tx, input.naziv, id);
        const [row] = await tx
          .update(ijoHolders)
          .set({ naziv: input.naziv, odgovoran: input.odgovoran, updatedAt: new Date() })
          .where(eq(ijoHolders.id, id))
          .returning();
        if (!row) throw notFound();
        const renamed = existing.naziv === row.naziv ? '' : ` u ${asTyped(row.naziv)}`;
        await writeLog(tx, {
          actor,
          ...req,
          message: `Korisnik ${asTyped(actor.email)} je izmenio IJO ${asTyped(existing.naziv)}${renamed} (${row.odgovoran}).`,
        });
        return presentIjo(row);
      }),
    { [UNIQUE_VIOLATION]: nameTaken },
  );
}

/**
 * How many clusters use the holder: an activity's data names it (A6.1/A7 'Ijos' and 'A7IjoChecked' are
 * comma-joined ids, 'A7Taksa' carries it as ref) or a live A7 file is filed under it.
 */
export async function clustersUsingIjo(db: Executor, id: string): Promise<number> {
  const listKeys = [DATA_KEYS.holders, DATA_KEYS.a7Checked];
  const result = await db.execute<{ n: number }>(sql`
    select count(distinct a.cluster_id)::int as n
    from ${activities} a
    where exists (
        select 1
        from jsonb_array_elements(case when jsonb_typeof(a.podaci) = 'array' then a.podaci else '[]'::jsonb end) e
        where (e->>'key' = any(${sql.param(listKeys)}::text[])
               and ${id} = any(string_to_array(replace(coalesce(e->>'vrednost', ''), ' ', ''), ',')))
           or (e->>'key' = ${DATA_KEYS.a7Fee} and e->>'ref' = ${id})
      )
      or exists (
        select 1 from ${activityFiles} f
        where f.activity_id = a.id and f.slot = ${id} and f.deleted_at is null
      )`);
  return result.rows[0]?.n ?? 0;
}

/** A holder an activity refers to stays (its fee and files would lose their name): 409 naming how many clusters. */
export async function deleteIjo(ctx: AppContext, actor: Actor, id: string, req: RequestInfo): Promise<string> {
  assertMayEditIjo(actor);
  return ctx.db.transaction(async (tx) => {
    const [existing] = await tx.select().from(ijoHolders).where(eq(ijoHolders.id, id)).for('update');
    if (!existing) throw notFound();
    const used = await clustersUsingIjo(tx, id);
    if (used > 0) throw conflict(IJO.inUse(asTyped(existing.naziv), used));
    await tx.delete(ijoHolders).where(eq(ijoHolders.id, id));
    await writeLog(tx, { actor, ...req, message: `Korisnik ${asTyped(actor.email)} je obrisao IJO ${asTyped(existing.naziv)}.` });
    return IJO.deleted;
  });
}
