import type { InventoryTip, InventoryValuta } from '../messages/inventory.js';

/**
 * Answer shapes of the inventory calls (spec 3 §3, §7; docs/api/inventory.md), once for the server's
 * presenters and the web. Dates are 'YYYY-MM-DD', instants ISO 8601; money is a number in its currency
 * (RSD unless `valuta` says otherwise), two decimals.
 */

export type NamedRef = { _id: string; naziv: string };

/** A codebook entry (spec 3 §3 "Inventory type"). trajanjeGarancije: months (null: none given). */
export type InvTypeDto = {
  _id: string;
  naziv: string;
  kratakNaziv: string;
  tip: InventoryTip;
  trajanjeGarancije: number | null;
  cena: number;
  valuta: InventoryValuta;
  cenaRsd: number;
  sifra: string;
  redniBroj: number | null;
  /** Unit of measure ('kom', 'm', …). */
  jedinica: string;
};
/** GET /api/inv-type[?tip] */
export type InvTypeList = { invTypes: InvTypeDto[] };

export type InventoryContractFileDto = { _id: string; originalnoIme: string; mimetype: string; size: number; createdAt: string };

/** An inventory contract (spec 3 §3): its own kind, never a spec 2 contract. `document` = `_id`. */
export type InventoryContractDto = {
  _id: string;
  naziv: string;
  broj: string;
  datumPocetka: string;
  datumZavrsetka: string | null;
  status: 'U toku' | 'Završen';
  inventory: true;
  document: string;
  fajlovi: InventoryContractFileDto[];
  brojLokacija: number;
};
/** GET /api/contract?inventory=true, GET /api/search/contract?inventory=true */
export type InventoryContractsPage = { contracts: InventoryContractDto[]; totalResults: number };

/** A location (cluster) as the inventory screens list it (spec 3 §3 "Inventory location row"). */
export type InventoryLocationRow = {
  _id: string;
  naziv: string;
  /** The cluster's general contract (spec 2), by name. */
  ugovor: { naziv: string } | null;
  odgovoran: { naziv: string }[];
  status: string;
  /** The last finished activity. */
  completed: { kratakNaziv: string; datumZavrsetka: string } | null;
  /** Settlement names, comma-joined. */
  naselje: string;
  opstina: string;
  skolskaUprava: string;
  /** 'Postoje unete stavke' / 'Nema unetih stavki' (items under this contract). */
  stanje: string;
  brojStavki: number;
  email: string | null;
};
/** GET /api/inventory-contract/{id} */
export type InventoryContractDetail = { contract: InventoryContractDto & { lokacije: InventoryLocationRow[] } };

/** GET /api/inventory/location/{id}: a location as its inventory screen needs it. */
export type InventoryLocationDto = {
  _id: string;
  naziv: string;
  email: string | null;
  opstina: string;
  naselje: string;
  /** Inventory contracts it is linked to. */
  ugovori: { _id: string; naziv: string; broj: string }[];
  brojStavki: number;
  a13: boolean;
};

/** An inventory item (spec 3 §3). cenaRsd: unit price in dinars; ukupnoRsd = kolicina × cenaRsd. */
export type InventoryItemDto = {
  _id: string;
  invType: {
    _id: string;
    naziv: string;
    kratakNaziv: string;
    tip: InventoryTip;
    cena: number;
    valuta: InventoryValuta;
    sifra: string;
    jedinica: string;
  };
  kolicina: number;
  datumPrimopredaje: string;
  lokacija: NamedRef;
  ugovor: { _id: string; naziv: string; broj: string } | null;
  cenaRsd: number;
  ukupnoRsd: number;
};
/** GET /api/inventory?lokacija&ugovor */
export type InventoryItemList = { inventory: InventoryItemDto[]; totalResults: number; ukupnoRsd: number };

/** POST /api/inventory/import answers ImportResponse, as the other imports (docs/api/imports.md). */

/** GET /api/inventory-reports/sve */
export type AllInventoryPage = { allInventory: InventoryItemDto[]; totalResults: number; ukupnoRsd: number };

/** GET /api/inventory-reports/sumarno/{naziv|datum}: one row per codebook entry. */
export type SumPerTypeRow = {
  _id: string;
  naziv: string;
  kratakNaziv: string;
  tip: InventoryTip;
  sifra: string;
  jedinica: string;
  kolicina: number;
  ukupnoRsd: number;
  brojLokacija: number;
  /** The latest handover date of the type among the counted items. */
  datum: string;
};
export type SumPerTypePage = { sumPerTypeInventory: SumPerTypeRow[]; totalResults: number; ukupnoRsd: number };

/** GET /api/inventory-reports/inventar-po-lokaciji: one row per location with items. */
export type PerLocationRow = {
  _id: string;
  naziv: string;
  opstina: string;
  brojStavki: number;
  materijal: number;
  oprema: number;
  radovi: number;
  ukupnoRsd: number;
  a13: boolean;
  potvrdaSkole: boolean;
};
export type PerLocationPage = { inventoryPerLocation: PerLocationRow[]; totalResults: number };

/** A line of a stocktaking list: the location's items of one codebook entry, summed. */
export type StocktakingRow = {
  _id: string;
  redniBroj: number | null;
  sifra: string;
  naziv: string;
  kratakNaziv: string;
  jedinica: string;
  kolicina: number;
  cenaRsd: number;
  ukupnoRsd: number;
  trajanjeGarancije: number | null;
  /** The latest handover of the summed items (of a planned row: the latest planned one). */
  datumPrimopredaje: string;
  /**
   * The items' handover date is after the application's today: planned, not handed over yet. An entry
   * with both gives two rows (the handed-over one first). Lists mailed before the flag existed lack it (false).
   */
  planirano: boolean;
};
/** GET /api/inventory-reports/popisna-lista?naziv= (spec 3 §7). */
export type StocktakingList = {
  materijali: StocktakingRow[];
  radovi: StocktakingRow[];
  oprema: StocktakingRow[];
  locId: string;
  email: string | null;
  naziv: string;
  /** The value of the handed-over rows. */
  ukupnoRsd: number;
  /** The value of the planned rows (`planirano`), not part of `ukupnoRsd`. */
  planiranoRsd: number;
};

/** A school notification (spec 3 §3): the mailed list and the school's confirmation. */
export type SchoolNotificationDto = {
  _id: string;
  lokacija: NamedRef;
  email: string;
  /** The SMTP server accepted the mail (false while it waits in the outbox). */
  mailPoslat: boolean;
  datumSlanja: string;
  potvrdaSkole: boolean;
  /** When the school confirmed (null: not yet). */
  mailPotvrdjen: string | null;
  /** When the link stops working. */
  istice: string;
};
export type SchoolNotificationsPage = { notifications: SchoolNotificationDto[]; totalResults: number };

/** GET /api/public/popisna-lista?token= — what the public page shows, nothing else. */
export type PublicStocktaking = {
  lokacija: string;
  datumSlanja: string;
  istice: string;
  potvrdaSkole: boolean;
  mailPotvrdjen: string | null;
  materijali: StocktakingRow[];
  radovi: StocktakingRow[];
  oprema: StocktakingRow[];
  /** The value of the handed-over rows. */
  ukupnoRsd: number;
  /** The value of the planned rows, not part of `ukupnoRsd`. */
  planiranoRsd: number;
};

/** An A13 confirmation record (spec 3 §3): one per location, its `_id` is the location's id. */
export type A13Row = {
  _id: string;
  lokacija: NamedRef;
  status: boolean;
  /** 'Postoje unete stavke' / 'Nema unetih stavki'. */
  inventar: string;
  brojStavki: number;
  /** The location's A13 activity (for the zip), null when the location has none. */
  aktivnost: { _id: string; status: string; brojFajlova: number } | null;
};
export type A13Page = { a13: A13Row[]; totalResults: number };
export type A13All = { a13: { _id: string; lokacija: NamedRef; status: boolean }[] };
export type A13Stats = { potvrdjeno: number; nijePotvrdjeno: number; ukupno: number };
