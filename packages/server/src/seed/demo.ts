import type { GroupTypeCode, RoleKey } from '@trasa/domain';
import { eq, sql } from 'drizzle-orm';
import { ensureReferenceData } from '../bootstrap.js';
import { groups, users } from '../db/schema.js';
import type { Db } from '../platform/database.js';
import { createGroup, createUser, DEFAULT_PASSWORD } from './factories.js';

/**
 * `npm run seed:demo`: a small, realistic Serbian demo on the database the server uses (DATABASE_URL,
 * or the embedded one under DATA_DIR — attached to while a server runs). Running it twice adds nothing.
 * Every demo account has the password Lozinka123.
 */

type DemoGroup = { naziv: string; cirilica: string; kratakNaziv: string; type: GroupTypeCode; sveVideci?: boolean; parent?: string };
type DemoUser = { ime: string; prezime: string; email: string; role: RoleKey; group?: string; status?: 'aktivan' | 'neaktivan' };

export const DEMO_GROUPS: DemoGroup[] = [
  {
    naziv: 'Ministarstvo informisanja i telekomunikacija',
    cirilica: 'Министарство информисања и телекомуникација',
    kratakNaziv: 'MIT',
    type: 'NARUCILAC',
    sveVideci: true,
  },
  {
    naziv: 'Sektor za elektronske komunikacije',
    cirilica: 'Сектор за електронске комуникације',
    kratakNaziv: 'SEK',
    type: 'NARUCILAC',
    parent: 'Ministarstvo informisanja i telekomunikacija',
  },
  { naziv: 'Jedinica za tehničku pomoć', cirilica: 'Јединица за техничку помоћ', kratakNaziv: 'PIU TA', type: 'PIU_TA', sveVideci: true },
  { naziv: 'Optika Gradnja d.o.o.', cirilica: 'Оптика Градња д.о.о.', kratakNaziv: 'OG', type: 'IZVODJAC' },
  {
    naziv: 'Optika Gradnja - Region Zapad',
    cirilica: 'Оптика Градња - Регион Запад',
    kratakNaziv: 'OG-Z',
    type: 'IZVODJAC',
    parent: 'Optika Gradnja d.o.o.',
  },
  { naziv: 'Kabl Mreže d.o.o.', cirilica: 'Кабл Мреже д.о.о.', kratakNaziv: 'KM', type: 'IZVODJAC' },
  { naziv: 'Projektni biro Meridijan', cirilica: 'Пројектни биро Меридијан', kratakNaziv: 'PBM', type: 'PROJEKTANT' },
  { naziv: 'Nadzor Inženjering d.o.o.', cirilica: 'Надзор Инжењеринг д.о.о.', kratakNaziv: 'NI', type: 'NADZOR' },
];

export const DEMO_USERS: DemoUser[] = [
  {
    ime: 'Dragana',
    prezime: 'Nikolić',
    email: 'dragana.nikolic@mit.gov.rs',
    role: 'Rukovodilac',
    group: 'Ministarstvo informisanja i telekomunikacija',
  },
  {
    ime: 'Nenad',
    prezime: 'Stojanović',
    email: 'nenad.stojanovic@mit.gov.rs',
    role: 'Zaposleni',
    group: 'Ministarstvo informisanja i telekomunikacija',
  },
  {
    ime: 'Ivana',
    prezime: 'Đorđević',
    email: 'ivana.djordjevic@mit.gov.rs',
    role: 'Zaposleni',
    group: 'Sektor za elektronske komunikacije',
  },
  { ime: 'Milica', prezime: 'Pavlović', email: 'milica.pavlovic@piuta.rs', role: 'Zaposleni', group: 'Jedinica za tehničku pomoć' },
  { ime: 'Zoran', prezime: 'Ilić', email: 'zoran.ilic@optikagradnja.rs', role: 'Rukovodilac', group: 'Optika Gradnja d.o.o.' },
  { ime: 'Stefan', prezime: 'Marković', email: 'stefan.markovic@optikagradnja.rs', role: 'Zaposleni', group: 'Optika Gradnja d.o.o.' },
  { ime: 'Jovana', prezime: 'Kostić', email: 'jovana.kostic@optikagradnja.rs', role: 'Zaposleni', group: 'Optika Gradnja - Region Zapad' },
  { ime: 'Aleksandar', prezime: 'Popović', email: 'aleksandar.popovic@kablmreze.rs', role: 'Rukovodilac', group: 'Kabl Mreže d.o.o.' },
  { ime: 'Marija', prezime: 'Živković', email: 'marija.zivkovic@kablmreze.rs', role: 'Zaposleni', group: 'Kabl Mreže d.o.o.' },
  { ime: 'Bojan', prezime: 'Lazić', email: 'bojan.lazic@meridijan.rs', role: 'Zaposleni', group: 'Projektni biro Meridijan' },
  {
    ime: 'Tamara',
    prezime: 'Šćekić',
    email: 'tamara.scekic@nadzor-inzenjering.rs',
    role: 'Rukovodilac',
    group: 'Nadzor Inženjering d.o.o.',
  },
  {
    ime: 'Vladimir',
    prezime: 'Ćirić',
    email: 'vladimir.ciric@nadzor-inzenjering.rs',
    role: 'Zaposleni',
    group: 'Nadzor Inženjering d.o.o.',
  },
  { ime: 'Snežana', prezime: 'Janković', email: 'snezana.jankovic@primer.rs', role: 'Gost' },
  { ime: 'Đorđe', prezime: 'Petrović', email: 'djordje.petrovic@primer.rs', role: 'Gost', status: 'neaktivan' },
  { ime: 'Ana', prezime: 'Admin', email: 'ana.admin@mit.gov.rs', role: 'Admin' },
];

export async function seedDemo(db: Db): Promise<{ groups: number; users: number }> {
  await ensureReferenceData(db);
  const ids = new Map<string, string>();
  let newGroups = 0;
  let newUsers = 0;
  for (const g of DEMO_GROUPS) {
    const [existing] = await db.select({ id: groups.id }).from(groups).where(sql`lower(${groups.naziv}) = ${g.naziv.toLowerCase()}`);
    if (existing) {
      ids.set(g.naziv, existing.id);
      continue;
    }
    const parentId = g.parent ? ids.get(g.parent) : null;
    const row = await createGroup(db, { ...g, parentId: parentId ?? null, sveVideci: g.sveVideci ?? false });
    ids.set(g.naziv, row.id);
    newGroups++;
  }
  for (const u of DEMO_USERS) {
    const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, u.email));
    if (existing) continue;
    await createUser(db, { ...u, groupId: u.group ? (ids.get(u.group) ?? null) : null, password: DEFAULT_PASSWORD });
    newUsers++;
  }
  return { groups: newGroups, users: newUsers };
}
