/**
 * Texts of the inventory screens and calls (spec 3 §2.10, §5, §8). The spec's own texts are marked
 * "spec"; the rest is ours (docs/decisions.md "Inventory").
 */

/** The three kinds of codebook entries (spec 3 §3, §9), as stored and as the tabs are titled. */
export const INVENTORY_TIPOVI = ['Materijal', 'Oprema', 'Radovi'] as const;
export type InventoryTip = (typeof INVENTORY_TIPOVI)[number];

/** Currencies of a codebook price (spec 3 §9): RSD and the other two. */
export const INVENTORY_VALUTE = ['RSD', 'EUR', 'USD'] as const;
export type InventoryValuta = (typeof INVENTORY_VALUTE)[number];

/** Largest inventory import (spec 3 §5, §9): 10 MB, as the other imports (10,000,000 bytes). */
export const INVENTORY_IMPORT_MAX_BYTES = 10_000_000;

/** A stocktaking-list link lives 30 days and is used once. */
export const SCHOOL_LINK_DAYS = 30;
/** Ours (docs/decisions.md "Stocktaking-list mails"): at most this many mails of one school's list in 24 hours. */
export const SCHOOL_MAILS_PER_DAY = 5;

/** The public page a school opens from its mail: {APP_URL}/popisna-lista?token=… */
export const SCHOOL_LINK_PATH = '/popisna-lista';

export const INVENTORY = {
  /** spec §5 */
  required: 'Polje je obavezno',
  mustBeNumber: 'Morate uneti broj',
  /** Ours: a number out of range (negative, too large, more than two decimals for money). */
  invalidNumber: 'Unesite važeći broj',
  /** Ours: an item of nothing is not recorded. */
  quantityPositive: 'Količina mora biti veća od nule.',
  invalidDate: 'Unesite ispravan datum (YYYY-MM-DD).',
  invalidEmail: 'Neispravna e-pošta',
  invalidTip: 'Tip može biti Materijal, Oprema ili Radovi.',
  invalidValuta: 'Valuta može biti RSD, EUR ili USD.',
  tooLong: 'Predugačak unos.',

  /** Rights (403): the Admin, and an employee whose group type is Naručilac. */
  notAllowed: 'Inventar vode samo administrator i zaposleni naručioca.',

  // Inventory contracts (spec §8: 'Ugovor nije kreiran'; documents as spec 2).
  contractCreated: 'Успешно креиран уговор.',
  contractCreateFailed: 'Ugovor nije kreiran',
  contractDeleted: 'Успешно обрисан уговор.',
  contractDeleteFailed: 'Уговор није обрисан.',
  contractNumberTaken: 'Уговор са тим бројем већ постоји.',
  /** The import report's heading above failed rows (spec 3 words none; spec 2's form for the inventory). */
  importErrorsHeading: 'Грешка при увозу инвентара:',
  /** Ours: the school's list was mailed SCHOOL_MAILS_PER_DAY times in the last 24 hours (429). */
  schoolMailCap: (n: number) => `Popisna lista ove škole je već poslata ${n} puta u poslednja 24 sata. Pokušajte ponovo kasnije.`,
  /** Ours (spec 3 words no edit texts): an inventory contract's fields saved / not saved. */
  contractEdited: 'Успешно измењен уговор.',
  contractEditFailed: 'Уговор није измењен.',
  contractDeleteTitle: 'Brisanje ugovora',
  contractDeleteText: (naziv: string) => `Da li ste sigurni da želite da obrišete ugovor „${naziv}“?`,
  /** Ours: a contract whose locations have items keeps them (409). */
  contractHasItems: (n: number) => `Ugovor se ne može obrisati: na njemu je ${n} stavki inventara.`,
  documentsUploaded: 'Uspešno dodat dokument.',
  documentsFailed: 'Neuspešno dodavanje dokumenta!',
  endBeforeStart: 'Датум завршетка не може бити пре датума почетка.',

  // Contract locations (spec §2.10 'Locations on contract - {name}', in Serbian).
  locationsTitle: (naziv: string) => `Lokacije na ugovoru - ${naziv}`,
  back: 'Nazad',
  addLocations: 'Dodaj lokacije',
  noLocations: 'Ugovor nema lokacija.',
  locationsLinked: 'Успешно додата локација на уговор',
  locationsLinkFailed: 'Додавање локација неуспешно',
  locationUnlinked: 'Успешно обрисана локација са уговора',
  locationUnlinkFailed: 'Неуспешно брисање локације са уговора',
  /** Ours: a location whose items are recorded under this contract stays linked (409). */
  locationHasItems: (n: number) => `Lokacija se ne može ukloniti sa ugovora: na njoj je ${n} stavki inventara po ovom ugovoru.`,
  /** Ours: an item's contract must be one the location is linked to. */
  locationNotOnContract: 'Lokacija nije povezana sa ovim ugovorom.',
  notInventoryContract: 'Ugovor nije ugovor za inventar.',
  /** Ours: the location is on several inventory contracts and none was chosen (400 on ugovor). */
  chooseContract: 'Izaberite ugovor.',

  // Location (school) e-mail.
  schoolEmail: 'E-pošta škole',
  schoolEmailSaved: 'E-pošta škole je sačuvana.',

  // Inventory types (codebook).
  typeCreated: 'Tip inventara je uspešno dodat.',
  typeEdited: 'Tip inventara je uspešno izmenjen.',
  typeDeleted: 'Tip inventara je uspešno obrisan.',
  /** Ours: names are unique within a tip, case and script folded (409 on naziv). */
  typeNameTaken: 'Tip inventara sa ovim nazivom već postoji.',
  typeInUse: (n: number) => `Tip inventara se koristi u ${n} stavki inventara i ne može se obrisati.`,
  typeTipLocked: 'Tip (Materijal, Oprema, Radovi) se ne može menjati dok postoje stavke ovog tipa.',
  deleteFailed: 'Brisanje neuspešno',

  // Inventory items.
  itemCreated: 'Stavka inventara je uspešno dodata.',
  itemEdited: 'Stavka inventara je uspešno izmenjena.',
  itemDeleted: 'Stavka inventara je uspešno obrisana.',
  chooseTypeFirst: 'Prvo izaberite tip.',
  /** The item's type must exist (an id of a deleted or unknown type). */
  unknownType: 'Izabrani tip inventara ne postoji.',

  // Import (spec §5 'document must not be larger than 10 megabytes', in Serbian).
  importTooLarge: 'Dokument ne sme biti veći od 10 megabajta.',
  importWrongType: 'Pogrešan tip fajla',
  importDone: (ok: number, errors: number) => `Uvezeno stavki: ${ok}. Redova sa greškom: ${errors}.`,
  importNoFile: 'Izaberite fajl (CSV ili Excel).',
  importUnreadable: 'Fajl nije moguće pročitati.',
  importTooManyRows: 'Fajl ima previše redova (najviše 5000).',
  importMissingColumns: (cols: string[]) => `Nedostaju kolone: ${cols.join(', ')}.`,
  importRowUnknownType: (v: string) => `Tip inventara „${v}“ ne postoji u šifarniku.`,
  importRowUnknownContract: (v: string) => `Ugovor „${v}“ nije povezan sa ovom lokacijom.`,
  importRowNoSuchContract: (v: string) => `Ugovor za inventar „${v}“ ne postoji.`,
  importRowNoContract: 'Lokacija nije povezana ni sa jednim ugovorom za inventar; navedite broj ugovora.',
  importRowAmbiguousContract: 'Lokacija je na više ugovora za inventar; navedite broj ugovora.',
  importRowDuplicate: 'Stavka već postoji (isti tip i datum primopredaje); red je preskočen.',
  importRowSameFile: 'Isti tip i datum primopredaje se ponavljaju u fajlu; red je preskočen.',
  importTemplateName: 'inventar-sablon.xlsx',

  // Reports (spec §2.10).
  reportAll: 'Lista svih stavki',
  reportSummary: 'Sumarno po stavci',
  reportPerLocation: 'Stanje po lokaciji',
  reportStocktaking: 'Popisna lista',
  sortNaziv: 'naziv',
  sortDatum: 'datum',
  chooseLocation: 'Izaberite lokaciju',
  lookup: 'Prikaži',
  sendToSchool: 'Pošalji školi',

  // School notifications.
  notificationSent: 'Popisna lista je poslata školi.',
  /** Mail without an SMTP server in use waits in the outbox (platform/mail.ts). */
  notificationQueued: 'Popisna lista je sačuvana za slanje (nijedan SMTP server nije u upotrebi).',
  notificationFailed: 'Slanje popisne liste nije uspelo.',
  emailRequired: 'Unesite e-poštu škole.',
  listEmpty: 'Na lokaciji nema unetih stavki; popisna lista nije poslata.',
  mailSubject: (lokacija: string) => `Popisna lista opreme – ${lokacija}`,
  mailIntro: (lokacija: string) =>
    `Poštovani,\n\nU nastavku ove poruke je popisna lista opreme, materijala i radova isporučenih lokaciji „${lokacija}“.`,
  mailLinkText: (days: number) => `Molimo vas da prijem potvrdite putem sledećeg linka (važi ${days} dana, jednokratan):`,
  mailOutro: 'Hvala.',
  /** The heading of the mail's planned rows (handover date after today): listed apart, not confirmed. */
  mailPlannedHeading: 'Planirano (još nije predato)',
  mailPlannedFor: (datum: string) => `predaja planirana za ${datum}`,
  mailPlannedTotal: 'Planirano ukupno',
  mailPlannedNote: 'Planirane stavke nisu deo prijema koji potvrđujete.',
  yes: 'Da',
  no: 'Ne',

  // The public confirmation page.
  publicTitle: 'Popisna lista',
  publicConfirm: 'Potvrđujem prijem',
  publicConfirmed: 'Prijem je potvrđen. Hvala.',
  publicAlreadyConfirmed: 'Prijem je već potvrđen.',
  /** Forged, unknown, used or expired link: one answer (410 for used/expired, 404 for forged). */
  publicLinkInvalid: 'Link nije važeći ili je istekao.',
  publicLinkUsed: 'Link je već iskorišćen.',

  // Inventory check / A13 (spec §2.10, §8).
  itemsPresent: 'Postoje unete stavke',
  itemsAbsent: 'Nema unetih stavki',
  a13Confirmed: 'Potvrđeno',
  a13NotConfirmed: 'Nije potvrđeno',
  confirm: 'Potvrdi',
  undo: 'Poništi',
  statusChanged: 'Успешно промењен статус',
  statusChangeFailed: 'Промена статуса неуспешна',
  noDocument: 'Нема документа',
  editInventory: 'Izmeni inventar',
  downloadA13: 'Preuzmi A13',
  importInventory: 'Uvezi inventar',
  statsConfirmed: 'Potvrđeno',
  statsNotConfirmed: 'Nije potvrđeno',
  statsTotal: 'Ukupno',

  // Tabs and columns.
  tabs: ['Ugovori', 'Šifarnik opreme', 'Izveštaji', 'Obaveštene škole', 'Provera inventara'] as const,
  emptyTable: 'Nema pronađenih podataka.',
} as const;
