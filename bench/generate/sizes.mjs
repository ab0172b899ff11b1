// The sizes of the generated database (BENCH_SCALE scales them) and the words its names are made of (bench/generate.mjs).

export const scale = Number(process.env.BENCH_SCALE || 1);
export const SIZES = {
  firms: 100,
  teamsPerFirm: 9,
  usersPerGroup: 50,
  guests: 50,
  settlements: Math.round(9000 * scale),
  clusters: Math.round(3000 * scale),
  contractsPerKind: Math.max(1, Math.round(100 * scale)),
  topics: Math.round(20_000 * scale),
  topicComments: Math.round(100_000 * scale),
  activityComments: Math.round(100_000 * scale),
  logs: Math.round(1_000_000 * scale),
  inventory: Math.round(100_000 * scale),
};

export const sqlArray = (list) => `ARRAY[${list.map((s) => `'${s.replace(/'/g, "''")}'`).join(',')}]`;

export const PLACES = ['Čačak', 'Šabac', 'Niš', 'Užice', 'Kraljevo', 'Kruševac', 'Požarevac', 'Smederevo', 'Leskovac', 'Vranje'];
export const PLACES_MORE = ['Zaječar', 'Pirot', 'Đurđevo', 'Sombor', 'Subotica', 'Valjevo', 'Loznica', 'Ivanjica', 'Raška', 'Priboj'];
export const VILLAGES = ['Gornja Šljivica', 'Donje Žabare', 'Ćićevac', 'Sirogojno', 'Mokra Gora', 'Kremna', 'Zlatibor', 'Bajina Bašta'];
export const VILLAGES_MORE = ['Kosjerić', 'Požega', 'Arilje', 'Lučani', 'Guča', 'Ljig', 'Mionica', 'Osečina', 'Krupanj', 'Đunis'];
export const FIRST = ['Marko', 'Nikola', 'Stefan', 'Luka', 'Nemanja', 'Miloš', 'Đorđe', 'Dušan', 'Aleksandar', 'Vuk', 'Uroš', 'Filip'];
export const FIRST_MORE = ['Jelena', 'Milica', 'Ana', 'Jovana', 'Marija', 'Ivana', 'Dragana', 'Tijana', 'Katarina', 'Snežana', 'Željka'];
export const LAST = ['Jovanović', 'Petrović', 'Nikolić', 'Marković', 'Đorđević', 'Stojanović', 'Ilić', 'Stanković', 'Pavlović'];
export const LAST_MORE = ['Milošević', 'Đukić', 'Kovačević', 'Živković', 'Šarić', 'Ćirić', 'Tomić', 'Lukić', 'Popović', 'Savić'];
export const LAST_REST = ['Mitrović', 'Đurić', 'Obradović', 'Lazić', 'Ristić', 'Vasić', 'Simić', 'Čolić', 'Bošković', 'Radović'];
export const FIRM_WORDS = ['Optika', 'Telekom gradnja', 'Mreža', 'Signal', 'Elektromontaža', 'Kabl', 'Trasa', 'Vlakno', 'Link', 'Spoj'];
export const FIRM_CYR = ['Оптика', 'Телеком градња', 'Мрежа', 'Сигнал', 'Електромонтажа', 'Кабл', 'Траса', 'Влакно', 'Линк', 'Спој'];
export const TOPIC_TEXTS = [
  'Oštećen optički kabl na trasi kod škole',
  'Nedostaje saglasnost vlasnika parcele za prolaz trase',
  'Šaht zatrpan posle asfaltiranja, potreban izlazak na teren',
  'Kašnjenje isporuke kabla i spojnica',
  'Izmena projekta zbog ukrštanja sa gasovodom',
  'Građevinska dozvola čeka dopunu dokumentacije',
  'Neusklađena dužina trase sa projektom',
  'Prekid radova zbog vremenskih uslova',
  'Zahtev za dodatnim priključcima domaćinstava',
  'Reklamacija na merenja OTDR',
  'Ćutanje uprave po zahtevu za prekopavanje puta',
  'Đubre i šut ostavljeni na gradilištu',
];
export const COMMENT_TEXTS = [
  'Izašli smo na teren, stanje je kao u opisu.',
  'Dokumentacija je dopunjena i poslata.',
  'Čekamo odgovor nadzora.',
  'Kabl je zamenjen, merenja su u prilogu.',
  'Rok se pomera za dve nedelje zbog dozvola.',
  'Potrebna je saglasnost opštine.',
  'Šaht je očišćen i zatvoren.',
  'Izvođač je obavešten, radovi počinju u ponedeljak.',
];

/** The first and last names as two CTEs (`f`, `l`), for the users and the log rows. */
export const names = `f AS (SELECT ${sqlArray([...FIRST, ...FIRST_MORE])} AS a), l AS (SELECT ${sqlArray([...LAST, ...LAST_MORE, ...LAST_REST])} AS a)`;
