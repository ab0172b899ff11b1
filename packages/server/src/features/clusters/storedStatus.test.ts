import {
  addDays,
  type ClusterStatus,
  type ContractBrief,
  type LocationDto,
  type LocationListItem,
  type LocationsPage,
} from '@trasa/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { activities } from '../../db/schema-activities.js';
import { clusters, contractClusters } from '../../db/schema-clusters.js';
import { appToday } from '../../platform/time.js';
import { createCluster, createContract, createGroup, createUser, setActivityState, tokenFor } from '../../seed/factories.js';
import { client, createTeam, pdf } from '../activities/testing.js';
import { clusterColour } from './presenter.js';

/**
 * The stored status (drizzle/0017_cluster_status.sql) against a recount in JS from the activity records
 * after every kind of write that changes them, the list's JSON built in SQL against the detail's JS
 * presenter (colours included), and the list sorted by status against a sort in JS.
 */
const t = useTestApp();
const day = (n: number) => addDays(appToday(), n);

/** A cluster's stored status, finishing date and count of finished activities (migrations 0017, 0022). */
type Stored = { status: ClusterStatus; datumZavrsetka: string | null; zavrsenih: number };

/**
 * What a list row must carry of a cluster's detail (LocationListItem): what the tables show — the
 * responsible contractors (type Izvođač), the general contract by id and name, the typed ones by id —
 * and nothing else.
 */
function listItemOf(detail: LocationDto): LocationListItem {
  const id = (c: ContractBrief | null) => (c ? { _id: c._id } : null);
  return {
    _id: detail._id,
    naziv: detail.naziv,
    odgovoran: detail.odgovoran.filter((g) => g.tipKod === 'IZVODJAC').map((g) => ({ _id: g._id, naziv: g.naziv, tipKod: g.tipKod })),
    ugovor: detail.ugovor ? { _id: detail.ugovor._id, naziv: detail.ugovor.naziv } : null,
    ugovori: {
      contractIzv: id(detail.ugovori.contractIzv),
      contractPro: id(detail.ugovori.contractPro),
      contractNad: id(detail.ugovori.contractNad),
    },
    status: detail.status,
    boja: detail.boja,
  };
}

/** activity-catalogue.md "Flow rules" in JS, over the activity records as they are now. */
async function recount(ids: string[]): Promise<Map<string, Stored>> {
  const rows = await t.db
    .select({ clusterId: activities.clusterId, status: activities.status, datum: activities.datumZavrsetka })
    .from(activities)
    .where(inArray(activities.clusterId, ids));
  const expected = new Map<string, Stored>();
  for (const id of ids) {
    const own = rows.filter((r) => r.clusterId === id);
    const started = own.some((r) => r.status !== 'Nije započeta');
    const open = own.some((r) => r.status !== 'Završena');
    const status: ClusterStatus = !started ? 'Nije započet' : open ? 'U toku' : 'Završen';
    const dates = own.map((r) => r.datum).filter((d): d is string => !!d);
    const last = dates.sort().at(-1) ?? null;
    const zavrsenih = own.filter((r) => r.status === 'Završena').length;
    expected.set(id, { status, datumZavrsetka: status === 'Završen' ? last : null, zavrsenih });
  }
  return expected;
}

async function stored(ids: string[]): Promise<Map<string, Stored>> {
  const rows = await t.db
    .select({
      id: clusters.id,
      status: clusters.statusKlastera,
      datumZavrsetka: clusters.datumZavrsetkaKlastera,
      zavrsenih: sql<number>`${clusters}.zavrsenih_aktivnosti`,
    })
    .from(clusters)
    .where(inArray(clusters.id, ids));
  return new Map(rows.map((r) => [r.id, { status: r.status as ClusterStatus, datumZavrsetka: r.datumZavrsetka, zavrsenih: r.zavrsenih }]));
}

async function expectStoredMatches(ids: string[]) {
  const want = await recount(ids);
  const have = await stored(ids);
  for (const id of ids) expect(have.get(id), id).toEqual(want.get(id));
}

describe('the stored cluster status', () => {
  let ids: string[];
  beforeAll(async () => {
    ids = [];
    for (let i = 0; i < 4; i++) ids.push((await createCluster(t.db, { naziv: `Stanje ${i}` })).id);
  });

  it('follows inserts, single and multi-row updates, moves and deletes of activity records', async () => {
    const [a, b, c, d] = ids as [string, string, string, string];
    await expectStoredMatches(ids);
    // One activity started; then finished; its date alone changes.
    await setActivityState(t.db, a, 'A1', { status: 'U toku', datumPocetka: day(-5) });
    await expectStoredMatches(ids);
    await setActivityState(t.db, a, 'A1', { status: 'Završena', datumZavrsetka: day(-1) });
    await expectStoredMatches(ids);
    // Every activity of b and c finished in one statement (two clusters at once), then one date moves.
    await t.db
      .update(activities)
      .set({ status: 'Završena', datumZavrsetka: day(-3) })
      .where(inArray(activities.clusterId, [b, c]));
    await expectStoredMatches(ids);
    expect((await stored([b])).get(b)).toMatchObject({ status: 'Završen', datumZavrsetka: day(-3) });
    await t.db
      .update(activities)
      .set({ datumZavrsetka: day(-2) })
      .where(and(eq(activities.clusterId, b), eq(activities.code, 'A5')));
    await expectStoredMatches(ids);
    expect((await stored([b])).get(b)?.datumZavrsetka).toBe(day(-2));
    // A write that touches neither status nor date leaves it; one reopened activity makes it 'U toku'.
    await t.db.update(activities).set({ returned: 2 }).where(eq(activities.clusterId, c));
    await expectStoredMatches(ids);
    await setActivityState(t.db, c, 'A2', { status: 'U toku', datumZavrsetka: null });
    await expectStoredMatches(ids);
    // An activity moved from c to d (d's own record of that code goes first): both counted again.
    await t.db.delete(activities).where(and(eq(activities.clusterId, d), eq(activities.code, 'A2')));
    await expectStoredMatches(ids);
    await t.db
      .update(activities)
      .set({ clusterId: d })
      .where(and(eq(activities.clusterId, c), eq(activities.code, 'A2')));
    await expectStoredMatches(ids);
    expect((await stored([c, d])).get(c)?.status).toBe('Završen');
    expect((await stored([c, d])).get(d)?.status).toBe('U toku');
    // Every record of a cluster deleted: not started; records inserted again: still not started.
    await t.db.delete(activities).where(eq(activities.clusterId, d));
    await expectStoredMatches(ids);
    expect((await stored([d])).get(d)).toMatchObject({ status: 'Nije započet', datumZavrsetka: null });
    await t.db.insert(activities).values({ clusterId: d, code: 'A1', position: 0, status: 'Završena', datumZavrsetka: day(-9) });
    await expectStoredMatches(ids);
    expect((await stored([d])).get(d)).toMatchObject({ status: 'Završen', datumZavrsetka: day(-9) });
  });

  it('counts two concurrent steps on one cluster one after the other (the second sees the first)', async () => {
    const cluster = await createCluster(t.db, { naziv: 'Stanje istovremeno' });
    // Everything finished but A1 and A2, which two transactions finish at the same time.
    await t.db
      .update(activities)
      .set({ status: 'Završena', datumZavrsetka: day(-4) })
      .where(and(eq(activities.clusterId, cluster.id), sql`${activities.code} not in ('A1', 'A2')`));
    const url = (t.db.$client as pg.Pool).options.connectionString as string;
    const one = new pg.Client({ connectionString: url });
    const two = new pg.Client({ connectionString: url });
    await one.connect();
    await two.connect();
    try {
      const finish = (c: pg.Client, code: string) =>
        c.query(`update activities set status = 'Završena', datum_zavrsetka = $3 where cluster_id = $1 and code = $2`, [
          cluster.id,
          code,
          day(-1),
        ]);
      await one.query('begin');
      await two.query('begin');
      await finish(one, 'A1');
      const second = finish(two, 'A2'); // waits for the cluster's row
      await new Promise((r) => setTimeout(r, 200));
      await one.query('commit');
      await second;
      await two.query('commit');
    } finally {
      await one.end();
      await two.end();
    }
    await expectStoredMatches([cluster.id]);
    expect((await stored([cluster.id])).get(cluster.id)).toMatchObject({ status: 'Završen', datumZavrsetka: day(-1) });
  });

  it('follows the workflow over HTTP: A1 started, A1 finished (A2 starts)', async () => {
    const team = await createTeam(t, 'Stanje');
    const api = client(t, team.cluster.id);
    await expectStoredMatches([team.cluster.id]);
    api.ok(await api.status(team.tokens.nar, 'A1', 'U toku'));
    await expectStoredMatches([team.cluster.id]);
    expect((await stored([team.cluster.id])).get(team.cluster.id)?.status).toBe('U toku');
    for (const s of team.settlements) api.ok(await api.upload(team.tokens.izv, 'A1', [pdf(`${s.naziv}.pdf`)], { userInput: s.id }));
    api.ok(await api.status(team.tokens.izv, 'A1', 'Završena'));
    await expectStoredMatches([team.cluster.id]);
    expect((await stored([team.cluster.id])).get(team.cluster.id)?.status).toBe('U toku');
  });
});

describe("the list's JSON built in SQL", () => {
  let adminToken: string;
  let employeeToken: string;
  let izvId: string;
  beforeAll(async () => {
    const group = await createGroup(t.db, { naziv: 'Lista Izvođač', type: 'IZVODJAC' });
    const other = await createGroup(t.db, { naziv: 'Lista Nadzor "navodnici"', type: 'NADZOR' });
    adminToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
    employeeToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: group.id }));
    // Periods that make each colour: running (blue), nearly over (orange), over (red), a finished one.
    const running = await createContract(t.db, { naziv: 'Lista tekući', datumPocetka: day(-10), rokTrajanja: 100 });
    const nearly = await createContract(t.db, { naziv: 'Lista pri kraju', datumPocetka: day(-95), rokTrajanja: 100 });
    const tenth = await createContract(t.db, { naziv: 'Lista desetina', datumPocetka: day(-90), rokTrajanja: 100 });
    const over = await createContract(t.db, { naziv: 'Lista istekao', datumPocetka: day(-200), rokTrajanja: 100 });
    const izv = await createContract(t.db, { kind: 'contractIzv', naziv: 'Lista izvođenje', groupIds: [group.id] });
    izvId = izv.id;
    const make = async (naziv: string, contract: typeof running | null, state: 'none' | 'run' | 'done' | 'late') => {
      const c = await createCluster(t.db, {
        naziv,
        groupIds: [group.id, other.id],
        contract: contract ?? undefined,
        indikativnaDuzinaKlastera: 12.5,
        ugovorenaVrednostKlastera: 1000,
      });
      if (state === 'run') await setActivityState(t.db, c.id, 'A1', { status: 'U toku', datumPocetka: day(-3) });
      if (state === 'done' || state === 'late')
        await t.db
          .update(activities)
          .set({ status: 'Završena', datumZavrsetka: state === 'late' ? day(200) : day(-1) })
          .where(eq(activities.clusterId, c.id));
      return c;
    };
    await make('Lista 1 plavi', running, 'run');
    await make('Lista 2 narandžasti', nearly, 'run');
    await make('Lista 3 desetina', tenth, 'run');
    await make('Lista 4 crveni', over, 'run');
    await make('Lista 5 bez ugovora', null, 'run');
    await make('Lista 6 završen', running, 'done');
    await make('Lista 7 kasni', running, 'late');
    const both = await make('Lista 8 nije počeo', running, 'none');
    await t.db.insert(contractClusters).values({
      contractId: izv.id,
      clusterId: both.id,
      kind: 'contractIzv',
    });
  });

  it("carries what the list and pickers show and no more, the detail's values (contractors, the general contract by id and name, the typed ones by id), colours as clusterColour computes them", async () => {
    for (const token of [adminToken, employeeToken]) {
      const res = await t.call({ method: 'GET', url: '/api/location?page=1&limit=1000', token });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toContain('application/json');
      const page = res.json() as LocationsPage;
      expect(page.locations.length).toBe(page.totalResults);
      expect(page.totalResults).toBeGreaterThanOrEqual(8);
      for (const row of page.locations) {
        const detail = (await t.call({ method: 'GET', url: `/api/location/${row._id}`, token: adminToken })).json().location as LocationDto;
        expect(row).toEqual(listItemOf(detail));
        // Only the tables' fields, in the detail's key order (JSON.stringify of the JS presenter).
        expect(Object.keys(row)).toEqual(['_id', 'naziv', 'odgovoran', 'ugovor', 'ugovori', 'status', 'boja']);
        expect(Object.keys(row)).toEqual(Object.keys(detail).filter((k) => k in row));
        // The detail-only parts of groups and contracts stay out of the list (issue 15 item 4).
        for (const g of row.odgovoran) expect(Object.keys(g)).toEqual(['_id', 'naziv', 'tipKod']);
        if (row.ugovor) expect(Object.keys(row.ugovor)).toEqual(['_id', 'naziv']);
        for (const contract of Object.values(row.ugovori)) if (contract) expect(Object.keys(contract)).toEqual(['_id']);
        expect(row.boja).toBe(clusterColour(row.status, detail.ugovor, detail.datumZavrsetka, new Date(`${appToday()}T12:00:00Z`)));
      }
      const colours = Object.fromEntries(page.locations.filter((l) => l.naziv.startsWith('Lista ')).map((l) => [l.naziv, l.boja]));
      expect(colours).toEqual({
        'Lista 1 plavi': 'blue',
        'Lista 2 narandžasti': 'orange',
        'Lista 3 desetina': 'orange',
        'Lista 4 crveni': 'red',
        'Lista 5 bez ugovora': 'white',
        'Lista 6 završen': 'green',
        'Lista 7 kasni': 'greenRed',
        'Lista 8 nije počeo': 'white',
      });
      const eighth = page.locations.find((l) => l.naziv === 'Lista 8 nije počeo');
      expect(eighth?.ugovori.contractIzv?._id).toBe(izvId);
      // The contractors only: the supervision group is the detail's.
      expect(eighth?.odgovoran.map((g) => g.naziv)).toEqual(['Lista Izvođač']);
    }
  });

  it('pages, counts aktivne and sorts by status like a sort in JS of the stored rows', async () => {
    const all = await t.db.select({ id: clusters.id, naziv: clusters.naziv, status: clusters.statusKlastera }).from(clusters);
    const rank = (s: string) => (s === 'Nije započet' ? 0 : s === 'U toku' ? 1 : 2);
    for (const order of ['asc', 'desc'] as const) {
      const want = [...all].sort((x, y) => rank(x.status) - rank(y.status) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)).map((r) => r.id);
      if (order === 'desc') want.reverse();
      const got: string[] = [];
      for (let p = 1; p <= Math.ceil(all.length / 7); p++) {
        const res = await t.call({ method: 'GET', url: `/api/location?page=${p}&limit=7&sort=status&order=${order}`, token: adminToken });
        const page = res.json() as LocationsPage;
        expect(page.totalResults).toBe(all.length);
        expect(page.aktivne).toBe(all.filter((r) => r.status === 'U toku').length);
        got.push(...page.locations.map((l) => l._id));
      }
      expect(got).toEqual(want);
    }
    // The search route answers the same rows as objects.
    const found = (await t.call({ method: 'GET', url: '/api/search/location?eng=lista&page=1&limit=50', token: adminToken })).json();
    expect(found.locations.map((l: LocationListItem) => l.naziv)).toEqual(
      all
        .filter((r) => r.naziv.startsWith('Lista '))
        .map((r) => r.naziv)
        .sort(),
    );
  });
});
