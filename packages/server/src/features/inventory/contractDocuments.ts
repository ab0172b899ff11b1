import {
  asTyped,
  INVENTORY,
  type InventoryContractBody,
  type InventoryContractDto,
  inventoryContractSchema,
  type RefusedDocument,
} from '@trasa/domain';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { inventoryContractFiles, inventoryContracts } from '../../db/schema-inventory.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { conflict, notFound, parseOrBadRequest } from '../../platform/errors.js';
import { onConstraint, UNIQUE_VIOLATION } from '../../platform/pgErrors.js';
import type { ContractForm } from '../contracts/form.js';
import { removeStored, uploadMessage } from '../contracts/form.js';
import { assertInventoryUser, type RequestInfo } from './access.js';
import { numberKey, presentContracts } from './contractRows.js';

/**
 * An inventory contract's form with its documents (spec 3 §5): the edited fields and the documents saved
 * together.
 */
/** The contract's fields the form of spec 3 §5 shows, when the request carries any (else null: documents only). */
const EDITABLE = ['naziv', 'broj', 'datumPocetka', 'datumZavrsetka'] as const;
function editedFields(form: ContractForm): Partial<Record<(typeof EDITABLE)[number], string>> | null {
  const out: Partial<Record<(typeof EDITABLE)[number], string>> = {};
  for (const name of EDITABLE) {
    const values = form.fields.get(name);
    if (values !== undefined) out[name] = values.at(-1) ?? '';
  }
  return Object.keys(out).length > 0 ? out : null;
}

/**
 * Edits naziv, broj, datumPocetka (and datumZavrsetka) with the creation's validation: the sent fields
 * over the stored ones, checked whole by the same schema, the number unique among inventory contracts.
 */
async function editContract(
  tx: Executor,
  actor: Actor,
  row: typeof inventoryContracts.$inferSelect,
  edit: Partial<Record<(typeof EDITABLE)[number], string>>,
  req: RequestInfo,
): Promise<typeof inventoryContracts.$inferSelect> {
  const input: z.output<typeof inventoryContractSchema> = parseOrBadRequest(inventoryContractSchema, {
    inventory: true,
    naziv: row.naziv,
    broj: row.broj,
    datumPocetka: row.datumPocetka,
    datumZavrsetka: row.datumZavrsetka ?? '',
    ...edit,
  } as InventoryContractBody);
  const taken = () => conflict(INVENTORY.contractNumberTaken, { broj: INVENTORY.contractNumberTaken });
  const key = numberKey(input.broj);
  if (key !== row.brojKey) {
    const [other] = await tx
      .select({ id: inventoryContracts.id })
      .from(inventoryContracts)
      .where(eq(inventoryContracts.brojKey, key))
      .limit(1);
    if (other) throw taken();
  }
  const [updated] = await onConstraint(
    () =>
      tx
        .update(inventoryContracts)
        .set({
          naziv: input.naziv,
          broj: input.broj,
          brojKey: key,
          datumPocetka: input.datumPocetka,
          datumZavrsetka: input.datumZavrsetka,
        })
        .where(eq(inventoryContracts.id, row.id))
        .returning(),
    { [UNIQUE_VIOLATION]: taken },
  );
  if (!updated) throw notFound();
  await writeLog(tx, {
    actor,
    ...req,
    message: `Korisnik ${asTyped(actor.email)} je izmenio ugovor za inventar ${asTyped(row.naziv)} (${asTyped(row.broj)}) u ${asTyped(input.naziv)} (${asTyped(input.broj)}).`,
  });
  return updated;
}

/**
 * POST /api/contract/contract/{id} of an inventory contract: its documents (fajl0…fajlN) and, when sent,
 * its fields (naziv, broj, datumPocetka, datumZavrsetka: an edit, validated as the creation).
 */
export async function saveDocuments(
  ctx: AppContext,
  actor: Actor,
  id: string,
  form: ContractForm,
  req: RequestInfo,
): Promise<{ message: string; contract: InventoryContractDto; odbijeni: RefusedDocument[] }> {
  try {
    assertInventoryUser(actor);
    const edit = editedFields(form);
    const contract = await ctx.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(inventoryContracts).where(eq(inventoryContracts.id, id)).for('update');
      if (!locked) throw notFound();
      const row = edit ? await editContract(tx, actor, locked, edit, req) : locked;
      if (form.files.length > 0) {
        const at = Date.now();
        await tx.insert(inventoryContractFiles).values(
          form.files.map((f, i) => ({
            createdAt: new Date(at + i),
            contractId: id,
            storedName: f.storedName,
            originalnoIme: f.originalName,
            mimetype: f.mimetype,
            size: f.size,
            uploadedBy: actor.id,
          })),
        );
        await writeLog(tx, {
          actor,
          ...req,
          message: `Korisnik ${asTyped(actor.email)} je dodao dokumente na ugovor za inventar ${asTyped(row.naziv)}: ${form.files.map((f) => asTyped(f.originalName)).join(', ')}.`,
        });
      }
      return row;
    });
    const [dto] = await presentContracts(ctx.db, [contract]);
    const message = uploadMessage(edit && form.files.length === 0 ? INVENTORY.contractEdited : INVENTORY.documentsUploaded, !!edit, form);
    return { message, contract: dto as InventoryContractDto, odbijeni: form.refused };
  } catch (err) {
    await removeStored(ctx.files, form.files);
    throw err;
  }
}
