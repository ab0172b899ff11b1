import type { InventoryTip, StocktakingList, StocktakingRow } from '@trasa/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { clusters } from '../../db/schema-clusters.js';
import { inventoryItems, inventoryTypes } from '../../db/schema-inventory.js';
import type { Actor } from '../../platform/auth.js';
import { type Executor, serbianOrder } from '../../platform/database.js';
import { notFound } from '../../platform/errors.js';
import { appToday } from '../../platform/time.js';
import { clusterScopeOf, visibleClusterCondition } from '../clusters/policy.js';
import { assertInventoryUser } from './access.js';
import { UUID } from './reportAll.js';

/**
 * A location's stocktaking list.
 */
/**
 * The stocktaking list of a location from the server's own records: the items summed per codebook entry
 * (kolicina; value at each item's own price), in the codebook's order, split by tip. Items whose handover
 * date is after the application's today (`today`, YYYY-MM-DD) are planned, not handed over: they are summed
 * apart (a second row of the entry, `planirano: true`, after the handed-over one) and counted in
 * `planiranoRsd`, not in `ukupnoRsd`.
 */
export async function buildStocktaking(
  db: Executor,
  clusterId: string,
  today: string = appToday(),
): Promise<Omit<StocktakingList, 'email' | 'naziv' | 'locId'>> {
  // The flag computed once per item in a subquery, so the outer query groups by a column (not by a
  // parameterised expression, which PostgreSQL would not match between the select and the group by).
  const items = db
    .select({
      typeId: inventoryItems.typeId,
      kolicina: inventoryItems.kolicina,
      vrednost: sql<string>`round(${inventoryItems.kolicina} * ${inventoryItems.cenaRsd}, 2)`.as('vrednost'),
      datum: inventoryItems.datumPrimopredaje,
      planirano: sql<boolean>`(${inventoryItems.datumPrimopredaje} > ${today}::date)`.as('planirano'),
    })
    .from(inventoryItems)
    .where(eq(inventoryItems.clusterId, clusterId))
    .as('i');
  const rows = await db
    .select({
      id: inventoryTypes.id,
      tip: inventoryTypes.tip,
      redniBroj: inventoryTypes.redniBroj,
      sifra: inventoryTypes.sifra,
      naziv: inventoryTypes.naziv,
      kratakNaziv: inventoryTypes.kratakNaziv,
      jedinica: inventoryTypes.jedinica,
      garancija: inventoryTypes.trajanjeGarancije,
      kolicina: sql<string>`sum(${items.kolicina})`,
      ukupno: sql<string>`sum(${items.vrednost})`,
      datum: sql<string>`max(${items.datum})::text`,
      planirano: items.planirano,
    })
    .from(items)
    .innerJoin(inventoryTypes, eq(inventoryTypes.id, items.typeId))
    .groupBy(inventoryTypes.id, items.planirano)
    .orderBy(
      sql`${inventoryTypes.redniBroj} asc nulls last`,
      serbianOrder(inventoryTypes.naziv),
      asc(inventoryTypes.id),
      asc(items.planirano),
    );
  const lists: Record<InventoryTip, StocktakingRow[]> = { Materijal: [], Oprema: [], Radovi: [] };
  let ukupnoRsd = 0;
  let planiranoRsd = 0;
  for (const r of rows) {
    const kolicina = Number(r.kolicina);
    const ukupno = Number(r.ukupno);
    const planirano = r.planirano === true;
    if (planirano) planiranoRsd += Math.round(ukupno * 100);
    else ukupnoRsd += Math.round(ukupno * 100);
    lists[r.tip as InventoryTip]?.push({
      _id: r.id,
      redniBroj: r.redniBroj,
      sifra: r.sifra,
      naziv: r.naziv,
      kratakNaziv: r.kratakNaziv,
      jedinica: r.jedinica,
      kolicina,
      // The average unit price of the summed items (equal to the price when all items share one).
      cenaRsd: kolicina > 0 ? Math.round((ukupno / kolicina) * 100) / 100 : 0,
      ukupnoRsd: ukupno,
      trajanjeGarancije: r.garancija,
      datumPrimopredaje: r.datum,
      planirano,
    });
  }
  return {
    materijali: lists.Materijal,
    oprema: lists.Oprema,
    radovi: lists.Radovi,
    ukupnoRsd: ukupnoRsd / 100,
    planiranoRsd: planiranoRsd / 100,
  };
}

/**
 * GET /api/inventory-reports/popisna-lista?naziv=: `naziv` is the location's id or its exact name (case
 * aside); a location outside the caller's visibility is 404 like a missing one.
 */
export async function stocktakingList(ctx: AppContext, actor: Actor, naziv: string): Promise<StocktakingList> {
  assertInventoryUser(actor);
  const scope = await clusterScopeOf(ctx.db, actor);
  const key = naziv.trim();
  if (!key) throw notFound();
  const [c] = await ctx.db
    .select({ id: clusters.id, naziv: clusters.naziv, email: clusters.skolaEmail })
    .from(clusters)
    .where(and(UUID.test(key) ? eq(clusters.id, key) : sql`lower(${clusters.naziv}) = lower(${key})`, visibleClusterCondition(scope)))
    .limit(1);
  if (!c) throw notFound();
  return { ...(await buildStocktaking(ctx.db, c.id)), locId: c.id, email: c.email, naziv: c.naziv };
}
