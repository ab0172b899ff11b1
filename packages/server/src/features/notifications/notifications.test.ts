import { ACTIVITY_CATALOGUE, type ActivityRowDto, addDays, COMMON, type DeadlineColour, deadlineColour } from '@trasa/domain';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { activities } from '../../db/schema-activities.js';
import { appToday } from '../../platform/time.js';
import {
  type ActivityState,
  createCluster,
  createContract,
  createGroup,
  createUser,
  setActivityState,
  tokenFor,
} from '../../seed/factories.js';
import { activityColour, activityColourSql, colourCondition, todayOf } from '../../shared/activityColour.js';

const t = useTestApp();

/** YYYY-MM-DD `n` days from today (the application's day, as the server counts). */
const day = (n: number) => addDays(appToday(), n);
const running = (start: number, due: number | null): ActivityState => ({
  status: 'U toku',
  datumPocetka: day(start),
  rokZavrsetka: due === null ? null : day(due),
});
const done = (start: number, end: number): ActivityState => ({ status: 'Završena', datumPocetka: day(start), datumZavrsetka: day(end) });

type Cluster = Awaited<ReturnType<typeof createCluster>>;
let tokens: Record<'admin' | 'teamA' | 'companyA' | 'companyB' | 'nadzor' | 'manager' | 'guest' | 'orphan' | 'ministry', string>;
let cA: Cluster;
let cB: Cluster;
let cN: Cluster;
let cM: Cluster;
let contractA: Awaited<ReturnType<typeof createContract>>;
const idOf: Record<string, string> = {};

beforeAll(async () => {
  // Two contractor companies side by side; company A has a team (a child group).
  const companyA = await createGroup(t.db, { naziv: 'Optika Sever', type: 'IZVODJAC' });
  const teamA = await createGroup(t.db, { naziv: 'Optika Sever Tim', type: 'IZVODJAC', parentId: companyA.id });
  const companyB = await createGroup(t.db, { naziv: 'Kabl Jug', type: 'IZVODJAC' });
  const nadzor = await createGroup(t.db, { naziv: 'Nadzor Plus', type: 'NADZOR' });
  // A manager's subtree whose child has another type (the service keeps types uniform; the rule computes the set).
  const mgrRoot = await createGroup(t.db, { naziv: 'Uprava Istok', type: 'NARUCILAC' });
  const mgrChild = await createGroup(t.db, { naziv: 'Uprava Istok Kontrola', type: 'NADZOR', parentId: mgrRoot.id });
  const ministry = await createGroup(t.db, { naziv: 'Ministarstvo Sve', type: 'IZVODJAC', sveVideci: true });
  const token = async (spec: Parameters<typeof createUser>[1]) => tokenFor(t.ctx, await createUser(t.db, spec));
  tokens = {
    admin: await token({ role: 'Admin' }),
    teamA: await token({ role: 'Zaposleni', groupId: teamA.id }),
    companyA: await token({ role: 'Zaposleni', groupId: companyA.id }),
    companyB: await token({ role: 'Zaposleni', groupId: companyB.id }),
    nadzor: await token({ role: 'Zaposleni', groupId: nadzor.id }),
    manager: await token({ role: 'Rukovodilac', groupId: mgrRoot.id }),
    guest: await token({ role: 'Gost' }),
    orphan: await token({ role: 'Zaposleni', groupId: null }),
    ministry: await token({ role: 'Zaposleni', groupId: ministry.id }),
  };
  contractA = await createContract(t.db, { naziv: 'Ugovor Sever' });
  cA = await createCluster(t.db, { naziv: 'Šljivovica', groupIds: [companyA.id], contract: contractA });
  cB = await createCluster(t.db, { naziv: 'Đurđevac', groupIds: [companyB.id] });
  cN = await createCluster(t.db, { naziv: 'Nova Varoš', groupIds: [nadzor.id, companyA.id] });
  cM = await createCluster(t.db, { naziv: 'Istok Centar', groupIds: [mgrChild.id] });

  const set = async (cluster: Cluster, code: string, state: ActivityState) => {
    idOf[`${cluster.naziv}:${code}`] = (await setActivityState(t.db, cluster.id, code, state)).id;
  };
  await set(cA, 'A1', done(-40, -21));
  await set(cA, 'A2', running(-20, -10)); // IZVODJAC, late: red
  await set(cA, 'A3', running(-9, 1)); // IZVODJAC, 1 of 10 days left: orange
  await set(cA, 'A4', running(-1, 29)); // IZVODJAC, blue
  await set(cA, 'A14', running(-5, null)); // IZVODJAC, klizno: blue, last
  await set(cB, 'A1', done(-30, -3));
  await set(cB, 'A3', running(-2, 8)); // IZVODJAC, blue
  await set(cN, 'A4.1', running(-4, 2)); // NADZOR, 2 of 6 days left: blue
  await set(cN, 'A9.1', running(-10, 0)); // NADZOR, last day: orange
  await set(cM, 'A1', running(-3, 12)); // NARUCILAC and IZVODJAC
  await set(cM, 'A14.1', running(-3, 5)); // NADZOR
});

const get = async (url: string, token: string) => {
  const res = await t.call({ method: 'GET', url, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { activities: ActivityRowDto[]; totalResults: number };
};
const codes = (page: { activities: ActivityRowDto[] }) => page.activities.map((a) => `${a.lokacija.naziv}:${a.kratakNaziv}`);
const notifications = (token: string, query = 'page=1&limit=50') => get(`/api/activity/notifications?${query}`, token);
const search = (token: string, params: Record<string, string>) =>
  get(`/api/search/notification?${new URLSearchParams({ page: '1', limit: '50', ...params })}`, token);
const inProgress = (params: Record<string, string> = {}) =>
  get(`/api/activity/in-progress?${new URLSearchParams({ page: '1', limit: '50', ...params })}`, tokens.admin);

describe('GET /api/activity/notifications', () => {
  it("a team sees its company's clusters' activities of its type, nearest deadline first, klizno last", async () => {
    const page = await notifications(tokens.teamA);
    expect(codes(page)).toEqual(['Šljivovica:A2', 'Šljivovica:A3', 'Šljivovica:A4', 'Šljivovica:A14']);
    expect(page.totalResults).toBe(4);
    expect(page.activities.map((a) => a.boja)).toEqual(['red', 'orange', 'blue', 'blue']);
    // The company itself sees the same; a NADZOR activity of a cluster it shares is not its own.
    expect(codes(await notifications(tokens.companyA))).toEqual(codes(page));
  });

  it('answers each row in full', async () => {
    const [late] = (await notifications(tokens.teamA)).activities;
    const a2 = ACTIVITY_CATALOGUE.find((e) => e.code === 'A2');
    expect(late).toEqual({
      _id: idOf['Šljivovica:A2'],
      kratakNaziv: 'A2',
      naziv: a2?.naziv,
      status: 'U toku',
      odgovoran: ['IZVODJAC'],
      rok: 10,
      datumPocetka: day(-20),
      datumZavrsetka: null,
      rokZavrsetka: day(-10),
      brojDanaDoRoka: -10,
      returned: 0,
      boja: 'red',
      lokacija: { _id: cA.id, naziv: 'Šljivovica' },
      ugovor: { _id: contractA.id, naziv: 'Ugovor Sever' },
    });
    const klizno = (await notifications(tokens.teamA)).activities.at(-1);
    expect(klizno).toMatchObject({
      kratakNaziv: 'A14',
      rok: 'klizno',
      rokZavrsetka: null,
      brojDanaDoRoka: null,
      ugovor: { _id: contractA.id },
    });
  });

  it("a sibling company's employee sees none of another's notifications", async () => {
    const page = await notifications(tokens.companyB);
    expect(codes(page)).toEqual(['Đurđevac:A3']);
    expect(page.totalResults).toBe(1);
  });

  it('supervision sees only its own type on the clusters it sees', async () => {
    expect(codes(await notifications(tokens.nadzor))).toEqual(['Nova Varoš:A9.1', 'Nova Varoš:A4.1']);
  });

  it("a Rukovodilac sees the types of their subtree's groups on the clusters the subtree sees", async () => {
    expect(codes(await notifications(tokens.manager))).toEqual(['Istok Centar:A14.1', 'Istok Centar:A1']);
  });

  it('a group that sees every cluster gets its type everywhere', async () => {
    expect(codes(await notifications(tokens.ministry))).toEqual([
      'Šljivovica:A2',
      'Šljivovica:A3',
      'Đurđevac:A3',
      'Istok Centar:A1',
      'Šljivovica:A4',
      'Šljivovica:A14',
    ]);
  });

  it('a guest and an employee without a group get an empty list', async () => {
    expect(await notifications(tokens.guest)).toEqual({ activities: [], totalResults: 0 });
    expect(await notifications(tokens.orphan)).toEqual({ activities: [], totalResults: 0 });
    expect(await search(tokens.guest, { eng: 'a' })).toEqual({ activities: [], totalResults: 0 });
  });

  it('pages keep the order and the total', async () => {
    const second = await notifications(tokens.teamA, 'page=2&limit=2');
    expect(codes(second)).toEqual(['Šljivovica:A4', 'Šljivovica:A14']);
    expect(second.totalResults).toBe(4);
    const past = await notifications(tokens.teamA, 'page=9&limit=2');
    expect(past).toEqual({ activities: [], totalResults: 4 });
  });

  it('an Admin has the in-progress list instead (403 here)', async () => {
    const res = await t.call({ method: 'GET', url: '/api/activity/notifications', token: tokens.admin });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(said(COMMON.forbidden));
  });
});

describe('GET /api/search/notification', () => {
  it('finds by cluster name in either script: a Cyrillic query finds a Latin name', async () => {
    expect(codes(await search(tokens.teamA, { eng: 'шљивов', srb: '' }))).toHaveLength(4);
    expect(codes(await search(tokens.teamA, { eng: 'sljivov', srb: 'сљивов' }))).toHaveLength(4);
    expect(codes(await search(tokens.companyB, { eng: 'Ђурђе', srb: 'Đurđe' }))).toEqual(['Đurđevac:A3']);
    // Only within the caller's notifications.
    expect(codes(await search(tokens.companyB, { eng: 'шљивов' }))).toEqual([]);
  });

  it('finds by activity name and code', async () => {
    expect(codes(await search(tokens.nadzor, { eng: 'контрола', srb: 'kontrola' }))).toEqual(['Nova Varoš:A9.1', 'Nova Varoš:A4.1']);
    expect(codes(await search(tokens.nadzor, { eng: 'a4.1' }))).toEqual(['Nova Varoš:A4.1']);
    expect(codes(await search(tokens.teamA, { eng: 'Informacija o lokaciji' }))).toEqual(['Šljivovica:A3']);
  });

  it('answers as the unnamed statement does, for a scope of groups and for one that sees everything, past the generic plan', async () => {
    // In the deadline order the search runs as a named statement (notices_search_*); sorted by the same
    // key (brojDanaDoRoka, then id) the condition is built with its values. Seven rounds: PostgreSQL plans
    // a named statement generically from the sixth run on.
    const searches: Record<string, string>[] = [
      { eng: 'sljivov', srb: 'сљивов' },
      { eng: 'A4' },
      { eng: 'Đurđe', srb: 'Ђурђе' },
      { eng: 'kontrola' },
    ];
    for (let round = 0; round < 7; round++) {
      for (const token of [tokens.teamA, tokens.companyB, tokens.nadzor, tokens.manager, tokens.ministry]) {
        for (const params of searches) {
          const named = await search(token, params);
          const unnamed = await search(token, { ...params, sort: 'brojDanaDoRoka', order: 'asc' });
          expect(named).toEqual(unnamed);
          if (round === 0 && token === tokens.ministry && params.eng === 'A4') expect(named.totalResults).toBeGreaterThan(0);
        }
      }
    }
  });

  it('takes % and _ literally, and nothing typed is the plain list', async () => {
    expect(await search(tokens.teamA, { eng: '%', srb: '_' })).toEqual({ activities: [], totalResults: 0 });
    expect(codes(await search(tokens.teamA, { eng: ' ', srb: '' }))).toHaveLength(4);
  });
});

describe('GET /api/activity/in-progress (Admin)', () => {
  it('lists every activity in progress, nearest deadline first', async () => {
    const page = await inProgress();
    expect(codes(page)).toEqual([
      'Šljivovica:A2',
      'Nova Varoš:A9.1',
      'Šljivovica:A3',
      'Nova Varoš:A4.1',
      'Istok Centar:A14.1',
      'Đurđevac:A3',
      'Istok Centar:A1',
      'Šljivovica:A4',
      'Šljivovica:A14',
    ]);
    expect(page.totalResults).toBe(9);
    expect(codes(await inProgress({ page: '3', limit: '4' }))).toEqual(['Šljivovica:A14']);
  });

  it('filters by contract, cluster, responsible party and colour, together and with search', async () => {
    expect(codes(await inProgress({ contract: contractA.id }))).toEqual([
      'Šljivovica:A2',
      'Šljivovica:A3',
      'Šljivovica:A4',
      'Šljivovica:A14',
    ]);
    expect(codes(await inProgress({ cluster: cN.id }))).toEqual(['Nova Varoš:A9.1', 'Nova Varoš:A4.1']);
    expect(codes(await inProgress({ odgovoran: 'NADZOR' }))).toEqual(['Nova Varoš:A9.1', 'Nova Varoš:A4.1', 'Istok Centar:A14.1']);
    expect(codes(await inProgress({ odgovoran: 'NARUCILAC' }))).toEqual(['Istok Centar:A1']);
    const red = await inProgress({ boja: 'red' });
    expect(codes(red)).toEqual(['Šljivovica:A2']);
    expect(red.totalResults).toBe(1);
    expect(codes(await inProgress({ boja: 'orange' }))).toEqual(['Nova Varoš:A9.1', 'Šljivovica:A3']);
    expect(codes(await inProgress({ boja: 'blue' }))).toEqual([
      'Nova Varoš:A4.1',
      'Istok Centar:A14.1',
      'Đurđevac:A3',
      'Istok Centar:A1',
      'Šljivovica:A4',
      'Šljivovica:A14',
    ]);
    expect((await inProgress({ boja: 'green' })).totalResults).toBe(0);
    expect(codes(await inProgress({ contract: contractA.id, boja: 'blue', eng: 'izrada' }))).toEqual(['Šljivovica:A4']);
    expect(codes(await inProgress({ odgovoran: 'IZVODJAC', eng: 'ђурђ' }))).toEqual(['Đurđevac:A3']);
    // Empty filters are no filters; an unknown contract matches nothing.
    expect((await inProgress({ contract: '', cluster: '', odgovoran: '', boja: '' })).totalResults).toBe(9);
    expect((await inProgress({ contract: '00000000-0000-4000-8000-000000000000' })).totalResults).toBe(0);
  });

  it('refuses a malformed filter', async () => {
    for (const query of ['contract=x', 'cluster=1', 'odgovoran=SVI', 'boja=purple']) {
      const res = await t.call({ method: 'GET', url: `/api/activity/in-progress?${query}`, token: tokens.admin });
      expect(res.statusCode, query).toBe(400);
    }
  });

  it('is the Admin’s only', async () => {
    for (const token of [tokens.teamA, tokens.manager, tokens.guest]) {
      expect((await t.call({ method: 'GET', url: '/api/activity/in-progress', token })).statusCode).toBe(403);
    }
  });
});

describe("today is the application's day (Europe/Belgrade), not the machine's or UTC's", () => {
  it('late in the UTC evening the colours already count the next Belgrade day', () => {
    const lateEvening = new Date('2026-11-23T23:30:00Z');
    expect(todayOf(lateEvening)).toBe('2026-11-24');
    const dueToday = { status: 'U toku', datumPocetka: '2026-11-01', rokZavrsetka: '2026-11-23', datumZavrsetka: null };
    // Due on the 23rd: red once the 24th has begun in Belgrade, although it is still the 23rd in UTC.
    expect(activityColour(dueToday, lateEvening)).toBe('red');
    expect(activityColour(dueToday, new Date('2026-11-23T22:30:00Z'))).toBe('orange');
  });
});

describe('the colour rule in SQL equals the domain rule', () => {
  const today = '2026-05-21';
  const now = new Date('2026-05-21T10:00:00Z');
  const shift = (n: number) => {
    const d = new Date(`${today}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + n);
    return d.toISOString().slice(0, 10);
  };
  // [start, due, status, finished]: boundaries of blue / orange / red and the odd rows.
  const cases: [number | null, number | null, ActivityState['status'], number | null][] = [
    [-81, 9, 'U toku', null], // 9 of 90 left = 10 %: orange
    [-80, 9, 'U toku', null], // 9 of 89: orange
    [-82, 9, 'U toku', null], // 9 of 91: blue
    [-26, 4, 'U toku', null], // 4 of 30: blue
    [-27, 3, 'U toku', null], // 3 of 30 = 10 %: orange
    [-10, 0, 'U toku', null], // the last day: orange
    [-10, -1, 'U toku', null], // a day late: red
    [0, 0, 'U toku', null], // a deadline of 0 days: orange
    [0, 5, 'U toku', null], // started today: blue
    [2, 1, 'U toku', null], // deadline before the start: orange
    [3, 10, 'U toku', null], // starts in the future: blue
    [-5, null, 'U toku', null], // klizno: blue
    [null, 5, 'U toku', null], // no start: white
    [null, null, 'Nije započeta', null],
    [-10, 5, 'Nije započeta', null],
    [-20, -5, 'Završena', -5], // on the day: green
    [-20, -5, 'Završena', -4], // a day late: green-red
    [-20, null, 'Završena', -1], // klizno: green
    [-20, -5, 'Završena', null], // finished without a date, past its deadline: green-red
  ];

  it('gives every boundary the same colour, and the filter selects exactly those rows', async () => {
    const cluster = await createCluster(t.db, { naziv: 'Boje' });
    const codesUsed = ACTIVITY_CATALOGUE.slice(0, cases.length).map((e) => e.code);
    const expected = new Map<string, DeadlineColour>();
    for (const [i, [start, due, status, finished]] of cases.entries()) {
      const code = codesUsed[i] as string;
      const state = {
        status,
        datumPocetka: start === null ? null : shift(start),
        rokZavrsetka: due === null ? null : shift(due),
        datumZavrsetka: finished === null ? null : shift(finished),
      };
      await setActivityState(t.db, cluster.id, code, state);
      const colour = activityColour({ ...state, status: status as string }, now);
      // The presenter's colour is the domain's.
      expect(colour).toBe(
        deadlineColour(
          {
            inProgress: status === 'U toku',
            finished: status === 'Završena',
            start: state.datumPocetka,
            due: state.rokZavrsetka,
            finishedAt: state.datumZavrsetka,
            floating: state.rokZavrsetka === null,
          },
          now,
        ),
      );
      expected.set(code, colour);
    }
    const rows = await t.db
      .select({ code: activities.code, colour: activityColourSql(today) })
      .from(activities)
      .where(eq(activities.clusterId, cluster.id));
    const inSql = new Map(rows.map((r) => [r.code, r.colour]));
    for (const [i, code] of codesUsed.entries()) expect(inSql.get(code), `case ${i}: ${JSON.stringify(cases[i])}`).toBe(expected.get(code));
    expect(new Set(expected.values())).toEqual(new Set(['blue', 'orange', 'red', 'white', 'green', 'greenRed']));

    for (const colour of ['blue', 'orange', 'red', 'white', 'green', 'greenRed'] as const) {
      const picked = await t.db
        .select({ code: activities.code })
        .from(activities)
        .where(sql`${activities.clusterId} = ${cluster.id} and ${activities.code} in ${codesUsed} and ${colourCondition(colour, today)}`);
      const want = codesUsed.filter((c) => expected.get(c) === colour);
      expect(picked.map((r) => r.code).sort(), colour).toEqual([...want].sort());
    }
  });
});

describe('notifications through a contract', () => {
  it("a group among a contract's groups sees its clusters' activities of its type, and only those", async () => {
    // Last in the file: it adds an activity in progress the lists above don't expect.
    const company = await createGroup(t.db, { naziv: 'Vlakno Zapad', type: 'IZVODJAC' });
    const employee = tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: company.id }));
    const contract = await createContract(t.db, { naziv: 'Ugovor Zapad', groupIds: [company.id] });
    const cluster = await createCluster(t.db, { naziv: 'Zapadni krak', groupIds: [], contract });
    await setActivityState(t.db, cluster.id, 'A2', running(-2, 5));
    await setActivityState(t.db, cluster.id, 'A4.1', running(-2, 5)); // NADZOR: not this group's
    expect(codes(await notifications(await employee))).toEqual(['Zapadni krak:A2']);
    // The contractor companies that don't hold the contract see nothing of it.
    expect(codes(await notifications(tokens.companyB))).not.toContain('Zapadni krak:A2');
  });
});
