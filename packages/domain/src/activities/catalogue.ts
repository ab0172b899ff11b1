/**
 * The default activity catalogue A1–A27 (design/activity-catalogue.md), shipped as seed data. The Admin
 * may change `naziv`, `rok`, `uputstvo` and `dokumenta` on /app/aktivnosti; codes, flow, responsible
 * parties, control flags and file counts are fixed by the product and synchronised on every start.
 *
 * `odgovoran` holds group-type codes (groupTypes.ts) plus AUTOMATSKI (done by the system).
 */
export const ACTIVITY_STATUSES = ['Nije započeta', 'U toku', 'Završena'] as const;
export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number];
export const NOT_STARTED: ActivityStatus = 'Nije započeta';
export const IN_PROGRESS: ActivityStatus = 'U toku';
export const FINISHED: ActivityStatus = 'Završena';

export const RESPONSIBLE_PARTIES = ['NARUCILAC', 'IZVODJAC', 'NADZOR', 'PIU_TA', 'AUTOMATSKI'] as const;
export type ResponsibleParty = (typeof RESPONSIBLE_PARTIES)[number];

/** Allowed deadlines in days (spec 3 §9); null is 'klizno' (floating, no deadline). */
export const ROK_VALUES = [5, 7, 8, 10, 15, 28, 30] as const;
export const KLIZNO = 'klizno';
export type Rok = number | typeof KLIZNO;

export type CatalogueEntry = {
  /** The code, also the short name shown ('A4.1'). */
  code: string;
  naziv: string;
  odgovoran: readonly ResponsibleParty[];
  /** Days from the start, or null for 'klizno'. */
  rok: number | null;
  kontrolna: boolean;
  prethodna: readonly string[];
  naredna: readonly string[];
  /** Files required to finish (0 when the rule is not a plain file count). */
  brojFajlova: number;
  /** Description of the documents the activity produces. */
  dokumenta: string;
  /** For a control: the activity a rejection reopens as a new revision. */
  kontrolise?: string;
};

const e = (
  code: string,
  naziv: string,
  odgovoran: ResponsibleParty[],
  rok: number | null,
  kontrolna: boolean,
  prethodna: string[],
  naredna: string[],
  brojFajlova: number,
  dokumenta: string,
  kontrolise?: string,
): CatalogueEntry => ({ code, naziv, odgovoran, rok, kontrolna, prethodna, naredna, brojFajlova, dokumenta, kontrolise });

export const ACTIVITY_CATALOGUE: readonly CatalogueEntry[] = [
  e(
    'A1',
    'Idejna trasa po naseljima',
    ['NARUCILAC', 'IZVODJAC'],
    15,
    false,
    [],
    ['A2'],
    0,
    'Idejna trasa za svako naselje klastera (po jedan fajl po naselju)',
  ),
  e(
    'A2',
    'Usaglašavanje trase i obima radova',
    ['IZVODJAC'],
    10,
    false,
    ['A1'],
    ['A3', 'A4'],
    0,
    'Zapisnik o usaglašavanju trase i obima radova',
  ),
  e(
    'A3',
    'Informacija o lokaciji (IOL)',
    ['IZVODJAC'],
    10,
    false,
    ['A2'],
    ['A5'],
    0,
    'Informacija o lokaciji ili obrazloženje da nije potrebna',
  ),
  e('A4', 'Izrada idejnog rešenja (IDR)', ['IZVODJAC'], 30, false, ['A2'], ['A4.1'], 1, 'Idejno rešenje (IDR)'),
  e('A4.1', 'Kontrola IDR', ['NADZOR'], 5, true, ['A4'], ['A5'], 0, 'Izveštaj o kontroli IDR (primedbe)', 'A4'),
  e(
    'A5',
    'Zahtev za lokacijske uslove (CEOP)',
    ['IZVODJAC'],
    5,
    false,
    ['A3', 'A4.1'],
    ['A5.1'],
    0,
    'Zahtev za lokacijske uslove podnet kroz CEOP',
  ),
  e(
    'A5.1',
    'Izdavanje lokacijskih uslova',
    ['IZVODJAC'],
    7,
    true,
    ['A5'],
    ['A6'],
    0,
    'Lokacijski uslovi (LU) ili rešenje o odbijanju',
    'A4',
  ),
  e('A6', 'Lokacijski uslovi', ['AUTOMATSKI'], null, false, ['A5.1'], ['A6.1'], 0, 'Lokacijski uslovi (LU)'),
  e(
    'A6.1',
    'IJO iz lokacijskih uslova',
    ['PIU_TA'],
    5,
    true,
    ['A6'],
    ['A7', 'A8'],
    0,
    'Spisak imalaca javnih ovlašćenja iz lokacijskih uslova',
    'A5',
  ),
  e(
    'A7',
    'Uslovi i takse IJO',
    ['PIU_TA', 'NARUCILAC'],
    15,
    false,
    ['A6.1'],
    ['A10'],
    0,
    'Uslovi i rešenja o taksama imalaca javnih ovlašćenja (po jedan fajl po imaocu)',
  ),
  e('A8', 'Projekat za građevinsku dozvolu / idejni projekat (PGD/IDP)', ['IZVODJAC'], 30, false, ['A6.1'], ['A9'], 1, 'PGD ili IDP'),
  e('A9', 'Projekat za izvođenje (PZI)', ['IZVODJAC'], 30, false, ['A8'], ['A9.1'], 1, 'Projekat za izvođenje (PZI)'),
  e('A9.1', 'Tehnička kontrola PZI', ['NADZOR'], 8, true, ['A9'], ['A10'], 0, 'Izveštaj tehničke kontrole PZI', 'A9'),
  e(
    'A10',
    'Zahtev za ROOI ili GD (CEOP)',
    ['IZVODJAC'],
    5,
    false,
    ['A7', 'A9.1'],
    ['A10.1'],
    0,
    'Zahtev za rešenje po čl. 145 ili građevinsku dozvolu',
  ),
  e(
    'A10.1',
    'Izdavanje ROOI ili GD',
    ['IZVODJAC'],
    7,
    true,
    ['A10'],
    ['A11'],
    0,
    'Rešenje (ROOI) ili građevinska dozvola (GD), ili rešenje o odbijanju',
    'A8',
  ),
  e('A11', 'Rešenje o odobrenju izvođenja radova / građevinska dozvola', ['AUTOMATSKI'], null, false, ['A10.1'], ['A12'], 0, 'ROOI ili GD'),
  e('A12', 'Prijava početka radova', ['IZVODJAC'], 8, false, ['A11'], ['A13', 'A14'], 0, 'Prijava početka radova'),
  e(
    'A13',
    'Isporuka i primopredaja opreme školama',
    ['IZVODJAC'],
    28,
    false,
    ['A12'],
    ['A15'],
    0,
    'Zapisnici o primopredaji opreme školama',
  ),
  e('A14', 'Izvođenje radova na trasi', ['IZVODJAC'], null, false, ['A12'], ['A14.1'], 1, 'Građevinski dnevnik'),
  e('A14.1', 'Kontrola izvedenih radova', ['NADZOR'], 8, true, ['A14'], ['A15'], 0, 'Izveštaj o kontroli izvedenih radova', 'A14'),
  e(
    'A15',
    'Montaža i povezivanje opreme',
    ['IZVODJAC'],
    15,
    false,
    ['A13', 'A14.1'],
    ['A16', 'A17'],
    1,
    'Zapisnik o montaži i povezivanju opreme',
  ),
  e('A16', 'Geodetski snimak izvedenog stanja', ['IZVODJAC'], 15, false, ['A15'], ['A18'], 1, 'Geodetski snimak izvedenog stanja'),
  e('A17', 'Dužina izgrađene trase (m)', ['IZVODJAC'], 5, false, ['A15'], ['A18'], 0, 'Dužina izgrađene trase u metrima'),
  e('A18', 'Završetak radova', ['IZVODJAC'], 5, false, ['A16', 'A17'], ['A19', 'A20'], 0, 'Obaveštenje o završetku radova'),
  e('A19', 'Projekat izvedenog objekta (PIO)', ['IZVODJAC'], 30, false, ['A18'], ['A21'], 1, 'Projekat izvedenog objekta (PIO)'),
  e(
    'A20',
    'Merenja optičkih kablova',
    ['IZVODJAC'],
    null,
    false,
    ['A18'],
    ['A21'],
    5,
    'Izveštaji o merenjima optičkih kablova (5 vrsta testova)',
  ),
  e('A21', 'Zahtev za tehnički pregled', ['NARUCILAC'], 7, false, ['A19', 'A20'], ['A22'], 1, 'Zahtev za tehnički pregled'),
  e('A22', 'Tehnički pregled', ['NARUCILAC'], 15, false, ['A21'], ['A23'], 1, 'Izveštaj komisije za tehnički pregled'),
  e('A23', 'Otklanjanje nedostataka', ['IZVODJAC'], 15, false, ['A22'], ['A23.1'], 1, 'Izveštaj o otklonjenim nedostacima'),
  e(
    'A23.1',
    'Kontrola otklonjenih nedostataka',
    ['NADZOR'],
    5,
    true,
    ['A23'],
    ['A24'],
    0,
    'Izveštaj o kontroli otklonjenih nedostataka',
    'A23',
  ),
  e(
    'A24',
    'Predlog za upotrebnu dozvolu',
    ['NADZOR'],
    8,
    true,
    ['A23.1'],
    ['A25'],
    0,
    'Predlog komisije za izdavanje upotrebne dozvole',
    'A23',
  ),
  e('A25', 'Zahtev za upotrebnu dozvolu (CEOP)', ['IZVODJAC'], 5, false, ['A24'], ['A26'], 0, 'Zahtev za upotrebnu dozvolu'),
  e('A26', 'Upotrebna dozvola', ['NARUCILAC'], 10, false, ['A25'], ['A26.1', 'A27'], 1, 'Upotrebna dozvola'),
  e(
    'A26.1',
    'Broj priključenih domaćinstava',
    ['NARUCILAC'],
    10,
    true,
    ['A26'],
    [],
    0,
    'Izveštaj o broju priključenih domaćinstava',
    'A26',
  ),
  e('A27', 'Primopredaja mreže operateru', ['NARUCILAC'], 30, false, ['A26'], ['A27.1'], 1, 'Zapisnik o primopredaji mreže operateru'),
  e('A27.1', 'Broj povezanih škola', ['NARUCILAC'], 10, true, ['A27'], [], 0, 'Izveštaj o broju povezanih škola', 'A27'),
];

const byCode = new Map(ACTIVITY_CATALOGUE.map((entry) => [entry.code, entry]));

export function catalogueEntry(code: string): CatalogueEntry | undefined {
  return byCode.get(code);
}

/** The catalogue position of a code (the order of the table), for sorting; unknown codes last. */
export function cataloguePosition(code: string): number {
  const i = ACTIVITY_CATALOGUE.findIndex((entry) => entry.code === code);
  return i < 0 ? ACTIVITY_CATALOGUE.length : i;
}

/** A sub-activity is one whose code has a dot (A4.1 under A4). */
export function isSubActivity(code: string): boolean {
  return code.includes('.');
}

/** The sub-activities of a code (A4 → ['A4.1']). */
export function subActivitiesOf(code: string): string[] {
  return ACTIVITY_CATALOGUE.filter((entry) => entry.code.startsWith(`${code}.`)).map((entry) => entry.code);
}

/** Codes filled in by the system (A6 by A5.1, A11 by A10.1). */
export const AUTOMATIC_CODES = ['A6', 'A11'] as const;

/** Codes whose finish button is hidden: they are resolved by the decision buttons (spec 3 §4). */
export const FINISH_HIDDEN_CODES = ['A5.1', 'A6.1', 'A10.1', 'A9.1', 'A14.1', 'A23.1', 'A24', 'A26.1', 'A27.1', 'A4.1'] as const;

/** The decision buttons of a control: [no faults, with faults] (spec 3 §4). */
export function controlLabels(code: string): readonly [string, string] {
  switch (code) {
    case 'A26.1':
    case 'A27.1':
      return ['Da', 'Ne'];
    case 'A10.1':
      return ['Dobijeni ROOI ili GD', 'Odbijen PGD ili IDP'];
    case 'A5.1':
      return ['Dobijeni LU', 'Odbijen IDR'];
    default:
      return ['Bez primedbi', 'Sa primedbama'];
  }
}

/** The five A20 test types, one file each (spec 3 §4). */
export const A20_TEST_TYPES = [
  'Test pri preuzimanju optičkih kablova',
  'Test pre polaganja kabla',
  'Test nakon polaganja',
  'Test nakon završetka radova',
  'Završni test i primopredaja 30 dana nakon završetka svih radova',
] as const;

/** A3's two outcomes (answers Da/Ne accepted: Da = obtained, Ne = not needed). */
export const A3_OUTCOMES = ['Dobijena IOL', 'Nije potrebna IOL'] as const;
