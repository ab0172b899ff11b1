import { ACTIVITY_CATALOGUE, type ActivityBrief, addDays, type LocationDto, type LocationListItem } from '@trasa/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { activityComments } from '../../db/schema-activities.js';
import { appToday } from '../../platform/time.js';
import { createCluster, createContract, createGroup, createUser, setActivityState, tokenFor } from '../../seed/factories.js';

/** A cluster's status, finish date and activities derive from its activities (activity-catalogue.md "Flow rules"). */
const t = useTestApp();

const day = (n: number) => addDays(appToday(), n);

let adminToken: string;
let employeeToken: string;
let employeeId: string;
let notStarted: Awaited<ReturnType<typeof createCluster>>;
let running: Awaited<ReturnType<typeof createCluster>>;
let finished: Awaited<ReturnType<typeof createCluster>>;
let stalled: Awaited<ReturnType<typeof createCluster>>;
let contract: Awaited<ReturnType<typeof createContract>>;

beforeAll(async () => {
  const group = await createGroup(t.db, { naziv: 'Status Izvođač', type: 'IZVODJAC' });
  adminToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
  const employee = await createUser(t.db, { role: 'Zaposleni', groupId: group.id, ime: 'Đorđe', prezime: 'Ilić' });
  employeeId = employee.id;
  employeeToken = await tokenFor(t.ctx, employee);
  contract = await createContract(t.db, { naziv: 'Ugovor Status', datumPocetka: '2025-01-01', rokTrajanja: 365 });
  notStarted = await createCluster(t.db, { naziv: 'Status A nije', groupIds: [group.id], contract });
  running = await createCluster(t.db, { naziv: 'Status B u toku', groupIds: [group.id], contract });
  finished = await createCluster(t.db, { naziv: 'Status C završen', groupIds: [group.id], contract });
  // Started, not finished, nothing in progress (e.g. between a finish and its successors' start).
  stalled = await createCluster(t.db, { naziv: 'Status D zastao', groupIds: [group.id], contract });
  await setActivityState(t.db, stalled.id, 'A1', {
    status: 'Završena',
    datumPocetka: day(-9),
    rokZavrsetka: day(6),
    datumZavrsetka: day(-1),
  });
  await setActivityState(t.db, running.id, 'A1', {
    status: 'Završena',
    datumPocetka: day(-30),
    rokZavrsetka: day(-15),
    datumZavrsetka: day(-16),
  });
  await setActivityState(t.db, running.id, 'A2', { status: 'U toku', datumPocetka: day(-16), rokZavrsetka: day(-6), returned: 1 });
  for (const [i, entry] of ACTIVITY_CATALOGUE.entries()) {
    await setActivityState(t.db, finished.id, entry.code, {
      status: 'Završena',
      datumPocetka: '2025-02-01',
      datumZavrsetka: i === 7 ? '2025-11-30' : '2025-06-01',
    });
  }
});

const detail = async (id: string, token = adminToken) => {
  const res = await t.call({ method: 'GET', url: `/api/location/${id}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().location as LocationDto;
};

describe('cluster status from its activities', () => {
  it("is 'Nije započet' while every activity is not started, 'U toku' once A1 starts, 'Završen' when all are finished", async () => {
    expect(await detail(notStarted.id)).toMatchObject({ status: 'Nije započet', datumZavrsetka: null, boja: 'white' });
    expect(await detail(running.id)).toMatchObject({ status: 'U toku', datumZavrsetka: null });
    expect(await detail(stalled.id)).toMatchObject({ status: 'U toku', datumZavrsetka: null });
    // The latest finish date of the activities; finished within the contract's period: green.
    expect(await detail(finished.id)).toMatchObject({ status: 'Završen', datumZavrsetka: '2025-11-30', boja: 'green' });
  });

  it('lists count the clusters in progress (aktivne) and show each status', async () => {
    const res = await t.call({ method: 'GET', url: '/api/location?page=1&limit=10', token: employeeToken });
    const page = res.json();
    expect(page.aktivne).toBe(2);
    expect(page.locations.map((l: LocationListItem) => [l.naziv, l.status])).toEqual([
      ['Status A nije', 'Nije započet'],
      ['Status B u toku', 'U toku'],
      ['Status C završen', 'Završen'],
      ['Status D zastao', 'U toku'],
    ]);
    // The count follows the search's visibility, not the search text.
    const found = (await t.call({ method: 'GET', url: '/api/search/location?eng=zavr', token: employeeToken })).json();
    expect([found.totalResults, found.aktivne]).toEqual([1, 2]);
  });

  it("a contract's clusters carry the derived status", async () => {
    const res = await t.call({ method: 'GET', url: `/api/contract/${contract.id}`, token: adminToken });
    expect(res.statusCode, res.body).toBe(200);
    const lokacije = res.json().contract.lokacije as { naziv: string; status: string }[];
    expect(lokacije.map((l) => [l.naziv, l.status])).toEqual([
      ['Status A nije', 'Nije započet'],
      ['Status B u toku', 'U toku'],
      ['Status C završen', 'Završen'],
      ['Status D zastao', 'U toku'],
    ]);
  });
});

describe("a cluster's activities (aktivnosti)", () => {
  it('are the whole catalogue in its order, with status, dates, colour, responsible parties and the newest comment', async () => {
    const [a2] = (await detail(running.id)).aktivnosti.filter((a) => a.kratakNaziv === 'A2');
    await t.db.insert(activityComments).values([
      { activityId: a2?._id as string, komentar: 'Prvi komentar', userId: employeeId, createdAt: new Date(Date.now() - 60_000) },
      { activityId: a2?._id as string, komentar: 'Poslednji komentar', userId: employeeId },
    ]);
    const list = (await detail(running.id, employeeToken)).aktivnosti;
    expect(list.map((a) => a.kratakNaziv)).toEqual(ACTIVITY_CATALOGUE.map((e) => e.code));
    expect(list[0]).toEqual({
      _id: expect.any(String),
      kratakNaziv: 'A1',
      naziv: 'Idejna trasa po naseljima',
      status: 'Završena',
      odgovoran: ['NARUCILAC', 'IZVODJAC'],
      datumPocetka: day(-30),
      datumZavrsetka: day(-16),
      rokZavrsetka: day(-15),
      boja: 'green',
      returned: 0,
      poslednjiKomentar: null,
    } satisfies ActivityBrief);
    expect(list[1]).toMatchObject({
      kratakNaziv: 'A2',
      status: 'U toku',
      boja: 'red',
      returned: 1,
      poslednjiKomentar: 'Poslednji komentar',
    });
    expect(list[2]).toMatchObject({ kratakNaziv: 'A3', status: 'Nije započeta', boja: 'white', datumPocetka: null });
  });
});
