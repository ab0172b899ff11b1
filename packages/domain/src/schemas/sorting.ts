import { z } from 'zod';
import { COMMON } from '../messages/common.js';

/** The directions a list sorts in (`order`); `asc` when a `sort` comes without one. */
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/**
 * The columns each paged list sorts by on the server (issue 13 item 9): the `sort` values of its calls,
 * named like the list's column in the web's table (the spec's field names). Text columns sort in the
 * Serbian alphabet's order (trasa_sr); a list without `sort` keeps its own default order.
 */
export const LIST_SORTS = {
  /** GET /api/user, /api/user/users-per-role, /api/user/guests, /api/search/user, the group's members. */
  users: ['ime', 'prezime', 'imePrezime', 'email', 'rola', 'grupa', 'status', 'emailPotvrdjen'],
  /** GET /api/group, /api/search/group. */
  groups: ['naziv', 'kratakNaziv', 'tip', 'nadredjenaGrupa', 'sveVideci'],
  /** GET /api/settlement, /api/search/settlement. */
  settlements: [
    'id',
    'naziv',
    'maticniBroj',
    'operator',
    'javniPoziv',
    'brojDomacinstava',
    'brojSkola',
    'brojIndirektnoPokrivenihDomacinstava',
    'brojIndirektnoPokrivenihSkola',
  ],
  /** GET /api/location, /api/search/location (the clusters list; not the per-activity report). */
  clusters: ['naziv', 'odgovoran', 'status', 'ugovor'],
  /** GET /api/contract/... and /api/search/contract/... (every kind). */
  contracts: ['naziv', 'broj', 'datumPocetka', 'rokTrajanja', 'rokZavrsetka', 'status'],
  /** GET /api/topic (the open questions). */
  topics: ['nazivKlastera', 'opis', 'prioritet', 'status', 'rok'],
  /** GET /api/activity/notifications, /api/search/notification, /api/activity/in-progress. */
  activities: ['kratakNaziv', 'naziv', 'lokacija', 'datumPocetka', 'rokZavrsetka', 'brojDanaDoRoka', 'ugovor'],
  /** GET /api/comment, /api/search/comment (the activities' comments). */
  comments: ['ime', 'komentar', 'email', 'klaster', 'aktivnost', 'createdAt'],
  /** GET /api/smtp/outbox (the mail outbox). */
  outbox: ['to', 'subject', 'status', 'attempts', 'createdAt', 'error'],
  /** GET /api/role. */
  roles: ['imeRole', 'kratakNaziv', 'osnovnaRola', 'ugradjena'],
  /**
   * GET /api/log, /api/search/log (the audit log, 1,000,000 rows): only the time, which its (created_at, id)
   * and (group_id, created_at, id) indexes serve in both directions; `desc` is the default order.
   */
  logs: ['createdAt'],
  /** GET /api/contract?inventory=true, /api/search/contract?inventory=true (the inventory contracts). */
  inventoryContracts: ['naziv', 'broj', 'datumPocetka', 'datumZavrsetka', 'status', 'brojLokacija'],
  /** GET /api/inv-type (the codebook: not paged, the whole answer in this order). */
  invTypes: ['naziv', 'kratakNaziv', 'cena', 'cenaRsd', 'sifra', 'jedinica', 'trajanjeGarancije', 'redniBroj'],
  /** GET /api/inventory (a location's items, not paged) and /api/inventory-reports/sve. */
  inventoryItems: ['lokacija', 'naziv', 'tip', 'sifra', 'kolicina', 'cenaRsd', 'ukupnoRsd', 'datumPrimopredaje', 'ugovor'],
  /** GET /api/inventory-reports/sumarno/{naziv|datum} (overrides the path's order when given). */
  inventorySum: ['naziv', 'tip', 'sifra', 'kolicina', 'brojLokacija', 'datum', 'ukupnoRsd'],
  /** GET /api/inventory-reports/inventar-po-lokaciji. */
  inventoryPerLocation: ['naziv', 'brojStavki', 'materijal', 'oprema', 'radovi', 'ukupnoRsd', 'a13', 'potvrdaSkole'],
  /** GET /api/school-notification (the notified schools). */
  schoolNotifications: ['lokacija', 'email', 'mailPoslat', 'datumSlanja', 'potvrdaSkole', 'mailPotvrdjen', 'istice'],
  /** GET /api/A13 (the inventory check). */
  a13: ['naziv', 'status', 'inventar'],
  /** GET /api/report/finished. */
  finishedReport: ['klaster', 'ugovor', 'zavrsene'],
  /** GET /api/report/{activity}. */
  activityReport: ['klaster', 'ugovor', 'status', 'datumPocetka', 'datumZavrsetka', 'rok'],
  /** GET /api/report/ijo-takse. */
  ijoReport: ['ugovor', 'klaster', 'imaoc', 'status', 'taksa', 'zaduzen', 'izvodjac'],
  /** GET /api/report/duzine/{A1|A9|A12}. */
  routeLengthReport: ['klaster', 'ugovor', 'status', 'datumZavrsetka', 'duzina'],
} as const satisfies Record<string, readonly [string, ...string[]]>;
export type SortedList = keyof typeof LIST_SORTS;
export type SortKey<L extends SortedList> = (typeof LIST_SORTS)[L][number];

/**
 * `sort` and `order` of a list's query: an unknown column or direction is refused with
 * 'Neispravan parametar sortiranja.' (400), like every other bad query value.
 */
export function sortQuery<L extends SortedList>(list: L) {
  const keys = LIST_SORTS[list] as unknown as readonly [SortKey<L>, ...SortKey<L>[]];
  return {
    sort: z.enum(keys, { error: COMMON.badSort }).optional(),
    order: z.enum(SORT_ORDERS, { error: COMMON.badSort }).optional(),
  };
}

/** What a service gets: the column (absent: the list's default order) and its direction. */
export type Sorting<K extends string = string> = { sort?: K | undefined; order?: SortOrder | undefined };
