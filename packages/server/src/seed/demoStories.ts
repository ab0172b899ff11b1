import { DATA_KEYS, type GroupTypeCode } from '@trasa/domain';
import { inArray } from 'drizzle-orm';
import { settlements } from '../db/schema-clusters.js';
import type { Db } from '../platform/database.js';
import { type DemoCluster, insertDemoClusters } from './demoClusters.js';
import { DEMO_CLUSTERS_WITHOUT_CONTRACT } from './demoLinks.js';
import type { Scene } from './demoScene.js';

/**
 * The demo's workflow stories (data): the clusters added for the late stages, the usual pace of the flow, the
 * people and holders, and each cluster's story of steps and notes.
 */
const RBB_2 = 'JP-RBB-2024/2';

type ExtraSettlement = {
  code: string;
  naziv: string;
  maticniBroj: string;
  opstina: string;
  domacinstva: number;
  skole: number;
  operator: string;
};

/** Villages of the clusters added here (seed/demoClusters.ts has the others). */
export const DEMO_WORKFLOW_SETTLEMENTS: ExtraSettlement[] = [
  { code: 'ARI-001', naziv: 'Brekovo', maticniBroj: '700312', opstina: 'Arilje', domacinstva: 246, skole: 1, operator: 'Telekom Srbija' },
  { code: 'ARI-002', naziv: 'Vigošte', maticniBroj: '700371', opstina: 'Arilje', domacinstva: 132, skole: 1, operator: 'Telekom Srbija' },
  { code: 'ARI-003', naziv: 'Grivska', maticniBroj: '700347', opstina: 'Arilje', domacinstva: 118, skole: 0, operator: 'SBB' },
  { code: 'ARI-004', naziv: 'Virovo', maticniBroj: '700363', opstina: 'Arilje', domacinstva: 87, skole: 0, operator: 'Telekom Srbija' },
  {
    code: 'NVA-001',
    naziv: 'Akmačići',
    maticniBroj: '741507',
    opstina: 'Nova Varoš',
    domacinstva: 164,
    skole: 1,
    operator: 'Telekom Srbija',
  },
  { code: 'NVA-002', naziv: 'Radijevići', maticniBroj: '741655', opstina: 'Nova Varoš', domacinstva: 121, skole: 1, operator: 'Yettel' },
  {
    code: 'NVA-003',
    naziv: 'Bistrica',
    maticniBroj: '741523',
    opstina: 'Nova Varoš',
    domacinstva: 143,
    skole: 1,
    operator: 'Telekom Srbija',
  },
  { code: 'PRI-001', naziv: 'Kratovo', maticniBroj: '741884', opstina: 'Priboj', domacinstva: 152, skole: 1, operator: 'Telekom Srbija' },
  { code: 'PRI-002', naziv: 'Sočice', maticniBroj: '741922', opstina: 'Priboj', domacinstva: 98, skole: 0, operator: 'Telekom Srbija' },
  { code: 'PRI-003', naziv: 'Crnugovići', maticniBroj: '741841', opstina: 'Priboj', domacinstva: 76, skole: 0, operator: 'SBB' },
  {
    code: 'KOS-001',
    naziv: 'Seča Reka',
    maticniBroj: '715859',
    opstina: 'Kosjerić',
    domacinstva: 211,
    skole: 1,
    operator: 'Telekom Srbija',
  },
  { code: 'KOS-002', naziv: 'Varda', maticniBroj: '715891', opstina: 'Kosjerić', domacinstva: 104, skole: 1, operator: 'Telekom Srbija' },
];

const UNCONTRACTED = DEMO_CLUSTERS_WITHOUT_CONTRACT[0] as string;

/** Clusters for the stages the first eight don't cover (late in the flow, without a contract). */
export const DEMO_WORKFLOW_CLUSTERS: DemoCluster[] = [
  {
    naziv: 'Arilje - Brekovo',
    odgovoran: ['Kabl Mreže - Region Jug', 'Nadzor Inženjering - Tim Kragujevac'],
    naselja: ['ARI-001', 'ARI-002', 'ARI-003'],
    usputnaNaselja: ['ARI-004'],
    duzina: 22.8,
    vrednost: 28_640_000,
  },
  {
    naziv: 'Nova Varoš - Akmačići',
    odgovoran: ['Kabl Mreže - Region Istok', 'Nadzor Inženjering d.o.o.'],
    naselja: ['NVA-001', 'NVA-002', 'NVA-003'],
    duzina: 26.1,
    vrednost: 33_915_000,
  },
  {
    naziv: 'Priboj - Kratovo',
    odgovoran: ['Kabl Mreže d.o.o.', 'Nadzor Inženjering - Tim Kragujevac'],
    naselja: ['PRI-001', 'PRI-002'],
    usputnaNaselja: ['PRI-003'],
    duzina: 17.4,
    vrednost: 22_180_000,
  },
  {
    naziv: UNCONTRACTED,
    odgovoran: ['Kabl Mreže d.o.o.', 'Projektni biro Meridijan'],
    naselja: ['KOS-001', 'KOS-002'],
    duzina: 15.9,
    vrednost: 19_870_000,
  },
];

/** Adds what is missing of the settlements and clusters above (natural keys: code, lower(naziv)). */
export async function addWorkflowClusters(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    await tx
      .insert(settlements)
      .values(
        DEMO_WORKFLOW_SETTLEMENTS.map((s) => ({
          code: s.code,
          naziv: s.naziv,
          maticniBroj: s.maticniBroj,
          opstine: [s.opstina],
          operator: s.operator,
          javniPoziv: RBB_2,
          brojDomacinstava: s.domacinstva,
          brojSkola: s.skole,
          brojIndirektnoPokrivenihDomacinstava: Math.round(s.domacinstva * 0.15),
          brojIndirektnoPokrivenihSkola: 0,
        })),
      )
      .onConflictDoNothing();
    const settlementIds = new Map(
      (
        await tx
          .select({ id: settlements.id, code: settlements.code })
          .from(settlements)
          .where(
            inArray(
              settlements.code,
              DEMO_WORKFLOW_SETTLEMENTS.map((s) => s.code),
            ),
          )
      ).map((s) => [s.code, s.id] as const),
    );
    return insertDemoClusters(tx, DEMO_WORKFLOW_CLUSTERS, settlementIds);
  });
}

// ---------------------------------------------------------------------------------------------------
// The stories

/** What a step does besides finishing (or accepting) its activity. */
export type Extra = {
  /** A control resolved with remarks ('Sa primedbama', 'Odbijen IDR'): the controlled activity reopens. */
  faults?: true;
  /** A3: 'Nije potrebna IOL' (with the explanation) instead of 'Dobijena IOL'. */
  noIol?: true;
  /** A comment on the activity that day: [author's e-mail, text]. */
  note?: [string, string];
};
/** [code, days after the previous step, extra]: the code is finished (a control decided) that day. */
type Step = [string, number, Extra?];
/** [code, days from today, author's e-mail, text]. */
type Note = [string, number, string, string];

export type Story = {
  cluster: string;
  /** Who acts for each responsible party (a Zaposleni who sees the cluster); the others: the system. */
  people: Partial<Record<GroupTypeCode, string>>;
  /** Days from today of the last step; A1 started the steps' total before it. */
  end: number;
  steps: Step[];
  /** A6.1's holders (names of seed/demoIjo.ts). */
  holders?: string[];
  /** Work on activities still in progress, after the steps. */
  open?: (s: Scene) => Promise<void>;
  notes?: Note[];
};

/** The usual pace, in catalogue order of finishing: days after the previous step. */
const FLOW: [string, number][] = [
  ['A1', 12],
  ['A2', 8],
  ['A3', 7],
  ['A4', 19],
  ['A4.1', 4],
  ['A5', 3],
  ['A5.1', 6],
  ['A6.1', 4],
  ['A7', 13],
  ['A8', 14],
  ['A9', 25],
  ['A9.1', 6],
  ['A10', 3],
  ['A10.1', 6],
  ['A12', 6],
  ['A13', 21],
  ['A14', 35],
  ['A14.1', 6],
  ['A15', 12],
  ['A17', 4],
  ['A16', 8],
  ['A18', 4],
  ['A20', 18],
  ['A19', 7],
  ['A21', 5],
  ['A22', 12],
  ['A23', 10],
  ['A23.1', 4],
  ['A24', 6],
  ['A25', 4],
  ['A26', 8],
  ['A26.1', 7],
  ['A27', 19],
  ['A27.1', 6],
];

/** The usual flow from `from` to `to` (inclusive); `changes` gives other days or extras per code. */
function flow(from: string, to: string, changes: Record<string, number | (Extra & { after?: number })> = {}): Step[] {
  const start = FLOW.findIndex(([c]) => c === from);
  const end = FLOW.findIndex(([c]) => c === to);
  return FLOW.slice(start, end + 1).map(([code, after]) => {
    const change = changes[code];
    if (change === undefined) return [code, after];
    if (typeof change === 'number') return [code, change];
    const { after: days, ...extra } = change;
    return [code, days ?? after, extra];
  });
}

const NENAD = 'nenad.stojanovic@mit.gov.rs';
const IVANA = 'ivana.djordjevic@mit.gov.rs';
const MILICA = 'milica.pavlovic@piuta.rs';
const STEFAN = 'stefan.markovic@optikagradnja.rs';
const JOVANA = 'jovana.kostic@optikagradnja.rs';
const VLADIMIR = 'vladimir.ciric@nadzor-inzenjering.rs';
const GORAN = 'goran.cosic@nadzor-inzenjering.rs';
const BILJANA = 'biljana.simic@nadzor-inzenjering.rs';
const MARIJA = 'marija.zivkovic@kablmreze.rs';
const ANA = 'ana.milenkovic@kablmreze.rs';
const LUKA = 'luka.petkovic@kablmreze.rs';
const VESNA = 'vesna.ristic@kablmreze.rs';
const MIROSLAV = 'miroslav.kovacevic@kablmreze.rs';

const PUTEVI = 'JP „Putevi Srbije“';
const EDS = 'Elektrodistribucija Srbije d.o.o.';
const TELEKOM = 'Telekom Srbija a.d.';
const VODOVOD = 'JKP „Vodovod“ Užice';
const SRBIJAGAS = 'Srbijagas a.d.';
const ZELEZNICE = 'Infrastruktura železnice Srbije a.d.';
const SRBIJASUME = 'JP „Srbijašume“';
const SPOMENICI = 'Zavod za zaštitu spomenika kulture';
const MUP = 'MUP – Sektor za vanredne situacije';
const SRBIJAVODE = 'Javno vodoprivredno preduzeće „Srbijavode“';
const PRIRODA = 'Zavod za zaštitu prirode Srbije';

/** What each holder charged for its conditions (RSD). */
export const FEES: Record<string, number> = {
  [PUTEVI]: 58_320,
  [EDS]: 21_450,
  [TELEKOM]: 12_000,
  [VODOVOD]: 8_760,
  [SRBIJAGAS]: 18_900,
  [ZELEZNICE]: 41_300,
  [SRBIJASUME]: 15_600,
  [SPOMENICI]: 6_200,
  [MUP]: 3_290,
  [SRBIJAVODE]: 9_450,
  [PRIRODA]: 24_850,
};

export const DEMO_STORIES: Story[] = [
  {
    cluster: 'Čajetina 2 - Mačkat',
    people: { NARUCILAC: NENAD, IZVODJAC: JOVANA },
    end: -2,
    steps: [],
    open: (s) => s.routeFiles(-2, 1),
    notes: [
      ['A1', -1, NENAD, 'Idejna trasa za Gostilje se dopunjuje zbog prelaska preko državnog puta; fajl dodajemo čim je projektant završi.'],
    ],
  },
  {
    cluster: 'Užice 1 - Kremna',
    people: { NARUCILAC: NENAD, IZVODJAC: JOVANA, NADZOR: VLADIMIR },
    end: -22,
    steps: flow('A1', 'A1', { A1: 18 }),
    notes: [
      [
        'A2',
        -6,
        NENAD,
        'Rok za usaglašavanje trase je istekao. Molim izvođača da do kraja nedelje dostavi zapisnik sa usaglašenom trasom i obimom radova.',
      ],
      [
        'A2',
        -5,
        JOVANA,
        'Deonica prema Mokroj Gori prolazi kroz Park prirode „Šargan – Mokra Gora“, pa čekamo mišljenje upravljača parka. Zapisnik šaljemo odmah po dobijanju.',
      ],
    ],
  },
  {
    cluster: 'Čajetina 1 - Sirogojno',
    people: { NARUCILAC: NENAD, IZVODJAC: STEFAN, NADZOR: VLADIMIR },
    end: -6,
    steps: flow('A1', 'A2'),
    notes: [
      [
        'A3',
        -2,
        STEFAN,
        'Zahtev za informaciju o lokaciji predat je Opštinskoj upravi Čajetina; odgovor očekujemo u zakonskom roku od osam dana.',
      ],
    ],
  },
  {
    cluster: 'Bajina Bašta 1 - Perućac',
    people: { NARUCILAC: NENAD, IZVODJAC: ANA, NADZOR: GORAN },
    end: -5,
    steps: [
      ['A1', 11],
      ['A2', 10],
      ['A4', 4],
    ],
    notes: [
      ['A3', -3, ANA, 'Opštinska uprava Bajina Bašta tražila je dopunu zahteva za IOL (kopiju plana parcela); dopuna je predata danas.'],
      [
        'A4.1',
        -1,
        GORAN,
        'Pregled IDR je u toku. Deonica uz Perućačko jezero ulazi u Nacionalni park Tara, pa proveravamo usklađenost trase sa uslovima zaštite prirode.',
      ],
    ],
  },
  {
    cluster: 'Ivanjica - Kušići',
    people: { NARUCILAC: IVANA, IZVODJAC: VESNA, PIU_TA: MILICA },
    end: -23,
    holders: [PUTEVI, EDS, SRBIJASUME, PRIRODA],
    steps: [
      ...flow('A1', 'A5'),
      [
        'A5.1',
        6,
        {
          faults: true,
          note: [
            VESNA,
            'Zahtev za lokacijske uslove je odbijen: idejno rešenje nije obuhvatilo ukrštanje sa državnim putem kod Kušića. Projektant dopunjuje IDR.',
          ],
        },
      ],
      ['A4', 14],
      ['A4.1', 3],
      ['A5', 2],
      ['A5.1', 7],
      ['A6.1', 4],
    ],
    open: async (s) => {
      await s.holderConditions(-19, [PUTEVI, EDS]);
      await s.holderConditions(-11, [PUTEVI, EDS, PRIRODA]);
    },
    notes: [
      [
        'A7',
        -4,
        MILICA,
        'Pribavljeni su uslovi JP „Putevi Srbije“, Elektrodistribucije i Zavoda za zaštitu prirode. JP „Srbijašume“ još nije izdalo rešenje o taksi; urgirali smo telefonom i mejlom.',
      ],
    ],
  },
  {
    cluster: 'Arilje - Brekovo',
    people: { NARUCILAC: IVANA, IZVODJAC: LUKA, NADZOR: BILJANA, PIU_TA: MILICA },
    end: -33,
    holders: [PUTEVI, EDS, TELEKOM, SPOMENICI],
    steps: [
      ...flow('A1', 'A4'),
      [
        'A4.1',
        4,
        {
          faults: true,
          note: [
            BILJANA,
            'IDR ne prikazuje prelaz preko Rzava kod Brekova, a orman u Vigoštu nema dovoljno mesta za planirani broj priključaka. Molimo dopunu.',
          ],
        },
      ],
      ['A4', 12],
      ['A4.1', 3],
      ...flow('A5', 'A9'),
      [
        'A9.1',
        6,
        {
          faults: true,
          note: [
            BILJANA,
            'U PZI nedostaju detalji polaganja kabla na mostu i proračun slabljenja za deonicu Grivska – Virovo. Detaljne primedbe su u izveštaju tehničke kontrole.',
          ],
        },
      ],
    ],
    notes: [['A9', -1, LUKA, 'Ispravke PZI po primedbama tehničke kontrole su pri kraju; revidovani projekat dostavljamo do petka.']],
  },
  {
    cluster: 'Užice 2 - Stapari',
    people: { NARUCILAC: NENAD, IZVODJAC: MARIJA, PIU_TA: MILICA },
    end: -12,
    holders: [PUTEVI, EDS, TELEKOM, VODOVOD],
    steps: flow('A1', 'A12', {
      A3: {
        noIol: true,
        note: [MARIJA, 'IOL nije potrebna: trasa ide isključivo kroz postojeći putni pojas opštinskih puteva. Obrazloženje je priloženo.'],
      },
    }),
    open: (s) => s.upload('A14', -5, 'Građevinski dnevnik - Stapari, prvi deo.pdf'),
    notes: [
      ['A13', -4, NENAD, 'Škole u Staparima i Karanu potvrdile su prijem opreme za sledeći utorak; popisne liste su poslate direktorima.'],
      ['A14', -3, MARIJA, 'Položeno je 11,2 km HDPE cevi na deonici Stapari – Karan; uduvavanje kabla počinje sledeće nedelje.'],
    ],
  },
  {
    cluster: 'Nova Varoš - Akmačići',
    people: { NARUCILAC: NENAD, IZVODJAC: MIROSLAV, NADZOR: VLADIMIR, PIU_TA: MILICA },
    end: -2,
    holders: [PUTEVI, EDS, SRBIJASUME, SRBIJAVODE],
    steps: [
      ...flow('A1', 'A23'),
      [
        'A23.1',
        4,
        {
          faults: true,
          note: [
            VLADIMIR,
            'Nedostaci iz zapisnika komisije nisu u potpunosti otklonjeni: oznake trase kod Radijevića nisu postavljene. Vraćeno na doradu.',
          ],
        },
      ],
      [
        'A23',
        9,
        { note: [MIROSLAV, 'Oznake trase postavljene su na svih 14 mesta; fotografije su u izveštaju o otklonjenim nedostacima.'] },
      ],
      ['A23.1', 3],
    ],
    notes: [['A24', -1, VLADIMIR, 'Predlog za upotrebnu dozvolu je u izradi; komisija se sastaje u četvrtak.']],
  },
  {
    cluster: 'Priboj - Kratovo',
    people: { NARUCILAC: NENAD, IZVODJAC: MARIJA, NADZOR: GORAN, PIU_TA: MILICA },
    end: -10,
    holders: [PUTEVI, EDS, ZELEZNICE, MUP],
    steps: flow('A1', 'A26'),
    open: (s) => s.save('A26.1', -3, [{ key: DATA_KEYS.number, vrednost: '128' }]),
    notes: [
      ['A26.1', -3, NENAD, 'Operater je dostavio preliminarni spisak: 128 priključenih domaćinstava. Čekamo konačan izveštaj pre potvrde.'],
    ],
  },
  {
    cluster: 'Bajina Bašta 2 - Rogačica',
    people: { NARUCILAC: NENAD, IZVODJAC: MARIJA, PIU_TA: MILICA },
    end: -35,
    holders: [PUTEVI, EDS, TELEKOM, SRBIJAVODE],
    steps: [
      ...flow('A1', 'A14', { A9: 33 }),
      ['A14.1', 5, { faults: true }],
      [
        'A14',
        12,
        { note: [MARIJA, 'Primedbe nadzora su otklonjene: rov kod Kostojevića je dodatno zatrpan, a trasa obeležena stubićima.'] },
      ],
      ['A14.1', 4],
      ...flow('A15', 'A27.1', {
        A22: {
          after: 18,
          note: [NENAD, 'Tehnički pregled je obavljen bez većih primedbi; komisija je tražila samo dopunu geodetskog snimka.'],
        },
        'A27.1': { note: [NENAD, 'Obe škole su povezane i mreža je predata operateru. Klaster je završen.'] },
      }),
    ],
  },
];
