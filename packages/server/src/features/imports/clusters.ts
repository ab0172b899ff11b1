import {
  asTyped,
  CLUSTERS,
  CONTRACTS,
  decimalRule,
  IMPORTS,
  type ImportDocument,
  type ImportReportRow,
  isReservedGroupName,
  LENGTH_DECIMALS,
  MONEY_DECIMALS,
} from '@trasa/domain';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { groups } from '../../db/schema.js';
import { clusterGroups, clusterSettlements, clusters, contractClusters, contracts } from '../../db/schema-clusters.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import { ensureClusterActivities } from '../../shared/activityReference.js';
import { numberKey } from '../contracts/service.js';
import type { RequestInfo } from '../settlements/service.js';
import { CLUSTER_COLUMNS, foldHeader, type Keyed, keyedRows, yesNo } from './columns.js';
import { NameIndex, type Resolved } from './names.js';
import { chunks, listCell, parseErrors, Report, rowError } from './report.js';
import { insertSettlements, parseSettlement, type SettlementValues, settlementIdsByCode } from './settlements.js';
import type { UploadedSheet } from './upload.js';

/** The level's numbers as a spreadsheet cell spells them (amounts.ts: '2.500,50' is read as 2500,5). */
const importedMoney = decimalRule(MONEY_DECIMALS, true);
const importedLength = decimalRule(LENGTH_DECIMALS, true);

type Values = Keyed<typeof CLUSTER_COLUMNS>;

/** The values a cluster takes from its rows: the first row that gives one decides, the others must agree. */
type ClusterLevel = {
  groupIds: string[] | null;
  contractId: string | null;
  indikativnaDuzinaKlastera: number | null;
  ugovorenaVrednostKlastera: number | null;
};

type ClusterDraft = {
  naziv: string;
  rows: ImportReportRow[];
  level: ClusterLevel;
  /** The cell each cluster-level value was first read from (to tell a repeat from a conflict). */
  cells: Partial<Record<keyof ClusterLevel, string>>;
  /** Settlement codes in order, each once, with its role. */
  settlements: Map<string, boolean>;
};

const CLUSTER_LEVEL_COLUMNS: { key: keyof ClusterLevel; column: string }[] = [
  { key: 'groupIds', column: 'Одговорне групе' },
  { key: 'contractId', column: 'Уговор' },
  { key: 'indikativnaDuzinaKlastera', column: 'Индикативна дужина кластера' },
  { key: 'ugovorenaVrednostKlastera', column: 'Уговорена вредност кластера' },
];

const CELL_OF: Record<keyof ClusterLevel, keyof Values> = {
  groupIds: 'odgovoran',
  contractId: 'ugovor',
  indikativnaDuzinaKlastera: 'indikativnaDuzinaKlastera',
  ugovorenaVrednostKlastera: 'ugovorenaVrednostKlastera',
};

/**
 * POST /api/location/excel-import (Admin): the clusters template has a row per settlement of a cluster
 * (column 'Успутно насеље' da/ne tells an incidental one); a row may also give the cluster's
 * responsible groups (names, comma separated), its general contract (name or number, not finished), its
 * length and value — repeated values must agree. A settlement missing from the codebook is added from
 * the row. A cluster is saved whole or not at all: an error in one of its rows keeps the cluster out.
 * A cluster whose name exists is left alone (re-importing changes nothing). One transaction.
 */
export async function importClusters(ctx: AppContext, actor: Actor, sheet: UploadedSheet, req: RequestInfo): Promise<ImportDocument> {
  const report = new Report();
  const groupRows = (
    await ctx.db
      .select({ id: groups.id, naziv: groups.naziv, kratakNaziv: groups.kratakNaziv, cirilica: groups.cirilica, reserved: groups.reserved })
      .from(groups)
  ).filter((g) => !g.reserved && !isReservedGroupName(g.naziv) && !isReservedGroupName(g.cirilica));
  const groupIndex = new NameIndex(groupRows, (g) => [g.naziv, g.cirilica, g.kratakNaziv]);
  const groupByName = (name: string): Resolved<Named> => named(groupIndex.resolve(name), (g) => g.naziv);
  const contractRows = await ctx.db
    .select({ id: contracts.id, naziv: contracts.naziv, broj: contracts.broj })
    .from(contracts)
    .where(and(eq(contracts.kind, 'contract'), ne(contracts.status, CONTRACTS.statusFinished)));
  // A contract is named by its number or its name. The number identifies it (unique within the kind, case
  // and spaces aside), so a cell that is exactly a number takes that contract; otherwise the folded
  // number or name, and a cell fitting several contracts names them all and links none.
  const byNumber = new NameIndex(contractRows, (c) => [numberKey(c.broj)]);
  const contractIndex = new NameIndex(contractRows, (c) => [c.broj, c.naziv]);
  const contractByName = (cell: string): Resolved<Named> => {
    const exact = byNumber.resolve(numberKey(cell));
    const found = exact.kind === 'none' ? contractIndex.resolve(cell) : exact;
    return named(found, (c) => `${c.naziv} (${c.broj})`);
  };

  const drafts = new Map<string, ClusterDraft>();
  /** Settlements the file defines (registry id → values), the first definition counting. */
  const defined = new Map<string, SettlementValues>();
  const rowsOfCode = new Map<string, { row: ImportReportRow; values: Values }[]>();

  for await (const { row, values } of keyedRows(sheet.rows(), CLUSTER_COLUMNS, ['klaster'])) {
    const naziv = values.klaster.trim();
    const entry = report.add(row, [naziv, values.naziv || values.id].filter(Boolean).join(' — '));
    if (!naziv) {
      rowError(entry, '', CLUSTERS.required);
      continue;
    }
    if (naziv.length > 200) {
      rowError(entry, naziv.slice(0, 40), 'Predugačak unos.');
      continue;
    }
    const foldedName = naziv.toLowerCase();
    let draft = drafts.get(foldedName);
    if (!draft) {
      draft = {
        naziv,
        rows: [],
        level: { groupIds: null, contractId: null, indikativnaDuzinaKlastera: null, ugovorenaVrednostKlastera: null },
        cells: {},
        settlements: new Map(),
      };
      drafts.set(foldedName, draft);
    }
    draft.rows.push(entry);
    readClusterLevel(entry, naziv, values, draft, groupByName, contractByName);

    const code = values.id.trim();
    if (!code && !values.naziv.trim()) continue; // a row with the cluster's values only
    if (!code) {
      rowError(entry, naziv, 'Morate upisati ID.');
      continue;
    }
    const usputno = yesNo(values.usputno);
    if (usputno === null) {
      rowError(entry, naziv, IMPORTS.yesNo('Успутно насеље'));
      continue;
    }
    const before = draft.settlements.get(code);
    if (before !== undefined && before !== usputno) rowError(entry, naziv, IMPORTS.settlementInTwoRoles);
    else if (before !== undefined) entry.warnings.push(IMPORTS.duplicateInFile);
    else draft.settlements.set(code, usputno);
    rowsOfCode.set(code, [...(rowsOfCode.get(code) ?? []), { row: entry, values }]);
  }

  // Settlements: known ones are used as they are; unknown ones are defined by their first row.
  const known = await settlementIdsByCode(ctx.db, [...rowsOfCode.keys()]);
  for (const [code, uses] of rowsOfCode) {
    if (known.has(code)) continue;
    const first = uses[0];
    if (!first) continue;
    const parsed = parseSettlement(first.values);
    if (parsed.success) defined.set(code, parsed.data);
    else for (const use of uses) parseErrors(use.row, first.values.klaster, parsed.error);
  }

  // Existing clusters are left alone; a cluster with an error anywhere is not saved.
  const existing = new Set<string>();
  for (const part of chunks([...drafts.keys()])) {
    const rows = await ctx.db
      .select({ naziv: sql<string>`lower(${clusters.naziv})` })
      .from(clusters)
      .where(
        sql`lower(${clusters.naziv}) in (${sql.join(
          part.map((n) => sql`${n}`),
          sql`, `,
        )})`,
      );
    for (const r of rows) existing.add(r.naziv);
  }
  const toSave: ClusterDraft[] = [];
  for (const [folded, draft] of drafts) {
    if (draft.rows.some((r) => r.errors.length > 0)) {
      for (const r of draft.rows) if (r.errors.length === 0) rowError(r, draft.naziv, IMPORTS.clusterNotSaved);
    } else if (existing.has(folded)) {
      for (const r of draft.rows) r.warnings.push(IMPORTS.exists(`Кластер „${asTyped(draft.naziv)}“`));
    } else {
      toSave.push(draft);
    }
  }

  await ctx.db.transaction(async (tx) => {
    const needed = new Set(toSave.flatMap((d) => [...d.settlements.keys()]).filter((code) => !known.has(code)));
    await insertSettlements(
      tx,
      [...needed].map((code) => defined.get(code)).filter((v): v is SettlementValues => !!v),
    );
    const idOf = await settlementIdsByCode(tx, [...new Set(toSave.flatMap((d) => [...d.settlements.keys()]))]);
    let saved = 0;
    for (const part of chunks(toSave)) {
      const inserted = await tx
        .insert(clusters)
        .values(
          part.map((d) => ({
            naziv: d.naziv,
            indikativnaDuzinaKlastera: d.level.indikativnaDuzinaKlastera,
            ugovorenaVrednostKlastera: d.level.ugovorenaVrednostKlastera,
          })),
        )
        .onConflictDoNothing()
        .returning({ id: clusters.id, naziv: clusters.naziv });
      const idByName = new Map(inserted.map((c) => [c.naziv.toLowerCase(), c.id]));
      const groupLinks: { clusterId: string; groupId: string }[] = [];
      const settlementLinks: { clusterId: string; settlementId: string; usputno: boolean; position: number }[] = [];
      const contractLinks: { contractId: string; clusterId: string; kind: string }[] = [];
      for (const d of part) {
        const clusterId = idByName.get(d.naziv.toLowerCase());
        if (!clusterId) {
          for (const r of d.rows) r.warnings.push(IMPORTS.exists(`Кластер „${asTyped(d.naziv)}“`));
          continue;
        }
        saved++;
        for (const groupId of new Set(d.level.groupIds ?? [])) groupLinks.push({ clusterId, groupId });
        let position = 0;
        for (const [code, usputno] of d.settlements) {
          const settlementId = idOf.get(code);
          if (settlementId) settlementLinks.push({ clusterId, settlementId, usputno, position: position++ });
        }
        if (d.level.contractId) contractLinks.push({ contractId: d.level.contractId, clusterId, kind: 'contract' });
        for (const r of d.rows) r.success = true;
      }
      for (const links of chunks(groupLinks)) await tx.insert(clusterGroups).values(links);
      for (const links of chunks(settlementLinks)) await tx.insert(clusterSettlements).values(links);
      for (const links of chunks(contractLinks)) await tx.insert(contractClusters).values(links);
      await ensureClusterActivities(
        tx,
        inserted.map((c) => c.id),
      );
    }
    if (saved > 0) {
      await writeLog(tx, {
        actor,
        ...req,
        message: `Korisnik ${asTyped(actor.email)} je uvezao ${saved} klastera iz fajla ${asTyped(sheet.originalName)}.`,
      });
    }
  });
  return report.document();
}

/** A record found by name, reduced to its id and how the report names it. */
type Named = { id: string; label: string };

function named<T extends { id: string }>(found: Resolved<T>, label: (item: T) => string): Resolved<Named> {
  if (found.kind === 'one') return { kind: 'one', item: { id: found.item.id, label: label(found.item) } };
  if (found.kind === 'many') return { kind: 'many', items: found.items.map((i) => ({ id: i.id, label: label(i) })) };
  return found;
}

/** Reads the cluster's own values of a row into the draft; a value that differs from an earlier row is the row's error. */
function readClusterLevel(
  entry: ImportReportRow,
  naziv: string,
  values: Values,
  draft: ClusterDraft,
  groupByName: (name: string) => Resolved<Named>,
  contractByName: (cell: string) => Resolved<Named>,
): void {
  for (const { key, column } of CLUSTER_LEVEL_COLUMNS) {
    const cell = values[CELL_OF[key]].trim();
    if (!cell) continue;
    const earlier = draft.cells[key];
    if (earlier !== undefined) {
      if (foldHeader(earlier) !== foldHeader(cell)) rowError(entry, naziv, IMPORTS.conflictingValue(column));
      continue;
    }
    draft.cells[key] = cell;
    if (key === 'groupIds') {
      const ids: string[] = [];
      for (const name of listCell(cell)) {
        const found = groupByName(name);
        if (found.kind === 'one') ids.push(found.item.id);
        else if (found.kind === 'many')
          rowError(
            entry,
            naziv,
            IMPORTS.ambiguousGroup(
              asTyped(name),
              found.items.map((g) => asTyped(g.label)),
            ),
          );
        else rowError(entry, naziv, IMPORTS.unknownGroup(asTyped(name)));
      }
      draft.level.groupIds = ids;
    } else if (key === 'contractId') {
      const found = contractByName(cell);
      if (found.kind === 'one') draft.level.contractId = found.item.id;
      else if (found.kind === 'many')
        rowError(
          entry,
          naziv,
          IMPORTS.ambiguousContract(
            asTyped(cell),
            found.items.map((c) => asTyped(c.label)),
          ),
        );
      else rowError(entry, naziv, IMPORTS.unknownContract(asTyped(cell)));
    } else {
      const parsed = (key === 'ugovorenaVrednostKlastera' ? importedMoney : importedLength).safeParse(cell);
      if (parsed.success) draft.level[key] = parsed.data;
      else rowError(entry, naziv, CLUSTERS.mustBeNumber);
    }
  }
}
