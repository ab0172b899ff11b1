import { type GroupTypeCode, type RoleKey, toCyrillic } from '@trasa/domain';
import { eq, sql } from 'drizzle-orm';
import { ensureReferenceData } from '../bootstrap.js';
import { groups, users } from '../db/schema.js';
import { addGroup } from '../features/groups/service.js';
import type { Db } from '../platform/database.js';
import { seedDemoIjos } from './demoIjo.js';
import { createUser, DEFAULT_PASSWORD, groupTypeId } from './factories.js';

/**
 * `npm run seed:demo`: a small, realistic Serbian demo on the database the server uses (DATABASE_URL,
 * or the embedded one under DATA_DIR — attached to while a server runs). Running it twice adds nothing.
 * Every demo account has the password Lozinka123.
 */

/**
 * `cirilica` defaults to the transliteration of naziv. Groups are added through the groups service, as
 * the screens add them: a child's type and sveVideci are its parent's (its own `type` and `sveVideci`
 * here only document that).
 */
type DemoGroup = { naziv: string; cirilica?: string; kratakNaziv: string; type: GroupTypeCode; sveVideci?: boolean; parent?: string };
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

  // Deeper trees: the ministry and the contractors have three and four levels.
  { naziv: 'Odeljenje za širokopojasne mreže', kratakNaziv: 'OŠM', type: 'NARUCILAC', parent: 'Sektor za elektronske komunikacije' },
  { naziv: 'Odsek za ruralna područja', kratakNaziv: 'ORP', type: 'NARUCILAC', parent: 'Odeljenje za širokopojasne mreže' },
  {
    naziv: 'Sektor za digitalnu infrastrukturu',
    kratakNaziv: 'SDI',
    type: 'NARUCILAC',
    sveVideci: true,
    parent: 'Ministarstvo informisanja i telekomunikacija',
  },
  {
    naziv: 'Odeljenje za praćenje projekata',
    kratakNaziv: 'OPP',
    type: 'NARUCILAC',
    sveVideci: true,
    parent: 'Sektor za digitalnu infrastrukturu',
  },
  // Under Kabl Mreže (the e2e journeys rely on Optika Gradnja's two groups staying as they are).
  { naziv: 'Kabl Mreže - Region Jug', kratakNaziv: 'KM-J', type: 'IZVODJAC', parent: 'Kabl Mreže d.o.o.' },
  { naziv: 'Kabl Mreže - Tim Vranje', kratakNaziv: 'KM-VR', type: 'IZVODJAC', parent: 'Kabl Mreže - Region Jug' },
  { naziv: 'Kabl Mreže - Tim Leskovac', kratakNaziv: 'KM-LE', type: 'IZVODJAC', parent: 'Kabl Mreže - Region Jug' },
  {
    naziv: 'Kabl Mreže - Ekipa za spajanje Leskovac',
    kratakNaziv: 'KM-LE-S',
    type: 'IZVODJAC',
    parent: 'Kabl Mreže - Tim Leskovac',
  },
  { naziv: 'Kabl Mreže - Region Istok', kratakNaziv: 'KM-I', type: 'IZVODJAC', parent: 'Kabl Mreže d.o.o.' },
  { naziv: 'Kabl Mreže - Tim Niš', kratakNaziv: 'KM-NI', type: 'IZVODJAC', parent: 'Kabl Mreže - Region Istok' },
  { naziv: 'Meridijan - Odeljenje za trase', kratakNaziv: 'PBM-T', type: 'PROJEKTANT', parent: 'Projektni biro Meridijan' },
  { naziv: 'Nadzor Inženjering - Tim Kragujevac', kratakNaziv: 'NI-KG', type: 'NADZOR', parent: 'Nadzor Inženjering d.o.o.' },
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

  // More people in the deeper trees (managers of sub-groups, employees, guests waiting for a role).
  { ime: 'Miloš', prezime: 'Vuković', email: 'milos.vukovic@mit.gov.rs', role: 'Admin' },
  {
    ime: 'Slobodan',
    prezime: 'Jovanović',
    email: 'slobodan.jovanovic@mit.gov.rs',
    role: 'Rukovodilac',
    group: 'Sektor za digitalnu infrastrukturu',
  },
  {
    ime: 'Gordana',
    prezime: 'Stanković',
    email: 'gordana.stankovic@mit.gov.rs',
    role: 'Zaposleni',
    group: 'Sektor za digitalnu infrastrukturu',
  },
  { ime: 'Dejan', prezime: 'Milošević', email: 'dejan.milosevic@mit.gov.rs', role: 'Zaposleni', group: 'Odeljenje za praćenje projekata' },
  { ime: 'Jelena', prezime: 'Šarić', email: 'jelena.saric@mit.gov.rs', role: 'Rukovodilac', group: 'Odeljenje za širokopojasne mreže' },
  { ime: 'Nemanja', prezime: 'Đukić', email: 'nemanja.djukic@mit.gov.rs', role: 'Zaposleni', group: 'Odeljenje za širokopojasne mreže' },
  {
    ime: 'Љиљана',
    prezime: 'Ђурђевић',
    email: 'ljiljana.djurdjevic@mit.gov.rs',
    role: 'Zaposleni',
    group: 'Sektor za elektronske komunikacije',
  },
  { ime: 'Katarina', prezime: 'Bošković', email: 'katarina.boskovic@mit.gov.rs', role: 'Zaposleni', group: 'Odsek za ruralna područja' },
  { ime: 'Uroš', prezime: 'Čolić', email: 'uros.colic@mit.gov.rs', role: 'Zaposleni', group: 'Odsek za ruralna područja' },
  { ime: 'Branislava', prezime: 'Radović', email: 'branislava.radovic@piuta.rs', role: 'Rukovodilac', group: 'Jedinica za tehničku pomoć' },
  { ime: 'Filip', prezime: 'Tomić', email: 'filip.tomic@piuta.rs', role: 'Zaposleni', group: 'Jedinica za tehničku pomoć' },
  { ime: 'Nikola', prezime: 'Stevanović', email: 'nikola.stevanovic@kablmreze.rs', role: 'Rukovodilac', group: 'Kabl Mreže - Region Jug' },
  { ime: 'Ana', prezime: 'Milenković', email: 'ana.milenkovic@kablmreze.rs', role: 'Zaposleni', group: 'Kabl Mreže - Tim Vranje' },
  { ime: 'Luka', prezime: 'Petković', email: 'luka.petkovic@kablmreze.rs', role: 'Zaposleni', group: 'Kabl Mreže - Tim Vranje' },
  { ime: 'Ivan', prezime: 'Mitrović', email: 'ivan.mitrovic@kablmreze.rs', role: 'Zaposleni', group: 'Kabl Mreže - Tim Leskovac' },
  { ime: 'Sanja', prezime: 'Lukić', email: 'sanja.lukic@kablmreze.rs', role: 'Zaposleni', group: 'Kabl Mreže - Tim Leskovac' },
  {
    ime: 'Dušan',
    prezime: 'Živanović',
    email: 'dusan.zivanovic@kablmreze.rs',
    role: 'Zaposleni',
    group: 'Kabl Mreže - Ekipa za spajanje Leskovac',
  },
  {
    ime: 'Marko',
    prezime: 'Đurić',
    email: 'marko.djuric@kablmreze.rs',
    role: 'Zaposleni',
    group: 'Kabl Mreže - Ekipa za spajanje Leskovac',
    status: 'neaktivan',
  },
  { ime: 'Dragan', prezime: 'Savić', email: 'dragan.savic@kablmreze.rs', role: 'Rukovodilac', group: 'Kabl Mreže - Region Istok' },
  { ime: 'Predrag', prezime: 'Obradović', email: 'predrag.obradovic@kablmreze.rs', role: 'Rukovodilac', group: 'Kabl Mreže - Tim Niš' },
  { ime: 'Vesna', prezime: 'Ristić', email: 'vesna.ristic@kablmreze.rs', role: 'Zaposleni', group: 'Kabl Mreže - Tim Niš' },
  { ime: 'Miroslav', prezime: 'Kovačević', email: 'miroslav.kovacevic@kablmreze.rs', role: 'Zaposleni', group: 'Kabl Mreže - Tim Niš' },
  { ime: 'Tijana', prezime: 'Vasić', email: 'tijana.vasic@meridijan.rs', role: 'Rukovodilac', group: 'Projektni biro Meridijan' },
  {
    ime: 'Srđan',
    prezime: 'Nedeljković',
    email: 'srdjan.nedeljkovic@meridijan.rs',
    role: 'Zaposleni',
    group: 'Meridijan - Odeljenje za trase',
  },
  {
    ime: 'Goran',
    prezime: 'Ćosić',
    email: 'goran.cosic@nadzor-inzenjering.rs',
    role: 'Zaposleni',
    group: 'Nadzor Inženjering - Tim Kragujevac',
  },
  {
    ime: 'Biljana',
    prezime: 'Simić',
    email: 'biljana.simic@nadzor-inzenjering.rs',
    role: 'Zaposleni',
    group: 'Nadzor Inženjering - Tim Kragujevac',
  },
  { ime: 'Milena', prezime: 'Žigić', email: 'milena.zigic@primer.rs', role: 'Gost' },
  { ime: 'Aleksa', prezime: 'Čupić', email: 'aleksa.cupic@primer.rs', role: 'Gost' },
  { ime: 'Teodora', prezime: 'Mićić', email: 'teodora.micic@primer.rs', role: 'Gost', status: 'neaktivan' },
  { ime: 'Veljko', prezime: 'Šljivić', email: 'veljko.sljivic@primer.rs', role: 'Gost' },
  { ime: 'Danijela', prezime: 'Nović', email: 'danijela.novic@primer.rs', role: 'Gost' },
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
    const tip = await groupTypeId(db, g.type);
    const row = await db.transaction((tx) =>
      addGroup(tx, {
        naziv: g.naziv,
        kratakNaziv: g.kratakNaziv,
        cirilica: g.cirilica ?? toCyrillic(g.naziv),
        nadredjenaId: parentId ?? null,
        tip,
        sveVideci: g.sveVideci ?? false,
      }),
    );
    ids.set(g.naziv, row.id);
    newGroups++;
  }
  for (const u of DEMO_USERS) {
    const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, u.email));
    if (existing) continue;
    await createUser(db, { ...u, groupId: u.group ? (ids.get(u.group) ?? null) : null, password: DEFAULT_PASSWORD });
    newUsers++;
  }
  await seedDemoIjos(db);
  return { groups: newGroups, users: newUsers };
}
