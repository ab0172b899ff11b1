import type { InventoryContractDto } from '@trasa/domain';
import { asc, count, eq, inArray } from 'drizzle-orm';
import { inventoryContractFiles, inventoryContractLocations, inventoryContracts } from '../../db/schema-inventory.js';
import type { Executor } from '../../platform/database.js';
import { notFound } from '../../platform/errors.js';

/**
 * An inventory contract's row as the lists and forms read it: found by id, its number's key, presented with
 * its documents and locations count.
 */

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Numbers are unique among inventory contracts, case and white space aside. */
export const numberKey = (broj: string) => broj.replace(/\s/g, '').toLowerCase();

export const today = () => new Date().toISOString().slice(0, 10);

type ContractRow = typeof inventoryContracts.$inferSelect;

/** Whether the id names an inventory contract (a malformed id never does). */
export async function isInventoryContract(db: Executor, id: string | undefined): Promise<boolean> {
  if (!id || !UUID.test(id)) return false;
  const [row] = await db.select({ id: inventoryContracts.id }).from(inventoryContracts).where(eq(inventoryContracts.id, id)).limit(1);
  return !!row;
}

export async function presentContracts(db: Executor, rows: ContractRow[]): Promise<InventoryContractDto[]> {
  const ids = rows.map((r) => r.id);
  const files = ids.length
    ? await db
        .select()
        .from(inventoryContractFiles)
        .where(inArray(inventoryContractFiles.contractId, ids))
        .orderBy(asc(inventoryContractFiles.createdAt))
    : [];
  const counts = ids.length
    ? await db
        .select({ id: inventoryContractLocations.contractId, n: count() })
        .from(inventoryContractLocations)
        .where(inArray(inventoryContractLocations.contractId, ids))
        .groupBy(inventoryContractLocations.contractId)
    : [];
  return rows.map((r) => ({
    _id: r.id,
    naziv: r.naziv,
    broj: r.broj,
    datumPocetka: r.datumPocetka,
    datumZavrsetka: r.datumZavrsetka,
    status: r.datumZavrsetka && r.datumZavrsetka <= today() ? 'Završen' : 'U toku',
    inventory: true,
    document: r.id,
    fajlovi: files
      .filter((f) => f.contractId === r.id)
      .map((f) => ({
        _id: f.id,
        originalnoIme: f.originalnoIme,
        mimetype: f.mimetype,
        size: f.size,
        createdAt: f.createdAt.toISOString(),
      })),
    brojLokacija: counts.find((c) => c.id === r.id)?.n ?? 0,
  }));
}

export async function loadContract(db: Executor, id: string): Promise<ContractRow> {
  if (!UUID.test(id)) throw notFound();
  const [row] = await db.select().from(inventoryContracts).where(eq(inventoryContracts.id, id)).limit(1);
  if (!row) throw notFound();
  return row;
}
