import { asTyped, type CatalogueEdit, type CatalogueEntryDto, KLIZNO } from '@trasa/domain';
import { asc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { activityCatalogue } from '../../db/schema-activities.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import { notFound } from '../../platform/errors.js';
import { presentCatalogueEntry } from './presenter.js';

export type RequestInfo = { ip: string; url: string };

/**
 * The activity catalogue on /app/aktivnosti (spec 3 §2.3; activity-catalogue.md). The Admin changes
 * naziv, rok, uputstvo and dokumenta; codes, responsible parties, flow, control flags and file counts are
 * the product's (synchronised from the domain on every start). A new rok is read when an activity
 * starts: activities already started keep their deadline (docs/decisions.md).
 */

/** GET /api/activity/catalogue: every entry in catalogue order. */
export async function listCatalogue(ctx: AppContext): Promise<CatalogueEntryDto[]> {
  const rows = await ctx.db.select().from(activityCatalogue).orderBy(asc(activityCatalogue.position), asc(activityCatalogue.code));
  return rows.map(presentCatalogueEntry);
}

/** PATCH /api/activity/catalogue/:code: an unknown code is 404; fields left out stay as they are. */
export async function editCatalogueEntry(
  ctx: AppContext,
  actor: Actor,
  code: string,
  input: CatalogueEdit,
  req: RequestInfo,
): Promise<CatalogueEntryDto> {
  return ctx.db.transaction(async (tx) => {
    const [existing] = await tx.select().from(activityCatalogue).where(eq(activityCatalogue.code, code)).for('update');
    if (!existing) throw notFound();
    const changes: Partial<typeof activityCatalogue.$inferInsert> = {};
    if (input.naziv !== undefined) changes.naziv = input.naziv;
    if (input.rok !== undefined) changes.rok = input.rok === KLIZNO ? null : input.rok;
    if (input.uputstvo !== undefined) changes.uputstvo = input.uputstvo;
    if (input.dokumenta !== undefined) changes.dokumenta = input.dokumenta;
    if (Object.keys(changes).length === 0) return presentCatalogueEntry(existing);
    const [row] = await tx
      .update(activityCatalogue)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(activityCatalogue.code, code))
      .returning();
    if (!row) throw notFound();
    await writeLog(tx, { actor, ...req, message: `Korisnik ${asTyped(actor.email)} je izmenio aktivnost ${asTyped(code)} u katalogu.` });
    return presentCatalogueEntry(row);
  });
}
