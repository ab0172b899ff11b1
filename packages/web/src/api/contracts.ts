import type {
  ContractBrief,
  ContractDto,
  ContractFileDto,
  ContractKind,
  ContractListItem,
  ContractStatus,
  MessageResponse,
  RefusedDocument,
} from '@trasa/domain';
import { ApiError, api, download } from './client';
import type { PageParams, SearchText } from './users';

/** Contracts and linking of docs/api/clusters-contracts.md; `route` is the contract's kind. */

export type { ContractBrief, ContractDto, ContractFileDto, ContractListItem, ContractStatus, RefusedDocument };

/** List rows: the linked clusters counted (`brojLokacija`); the detail lists them. */
export type ContractsPage = { contracts: ContractListItem[]; totalResults: number };

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
  return { contracts: Array.isArray(list) ? (list as ContractListItem[]) : [], totalResults: data.totalResults ?? 0 };
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

/** The single field of each kind's answer (GET /api/{route}/:id). */
type ContractAnswer = Partial<Record<ContractKind, ContractDto>>;

/** One contract of a kind (GET /api/{route}/:id); 404 when it is of another kind or missing. */
export async function getContract(kind: ContractKind, id: string, signal?: AbortSignal): Promise<ContractDto> {
  const data = await api<ContractAnswer>(`/${kind}/${encodeURIComponent(id)}`, { signal });
  const contract = data[kind];
  if (!contract) throw new ApiError(404, undefined, undefined);
  return contract;
}

/** The body of POST /api/{route}; `grupe` only for the typed kinds. */
export type ContractCreateBody = { naziv: string; broj: string; datumPocetka: string; rokTrajanja: number; grupe?: string[] };

/** POST /api/{route}: the new contract's id is `document`. */
export function createContract(kind: ContractKind, body: ContractCreateBody): Promise<MessageResponse & { document: string }> {
  return api(`/${kind}`, { method: 'POST', body });
}

/** The edit fields of the multipart POST /api/{route}/{route}/:id; left out for an upload only. */
export type ContractEditFields = {
  naziv: string;
  datumPocetka: string;
  rokTrajanja: number;
  grupe?: string[];
  status?: ContractStatus;
  datumZavrsetka?: string | null;
};

/**
 * The multipart POST /api/{route}/{route}/:id: the edit fields (when given) and the documents, named
 * fajl0…fajlN. Without fields it only uploads the documents. The documents refused one by one (type,
 * size) come back in `odbijeni`; the others are stored.
 */
export async function saveContractForm(
  kind: ContractKind,
  id: string,
  fields: ContractEditFields | null,
  files: readonly File[],
): Promise<MessageResponse & { contract: ContractDto; odbijeni?: RefusedDocument[] }> {
  const form = new FormData();
  if (fields) {
    form.append('naziv', fields.naziv);
    form.append('datumPocetka', fields.datumPocetka);
    form.append('rokTrajanja', String(fields.rokTrajanja));
    if (fields.grupe) form.append('grupe', JSON.stringify(fields.grupe));
    if (fields.status) form.append('status', fields.status);
    if (fields.datumZavrsetka !== undefined) form.append('datumZavrsetka', fields.datumZavrsetka ?? '');
  }
  files.forEach((file, i) => {
    form.append(`fajl${i}`, file, file.name);
  });
  return api(`/${kind}/${kind}/${encodeURIComponent(id)}`, { method: 'POST', body: form });
}

/** DELETE /api/{route}/:id, with its links and documents. */
export function deleteContract(kind: ContractKind, id: string): Promise<MessageResponse> {
  return api(`/${kind}/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** DELETE /api/files/{route}/{contractId}/{fileId}: removes one document (refused for a finished contract). */
export function deleteContractFile(kind: ContractKind, contractId: string, fileId: string): Promise<MessageResponse> {
  return api(`/files/${kind}/${encodeURIComponent(contractId)}/${encodeURIComponent(fileId)}`, { method: 'DELETE' });
}

/** PATCH /api/link/unlink{''|Izv|Pro|Nad}/{id}: takes one cluster off the contract. */
export function unlinkLocationFromContract(kind: ContractKind, contractId: string, lokacija: string): Promise<MessageResponse> {
  return api(`/link/unlink${LINK_SUFFIX[kind]}/${encodeURIComponent(contractId)}`, { method: 'PATCH', body: { lokacija } });
}
