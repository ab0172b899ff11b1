import { type ContractKind, formatQuantity, formatRsd } from '@trasa/domain';
import type { ClusterStatus, GroupBrief, LocationDto } from '../../api/clusters';
import type { SettlementDto } from '../../api/settlements';
import { metres } from '../../components/units';
import { scripted } from '../../scripted';
import { groupTypeName } from '../../shipped';
import { UI } from '../../texts';

const STATUS_LABELS: Record<ClusterStatus, string> = {
  'Nije započet': UI.statusNotStarted,
  'U toku': UI.statusInProgress,
  Završen: UI.statusFinished,
};

/** A cluster's or contract's status in Cyrillic (the API speaks Latin). */
export function statusLabel(status: string | null | undefined): string {
  if (!status) return UI.empty;
  const labels: Record<string, string | undefined> = STATUS_LABELS;
  return labels[status] ?? status;
}

/** Groups of the contractor type (Izvođač) among those responsible: the list's 'responsible contractor'. */
export function responsibleContractors(location: { odgovoran: readonly Pick<GroupBrief, 'naziv' | 'tipKod'>[] }): string {
  const names = location.odgovoran.filter((g) => g.tipKod === 'IZVODJAC').map((g) => g.naziv);
  return names.length > 0 ? names.join(', ') : UI.empty;
}

/** 'naziv (tip)', the group option label of the cluster form (spec 2 §2). */
export function groupLabel(group: Pick<GroupBrief, 'naziv' | 'tip'>): string {
  return group.tip ? `${group.naziv} (${groupTypeName(group.tip)})` : group.naziv;
}

/** 'naziv (broj)': a contract as its pickers, lists and headings name it. */
export function contractLabel(contract: { naziv: string; broj: string }): string {
  return `${contract.naziv} (${contract.broj})`;
}

/** 'naziv (matični broj)' — settlement names repeat across municipalities. */
export function settlementLabel(s: Pick<SettlementDto, 'naziv' | 'maticniBroj' | 'id'>): string {
  return `${s.naziv} (${s.maticniBroj || s.id})`;
}

/** A number as Serbs write it (the domain's formatQuantity): '1.250,5' ('—' for none). */
export function formatNumber(value: number | null | undefined): string {
  return formatQuantity(value) || UI.empty;
}

/** A length in metres with its unit: '1.250,5 м' ('—' for none). */
export function formatMetres(value: number | null | undefined): string {
  return value === null || value === undefined ? UI.empty : `${formatNumber(value)} ${metres()}`;
}

/** Money values in RSD with two decimals (spec 2 §9). */
export function formatMoney(value: number | null | undefined): string {
  return formatRsd(value) || UI.empty;
}

/** Long file names are shortened to 40 characters and an ellipsis in lists (spec 2 §9). */
export function shortName(name: string, max = 40): string {
  return name.length > max ? `${name.slice(0, max)}…` : name;
}

/** The contract kinds' lists as tabs ('Уговори извођача'): the contracts' screen and the cluster's linking. */
export const CONTRACT_KIND_TABS: Record<ContractKind, string> = scripted({
  contract: UI.tabGeneralContracts,
  contractIzv: UI.tabContractorContracts,
  contractPro: UI.tabDesignerContracts,
  contractNad: UI.tabSupervisionContracts,
});

export const CONTRACT_KIND_LABELS: Record<ContractKind, string> = scripted({
  contract: UI.generalContract,
  contractIzv: UI.contractorContract,
  contractPro: UI.designerContract,
  contractNad: UI.supervisionContract,
});

/** The cluster's contract of each kind: `ugovor` is the general one, `ugovori` the typed ones. */
export function contractsOf(location: LocationDto) {
  return [
    { kind: 'contract', contract: location.ugovor },
    { kind: 'contractIzv', contract: location.ugovori?.contractIzv ?? null },
    { kind: 'contractPro', contract: location.ugovori?.contractPro ?? null },
    { kind: 'contractNad', contract: location.ugovori?.contractNad ?? null },
  ] as const;
}
