import { ACTIVITIES, ACTIVITY_CATALOGUE, ACTIVITY_INSTRUCTIONS, CATALOGUE, type CatalogueEntryDto, COMMON } from '@trasa/domain';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { auditLogs } from '../../db/schema.js';
import { activityCatalogue } from '../../db/schema-activities.js';
import { createCluster, createGroup, createUser, setActivityState, tokenFor } from '../../seed/factories.js';
import { syncCatalogue } from '../../shared/activityReference.js';

const t = useTestApp();

let adminToken: string;
let employeeToken: string;
let managerToken: string;

beforeAll(async () => {
  const group = await createGroup(t.db, { type: 'NARUCILAC' });
  adminToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
  employeeToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: group.id }));
  managerToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Rukovodilac', groupId: group.id }));
});

const catalogue = async () => {
  const res = await t.call({ method: 'GET', url: '/api/activity/catalogue', token: adminToken });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().activities as CatalogueEntryDto[];
};
const patch = (code: string, payload: unknown, token = adminToken) =>
  t.call({ method: 'PATCH', url: `/api/activity/catalogue/${encodeURIComponent(code)}`, token, payload: payload as object });
const rowOf = async (code: string) => (await t.db.select().from(activityCatalogue).where(eq(activityCatalogue.code, code)))[0];

describe('GET /api/activity/catalogue', () => {
  it('lists the whole catalogue in its order', async () => {
    const list = await catalogue();
    expect(list.map((e) => e.kratakNaziv)).toEqual(ACTIVITY_CATALOGUE.map((e) => e.code));
    expect(list[0]).toEqual({
      _id: 'A1',
      kratakNaziv: 'A1',
      naziv: 'Idejna trasa po naseljima',
      prethodna: [],
      naredna: ['A2'],
      odgovoran: ['NARUCILAC', 'IZVODJAC'],
      rok: 15,
      kontrolna: false,
      brojFajlova: 0,
      dokumenta: expect.any(String),
      uputstvo: ACTIVITY_INSTRUCTIONS.A1,
    });
    // Every shipped activity has its instruction.
    for (const entry of list) expect(entry.uputstvo.trim(), entry.kratakNaziv).not.toBe('');
    expect(list.find((e) => e.kratakNaziv === 'A14')).toMatchObject({ rok: 'klizno', prethodna: ['A12'], naredna: ['A14.1'] });
    expect(list.find((e) => e.kratakNaziv === 'A4.1')).toMatchObject({ kontrolna: true, odgovoran: ['NADZOR'] });
  });

  it('is the Admin’s only', async () => {
    for (const token of [employeeToken, managerToken]) {
      expect((await t.call({ method: 'GET', url: '/api/activity/catalogue', token })).statusCode).toBe(403);
    }
  });
});

describe('the shipped instructions', () => {
  it('fill an empty instruction on start and never replace one the Admin wrote', async () => {
    await t.db.update(activityCatalogue).set({ uputstvo: '' }).where(eq(activityCatalogue.code, 'A2'));
    await t.db.update(activityCatalogue).set({ uputstvo: 'Naše uputstvo.' }).where(eq(activityCatalogue.code, 'A3'));
    await syncCatalogue(t.db);
    expect((await rowOf('A2'))?.uputstvo).toBe(ACTIVITY_INSTRUCTIONS.A2);
    expect((await rowOf('A3'))?.uputstvo).toBe('Naše uputstvo.');
    await t.db
      .update(activityCatalogue)
      .set({ uputstvo: ACTIVITY_INSTRUCTIONS.A3 as string })
      .where(eq(activityCatalogue.code, 'A3'));
  });
});

describe('PATCH /api/activity/catalogue/:code', () => {
  it('changes naziv, rok, uputstvo and dokumenta, and logs it', async () => {
    const res = await patch('A4.1', {
      naziv: '  Kontrola idejnog rešenja ',
      rok: 8,
      uputstvo: 'Pregledati IDR.\nUneti primedbe.',
      dokumenta: 'Izveštaj o kontroli',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: said(CATALOGUE.saved),
      activity: expect.objectContaining({
        _id: 'A4.1',
        naziv: 'Kontrola idejnog rešenja',
        rok: 8,
        uputstvo: 'Pregledati IDR.\nUneti primedbe.',
        dokumenta: 'Izveštaj o kontroli',
        odgovoran: ['NADZOR'],
        prethodna: ['A4'],
        naredna: ['A5'],
        kontrolna: true,
      }),
    });
    expect((await catalogue()).find((e) => e._id === 'A4.1')).toEqual(res.json().activity);
    const logs = await t.db.select().from(auditLogs).where(sql`${auditLogs.message} like '%aktivnost A4.1 u katalogu%'`);
    expect(logs).toHaveLength(1);
  });

  it("takes 'klizno' and a number given as text; a field left out stays", async () => {
    expect((await patch('A2', { rok: 'klizno' })).json().activity).toMatchObject({
      rok: 'klizno',
      naziv: 'Usaglašavanje trase i obima radova',
    });
    expect((await rowOf('A2'))?.rok).toBeNull();
    expect((await patch('A2', { rok: '30' })).json().activity.rok).toBe(30);
    expect((await patch('A2', {})).json().activity).toMatchObject({ rok: 30, naziv: 'Usaglašavanje trase i obima radova' });
  });

  it('refuses a rok outside 5, 7, 8, 10, 15, 28, 30 and klizno, and changes nothing', async () => {
    const before = await rowOf('A3');
    for (const rok of [6, 0, -5, 31, 10.5, null, '', 'sedam', [10], true]) {
      const res = await patch('A3', { naziv: 'Drugi naziv', rok });
      expect(res.statusCode, JSON.stringify(rok)).toBe(400);
      expect(res.json()).toEqual({ message: said(ACTIVITIES.invalidRok), errors: { rok: said(ACTIVITIES.invalidRok) } });
    }
    expect(await rowOf('A3')).toEqual(before);
  });

  it('refuses an empty naziv and fields that are not the Admin’s to change', async () => {
    const before = await rowOf('A5');
    const empty = await patch('A5', { naziv: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual({ naziv: said(ACTIVITIES.required) });
    for (const payload of [
      { code: 'A55' },
      { odgovoran: ['NADZOR'] },
      { prethodna: [] },
      { kontrolna: true, naziv: 'X' },
      { brojFajlova: 3 },
    ]) {
      const res = await patch('A5', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toBe(said(CATALOGUE.fixedFields));
    }
    expect(await rowOf('A5')).toEqual(before);
  });

  it('answers 404 for an unknown code', async () => {
    const res = await patch('A99', { naziv: 'Nova' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(said(COMMON.notFound));
  });

  it('is the Admin’s only', async () => {
    for (const token of [employeeToken, managerToken]) {
      expect((await patch('A1', { naziv: 'Tuđe' }, token)).statusCode).toBe(403);
    }
    expect((await rowOf('A1'))?.naziv).toBe('Idejna trasa po naseljima');
  });

  it('a new rok leaves the deadlines of activities already started as they are', async () => {
    const cluster = await createCluster(t.db, { naziv: 'Rok klaster' });
    const started = await setActivityState(t.db, cluster.id, 'A1', {
      status: 'U toku',
      datumPocetka: '2026-01-10',
      rokZavrsetka: '2026-01-25',
    });
    expect((await patch('A1', { rok: 5 })).statusCode).toBe(200);
    const res = await t.call({ method: 'GET', url: `/api/location/${cluster.id}`, token: adminToken });
    expect(res.json().location.aktivnosti[0]).toMatchObject({ _id: started.id, rokZavrsetka: '2026-01-25' });
  });
});
