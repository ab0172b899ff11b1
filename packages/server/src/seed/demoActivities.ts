import { Readable } from 'node:stream';
import { A20_TEST_TYPES, addDays, catalogueEntry, DATA_KEYS, type GroupTypeCode, NOT_STARTED } from '@trasa/domain';
import { and, eq, gte, inArray, ne, sql } from 'drizzle-orm';
import { users } from '../db/schema.js';
import { activities, activityComments, activityFiles, ijoHolders } from '../db/schema-activities.js';
import { clusterSettlements, clusters, contractClusters, settlements } from '../db/schema-clusters.js';
import { type DataInput, saveActivityData } from '../features/activities/data.js';
import { type Performer, SYSTEM } from '../features/activities/policy.js';
import { finishActivity, resolveControl, startActivity } from '../features/activities/service.js';
import { commentActivity } from '../features/comments/service.js';
import { addActivityFiles, type FileDeps } from '../features/files/service.js';
import { selectUserWithRelations } from '../features/users/presenter.js';
import { type Actor, toActor } from '../platform/auth.js';
import type { Db, Executor, Tx } from '../platform/database.js';
import { appToday } from '../platform/time.js';
import type { ActivityFileStore } from '../shared/activityFileStore.js';
import { ensureClusterActivities } from '../shared/activityReference.js';
import { type DemoCluster, insertDemoClusters } from './demoClusters.js';
import { minimalPdf } from './demoContracts.js';
import { seedDemoIjos } from './demoIjo.js';
import { DEMO_CLUSTERS_WITHOUT_CONTRACT, linkDemoClusters } from './demoLinks.js';

/**
 * The demo's workflow (issue 9): clusters at every stage, run through the same service functions the
 * screens call (start, data, uploads, finish, control decisions, comments), each step at a past `today`
 * so start dates, deadlines and lateness are real relative to the day of seeding:
 *
 * - not started: 'Raška - Jošanička Banja' (under contract; the e2e activity journey starts it) and
 *   'Kosjerić - Seča Reka' (under no contract at all: its workflow can't start);
 * - early: 'Čajetina 2 - Mačkat' (A1, one route file of two), 'Užice 1 - Kremna' (A2 twelve days late:
 *   red), 'Čajetina 1 - Sirogojno' (A3 and A4), 'Bajina Bašta 1 - Perućac' (A3 and the control A4.1 on
 *   their last days: orange);
 * - permits: 'Ivanjica - Kušići' (A5.1 'Odbijen IDR', IDR redone, LU obtained; A7 with three of four
 *   holders' fees, late: red; A8), 'Arilje - Brekovo' (A4.1 'Sa primedbama' and A4 in revision 1;
 *   A9.1 'Sa primedbama', A9 in revision 1, late: red);
 * - works: 'Užice 2 - Stapari' (IOL not needed; A13 and A14 with the first construction log);
 * - late in the flow: 'Nova Varoš - Akmačići' (A23.1 'Sa primedbama', then A24), 'Priboj - Kratovo'
 *   (A26.1 on its last day: orange, and A27);
 * - finished: 'Bajina Bašta 2 - Rogačica' (all activities 'Završena', A14.1 once with remarks, two late).
 *
 * Every A6.1 names real public-authority holders (seed/demoIjo.ts), every finished A7 their fees. A
 * cluster whose A1 has started is left as it is, and each cluster's story is one transaction, so running
 * the seed again adds nothing. The e2e journeys rely on Kremna (the most overdue activity of all, the
 * only one of its cluster), on Perućac's two orange rows being the only orange ones with the supervision
 * among them, and on Raška staying unstarted.
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
async function addWorkflowClusters(db: Db): Promise<number> {
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
type Extra = {
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

type Story = {
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
const FEES: Record<string, number> = {
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

// ---------------------------------------------------------------------------------------------------
// Playing a story

type ClusterInfo = {
  id: string;
  naziv: string;
  duzina: number;
  vrednost: number;
  /** The cluster's own settlements (not the incidental ones), in order. */
  naselja: { id: string; naziv: string; code: string; domacinstva: number; skole: number }[];
};

const dayIso = (offset: number) => addDays(appToday(), offset);

/** A stable number from a text (CEOP case numbers, fees). */
function hashOf(text: string): number {
  let h = 7;
  for (const c of text) h = (h * 31 + (c.codePointAt(0) ?? 0)) % 1_000_003;
  return h;
}

/** The parts of a holder's name a file name keeps. */
const plain = (naziv: string) => naziv.replace(/[„“"]/g, '').replace(/\.$/, '').trim();

class Scene {
  private readonly ids = new Map<string, string>();
  private readonly attempts = new Map<string, number>();
  private readonly deps: FileDeps;
  private readonly runStart = new Date();
  private clock = 0;

  constructor(
    private readonly tx: Tx,
    store: ActivityFileStore,
    private readonly cluster: ClusterInfo,
    private readonly actors: Map<string, Actor>,
    private readonly story: Story,
    private readonly holderIds: Map<string, string>,
  ) {
    this.deps = { db: tx, store };
  }

  private get place(): string {
    return this.cluster.naziv.split(' - ').pop() ?? this.cluster.naziv;
  }

  private async idOf(code: string): Promise<string> {
    let id = this.ids.get(code);
    if (!id) {
      const [row] = await this.tx
        .select({ id: activities.id })
        .from(activities)
        .where(and(eq(activities.clusterId, this.cluster.id), eq(activities.code, code)));
      if (!row) throw new Error(`demo: no ${code} on ${this.cluster.naziv}`);
      id = row.id;
      this.ids.set(code, id);
    }
    return id;
  }

  /** The person acting for the first of the activity's responsible parties the story names; else the system. */
  private performer(code: string): Performer {
    for (const party of catalogueEntry(code)?.odgovoran ?? []) {
      const email = this.story.people[party as GroupTypeCode];
      const actor = email ? this.actors.get(email) : undefined;
      if (actor) return actor;
    }
    return SYSTEM;
  }

  /** A moment of that day in working hours (the order of the steps kept). */
  private moment(day: number): string {
    this.clock++;
    const minutes = 8 * 60 + ((this.clock * 23) % (8 * 60));
    const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
    const mm = String(minutes % 60).padStart(2, '0');
    return `${dayIso(day)}T${hh}:${mm}:00+01:00`;
  }

  /** Dates the documents stored in this run at that day (the service dates them now). */
  private async stamp(day: number): Promise<void> {
    const at = this.moment(day);
    await this.tx
      .update(activityFiles)
      .set({ createdAt: sql`${at}::timestamptz + (${activityFiles.createdAt} - ${this.runStart.toISOString()}::timestamptz)` })
      .where(
        and(
          gte(activityFiles.createdAt, this.runStart),
          inArray(
            activityFiles.activityId,
            this.tx.select({ id: activities.id }).from(activities).where(eq(activities.clusterId, this.cluster.id)),
          ),
        ),
      );
  }

  private opts(day: number) {
    return { today: dayIso(day) };
  }

  async start(day: number): Promise<void> {
    await startActivity(this.deps, this.performer('A1'), await this.idOf('A1'), this.opts(day));
  }

  async save(code: string, day: number, podaci: DataInput[]): Promise<void> {
    await saveActivityData(this.deps, this.performer(code), await this.idOf(code), podaci, this.opts(day));
  }

  /** One document, as the upload stores it (a small PDF showing its name). */
  async upload(code: string, day: number, name: string, opts: { slot?: string; required?: boolean } = {}): Promise<void> {
    const content = minimalPdf([name, this.cluster.naziv, `Datum: ${dayIso(day)}`]);
    const stored = await this.deps.store.save(Readable.from([content]), name, { maxBytes: content.length + 1 });
    await addActivityFiles(
      this.deps,
      this.performer(code),
      await this.idOf(code),
      [stored],
      { userInput: opts.slot, isRequired: opts.required ?? true },
      this.opts(day),
    );
    await this.stamp(day);
  }

  /** A1's route files (and lengths) for the first `count` settlements. */
  async routeFiles(day: number, count = this.cluster.naselja.length): Promise<void> {
    const households = this.cluster.naselja.reduce((n, s) => n + s.domacinstva, 0) || 1;
    const lengths: DataInput[] = [];
    for (const s of this.cluster.naselja.slice(0, count)) {
      await this.upload('A1', day, `Idejna trasa - ${s.naziv}.pdf`, { slot: s.id });
      const metres = Math.round(((this.cluster.duzina * 1000) / households) * s.domacinstva);
      lengths.push({ key: DATA_KEYS.routeLength, ref: s.id, vrednost: String(metres) });
    }
    await this.save('A1', day, lengths);
  }

  /** A7: the conditions and fees of these holders received (marked done, fee, one file each). */
  async holderConditions(day: number, names: string[]): Promise<void> {
    const ids = names.map((n) => this.holder(n));
    await this.save('A7', day, [
      { key: DATA_KEYS.a7Checked, vrednost: ids.join(',') },
      ...names.map((n, i) => ({ key: DATA_KEYS.a7Fee, ref: ids[i], vrednost: String(FEES[n] ?? 10_000) })),
    ]);
    const current = await this.tx
      .select({ slot: activityFiles.slot })
      .from(activityFiles)
      .where(and(eq(activityFiles.activityId, await this.idOf('A7')), sql`${activityFiles.deletedAt} is null`));
    const have = new Set(current.map((f) => f.slot));
    for (const [i, n] of names.entries()) {
      const id = ids[i] as string;
      if (!have.has(id)) await this.upload('A7', day, `Uslovi i rešenje o taksi - ${plain(n)}.pdf`, { slot: id });
    }
  }

  private holder(naziv: string): string {
    const id = this.holderIds.get(naziv.toLowerCase());
    if (!id) throw new Error(`demo: holder ${naziv} missing`);
    return id;
  }

  /** How many times `code` was worked on before (a CEOP number per request). */
  private attempt(code: string): number {
    const n = (this.attempts.get(code) ?? 0) + 1;
    this.attempts.set(code, n);
    return n;
  }

  private ceop(kind: string, day: number, attempt: number): string {
    const ops = this.cluster.naselja[0]?.code.slice(0, 3) ?? 'RBB';
    const serial = 10_000 + ((hashOf(this.cluster.naziv + kind) + attempt * 137) % 30_000);
    return `ROP-${ops}-${serial}-${kind}-${attempt}/${dayIso(day).slice(0, 4)}`;
  }

  /** Fills in what `code` needs, as the responsible party would, then finishes it or decides it. */
  async complete(code: string, day: number, extra: Extra = {}): Promise<void> {
    const date = { key: DATA_KEYS.date, vrednost: dayIso(day) };
    const n = this.attempt(code);
    const { duzina, vrednost, naselja } = this.cluster;
    const metres = Math.round(duzina * 1000 * 1.05);
    const file = (name: string) => this.upload(code, day, name);
    switch (code) {
      case 'A1':
        await this.routeFiles(day);
        break;
      case 'A2':
        await this.save(code, day, [
          date,
          { key: DATA_KEYS.revisedLength, vrednost: (duzina * 1.04).toFixed(1) },
          { key: DATA_KEYS.revisedValue, vrednost: String(Math.round(vrednost * 1.03)) },
        ]);
        await file('Zapisnik o usaglašavanju trase i obima radova.pdf');
        break;
      case 'A3':
        if (extra.noIol) {
          await this.save(code, day, [{ key: DATA_KEYS.yesNo, vrednost: 'Nije potrebna IOL' }]);
          await file('Obrazloženje - IOL nije potrebna.pdf');
        } else {
          await this.save(code, day, [{ key: DATA_KEYS.yesNo, vrednost: 'Dobijena IOL' }]);
          await file(`Informacija o lokaciji - ${this.place}.pdf`);
        }
        break;
      case 'A4':
        await file(`Idejno rešenje (IDR) - ${this.place}.pdf`);
        break;
      case 'A5':
        await this.save(code, day, [date, { key: DATA_KEYS.ceop, vrednost: this.ceop('LOC', day, n) }]);
        break;
      case 'A5.1':
        if (extra.faults) await file('Rešenje o odbijanju zahteva za lokacijske uslove.pdf');
        else {
          await this.save(code, day, [date, { key: DATA_KEYS.fee, vrednost: String(15_000 + (hashOf(this.cluster.naziv) % 8_000)) }]);
          await file(`Lokacijski uslovi - ${this.place}.pdf`);
        }
        break;
      case 'A6.1':
        await this.save(code, day, [{ key: DATA_KEYS.holders, vrednost: (this.story.holders ?? []).map((h) => this.holder(h)).join(',') }]);
        break;
      case 'A7':
        await this.holderConditions(day, this.story.holders ?? []);
        break;
      case 'A8':
        await file(`Projekat za građevinsku dozvolu (PGD) - ${this.place}.pdf`);
        break;
      case 'A9':
        await this.save(code, day, [{ key: DATA_KEYS.routeLength, vrednost: String(metres) }]);
        await file(`Projekat za izvođenje (PZI) - ${this.place}.pdf`);
        break;
      case 'A10':
        await this.save(code, day, [
          date,
          { key: DATA_KEYS.ceop, vrednost: this.ceop('ISAW', day, n) },
          { key: DATA_KEYS.extraFee, naziv: 'Republička administrativna taksa', vrednost: '3290' },
        ]);
        break;
      case 'A10.1':
        await this.save(code, day, [date]);
        await file(`Rešenje po članu 145 - ${this.place}.pdf`);
        break;
      case 'A12':
        await this.save(code, day, [date, { key: DATA_KEYS.routeLength, vrednost: String(metres) }]);
        break;
      case 'A13':
        await this.save(code, day, [date]);
        await file('Zapisnici o primopredaji opreme školama.pdf');
        break;
      case 'A14':
        await file(`Građevinski dnevnik - ${this.place}.pdf`);
        break;
      case 'A15':
        await file('Zapisnik o montaži i povezivanju opreme.pdf');
        break;
      case 'A16':
        await file(`Geodetski snimak izvedenog stanja - ${this.place}.pdf`);
        break;
      case 'A17':
        await this.save(code, day, [{ key: DATA_KEYS.number, vrednost: String(Math.round(duzina * 1000 * 1.07)) }]);
        break;
      case 'A18':
        await this.save(code, day, [date]);
        break;
      case 'A19':
        await file(`Projekat izvedenog objekta (PIO) - ${this.place}.pdf`);
        break;
      case 'A20':
        for (const [i, type] of A20_TEST_TYPES.entries()) await this.upload(code, day, `${type}.pdf`, { slot: String(i + 1) });
        break;
      case 'A21':
        await file('Zahtev za tehnički pregled.pdf');
        break;
      case 'A22':
        await file('Izveštaj komisije za tehnički pregled.pdf');
        break;
      case 'A23':
        await file('Izveštaj o otklonjenim nedostacima.pdf');
        break;
      case 'A25':
        await this.save(code, day, [date, { key: DATA_KEYS.ceop, vrednost: this.ceop('IUP', day, n) }]);
        break;
      case 'A26':
        await file(`Upotrebna dozvola - ${this.place}.pdf`);
        break;
      case 'A26.1': {
        const households = naselja.reduce((sum, s) => sum + s.domacinstva, 0);
        await this.save(code, day, [{ key: DATA_KEYS.number, vrednost: String(Math.round(households * 0.62)) }]);
        await file('Izveštaj o broju priključenih domaćinstava.pdf');
        break;
      }
      case 'A27':
        await file('Zapisnik o primopredaji mreže operateru.pdf');
        break;
      case 'A27.1':
        await this.save(code, day, [
          {
            key: DATA_KEYS.number,
            vrednost: String(
              Math.max(
                1,
                naselja.reduce((sum, s) => sum + s.skole, 0),
              ),
            ),
          },
        ]);
        await file('Izveštaj o broju povezanih škola.pdf');
        break;
      default:
        // The other controls: remarks come with the supervisor's report; an acceptance needs nothing.
        if (extra.faults) await file(`Primedbe nadzora - ${catalogueEntry(code)?.naziv ?? code}.pdf`);
    }
    const id = await this.idOf(code);
    if (catalogueEntry(code)?.kontrolna) await resolveControl(this.deps, this.performer(code), id, extra.faults === true, this.opts(day));
    else await finishActivity(this.deps, this.performer(code), id, this.opts(day));
    await this.stamp(day);
    if (extra.note) await this.comment(code, day, extra.note[0], extra.note[1]);
  }

  /** A comment through the comments service, dated that day. */
  async comment(code: string, day: number, email: string, text: string): Promise<void> {
    const actor = this.actors.get(email);
    if (!actor) return;
    // The service runs its own transaction: inside the story's, a savepoint.
    const dto = await commentActivity(this.tx as unknown as Db, actor, await this.idOf(code), text, { ip: '', url: '' });
    await this.tx
      .update(activityComments)
      .set({ createdAt: new Date(this.moment(day)) })
      .where(eq(activityComments.id, dto._id));
  }

  async play(): Promise<void> {
    const total = this.story.steps.reduce((n, [, after]) => n + after, 0);
    let day = this.story.end - total;
    await this.start(day);
    await this.stamp(day);
    for (const [code, after, extra] of this.story.steps) {
      day += after;
      await this.complete(code, day, extra);
    }
    await this.story.open?.(this);
    for (const [code, at, email, text] of this.story.notes ?? []) await this.comment(code, at, email, text);
  }
}

async function actorsOf(db: Executor, emails: string[]): Promise<Map<string, Actor>> {
  const rows = await selectUserWithRelations(db).where(and(inArray(users.email, emails), eq(users.status, 'aktivan')));
  return new Map(rows.filter((r) => r.user.deletedAt === null).map((r) => [r.user.email, toActor(r)] as const));
}

async function clusterInfo(db: Executor, id: string, naziv: string, duzina: number | null, vrednost: number | null) {
  const naselja = await db
    .select({
      id: settlements.id,
      naziv: settlements.naziv,
      code: settlements.code,
      domacinstva: settlements.brojDomacinstava,
      skole: settlements.brojSkola,
    })
    .from(clusterSettlements)
    .innerJoin(settlements, eq(settlements.id, clusterSettlements.settlementId))
    .where(and(eq(clusterSettlements.clusterId, id), eq(clusterSettlements.usputno, false)))
    .orderBy(clusterSettlements.position);
  return {
    id,
    naziv,
    duzina: Number(duzina ?? 20),
    vrednost: Number(vrednost ?? 25_000_000),
    naselja: naselja.map((s) => ({ ...s, domacinstva: s.domacinstva ?? 100, skole: s.skole ?? 0 })),
  } satisfies ClusterInfo;
}

/**
 * Adds the extra clusters, links them like the others (seed/demoLinks.ts), and plays each story on a
 * cluster whose A1 has not started (run after seedDemo, seedDemoClusters, seedDemoContracts and
 * linkDemoClusters). `store` is the activity file store of the DATA_DIR the server uses.
 * Answers how many clusters it added and how many activities it moved (started or finished).
 */
export async function seedDemoActivities(db: Db, store: ActivityFileStore): Promise<{ clusters: number; activities: number }> {
  await seedDemoIjos(db);
  const added = await addWorkflowClusters(db);
  await linkDemoClusters(db);
  const rows = await db
    .select({
      id: clusters.id,
      naziv: clusters.naziv,
      duzina: clusters.indikativnaDuzinaKlastera,
      vrednost: clusters.ugovorenaVrednostKlastera,
    })
    .from(clusters)
    .where(
      inArray(clusters.naziv, [
        ...DEMO_STORIES.map((s) => s.cluster),
        ...DEMO_WORKFLOW_CLUSTERS.map((c) => c.naziv),
        'Raška - Jošanička Banja',
      ]),
    );
  await ensureClusterActivities(
    db,
    rows.map((r) => r.id),
  );
  const holderIds = new Map(
    (await db.select({ id: ijoHolders.id, naziv: ijoHolders.naziv }).from(ijoHolders)).map((h) => [h.naziv.toLowerCase(), h.id]),
  );
  const emails = [
    ...new Set(DEMO_STORIES.flatMap((s) => [...Object.values(s.people), ...(s.notes ?? []).map((n) => n[2]), ...noteAuthors(s)])),
  ];
  const actors = await actorsOf(db, emails as string[]);
  let moved = 0;
  for (const story of DEMO_STORIES) {
    const row = rows.find((r) => r.naziv === story.cluster);
    if (!row) continue;
    moved += await db.transaction(async (tx) => {
      // The cluster's row locked first, as every workflow step does: a second seed at once waits, then skips.
      await tx.select({ id: clusters.id }).from(clusters).where(eq(clusters.id, row.id)).for('update');
      const [a1] = await tx
        .select({ status: activities.status })
        .from(activities)
        .where(and(eq(activities.clusterId, row.id), eq(activities.code, 'A1')));
      if (a1?.status !== NOT_STARTED) return 0;
      const [contract] = await tx
        .select({ id: contractClusters.contractId })
        .from(contractClusters)
        .where(and(eq(contractClusters.clusterId, row.id), eq(contractClusters.kind, 'contract')))
        .limit(1);
      if (!contract) return 0;
      const info = await clusterInfo(tx, row.id, row.naziv, row.duzina, row.vrednost);
      await new Scene(tx, store, info, actors, story, holderIds).play();
      const [count] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(activities)
        .where(and(eq(activities.clusterId, row.id), ne(activities.status, NOT_STARTED)));
      return count?.n ?? 0;
    });
  }
  return { clusters: added, activities: moved };
}

function noteAuthors(story: Story): string[] {
  return story.steps.flatMap(([, , extra]) => (extra?.note ? [extra.note[0]] : []));
}
