import { type AppRouteKey, appPath, CONTRACT_KINDS, type ContractKind, nameSegment } from '@trasa/domain';
import type { ContractBrief } from '../../api/contracts';
import { CONTRACTS } from '../../messages';

/** The list screen of each kind (spec 2 §2). */
export const LIST_ROUTE: Record<ContractKind, AppRouteKey> = {
  contract: 'contracts',
  contractIzv: 'contractsIzv',
  contractPro: 'contractsPro',
  contractNad: 'contractsNad',
};

/** The navigation state a list gives the detail (spec 2 §2 "Contract detail"); none for the general list. */
export const DETAIL_FROM: Record<ContractKind, string | null> = {
  contract: null,
  contractIzv: 'CONTRACTS-IZV',
  contractPro: 'CONTRACTS-PRO',
  contractNad: 'CONTRACTS-NAD',
};

/** The navigation state of the linking screen: from ∈ contract, contractIzv, contractPro, contractNad (spec 2 §2). */
export const LINK_FROM: Record<ContractKind, ContractKind> = {
  contract: 'contract',
  contractIzv: 'contractIzv',
  contractPro: 'contractPro',
  contractNad: 'contractNad',
};

function fromOf(state: unknown): unknown {
  return typeof state === 'object' && state !== null && 'from' in state ? state.from : undefined;
}

/** The kind the detail's navigation state names; the general contract without (or with another) state. */
export function kindOfDetailState(state: unknown): ContractKind {
  const from = fromOf(state);
  return CONTRACT_KINDS.find((k) => DETAIL_FROM[k] !== null && DETAIL_FROM[k] === from) ?? 'contract';
}

/** The kind the linking screen's navigation state names; the general contract without state. */
export function kindOfLinkState(state: unknown): ContractKind {
  const from = fromOf(state);
  return CONTRACT_KINDS.find((k) => LINK_FROM[k] === from) ?? 'contract';
}

/** 'Završen' with an end date is finished: no edit, no linking (spec 2 §4). */
export function isFinished(contract: Pick<ContractBrief, 'status' | 'datumZavrsetka'>): boolean {
  return contract.status === CONTRACTS.statusFinished && !!contract.datumZavrsetka;
}

export function detailPath(id: string): string {
  return appPath('contract', { id });
}

/** /app/ugovor/povezivanje-sa-klasterima/{naziv with '/' → '-'}/{id}. */
export function linkPath(contract: Pick<ContractBrief, '_id' | 'naziv'>): string {
  return appPath('contractLinkClusters', { naziv: nameSegment(contract.naziv), id: contract._id });
}
