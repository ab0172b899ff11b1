import type { DataItem } from './activities.js';

/** Answer shapes of the reports and snapshots (spec 3 §2.7, §3 "Report rows", §7 "Reports"; docs/api/reports.md). */

/** A general contract as a report names it. */
export type ReportContract = { _id: string; naziv: string; broj: string };
export type ReportCluster = { _id: string; naziv: string };

/** GET /api/report/summary?contract: per catalogue activity, the visible clusters that have it finished. */
export type SummaryRow = { kratakNaziv: string; naziv: string; count: number };
export type SummaryReport = { summary: SummaryRow[]; totalClusters: number };

/**
 * GET /api/report/progress?contract: each general contract's progress (the report hub's charts).
 * `stages`: the visible clusters by their furthest finished activity (catalogue order; kratakNaziv null:
 * none finished yet); `late`: per responsible party, activities in progress past their deadline (kasni)
 * and finished after it (zavrsenoKasno). A contract `_id` null gathers the clusters under none.
 */
export type ProgressStage = { kratakNaziv: string | null; naziv: string; count: number };
export type ProgressLate = { odgovoran: string; kasni: number; zavrsenoKasno: number };
export type ContractProgress = {
  _id: string | null;
  naziv: string;
  broj: string;
  clusters: number;
  stages: ProgressStage[];
  late: ProgressLate[];
};
export type ProgressReport = { contracts: ContractProgress[] };

/** One finished activity of a cluster: on time when finished on or before its deadline (or klizno). */
export type FinishedActivity = {
  kratakNaziv: string;
  naziv: string;
  datumZavrsetka: string | null;
  rokZavrsetka: string | null;
  uRoku: boolean;
};
/** GET /api/report/finished?page&limit: clusters with at least one finished activity. */
export type FinishedRow = {
  _id: string;
  klaster: string;
  ugovor: ReportContract | null;
  zavrsene: FinishedActivity[];
  uRoku: number;
  kasni: number;
};
export type FinishedReport = { clusters: FinishedRow[]; totalResults: number };

export type ReportFile = { _id: string; originalnoIme: string; revizija: number; createdAt: string };
/** GET /api/report/{activity}?page&limit&eng&srb: every visible cluster's record of the activity. */
export type ActivityReportRow = {
  _id: string;
  klaster: ReportCluster;
  ugovor: ReportContract | null;
  status: string;
  datumPocetka: string | null;
  datumZavrsetka: string | null;
  rokZavrsetka: string | null;
  podaci: DataItem[];
  fajlovi: ReportFile[];
};
export type ActivityReport = {
  activity: { kratakNaziv: string; naziv: string };
  rows: ActivityReportRow[];
  totalResults: number;
};

export const PAYERS = ['Izvođač', 'Naručilac'] as const;
export type Payer = (typeof PAYERS)[number];
/** One A7 holder entry (spec 3 §3 "Report rows: Taxes"). `status`: the holder is checked done. */
export type IjoTaxRow = {
  ugovor: string;
  ugovorId: string | null;
  ugovorBroj: string;
  klaster: string;
  klasterId: string;
  imaoc: string;
  imaocId: string;
  status: boolean;
  taksa: number | null;
  zaduzen: Payer;
  /** Izvođač rows: the cluster's contractor. */
  izvodjacNaziv?: string;
};
export type IjoTaxTotals = {
  narucilacTotal: number;
  izvodjaciTotal: number;
  byContractor: { naziv: string; sum: number }[];
  totalTax: number;
};
/** GET /api/report/ijo-takse?contract&payer[&page&limit]: totals over every filtered row, not only the page. */
export type IjoTaxReport = { rows: IjoTaxRow[]; totalResults: number } & IjoTaxTotals;

export const ROUTE_LENGTH_REPORTS = ['A1', 'A9', 'A12'] as const;
export type RouteLengthCode = (typeof ROUTE_LENGTH_REPORTS)[number];
/** GET /api/report/duzine/{A1|A9|A12}: metres per cluster (A1: per cluster and settlement). */
export type RouteLengthRow = {
  _id: string;
  klaster: ReportCluster;
  ugovor: ReportContract | null;
  naselje: { _id: string; naziv: string } | null;
  status: string;
  datumZavrsetka: string | null;
  duzina: number | null;
};
export type RouteLengthReport = {
  kratakNaziv: RouteLengthCode;
  naziv: string;
  rows: RouteLengthRow[];
  totalResults: number;
  ukupno: number;
};

export const SNAPSHOT_TYPES = ['finishedReport', 'summaryReport', 'ijoTaxesReport'] as const;
export type SnapshotType = (typeof SNAPSHOT_TYPES)[number];
/** POST /api/report/backfill-snapshots: one entry per date, newest first. */
export type BackfillResult = { results: { date: string; status: 'created' | 'updated' }[] };
export type SnapshotMeta = { date: string; createdAt: string; randomized: boolean };
/** A finished-report row as compared: counts and the codes, one cell each. */
export type FinishedCompareRow = {
  _id: string;
  klaster: string;
  ugovor: string;
  zavrseno: number;
  uRoku: number;
  kasni: number;
  aktivnosti: string;
};
export type CompareReport =
  | { type: 'finishedReport'; rows: FinishedCompareRow[] }
  | { type: 'summaryReport'; rows: SummaryRow[] }
  | ({ type: 'ijoTaxesReport'; rows: IjoTaxRow[] } & IjoTaxTotals);
/** GET /api/report/compare: a side without a snapshot for its date is null. */
export type CompareResponse = {
  reportA: CompareReport | null;
  reportB: CompareReport | null;
  metaA: SnapshotMeta | null;
  metaB: SnapshotMeta | null;
};
/** GET /api/report/snapshots: the dates with snapshots, and whether the caller may use the test panel. */
export type SnapshotList = { mozeUpravljati: boolean; snimci: { date: string; types: SnapshotType[] }[] };
