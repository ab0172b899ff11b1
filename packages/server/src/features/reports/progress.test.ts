import { ACTIVITY_CATALOGUE, addDays } from '@trasa/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { appToday } from '../../platform/time.js';
import { createCluster, createContract, createOrgTree, createUser, setActivityState, tokenFor } from '../../seed/factories.js';

/**
 * GET /api/report/progress: the figures are counted in the test from the states it puts in (plain loops
 * over the input and the domain's catalogue), never by the report's queries; each caller sees only the
 * clusters of their scope.
 */
const t = useTestApp();
const today = appToday();
const D = (n: number) => addDays(today, n);

type State = { code: string; status: 'U toku' | 'Završena'; start: string; due: string | null; end?: string };
type Spec = { naziv: string; mine: boolean; contract: 'K1' | 'K2' | null; states: State[] };
const SPECS: Spec[] = [
  {
    naziv: 'Napredak Jedan',
    mine: true,
    contract: 'K1',
    states: [
      { code: 'A1', status: 'Završena', start: D(-40), due: D(-25), end: D(-30) },
      { code: 'A2', status: 'Završena', start: D(-30), due: D(-20), end: D(-15) }, // finished 5 days late
      { code: 'A3', status: 'U toku', start: D(-15), due: D(-5) }, // late
      { code: 'A4', status: 'U toku', start: D(-15), due: D(10) }, // not late
    ],
  },
  { naziv: 'Napredak Dva', mine: true, contract: 'K1', states: [{ code: 'A1', status: 'U toku', start: D(-20), due: D(-1) }] },
  {
    naziv: 'Napredak Tri',
    mine: true,
    contract: 'K1',
    states: [
      { code: 'A1', status: 'Završena', start: D(-40), due: D(-25), end: D(-30) },
      { code: 'A2', status: 'Završena', start: D(-30), due: D(-20), end: D(-21) },
    ],
  },
  {
    naziv: 'Napredak Četiri',
    mine: false,
    contract: 'K2',
    states: [
      { code: 'A1', status: 'Završena', start: D(-40), due: D(-25), end: D(-20) },
      { code: 'A14', status: 'U toku', start: D(-40), due: null }, // klizno: never late
    ],
  },
  { naziv: 'Napredak Pet', mine: true, contract: null, states: [] },
];

let tok: Record<'admin' | 'employee' | 'guest', string>;
let K: Record<'K1' | 'K2', { id: string; naziv: string; broj: string; kind: string }>;

beforeAll(async () => {
  const tree = await createOrgTree(t.db, 'Napredak');
  tok = {
    admin: await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' })),
    employee: await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id })),
    guest: await tokenFor(t.ctx, await createUser(t.db, { role: 'Gost' })),
  };
  K = { K1: await createContract(t.db, { naziv: 'Ugovor Napredak A' }), K2: await createContract(t.db, { naziv: 'Ugovor Napredak B' }) };
  for (const s of SPECS) {
    const c = await createCluster(t.db, {
      naziv: s.naziv,
      groupIds: [s.mine ? tree.leaf.id : tree.other.id],
      ...(s.contract ? { contract: K[s.contract] } : {}),
    });
    for (const a of s.states)
      await setActivityState(t.db, c.id, a.code, {
        status: a.status,
        datumPocetka: a.start,
        rokZavrsetka: a.due,
        datumZavrsetka: a.end ?? null,
      });
  }
});

/** The expected answer for the clusters `visible` picks, counted from SPECS. */
function expected(visible: (s: Spec) => boolean, contract?: 'K1' | 'K2') {
  const position = new Map(ACTIVITY_CATALOGUE.map((c, i) => [c.code, i]));
  const parties = new Map(ACTIVITY_CATALOGUE.map((c) => [c.code, c.odgovoran]));
  const out = new Map<string | null, { clusters: number; stages: Record<string, number>; late: Record<string, [number, number]> }>();
  for (const s of SPECS.filter(visible)) {
    if (contract && s.contract !== contract) continue;
    const key = s.contract ? K[s.contract].id : null;
    const e = out.get(key) ?? { clusters: 0, stages: {}, late: {} };
    out.set(key, e);
    e.clusters += 1;
    let furthest: string | null = null;
    for (const a of s.states) {
      if (a.status === 'Završena' && (furthest === null || (position.get(a.code) ?? 0) > (position.get(furthest) ?? 0))) furthest = a.code;
      const late = a.status === 'U toku' && a.due !== null && a.due < today;
      const finishedLate = a.status === 'Završena' && a.due !== null && (a.end ?? today) > a.due;
      if (!late && !finishedLate) continue;
      for (const p of parties.get(a.code) ?? []) {
        const l = e.late[p] ?? [0, 0];
        if (late) l[0] += 1;
        else l[1] += 1;
        e.late[p] = l;
      }
    }
    e.stages[furthest ?? '-'] = (e.stages[furthest ?? '-'] ?? 0) + 1;
  }
  return out;
}

type Answer = {
  contracts: {
    _id: string | null;
    naziv: string;
    clusters: number;
    stages: { kratakNaziv: string | null; count: number }[];
    late: { odgovoran: string; kasni: number; zavrsenoKasno: number }[];
  }[];
};

function asExpected(answer: Answer) {
  return new Map(
    answer.contracts.map((c) => [
      c._id,
      {
        clusters: c.clusters,
        stages: Object.fromEntries(c.stages.map((s) => [s.kratakNaziv ?? '-', s.count])),
        late: Object.fromEntries(c.late.map((l) => [l.odgovoran, [l.kasni, l.zavrsenoKasno]])),
      },
    ]),
  );
}

const get = async (url: string, token: string): Promise<Answer> => {
  const res = await t.call({ method: 'GET', url, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('GET /api/report/progress', () => {
  it('counts, per contract, the clusters at each stage and the late activities per responsible party', async () => {
    const admin = await get('/api/report/progress', tok.admin);
    expect(asExpected(admin)).toEqual(expected(() => true));
    // Contracts by name, the clusters under none last; stages in catalogue order (none finished first).
    expect(admin.contracts.map((c) => c.naziv)).toEqual(['Ugovor Napredak A', 'Ugovor Napredak B', '']);
    expect(admin.contracts[0]?.stages.map((s) => s.kratakNaziv)).toEqual([null, 'A2']);
    // Spot figures, by hand: K1 has A3 late (IZVODJAC) and A1 late on Dva (NARUCILAC, IZVODJAC); A2 finished late once.
    expect(admin.contracts[0]?.late.find((l) => l.odgovoran === 'IZVODJAC')).toEqual({ odgovoran: 'IZVODJAC', kasni: 2, zavrsenoKasno: 1 });
  });

  it('keeps to the caller’s clusters and to the chosen contract', async () => {
    expect(asExpected(await get('/api/report/progress', tok.employee))).toEqual(expected((s) => s.mine));
    expect(asExpected(await get(`/api/report/progress?contract=${K.K2.id}`, tok.admin))).toEqual(expected(() => true, 'K2'));
    expect((await get(`/api/report/progress?contract=${K.K2.id}`, tok.employee)).contracts).toEqual([]);
  });

  it('refuses a malformed contract (400, Serbian) and a guest (403)', async () => {
    const bad = await t.call({ method: 'GET', url: '/api/report/progress?contract=nije-id', token: tok.admin });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(said('Nepoznat izveštaj.'));
    expect((await t.call({ method: 'GET', url: '/api/report/progress', token: tok.guest })).statusCode).toBe(403);
  });
});
