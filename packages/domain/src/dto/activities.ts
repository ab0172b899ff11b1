import type { ActivityStatus, Rok } from '../activities/catalogue.js';
import type { DeadlineColour } from '../colours.js';

/**
 * Answer shapes of the activity workflow (spec 3 §3 and §7; docs/api/activities.md). The server's
 * presenters build them field by field; the web re-exports them.
 */

/**
 * A data item (spec 3 §3 "Data item"): Datum is YYYY-MM-DD; other values are strings as entered.
 * `ref` names what a per-entity item is about: A1 'DuzinaTrase' the settlement's id, A7 'A7Taksa' the
 * holder's id (activities/rules.ts lists the keys).
 */
export type DataItem = { key: string; naziv: string; vrednost: string; ref?: string };

export type ActivityFileDto = {
  _id: string;
  /** The stored (generated) name. */
  fajl: string;
  /** The name shown; a file of revision N carries '_revizija=N' before its extension. */
  originalnoIme: string;
  mimetype: string;
  size: number;
  isRequired: boolean;
  /** Always false: deleted files are not listed (they stay on record for the audit trail). */
  deleted: boolean;
  /** The activity's `returned` when the file was uploaded (0: no revision). */
  revizija: number;
  /** What the file is for: A1 the settlement's id, A20 the test type (1–5), A7 the holder's id; else null. */
  slot: string | null;
  createdAt: string;
};

export type ActivityCommentDto = {
  _id: string;
  komentar: string;
  createdAt: string;
  /** null when the author deleted their account: shown 'Korisnik je obrisan'. */
  user: { ime: string; prezime: string; email: string } | null;
};

export type ActivityLocationDto = {
  _id: string;
  naziv: string;
  naselja: { _id: string; naziv: string }[];
  indikativnaDuzinaKlastera: number | null;
  ugovorenaVrednostKlastera: number | null;
  /** The general contract the cluster is under (activities start only under one). */
  ugovor: { _id: string; naziv: string; broj: string } | null;
};

/** What the caller may do on this activity (computed by the server; the UI only hides what it can't). */
export type ActivityPermissions = {
  /** Save data, upload, delete files of the current revision, finish, resolve a control. */
  menjanje: boolean;
  /** Start A1 by hand. */
  pokretanje: boolean;
  /** Reactivate a finished activity (Admin). */
  reaktivacija: boolean;
  /** Download every document of the cluster in one zip (Admin, sees-all group). */
  sviFajlovi: boolean;
};

export type ActivityDto = {
  _id: string;
  kratakNaziv: string;
  naziv: string;
  status: ActivityStatus;
  version: number;
  returned: number;
  /**
   * The current revision (returned + version): files of this revision count for the rules and may be
   * deleted; older ones are listed with their '_revizija=N' names.
   */
  revizija: number;
  kontrolna: boolean;
  podAktivnost: boolean;
  podAktivnosti: string[];
  prethodna: string[];
  naredna: string[];
  odgovoran: string[];
  rok: Rok;
  /** Whole days to the deadline (negative when late); null when not started, finished or klizno. */
  brojDanaDoRoka: number | null;
  datumPocetka: string | null;
  datumZavrsetka: string | null;
  rokZavrsetka: string | null;
  dokumenta: string;
  brojFajlova: number;
  uputstvo: string;
  faults: boolean | null;
  userFields: { faults: boolean | null };
  podaci: DataItem[];
  fajlovi: ActivityFileDto[];
  komentari: ActivityCommentDto[];
  lokacija: ActivityLocationDto;
  boja: DeadlineColour;
  dozvole: ActivityPermissions;
};

/** An activity of the same cluster connected to this one (its prethodna), with its documents. */
export type ConnectedActivityDto = {
  _id: string;
  kratakNaziv: string;
  naziv: string;
  status: ActivityStatus;
  /** How often it was sent back: its files of this revision (`revizija`) are the current ones. */
  returned: number;
  fajlovi: ActivityFileDto[];
  podaci: DataItem[];
};

/** GET /api/activity/{id}. */
export type ActivityDetailResponse = { activity: ActivityDto; connected: ConnectedActivityDto[] };

/** A row of the notifications page, the Admin's in-progress list and a cluster's activities table. */
export type ActivityRowDto = {
  _id: string;
  kratakNaziv: string;
  naziv: string;
  status: ActivityStatus;
  odgovoran: string[];
  rok: Rok;
  datumPocetka: string | null;
  datumZavrsetka: string | null;
  rokZavrsetka: string | null;
  brojDanaDoRoka: number | null;
  returned: number;
  boja: DeadlineColour;
  lokacija: { _id: string; naziv: string };
  ugovor: { _id: string; naziv: string } | null;
};

/** GET /api/activity/notifications, GET /api/search/notification, GET /api/activity/in-progress. */
export type ActivityRowsPage = { activities: ActivityRowDto[]; totalResults: number };

/** A catalogue entry on /app/aktivnosti (Admin). */
export type CatalogueEntryDto = {
  _id: string;
  kratakNaziv: string;
  naziv: string;
  prethodna: string[];
  naredna: string[];
  odgovoran: string[];
  rok: Rok;
  kontrolna: boolean;
  brojFajlova: number;
  dokumenta: string;
  uputstvo: string;
};
