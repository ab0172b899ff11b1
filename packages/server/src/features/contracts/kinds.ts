import { CONTRACT_GROUP_TYPE, CONTRACT_KINDS, type ContractKind, type RoleKey, rolesFor } from '@trasa/domain';

/**
 * The four contract kinds (docs/api/clusters-contracts.md "Contracts"): one definition from which the
 * routes, the response keys and the roles of every kind are generated.
 */
export type KindDef = {
  kind: ContractKind;
  /** The `{route}` segment: /api/{route}, /api/search/{route}, /api/{route}/{route}/:id, /api/files/{route}/… */
  route: ContractKind;
  /** Key of the list answer: contracts, contractsIzv, contractsPro, contractsNad. */
  listKey: string;
  /** Key of the single answer: contract, contractIzv, contractPro, contractNad. */
  itemKey: string;
  /** Suffix of the linking calls: /api/link/unlink{suffix}, /api/link/documents{suffix}/location. */
  suffix: '' | 'Izv' | 'Pro' | 'Nad';
  /** Who reads the kind's list and detail (its list screen's roles). */
  readers: RoleKey[];
  /** The group type a typed contract's `grupe` must have; null for the general contract. */
  groupType: (typeof CONTRACT_GROUP_TYPE)[ContractKind];
  /** How the audit trail names the kind. */
  label: string;
};

const SUFFIX: Record<ContractKind, KindDef['suffix']> = { contract: '', contractIzv: 'Izv', contractPro: 'Pro', contractNad: 'Nad' };
const READERS: Record<ContractKind, RoleKey[]> = {
  contract: rolesFor('contracts'),
  contractIzv: rolesFor('contractsIzv'),
  contractPro: rolesFor('contractsPro'),
  contractNad: rolesFor('contractsNad'),
};
const LABEL: Record<ContractKind, string> = {
  contract: 'ugovor',
  contractIzv: 'ugovor izvođača',
  contractPro: 'ugovor projektanta',
  contractNad: 'ugovor nadzora',
};

export const KINDS: KindDef[] = CONTRACT_KINDS.map((kind) => ({
  kind,
  route: kind,
  listKey: kind === 'contract' ? 'contracts' : `contracts${SUFFIX[kind]}`,
  itemKey: kind,
  suffix: SUFFIX[kind],
  readers: READERS[kind],
  groupType: CONTRACT_GROUP_TYPE[kind],
  label: LABEL[kind],
}));

export function kindDef(kind: ContractKind): KindDef {
  return KINDS.find((k) => k.kind === kind) as KindDef;
}

/** Contract documents (spec 2 §5, §9): .pdf, .doc, .docx by content, 25 MB each, 20 per request. */
export const UPLOAD_LIMITS = {
  fileSize: 25 * 1024 * 1024,
  files: 20,
  fields: 20,
  fieldSize: 100 * 1024,
  parts: 40,
} as const;
export const DOCUMENT_KINDS = ['pdf', 'doc', 'docx'] as const;
