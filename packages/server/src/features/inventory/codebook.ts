import {
  asTyped,
  INVENTORY,
  type InventoryTip,
  type InventoryValuta,
  type InvTypeDto,
  type invTypeSchema,
  type Sorting,
  type SortKey,
} from '@trasa/domain';
import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { inventoryItems, inventoryTypes } from '../../db/schema-inventory.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import { serbianOrder } from '../../platform/database.js';
import { conflict, notFound } from '../../platform/errors.js';
import { sameFoldedName } from '../../platform/names.js';
import { onConstraint, UNIQUE_VIOLATION } from '../../platform/pgErrors.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import { assertInventoryUser, type RequestInfo } from './access.js';

/** The equipment codebook (spec 3 §7 "Inventory types"): GET/POST /api/inv-type, PATCH/DELETE /api/inv-type/{id}. */

type TypeRow = typeof inventoryTypes.$inferSelect;
type TypeInput = z.output<typeof invTypeSchema>;

export function presentType(r: TypeRow): InvTypeDto {
  return {
    _id: r.id,
    naziv: r.naziv,
    kratakNaziv: r.kratakNaziv,
    tip: r.tip as InventoryTip,
    trajanjeGarancije: r.trajanjeGarancije,
    cena: Number(r.cena),
    valuta: r.valuta as InventoryValuta,
    cenaRsd: Number(r.cenaRsd),
    sifra: r.sifra,
    redniBroj: r.redniBroj,
    jedinica: r.jedinica,
  };
}

/** `sort` of the codebook (LIST_SORTS.invTypes): every column of its tables. */
const TYPE_SORTS: SortMap<'invTypes'> = {
  naziv: { text: inventoryTypes.naziv },
  kratakNaziv: { text: inventoryTypes.kratakNaziv },
  cena: { value: inventoryTypes.cena },
  cenaRsd: { value: inventoryTypes.cenaRsd },
  sifra: { text: inventoryTypes.sifra },
  jedinica: { text: inventoryTypes.jedinica },
  trajanjeGarancije: { value: inventoryTypes.trajanjeGarancije },
  redniBroj: { value: inventoryTypes.redniBroj },
};

/**
 * GET /api/inv-type[?tip]: the whole codebook (or one tip's), not paged: by tip, redniBroj, name, or by
 * `sort` (the web's tables page it themselves).
 */
export async function listTypes(
  ctx: AppContext,
  actor: Actor,
  tip?: InventoryTip,
  sorting: Sorting<SortKey<'invTypes'>> = {},
): Promise<{ invTypes: InvTypeDto[] }> {
  assertInventoryUser(actor);
  const byDefault = [
    asc(inventoryTypes.tip),
    sql`${inventoryTypes.redniBroj} asc nulls last`,
    serbianOrder(inventoryTypes.naziv),
    asc(inventoryTypes.id),
  ];
  const rows = await ctx.db
    .select()
    .from(inventoryTypes)
    .where(tip ? eq(inventoryTypes.tip, tip) : undefined)
    .orderBy(...orderOf(TYPE_SORTS, sorting, byDefault, inventoryTypes.id));
  return { invTypes: rows.map(presentType) };
}

const nameTaken = () => conflict(INVENTORY.typeNameTaken, { naziv: INVENTORY.typeNameTaken });

const values = (input: TypeInput) => ({
  naziv: input.naziv,
  kratakNaziv: input.kratakNaziv,
  tip: input.tip,
  trajanjeGarancije: input.trajanjeGarancije,
  cena: input.cena,
  valuta: input.valuta,
  // With RSD the dinar price follows the price (spec 3 §5), whatever was sent.
  cenaRsd: input.valuta === 'RSD' ? input.cena : input.cenaRsd,
  sifra: input.sifra,
  redniBroj: input.redniBroj,
  jedinica: input.jedinica,
});

/** Names are unique within a tip with case and script folded ('Кабл' = 'kabl'); 409 on naziv. */
async function assertNameFree(tx: Parameters<Parameters<AppContext['db']['transaction']>[0]>[0], input: TypeInput, except?: string) {
  const [taken] = await tx
    .select({ id: inventoryTypes.id })
    .from(inventoryTypes)
    .where(
      and(
        eq(inventoryTypes.tip, input.tip),
        sameFoldedName(inventoryTypes.naziv, input.naziv),
        except ? ne(inventoryTypes.id, except) : undefined,
      ),
    )
    .limit(1);
  if (taken) throw nameTaken();
}

export async function createType(ctx: AppContext, actor: Actor, input: TypeInput, req: RequestInfo): Promise<InvTypeDto> {
  assertInventoryUser(actor);
  return ctx.db.transaction(async (tx) => {
    await assertNameFree(tx, input);
    const [row] = await onConstraint(() => tx.insert(inventoryTypes).values(values(input)).returning(), { [UNIQUE_VIOLATION]: nameTaken });
    if (!row) throw notFound();
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je dodao tip inventara ${asTyped(row.naziv)} (${row.tip}).`,
    });
    return presentType(row);
  });
}

export async function editType(ctx: AppContext, actor: Actor, id: string, input: TypeInput, req: RequestInfo): Promise<InvTypeDto> {
  assertInventoryUser(actor);
  return ctx.db.transaction(async (tx) => {
    const [current] = await tx.select().from(inventoryTypes).where(eq(inventoryTypes.id, id)).for('update');
    if (!current) throw notFound();
    if (current.tip !== input.tip) {
      const [used] = await tx.select({ n: count() }).from(inventoryItems).where(eq(inventoryItems.typeId, id));
      if ((used?.n ?? 0) > 0) throw conflict(INVENTORY.typeTipLocked, { tip: INVENTORY.typeTipLocked });
    }
    await assertNameFree(tx, input, id);
    const [row] = await onConstraint(
      () =>
        tx
          .update(inventoryTypes)
          .set({ ...values(input), updatedAt: new Date() })
          .where(eq(inventoryTypes.id, id))
          .returning(),
      { [UNIQUE_VIOLATION]: nameTaken },
    );
    if (!row) throw notFound();
    await writeLog(tx, { actor, ...req, message: `Korisnik ${asTyped(actor.email)} je izmenio tip inventara ${asTyped(current.naziv)}.` });
    return presentType(row);
  });
}

export async function deleteType(ctx: AppContext, actor: Actor, id: string, req: RequestInfo): Promise<string> {
  assertInventoryUser(actor);
  return ctx.db.transaction(async (tx) => {
    const [current] = await tx.select().from(inventoryTypes).where(eq(inventoryTypes.id, id)).for('update');
    if (!current) throw notFound();
    const [used] = await tx.select({ n: count() }).from(inventoryItems).where(eq(inventoryItems.typeId, id));
    if ((used?.n ?? 0) > 0) throw conflict(INVENTORY.typeInUse(used?.n ?? 0));
    await tx.delete(inventoryTypes).where(eq(inventoryTypes.id, id));
    await writeLog(tx, { actor, ...req, message: `Korisnik ${asTyped(actor.email)} je obrisao tip inventara ${asTyped(current.naziv)}.` });
    return INVENTORY.typeDeleted;
  });
}
