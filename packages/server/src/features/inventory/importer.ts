import { amount, asTyped, foldForSearch, type ImportDocument, INVENTORY, inventoryIsoDate, spreadsheetSafe } from '@trasa/domain';
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { AppContext } from '../../context.js';
import { clusters } from '../../db/schema-clusters.js';
import { inventoryContracts, inventoryItems, inventoryTypes } from '../../db/schema-inventory.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import { serbianOrder } from '../../platform/database.js';
import { badRequest } from '../../platform/errors.js';
import type { RowLimit } from '../../platform/spreadsheet.js';
import { clusterScopeOf } from '../clusters/policy.js';
import { type Column, headersOf, keyedRows } from '../imports/columns.js';
import { chunks, Report, rowError } from '../imports/report.js';
import type { UploadedSheet } from '../imports/upload.js';
import { assertInventoryUser, type RequestInfo } from './access.js';
import { numberKey } from './contracts.js';
import { contractsOfLocation, lockLocation } from './items.js';

/**
 * POST /api/inventory/import?lokacija={id}[&ugovor={id}] (spec 3 §2.10, §5): a row per item of the
 * location. A row is the same row when location, item type and handover date match: one already recorded
 * is skipped with a warning, so importing a file again changes nothing. Valid rows go in one transaction.
 */
export const INVENTORY_COLUMNS = [
  { key: 'sifra', names: ['Šifra', 'sifra', 'šifra stavke', 'code'] },
  { key: 'naziv', names: ['Naziv', 'naziv stavke', 'stavka', 'tip inventara'] },
  { key: 'kolicina', names: ['Količina', 'kolicina', 'kol', 'quantity'] },
  { key: 'datum', names: ['Datum primopredaje', 'datumPrimopredaje', 'datum'] },
  { key: 'cenaRsd', names: ['Cena RSD', 'cenaRsd', 'cena (RSD)', 'cena'] },
  { key: 'ugovor', names: ['Broj ugovora', 'ugovor'] },
] as const satisfies readonly Column[];

export const MAX_IMPORT_ROWS = 5000;

/** The reader refuses the sheet's non-empty row past 5,000 (a csv while it uploads), in the inventory's words. */
export const INVENTORY_ROW_LIMIT: RowLimit = { maxRows: MAX_IMPORT_ROWS, message: INVENTORY.importTooManyRows };

const kolicinaSchema = amount(3, 1e9, true, true);
const cenaSchema = amount(2, 1e12, false, true);

/** 'YYYY-MM-DD', 'DD.MM.YYYY' or 'D.M.YYYY.' as YYYY-MM-DD, or null. */
export function importDate(text: string): string | null {
  const t = text.trim();
  const dotted = /^(\d{1,2})\.(\d{1,2})\.(\d{4})\.?$/.exec(t);
  const iso = dotted ? `${dotted[3]}-${dotted[2]?.padStart(2, '0')}-${dotted[1]?.padStart(2, '0')}` : t.slice(0, 10);
  const parsed = inventoryIsoDate.safeParse(iso);
  return parsed.success && (dotted || /^\d{4}-\d{2}-\d{2}(T.*)?$/.test(t)) ? parsed.data : null;
}

type Prepared = { red: number; typeId: string; contractId: string | null; kolicina: number; cenaRsd: number; datum: string };

export async function importInventory(
  ctx: AppContext,
  actor: Actor,
  sheet: UploadedSheet,
  q: { lokacija: string; ugovor?: string | undefined },
  req: RequestInfo,
): Promise<ImportDocument> {
  assertInventoryUser(actor);
  const scope = await clusterScopeOf(ctx.db, actor);
  const types = await ctx.db.select().from(inventoryTypes);
  const bySifra = new Map<string, (typeof types)[number]>();
  const byName = new Map<string, (typeof types)[number][]>();
  for (const t of types) {
    if (t.sifra.trim()) bySifra.set(t.sifra.trim().toLowerCase(), t);
    const k = foldForSearch(t.naziv);
    byName.set(k, [...(byName.get(k) ?? []), t]);
  }
  const report = new Report();
  const rows: { red: number; values: Record<(typeof INVENTORY_COLUMNS)[number]['key'], string> }[] = [];
  for await (const r of keyedRows(sheet.rows(), INVENTORY_COLUMNS, ['kolicina', 'datum'])) {
    if (Object.values(r.values).every((v) => v.trim() === '')) continue;
    rows.push({ red: r.row, values: r.values });
  }

  return ctx.db.transaction(async (tx) => {
    await lockLocation(tx, scope, q.lokacija);
    const linked = await contractsOfLocation(tx, q.lokacija);
    if (q.ugovor && !linked.some((c) => c._id === q.ugovor)) {
      throw badRequest(INVENTORY.locationNotOnContract, { ugovor: INVENTORY.locationNotOnContract });
    }
    const existing = await tx
      .select({ typeId: inventoryItems.typeId, datum: inventoryItems.datumPrimopredaje })
      .from(inventoryItems)
      .where(eq(inventoryItems.clusterId, q.lokacija));
    const known = new Set(existing.map((e) => `${e.typeId}|${e.datum}`));
    const inFile = new Set<string>();
    const ready: Prepared[] = [];
    // Whether an inventory contract with a number exists at all (by its folded number), asked once per number.
    const contractExists = new Map<string, boolean>();
    const existsByNumber = async (broj: string): Promise<boolean> => {
      const key = numberKey(broj);
      let found = contractExists.get(key);
      if (found === undefined) {
        found =
          (await tx.select({ id: inventoryContracts.id }).from(inventoryContracts).where(eq(inventoryContracts.brojKey, key)).limit(1))
            .length > 0;
        contractExists.set(key, found);
      }
      return found;
    };

    for (const { red, values } of rows) {
      const label = values.sifra.trim() || values.naziv.trim();
      const row = report.add(red, label);
      const key = label || String(red);
      // The codebook entry: by code first, then by name (in either script, case aside).
      let type = values.sifra.trim() ? bySifra.get(values.sifra.trim().toLowerCase()) : undefined;
      if (!type && values.naziv.trim()) {
        const found = byName.get(foldForSearch(values.naziv.trim())) ?? [];
        if (found.length === 1) type = found[0];
      }
      if (!label) rowError(row, key, INVENTORY.required);
      else if (!type) rowError(row, key, INVENTORY.importRowUnknownType(asTyped(label)));
      const kolicina = kolicinaSchema.safeParse(values.kolicina);
      if (!kolicina.success) rowError(row, key, `Količina: ${kolicina.error.issues[0]?.message ?? INVENTORY.mustBeNumber}`);
      const datum = importDate(values.datum);
      if (!datum) rowError(row, key, `Datum primopredaje: ${values.datum.trim() ? INVENTORY.invalidDate : INVENTORY.required}`);
      let cenaRsd = type ? Number(type.cenaRsd) : 0;
      if (values.cenaRsd.trim()) {
        const c = cenaSchema.safeParse(values.cenaRsd);
        if (c.success) cenaRsd = c.data;
        else rowError(row, key, `Cena RSD: ${c.error.issues[0]?.message ?? INVENTORY.mustBeNumber}`);
      }
      let contractId: string | null = q.ugovor ?? null;
      if (values.ugovor.trim()) {
        const c = linked.find((l) => numberKey(l.broj) === numberKey(values.ugovor));
        if (c) contractId = c._id;
        else if (await existsByNumber(values.ugovor)) rowError(row, key, INVENTORY.importRowUnknownContract(asTyped(values.ugovor.trim())));
        else rowError(row, key, INVENTORY.importRowNoSuchContract(asTyped(values.ugovor.trim())));
      } else if (!contractId) {
        if (linked.length === 1) contractId = linked[0]?._id ?? null;
        else if (linked.length > 1) rowError(row, key, INVENTORY.importRowAmbiguousContract);
      }
      if (row.errors.length > 0 || !type || !kolicina.success || !datum) continue;
      const natural = `${type.id}|${datum}`;
      if (known.has(natural)) {
        row.warnings.push(INVENTORY.importRowDuplicate);
        continue;
      }
      if (inFile.has(natural)) {
        row.warnings.push(INVENTORY.importRowSameFile);
        continue;
      }
      inFile.add(natural);
      ready.push({ red, typeId: type.id, contractId, kolicina: kolicina.data, cenaRsd, datum });
      row.success = true;
    }

    for (const part of chunks(ready)) {
      await tx.insert(inventoryItems).values(
        part.map((p) => ({
          typeId: p.typeId,
          clusterId: q.lokacija,
          contractId: p.contractId,
          kolicina: p.kolicina,
          cenaRsd: p.cenaRsd,
          datumPrimopredaje: p.datum,
          createdBy: actor.id,
        })),
      );
    }
    const [c] = await tx
      .select({ naziv: clusters.naziv })
      .from(clusters)
      .where(and(eq(clusters.id, q.lokacija)));
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je uvezao inventar lokacije ${asTyped(c?.naziv ?? '')} iz fajla ${asTyped(sheet.originalName)}: ${ready.length} stavki.`,
    });
    return report.document();
  });
}

/** GET /api/inventory/download-template: the header row, the rules, and the codebook to copy from. */
export async function inventoryTemplate(ctx: AppContext): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Траса';
  const sheet = workbook.addWorksheet('Inventar');
  sheet.addRow(headersOf(INVENTORY_COLUMNS));
  sheet.getRow(1).font = { bold: true };
  sheet.columns.forEach((c) => {
    c.width = 22;
  });
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  const notes = workbook.addWorksheet('Uputstvo');
  notes.addRow(['Kolona', 'Pravilo']).font = { bold: true };
  for (const row of [
    ['Šifra, Naziv', 'Stavka iz šifarnika opreme: šifra, ili naziv (dovoljno je jedno).'],
    ['Količina', 'Obavezna; broj sa tačkom ili zarezom (npr. metri kabla: 120,5).'],
    ['Datum primopredaje', 'Obavezan; YYYY-MM-DD ili DD.MM.YYYY.'],
    ['Cena RSD', 'Jedinična cena u dinarima; prazno: cena iz šifarnika.'],
    ['Broj ugovora', 'Ugovor za inventar sa kojim je lokacija povezana; prazno: jedini ugovor lokacije.'],
    ['Ponovni uvoz', 'Red sa istom stavkom i istim datumom primopredaje na lokaciji se preskače.'],
  ]) {
    notes.addRow(row);
  }
  notes.getColumn(1).width = 24;
  notes.getColumn(2).width = 100;
  const codebook = workbook.addWorksheet('Šifarnik');
  codebook.addRow(['Šifra', 'Naziv', 'Tip', 'Jedinica', 'Cena RSD']).font = { bold: true };
  const types = await ctx.db.select().from(inventoryTypes).orderBy(inventoryTypes.tip, serbianOrder(inventoryTypes.naziv));
  for (const t of types)
    codebook.addRow([spreadsheetSafe(t.sifra), spreadsheetSafe(t.naziv), t.tip, spreadsheetSafe(t.jedinica), Number(t.cenaRsd)]);
  codebook.columns.forEach((c) => {
    c.width = 24;
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
