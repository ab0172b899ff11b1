import type {
  ActivityReport,
  BackfillResult,
  CompareResponse,
  FinishedReport,
  IjoTaxReport,
  ProgressReport,
  ReportContract,
  RouteLengthCode,
  RouteLengthReport,
  SnapshotList,
  SnapshotType,
  SummaryReport,
} from '@trasa/domain';
import { api, download } from '../../api/client';
import type { PageParams, SearchText } from '../../api/users';

/** The reports and snapshots (docs/api/reports.md). */

export const REPORTS_KEY = ['reports'] as const;
const seg = encodeURIComponent;

export function listReportContracts(signal?: AbortSignal): Promise<{ contracts: ReportContract[] }> {
  return api('/report/contracts', { signal });
}

export function getSummary(contract: string, signal?: AbortSignal): Promise<SummaryReport> {
  return api('/report/summary', { query: { contract }, signal });
}

export function getProgress(contract: string, signal?: AbortSignal): Promise<ProgressReport> {
  return api('/report/progress', { query: { contract }, signal });
}

export function getFinished(params: PageParams, signal?: AbortSignal): Promise<FinishedReport> {
  return api('/report/finished', { query: params, signal });
}

export function getActivityReport(code: string, params: PageParams & Partial<SearchText>, signal?: AbortSignal): Promise<ActivityReport> {
  return api(`/report/${seg(code)}`, { query: params, signal });
}

export function downloadActivityZip(code: string, search: Partial<SearchText>) {
  const params = new URLSearchParams();
  if (search.eng) params.set('eng', search.eng);
  if (search.srb) params.set('srb', search.srb);
  const qs = params.toString();
  return download(`/report/${seg(code)}/zip${qs ? `?${qs}` : ''}`);
}

export function getIjoTaxes(params: PageParams & { contract: string; payer: string }, signal?: AbortSignal): Promise<IjoTaxReport> {
  return api('/report/ijo-takse', { query: params, signal });
}

export function getRouteLengths(
  code: RouteLengthCode,
  params: PageParams & Partial<SearchText> & { contract?: string },
  signal?: AbortSignal,
): Promise<RouteLengthReport> {
  return api(`/report/duzine/${code}`, { query: params, signal });
}

export function listSnapshots(signal?: AbortSignal): Promise<SnapshotList> {
  return api('/report/snapshots', { signal });
}

export function backfillSnapshots(days: number, randomize: boolean): Promise<BackfillResult & { message: string }> {
  return api('/report/backfill-snapshots', { method: 'POST', query: { days, randomize: randomize ? 'true' : undefined } });
}

export function clearSnapshots(): Promise<{ message: string; deleted: number }> {
  return api('/report/clear-snapshots', { method: 'POST' });
}

export function compareReports(type: SnapshotType, dateA: string, dateB: string, signal?: AbortSignal): Promise<CompareResponse> {
  return api('/report/compare', { query: { type, dateA, dateB }, signal });
}
