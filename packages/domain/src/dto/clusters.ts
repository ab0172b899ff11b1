import type { ActivityStatus } from '../activities/catalogue.js';
import type { DeadlineColour } from '../colours.js';
import type { ContractKind } from '../schemas/clusters.js';

/**
 * The answer shapes of spec 2 (docs/api/clusters-contracts.md "Shapes"), once for the server's
 * presenters and the web's API module.
 */

export type ClusterStatus = 'Nije započet' | 'U toku' | 'Završen';
export type ContractStatus = 'U toku' | 'Završen';

/** A group as cluster and contract answers name it, with its type's name and code. */
export type GroupBrief = { _id: string; naziv: string; tip: string; tipKod: string | null };

/** A group named by id and name only. */
export type GroupName = { _id: string; naziv: string };

/** `id` is the settlement's registry id; `_id` names it in the API paths. Counts are numbers or null. */
export type SettlementDto = {
  _id: string;
  id: string;
  naziv: string;
  maticniBroj: string;
  opstina: string[];
  /** The same list as `opstina` (the spec uses both names). */
  opstine: string[];
  operator: string;
  javniPoziv: string;
  brojDomacinstava: number | null;
  brojSkola: number | null;
  brojIndirektnoPokrivenihDomacinstava: number | null;
  brojIndirektnoPokrivenihSkola: number | null;
};
export type SettlementsPage = { naselja: SettlementDto[]; totalResults: number };

export type PriorityDto = { _id: string; naziv: string; broj: number };

export type ContractBrief = {
  _id: string;
  naziv: string;
  broj: string;
  status: ContractStatus;
  datumPocetka: string;
  rokTrajanja: number;
  datumZavrsetka: string | null;
  /** datumPocetka + rokTrajanja days. */
  rokZavrsetka: string;
  route: ContractKind;
};

/**
 * An activity of a cluster as the cluster's activities table shows it (spec 2 §2, spec 3 §3), in
 * catalogue order. `odgovoran` holds responsible-party codes (NARUCILAC, IZVODJAC, NADZOR, PIU_TA,
 * AUTOMATSKI); `boja` is deadlineColour's; `poslednjiKomentar` the text of the newest comment.
 */
export type ActivityBrief = {
  _id: string;
  kratakNaziv: string;
  naziv: string;
  status: ActivityStatus;
  odgovoran: string[];
  datumPocetka: string | null;
  datumZavrsetka: string | null;
  rokZavrsetka: string | null;
  boja: DeadlineColour;
  returned: number;
  poslednjiKomentar: string | null;
};

export type LocationDto = {
  _id: string;
  naziv: string;
  odgovoran: GroupBrief[];
  /** The general contract (kind `contract`). */
  ugovor: ContractBrief | null;
  ugovori: { contractIzv: ContractBrief | null; contractPro: ContractBrief | null; contractNad: ContractBrief | null };
  indikativnaDuzinaKlastera: number | null;
  ugovorenaVrednostKlastera: number | null;
  naselja: SettlementDto[];
  usputnaNaselja: SettlementDto[];
  status: ClusterStatus;
  adresa: string | null;
  aktivnosti: ActivityBrief[];
  datumZavrsetka: string | null;
  boja: DeadlineColour;
};
/**
 * A cluster as the lists and pickers carry it (GET /api/location, GET /api/search/location; the pickers'
 * limit=1000 call): what their tables show and no more (issue 15 item 4) — the name, the responsible
 * contractors (the groups of type Izvođač: the list's 'responsible contractor' column), the status,
 * the general contract by id and name (the contract column), the typed contracts by id (the link
 * screen's current contract, named from the kind's contract list) and the colour. Everything else —
 * all responsible groups with their types, the contracts' numbers and periods, the numbers, address,
 * finishing date, settlements and activities — is the detail's (GET /api/location/{id}).
 */
export type LocationListItem = Pick<LocationDto, '_id' | 'naziv' | 'status' | 'boja'> & {
  /** The responsible groups of type Izvođač (tipKod IZVODJAC), by name. */
  odgovoran: ContractorRef[];
  /** The general contract (kind `contract`). */
  ugovor: Pick<ContractBrief, '_id' | 'naziv'> | null;
  ugovori: { contractIzv: ContractId | null; contractPro: ContractId | null; contractNad: ContractId | null };
};
/** A responsible contractor as a cluster's list row names it: id, name and its type's code. */
export type ContractorRef = Pick<GroupBrief, '_id' | 'naziv' | 'tipKod'>;
/** A contract named by its id only. */
export type ContractId = Pick<ContractBrief, '_id'>;
export type LocationsPage = { locations: LocationListItem[]; aktivne: number; totalResults: number };

/** A cluster offered for linking or picking: its name, and the name in each script. */
export type LocationOption = { _id: string; nazivLokacije: string; cyr: string; lat: string };

export type ContractFileDto = { _id: string; originalnoIme: string; mimetype: string; size: number; createdAt: string };

/** A cluster linked to a contract. */
export type ContractLocation = {
  _id: string;
  naziv: string;
  status: ClusterStatus;
  /** The cluster's general contract. */
  ugovor: string | null;
  odgovoran: GroupName[];
};
/** A document of an upload that was not stored, and why (the others of the same upload are). */
export type RefusedDocument = { originalnoIme: string; razlog: string; polje: string };

export type ContractDto = ContractBrief & {
  fajlovi: ContractFileDto[];
  lokacije: ContractLocation[];
  grupe: GroupBrief[];
  boja: DeadlineColour;
};

/**
 * A contract as the lists and pickers carry it (GET /api/{route}, /api/search/{route}): what the list's
 * table shows, the linked clusters only counted (`brojLokacija`); the detail (GET /api/{route}/:id)
 * carries them as `lokacije` (issue 15 item 4).
 */
export type ContractListItem = Omit<ContractDto, 'lokacije'> & { brojLokacija: number };

export type TopicPriority = 'nizak' | 'srednji' | 'visok';
export type TopicStatus = 'otvoren' | 'zatvoren';

export type TopicCommentDto = {
  _id: string;
  tekst: string;
  createdBy: { ime: string; prezime: string };
  createdAt: string;
  /** The group responsible for answering after this comment. */
  odgovoranZaOdgovor: GroupName;
};

export type TopicDto = {
  _id: string;
  nazivKlastera: string;
  locationId: string;
  opis: string;
  odgovoran: GroupName;
  /** ISO date-time or null. */
  rok: string | null;
  prioritet: TopicPriority;
  status: TopicStatus;
  komentari: TopicCommentDto[];
  brojKomentara: number;
  createdAt: string;
  updatedAt: string;
  /**
   * What the caller may do by who they are (docs/decisions.md "Open issues: who changes what"): edit
   * and delete (Admin, the author's group), close (also the responsible group). A closed or commented
   * topic stays locked whatever these say (the spec's disabled buttons).
   */
  dozvole: TopicPermissions;
};
export type TopicPermissions = { izmena: boolean; brisanje: boolean; zatvaranje: boolean };
export type TopicsPage = { data: TopicDto[]; total: number };
export type TopicAnswer = { data: TopicDto; canComment: boolean };

/** The models of POST /api/{model}/excel-import. */
export const IMPORT_MODELS = ['user', 'naselje', 'location'] as const;
export type ImportModel = (typeof IMPORT_MODELS)[number];

/** One row of an import report: the spreadsheet row number, a name for the row, and its outcome. */
export type ImportReportRow = { red: number; naziv: string; success: boolean; warnings: string[]; errors: string[] };
export type ImportDocument = {
  importReport: ImportReportRow[];
  ukupno: number;
  uvezeno: number;
  preskoceno: number;
  neuspesno: number;
};
export type ImportResponse = { message: string; document: ImportDocument };
