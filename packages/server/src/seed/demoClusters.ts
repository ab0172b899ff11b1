import { sql } from 'drizzle-orm';
import { groups } from '../db/schema.js';
import { clusterGroups, clusterSettlements, clusters, priorities, settlements } from '../db/schema-clusters.js';
import type { Executor } from '../platform/database.js';

/**
 * The demo's settlements, priorities and clusters (spec 2): rural settlements of western and
 * south-western Serbia in clusters of a few villages each, the responsible groups taken from the demo
 * groups (seed/demo.ts; a group that is missing is left out). Running it twice adds nothing: the
 * natural keys are the settlement id (`code`), the priority name and the cluster name.
 */

type DemoSettlement = {
  code: string;
  naziv: string;
  maticniBroj: string;
  opstina: string;
  domacinstva: number;
  skole: number;
  operator: string;
  javniPoziv: string;
};

const RBB_1 = 'JP-RBB-2023/1';
const RBB_2 = 'JP-RBB-2024/2';

export const DEMO_SETTLEMENTS: DemoSettlement[] = [
  {
    code: 'CAJ-001',
    naziv: 'Sirogojno',
    maticniBroj: '742546',
    opstina: 'Čajetina',
    domacinstva: 214,
    skole: 1,
    operator: 'Telekom Srbija',
    javniPoziv: RBB_1,
  },
  {
    code: 'CAJ-002',
    naziv: 'Rožanstvo',
    maticniBroj: '742538',
    opstina: 'Čajetina',
    domacinstva: 168,
    skole: 1,
    operator: 'Telekom Srbija',
    javniPoziv: RBB_1,
  },
  {
    code: 'CAJ-003',
    naziv: 'Ljubiš',
    maticniBroj: '742511',
    opstina: 'Čajetina',
    domacinstva: 131,
    skole: 1,
    operator: 'Telekom Srbija',
    javniPoziv: RBB_1,
  },
  {
    code: 'CAJ-004',
    naziv: 'Mačkat',
    maticniBroj: '742520',
    opstina: 'Čajetina',
    domacinstva: 287,
    skole: 1,
    operator: 'SBB',
    javniPoziv: RBB_1,
  },
  {
    code: 'CAJ-005',
    naziv: 'Jablanica',
    maticniBroj: '742490',
    opstina: 'Čajetina',
    domacinstva: 96,
    skole: 0,
    operator: 'Telekom Srbija',
    javniPoziv: RBB_1,
  },
  {
    code: 'CAJ-006',
    naziv: 'Gostilje',
    maticniBroj: '742481',
    opstina: 'Čajetina',
    domacinstva: 74,
    skole: 0,
    operator: 'Telekom Srbija',
    javniPoziv: RBB_1,
  },
  {
    code: 'UZI-001',
    naziv: 'Kremna',
    maticniBroj: '743135',
    opstina: 'Užice',
    domacinstva: 362,
    skole: 1,
    operator: 'Telekom Srbija',
    javniPoziv: RBB_1,
  },
  {
    code: 'UZI-002',
    naziv: 'Mokra Gora',
    maticniBroj: '743178',
    opstina: 'Užice',
    domacinstva: 241,
    skole: 1,
    operator: 'Telekom Srbija',
    javniPoziv: RBB_1,
  },
  {
    code: 'UZI-003',
    naziv: 'Bioska',
    maticniBroj: '743011',
    opstina: 'Užice',
    domacinstva: 158,
    skole: 1,
    operator: 'SBB',
    javniPoziv: RBB_2,
  },
  {
    code: 'UZI-004',
    naziv: 'Stapari',
    maticniBroj: '743275',
    opstina: 'Užice',
    domacinstva: 305,
    skole: 1,
    operator: 'Telekom Srbija',
    javniPoziv: RBB_2,
  },
  {
    code: 'UZI-005',
    naziv: 'Karan',
    maticniBroj: '743119',
    opstina: 'Užice',
    domacinstva: 189,
    skole: 1,
    operator: 'Telekom Srbija',
    javniPoziv: RBB_2,
  },
  {
    code: 'UZI-006',
    naziv: 'Zlakusa',
    maticniBroj: '743321',
    opstina: 'Užice',
    domacinstva: 203,
    skole: 1,
    operator: 'Yettel',
    javniPoziv: RBB_2,
  },
  {
    code: 'BBA-001',
    naziv: 'Perućac',
    maticniBroj: '740411',
    opstina: 'Bajina Bašta',
    domacinstva: 226,
    skole: 1,
    operator: 'Telekom Srbija',
    javniPoziv: RBB_1,
  },
  {
    code: 'BBA-002',
    naziv: 'Rastište',
    maticniBroj: '740438',
    opstina: 'Bajina Bašta',
    domacinstva: 112,
    skole: 1,
    operator: 'Telekom Srbija',
    javniPoziv: RBB_1,
  },
  {
    code: 'BBA-003',
    naziv: 'Zaovine',
    maticniBroj: '740519',
    opstina: 'Bajina Bašta',
    domacinstva: 87,
    skole: 1,
    operator: 'Telekom Srbija',
    javniPoziv: RBB_1,
  },
  {
    code: 'BBA-004',
    naziv: 'Rogačica',
    maticniBroj: '740446',
    opstina: 'Bajina Bašta',
    domacinstva: 274,
    skole: 1,
    operator: 'SBB',
    javniPoziv: RBB_2,
  },
  {
    code: 'BBA-005',
    naziv: 'Kostojevići',
    maticniBroj: '740292',
    opstina: 'Bajina Bašta',
    domacinstva: 143,
    skole: 1,
    operator: 'Telekom Srbija',
    javniPoziv: RBB_2,
  },
  {
    code: 'IVA-001',
    naziv: 'Kušići',
    maticniBroj: '741485',
    opstina: 'Ivanjica',
    domacinstva: 197,
    skole: 1,
    operator: 'Telekom Srbija',
    javniPoziv: RBB_2,
  },
  {
    code: 'IVA-002',
    naziv: 'Devići',
    maticniBroj: '741329',
    opstina: 'Ivanjica',
    domacinstva: 82,
    skole: 0,
    operator: 'Telekom Srbija',
    javniPoziv: RBB_2,
  },
  {
    code: 'IVA-003',
    naziv: 'Bratljevo',
    maticniBroj: '741281',
    opstina: 'Ivanjica',
    domacinstva: 119,
    skole: 1,
    operator: 'Yettel',
    javniPoziv: RBB_2,
  },
  {
    code: 'IVA-004',
    naziv: 'Međurečje',
    maticniBroj: '741531',
    opstina: 'Ivanjica',
    domacinstva: 254,
    skole: 1,
    operator: 'Telekom Srbija',
    javniPoziv: RBB_2,
  },
  {
    code: 'RAS-001',
    naziv: 'Jošanička Banja',
    maticniBroj: '726630',
    opstina: 'Raška',
    domacinstva: 412,
    skole: 1,
    operator: 'Telekom Srbija',
    javniPoziv: RBB_1,
  },
  {
    code: 'RAS-002',
    naziv: 'Rudnica',
    maticniBroj: '726877',
    opstina: 'Raška',
    domacinstva: 176,
    skole: 1,
    operator: 'SBB',
    javniPoziv: RBB_1,
  },
  {
    code: 'RAS-003',
    naziv: 'Baljevac',
    maticniBroj: '726516',
    opstina: 'Raška',
    domacinstva: 338,
    skole: 1,
    operator: 'Telekom Srbija',
    javniPoziv: RBB_1,
  },
  {
    code: 'RAS-004',
    naziv: 'Brvenik',
    maticniBroj: '726559',
    opstina: 'Raška',
    domacinstva: 101,
    skole: 0,
    operator: 'Telekom Srbija',
    javniPoziv: RBB_1,
  },
];

export const DEMO_PRIORITIES = [
  { naziv: 'Nizak', broj: 1 },
  { naziv: 'Srednji', broj: 2 },
  { naziv: 'Visok', broj: 3 },
];

export type DemoCluster = {
  naziv: string;
  /** Demo group names (seed/demo.ts). */
  odgovoran: string[];
  /** Settlement codes. */
  naselja: string[];
  usputnaNaselja?: string[];
  /** Kilometres of route. */
  duzina: number;
  /** Dinars. */
  vrednost: number;
};

export const DEMO_CLUSTERS: DemoCluster[] = [
  {
    naziv: 'Čajetina 1 - Sirogojno',
    odgovoran: ['Optika Gradnja d.o.o.', 'Nadzor Inženjering d.o.o.'],
    naselja: ['CAJ-001', 'CAJ-002', 'CAJ-003'],
    usputnaNaselja: ['CAJ-005'],
    duzina: 23.4,
    vrednost: 31_850_000,
  },
  {
    naziv: 'Čajetina 2 - Mačkat',
    odgovoran: ['Optika Gradnja - Region Zapad', 'Projektni biro Meridijan'],
    naselja: ['CAJ-004', 'CAJ-006'],
    duzina: 14.2,
    vrednost: 18_420_500.5,
  },
  {
    naziv: 'Užice 1 - Kremna',
    odgovoran: ['Optika Gradnja - Region Zapad', 'Nadzor Inženjering d.o.o.'],
    naselja: ['UZI-001', 'UZI-002'],
    usputnaNaselja: ['UZI-006'],
    duzina: 27.9,
    vrednost: 36_100_000,
  },
  {
    naziv: 'Užice 2 - Stapari',
    odgovoran: ['Kabl Mreže d.o.o.', 'Projektni biro Meridijan'],
    naselja: ['UZI-004', 'UZI-005'],
    usputnaNaselja: ['UZI-003'],
    duzina: 19.6,
    vrednost: 24_730_000,
  },
  {
    naziv: 'Bajina Bašta 1 - Perućac',
    odgovoran: ['Kabl Mreže - Region Jug', 'Nadzor Inženjering - Tim Kragujevac'],
    naselja: ['BBA-001', 'BBA-002', 'BBA-003'],
    duzina: 31.5,
    vrednost: 40_275_000,
  },
  {
    naziv: 'Bajina Bašta 2 - Rogačica',
    odgovoran: ['Kabl Mreže d.o.o.'],
    naselja: ['BBA-004', 'BBA-005'],
    duzina: 16.8,
    vrednost: 21_960_000,
  },
  {
    naziv: 'Ivanjica - Kušići',
    odgovoran: ['Kabl Mreže - Region Istok', 'Meridijan - Odeljenje za trase'],
    naselja: ['IVA-001', 'IVA-002', 'IVA-003'],
    usputnaNaselja: ['IVA-004'],
    duzina: 25.3,
    vrednost: 29_540_750,
  },
  {
    naziv: 'Raška - Jošanička Banja',
    odgovoran: ['Optika Gradnja d.o.o.', 'Nadzor Inženjering d.o.o.'],
    naselja: ['RAS-001', 'RAS-002', 'RAS-003'],
    usputnaNaselja: ['RAS-004'],
    duzina: 21.7,
    vrednost: 27_380_000,
  },
];

export type DemoClustersResult = { settlements: number; priorities: number; clusters: number };

/** Adds what is missing of the demo's settlements, priorities and clusters, in one transaction. */
export async function seedDemoClusters(db: Executor): Promise<DemoClustersResult> {
  return db.transaction(async (tx) => {
    const added = await tx
      .insert(settlements)
      .values(
        DEMO_SETTLEMENTS.map((s) => ({
          code: s.code,
          naziv: s.naziv,
          maticniBroj: s.maticniBroj,
          opstine: [s.opstina],
          operator: s.operator,
          javniPoziv: s.javniPoziv,
          brojDomacinstava: s.domacinstva,
          brojSkola: s.skole,
          brojIndirektnoPokrivenihDomacinstava: Math.round(s.domacinstva * 0.15),
          brojIndirektnoPokrivenihSkola: 0,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: settlements.id });

    let newPriorities = 0;
    for (const p of DEMO_PRIORITIES) {
      const [existing] = await tx.select({ id: priorities.id }).from(priorities).where(sql`lower(${priorities.naziv}) = lower(${p.naziv})`);
      if (existing) continue;
      await tx.insert(priorities).values(p);
      newPriorities++;
    }

    const settlementIds = new Map(
      (await tx.select({ id: settlements.id, code: settlements.code }).from(settlements)).map((s) => [s.code, s.id] as const),
    );
    const newClusters = await insertDemoClusters(tx, DEMO_CLUSTERS, settlementIds);
    return { settlements: added.length, priorities: newPriorities, clusters: newClusters };
  });
}

/**
 * Adds the demo clusters not there yet (by name, case aside) with their responsible groups (demo group
 * names) and settlements (codes → ids in `settlementIds`); answers how many it added.
 */
export async function insertDemoClusters(
  tx: Executor,
  list: readonly DemoCluster[],
  settlementIds: ReadonlyMap<string, string>,
): Promise<number> {
  const groupIds = new Map(
    (await tx.select({ id: groups.id, naziv: groups.naziv }).from(groups).where(sql`not ${groups.reserved}`)).map(
      (g) => [g.naziv, g.id] as const,
    ),
  );
  let added = 0;
  for (const c of list) {
    const [existing] = await tx.select({ id: clusters.id }).from(clusters).where(sql`lower(${clusters.naziv}) = lower(${c.naziv})`);
    if (existing) continue;
    const [row] = await tx
      .insert(clusters)
      .values({ naziv: c.naziv, indikativnaDuzinaKlastera: c.duzina, ugovorenaVrednostKlastera: c.vrednost })
      .returning({ id: clusters.id });
    if (!row) continue;
    const responsible = c.odgovoran.flatMap((naziv) => groupIds.get(naziv) ?? []);
    if (responsible.length > 0) await tx.insert(clusterGroups).values(responsible.map((groupId) => ({ clusterId: row.id, groupId })));
    const linked = [
      ...c.naselja.map((code, position) => ({ code, usputno: false, position })),
      ...(c.usputnaNaselja ?? []).map((code, position) => ({ code, usputno: true, position })),
    ].flatMap(({ code, usputno, position }) => {
      const settlementId = settlementIds.get(code);
      return settlementId ? [{ clusterId: row.id, settlementId, usputno, position }] : [];
    });
    if (linked.length > 0) await tx.insert(clusterSettlements).values(linked);
    added++;
  }
  return added;
}
