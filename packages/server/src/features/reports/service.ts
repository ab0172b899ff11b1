/**
 * The reports of spec 3 §2.7 / §7 (docs/api/reports.md), one file per report: contracts.ts (the contract
 * filter's choices), summary.ts, finished.ts, activity.ts (per activity, and its zip), ijoTax.ts (IJO
 * fees: its rows ijoRows.ts, kept in ijo_report_rows by ijoCache.ts), routeLengths.ts; the filters they
 * share filters.ts. Every query is set-based (one statement per report part, never one per cluster) and
 * sees only the clusters of the caller's scope (features/clusters/policy.ts: visibleClusterCondition).
 */

export { activityReport, activityZipFiles, dataItems } from './activity.js';
export { reportContracts } from './contracts.js';
export { catalogueEntryOf, contractFilter, groupBy, type Paging, type SearchText, underContract } from './filters.js';
export { finishedActivitiesOf, finishedReport, onTime, presentFinished } from './finished.js';
export { ensureIjoRows } from './ijoCache.js';
export { filterIjoRows, ijoRowsOf, ijoTotals, NO_CONTRACTOR, payerFilter } from './ijoRows.js';
export { ijoTaxReport } from './ijoTax.js';
export { routeLengthReport } from './routeLengths.js';
export { summaryReport } from './summary.js';
