import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { clusters } from '../db/schema-clusters.js';
import {
  a13Confirmations,
  inventoryContractLocations,
  inventoryContracts,
  inventoryItems,
  inventoryTypes,
  schoolNotifications,
} from '../db/schema-inventory.js';
import { numberKey } from '../features/inventory/contracts.js';
import { buildStocktaking } from '../features/inventory/reports.js';
import type { Executor } from '../platform/database.js';
import { hashCode } from '../platform/secrets.js';

/**
 * The demo's inventory (issue 11): two inventory contracts with schools, a codebook of real equipment,
 * items on several schools, a stocktaking list sent and one confirmed, one A13 confirmed. Idempotent:
 * nothing is added once the codebook holds the demo's first code.
 */

type DemoType = {
  sifra: string;
  naziv: string;
  kratakNaziv: string;
  tip: 'Oprema' | 'Materijal' | 'Radovi';
  cena: number;
  valuta: 'RSD' | 'EUR';
  cenaRsd: number;
  jedinica: string;
  garancija: number | null;
};

export const DEMO_INV_TYPES: DemoType[] = [
  {
    sifra: 'OP-01',
    naziv: 'ONT/ONU terminal GPON (Huawei EchoLife HG8245H)',
    kratakNaziv: 'ONT',
    tip: 'Oprema',
    cena: 5900,
    valuta: 'RSD',
    cenaRsd: 5900,
    jedinica: 'kom',
    garancija: 24,
  },
  {
    sifra: 'OP-02',
    naziv: 'Pristupni svič 24 porta (Cisco CBS250-24T-4G)',
    kratakNaziv: 'Svič 24',
    tip: 'Oprema',
    cena: 290,
    valuta: 'EUR',
    cenaRsd: 33980,
    jedinica: 'kom',
    garancija: 36,
  },
  {
    sifra: 'OP-03',
    naziv: 'Wi-Fi pristupna tačka (Ubiquiti U6 Lite)',
    kratakNaziv: 'AP',
    tip: 'Oprema',
    cena: 115,
    valuta: 'EUR',
    cenaRsd: 13475,
    jedinica: 'kom',
    garancija: 24,
  },
  {
    sifra: 'OP-04',
    naziv: 'Spoljašnji orman IP55 (kabinet)',
    kratakNaziv: 'Orman',
    tip: 'Oprema',
    cena: 38500,
    valuta: 'RSD',
    cenaRsd: 38500,
    jedinica: 'kom',
    garancija: 60,
  },
  {
    sifra: 'OP-05',
    naziv: 'Rek orman 19" 12U',
    kratakNaziv: 'Rek 12U',
    tip: 'Oprema',
    cena: 21900,
    valuta: 'RSD',
    cenaRsd: 21900,
    jedinica: 'kom',
    garancija: 24,
  },
  {
    sifra: 'OP-06',
    naziv: 'UPS 1000 VA',
    kratakNaziv: 'UPS',
    tip: 'Oprema',
    cena: 16490,
    valuta: 'RSD',
    cenaRsd: 16490,
    jedinica: 'kom',
    garancija: 24,
  },
  {
    sifra: 'MA-01',
    naziv: 'Jednomodni optički kabl 12 vlakana',
    kratakNaziv: 'SM 12',
    tip: 'Materijal',
    cena: 0.95,
    valuta: 'EUR',
    cenaRsd: 111.3,
    jedinica: 'm',
    garancija: null,
  },
  {
    sifra: 'MA-02',
    naziv: 'HDPE cev 40 mm',
    kratakNaziv: 'HDPE 40',
    tip: 'Materijal',
    cena: 145,
    valuta: 'RSD',
    cenaRsd: 145,
    jedinica: 'm',
    garancija: null,
  },
  {
    sifra: 'MA-03',
    naziv: 'Optička spojnica (splice closure) 24 vlakna',
    kratakNaziv: 'Spojnica',
    tip: 'Materijal',
    cena: 6800,
    valuta: 'RSD',
    cenaRsd: 6800,
    jedinica: 'kom',
    garancija: 12,
  },
  {
    sifra: 'MA-04',
    naziv: 'Patch panel 24 porta',
    kratakNaziv: 'Patch 24',
    tip: 'Materijal',
    cena: 4200,
    valuta: 'RSD',
    cenaRsd: 4200,
    jedinica: 'kom',
    garancija: 12,
  },
  {
    sifra: 'RA-01',
    naziv: 'Iskop i zatrpavanje kanala',
    kratakNaziv: 'Iskop',
    tip: 'Radovi',
    cena: 980,
    valuta: 'RSD',
    cenaRsd: 980,
    jedinica: 'm',
    garancija: null,
  },
  {
    sifra: 'RA-02',
    naziv: 'Uduvavanje optičkog kabla',
    kratakNaziv: 'Uduvavanje',
    tip: 'Radovi',
    cena: 160,
    valuta: 'RSD',
    cenaRsd: 160,
    jedinica: 'm',
    garancija: null,
  },
  {
    sifra: 'RA-03',
    naziv: 'Spajanje optičkih vlakana',
    kratakNaziv: 'Spajanje',
    tip: 'Radovi',
    cena: 850,
    valuta: 'RSD',
    cenaRsd: 850,
    jedinica: 'spoj',
    garancija: null,
  },
  {
    sifra: 'RA-04',
    naziv: 'OTDR merenje trase',
    kratakNaziv: 'OTDR',
    tip: 'Radovi',
    cena: 9500,
    valuta: 'RSD',
    cenaRsd: 9500,
    jedinica: 'kom',
    garancija: null,
  },
  {
    sifra: 'RA-05',
    naziv: 'Instalacioni radovi u školi',
    kratakNaziv: 'Instalacija',
    tip: 'Radovi',
    cena: 24000,
    valuta: 'RSD',
    cenaRsd: 24000,
    jedinica: 'kom',
    garancija: 12,
  },
];

const CONTRACTS = [
  {
    naziv: 'Isporuka i ugradnja opreme za škole – Zlatiborski okrug',
    broj: 'INV-01/2026',
    datumPocetka: '2026-02-02',
    datumZavrsetka: null,
  },
  { naziv: 'Isporuka opreme za škole – Moravički okrug', broj: 'INV-02/2026', datumPocetka: '2026-03-16', datumZavrsetka: null },
];

/** Schools (their clusters), the contract they are on, and their mail. */
const SCHOOLS = [
  { cluster: 'Čajetina 1 - Sirogojno', contract: 0, email: 'os.sirogojno@skola.edu.rs' },
  { cluster: 'Čajetina 2 - Mačkat', contract: 0, email: 'os.mackat@skola.edu.rs' },
  { cluster: 'Užice 1 - Kremna', contract: 0, email: 'os.kremna@skola.edu.rs' },
  { cluster: 'Bajina Bašta 1 - Perućac', contract: 0, email: null },
  { cluster: 'Ivanjica - Kušići', contract: 1, email: 'os.kusici@skola.edu.rs' },
];

/** [school index, code, kolicina, handover date] */
const ITEMS: [number, string, number, string][] = [
  [0, 'OP-01', 1, '2026-04-14'],
  [0, 'OP-02', 1, '2026-04-14'],
  [0, 'OP-03', 4, '2026-04-14'],
  [0, 'OP-05', 1, '2026-04-14'],
  [0, 'MA-01', 850, '2026-04-07'],
  [0, 'MA-02', 620, '2026-04-07'],
  [0, 'RA-01', 620, '2026-04-07'],
  [0, 'RA-02', 850, '2026-04-09'],
  [0, 'RA-05', 1, '2026-04-15'],
  [1, 'OP-01', 1, '2026-04-21'],
  [1, 'OP-02', 1, '2026-04-21'],
  [1, 'OP-04', 1, '2026-04-20'],
  [1, 'MA-01', 1240, '2026-04-16'],
  [1, 'MA-03', 2, '2026-04-16'],
  [1, 'RA-03', 24, '2026-04-17'],
  [1, 'RA-04', 1, '2026-04-18'],
  [2, 'OP-01', 2, '2026-05-05'],
  [2, 'OP-06', 1, '2026-05-05'],
  [2, 'MA-04', 1, '2026-05-05'],
  [4, 'OP-01', 1, '2026-05-19'],
  [4, 'MA-01', 430.5, '2026-05-12'],
];

export async function seedDemoInventory(db: Executor): Promise<{ types: number; contracts: number; items: number }> {
  const [seeded] = await db.select({ id: inventoryTypes.id }).from(inventoryTypes).where(eq(inventoryTypes.sifra, 'OP-01')).limit(1);
  if (seeded) return { types: 0, contracts: 0, items: 0 };
  const found = await db
    .select({ id: clusters.id, naziv: clusters.naziv })
    .from(clusters)
    .where(
      inArray(
        clusters.naziv,
        SCHOOLS.map((s) => s.cluster),
      ),
    );
  const schoolIds = SCHOOLS.map((s) => found.find((c) => c.naziv === s.cluster)?.id);
  const types = await db
    .insert(inventoryTypes)
    .values(
      DEMO_INV_TYPES.map((t, i) => ({
        naziv: t.naziv,
        kratakNaziv: t.kratakNaziv,
        tip: t.tip,
        trajanjeGarancije: t.garancija,
        cena: t.cena,
        valuta: t.valuta,
        cenaRsd: t.cenaRsd,
        sifra: t.sifra,
        redniBroj: i + 1,
        jedinica: t.jedinica,
      })),
    )
    .returning();
  const contracts = await db
    .insert(inventoryContracts)
    .values(CONTRACTS.map((c) => ({ ...c, brojKey: numberKey(c.broj) })))
    .returning();
  let items = 0;
  for (const [i, s] of SCHOOLS.entries()) {
    const clusterId = schoolIds[i];
    const contract = contracts[s.contract];
    if (!clusterId || !contract) continue;
    await db.insert(inventoryContractLocations).values({ contractId: contract.id, clusterId }).onConflictDoNothing();
    if (s.email) await db.update(clusters).set({ skolaEmail: s.email }).where(eq(clusters.id, clusterId));
    const mine = ITEMS.filter(([school]) => school === i);
    if (mine.length === 0) continue;
    await db.insert(inventoryItems).values(
      mine.map(([, sifra, kolicina, datum]) => {
        const type = types.find((t) => t.sifra === sifra);
        return {
          typeId: type?.id as string,
          clusterId,
          contractId: contract.id,
          kolicina,
          cenaRsd: Number(type?.cenaRsd ?? 0),
          datumPrimopredaje: datum,
        };
      }),
    );
    items += mine.length;
  }
  // A list sent to Sirogojno (not confirmed yet) and one Mačkat confirmed; Mačkat's A13 confirmed.
  const day = 24 * 60 * 60 * 1000;
  for (const [i, confirmedDaysAgo] of [
    [0, null],
    [1, 3],
  ] as const) {
    const clusterId = schoolIds[i];
    const email = SCHOOLS[i]?.email;
    if (!clusterId || !email) continue;
    const sentAt = new Date(Date.now() - 10 * day);
    await db.insert(schoolNotifications).values({
      clusterId,
      email,
      lista: await buildStocktaking(db, clusterId),
      codeHash: hashCode(randomBytes(24).toString('base64url')),
      mailPoslat: true,
      expiresAt: new Date(sentAt.getTime() + 30 * day),
      confirmedAt: confirmedDaysAgo === null ? null : new Date(Date.now() - confirmedDaysAgo * day),
      createdAt: sentAt,
    });
  }
  if (schoolIds[1]) await db.insert(a13Confirmations).values({ clusterId: schoolIds[1], status: true }).onConflictDoNothing();
  return { types: types.length, contracts: contracts.length, items };
}
