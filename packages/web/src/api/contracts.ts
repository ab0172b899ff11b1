import type { ContractBrief, ContractDto, ContractFileDto, ContractKind, ContractStatus, MessageResponse } from '@trasa/domain';
import { api, download } from './client';
import type { PageParams, SearchText } from './users';

/** Contracts and linking of docs/api/clusters-contracts.md; `route` is the contract's kind. */

export type { ContractBrief, ContractDto, ContractFileDto, ContractStatus };

export type ContractsPage = { contracts: ContractDto[]; totalResults: number };

/** The list field of each kind's answer. */
const LIST_FIELD: Record<ContractKind, string> = {
  contract: 'contracts',
  contractIzv: 'contractsIzv',
  contractPro: 'contractsPro',
  contractNad: 'contractsNad',
};

/** The suffix of each kind in the link calls (documents, documentsIzv, …). */
const LINK_SUFFIX: Record<ContractKind, string> = { contract: '', contractIzv: 'Izv', contractPro: 'Pro', contractNad: 'Nad' };

type RawPage = Record<string, unknown> & { totalResults?: number };

function pageOf(kind: ContractKind, data: RawPage): ContractsPage {
  const list = data[LIST_FIELD[kind]];
  return { contracts: Array.isArray(list) ? (list as ContractDto[]) : [], totalResults: data.totalResults ?? 0 };
}

export async function listContracts(kind: ContractKind, params: PageParams, signal?: AbortSignal): Promise<ContractsPage> {
  return pageOf(kind, await api<RawPage>(`/${kind}`, { query: params, signal }));
}

export async function searchContracts(kind: ContractKind, params: PageParams & SearchText, signal?: AbortSignal): Promise<ContractsPage> {
  return pageOf(kind, await api<RawPage>(`/search/${kind}`, { query: params, signal }));
}

/** The documents of a cluster's contract of one kind. */
export function locationDocuments(
  kind: ContractKind,
  locationId: string,
  signal?: AbortSignal,
): Promise<{ fajlovi: ContractFileDto[]; contract: ContractBrief | null }> {
  return api(`/link/documents${LINK_SUFFIX[kind]}/location`, { query: { locationId }, signal });
}

/** A contract document as a blob, with its original name. */
export function downloadContractFile(kind: ContractKind, contractId: string, fileId: string) {
  return download(`/files/${kind}/${encodeURIComponent(contractId)}/${encodeURIComponent(fileId)}`);
}

/** Links clusters to a contract (a cluster linked to another contract of the same kind moves). */
export function linkLocationsToContract(kind: ContractKind, contractId: string, lokacije: string[]): Promise<MessageResponse> {
  return api(`/link/location-to-${kind}/${encodeURIComponent(contractId)}`, { method: 'PATCH', body: { lokacije } });
}
