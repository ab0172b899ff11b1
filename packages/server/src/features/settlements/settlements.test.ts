import { asTyped, CODEBOOKS, COMMON } from '@trasa/domain';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { auditLogs } from '../../db/schema.js';
import { settlements } from '../../db/schema-clusters.js';
import { createCluster, createGroup, createSettlement, createUser, tokenFor } from '../../seed/factories.js';
import { settlementOrder } from './presenter.js';
import { SETTLEMENT_TEXTS, SORTED_MATCHES } from './service.js';

const t = useTestApp();
const NO_ID = '00000000-0000-4000-8000-000000000000';

let adminToken: string;
let managerToken: string;

beforeAll(async () => {
  adminToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
  managerToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Rukovodilac', groupId: (await createGroup(t.db)).id }));
});

const post = (payload: object, token = adminToken) => t.call({ method: 'POST', url: '/api/naselje', payload, token });
const logsMentioning = async (text: string) =>
  (
    await t.db
      .select()
      .from(auditLogs)
      .where(sql`${auditLogs.message} like ${`%${text}%`}`)
  ).length;

describe('POST /api/naselje', () => {
  it('trims id and naziv, converts the counts, splits opština by commas', async () => {
    const res = await post({
      id: '  70114-A ',
      naziv: '  Sirogojno ',
      maticniBroj: ' 742554 ',
      opstina: 'Čajetina, Užice , ',
      operator: 'Telekom Srbija',
      javniPoziv: 'JP-2024-01',
      brojDomacinstava: '312',
      brojSkola: 1,
      brojIndirektnoPokrivenihDomacinstava: '',
      brojIndirektnoPokrivenihSkola: null,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      message: said(SETTLEMENT_TEXTS.saved),
      naselje: {
        _id: expect.any(String),
        id: '70114-A',
        naziv: 'Sirogojno',
        maticniBroj: '742554',
        opstina: ['Čajetina', 'Užice'],
        opstine: ['Čajetina', 'Užice'],
        operator: 'Telekom Srbija',
        javniPoziv: 'JP-2024-01',
        brojDomacinstava: 312,
        brojSkola: 1,
        brojIndirektnoPokrivenihDomacinstava: null,
        brojIndirektnoPokrivenihSkola: null,
      },
    });
    expect(await logsMentioning('naselje Sirogojno')).toBe(1);
  });

  it('refuses missing id and naziv, non-numbers and negative counts with the codebook messages', async () => {
    const before = (await t.db.select().from(settlements)).length;
    const cases: [object, string, string][] = [
      [{ naziv: 'Kremna' }, 'id', CODEBOOKS.settlementIdRequired],
      [{ id: '   ', naziv: 'Kremna' }, 'id', CODEBOOKS.settlementIdRequired],
      [{ id: 'K-1' }, 'naziv', CODEBOOKS.settlementNazivRequired],
      [{ id: 'K-1', naziv: '  ' }, 'naziv', CODEBOOKS.settlementNazivRequired],
      [{ id: 'K-1', naziv: 'Kremna', brojSkola: 'dve' }, 'brojSkola', CODEBOOKS.numberIfGiven],
      [{ id: 'K-1', naziv: 'Kremna', brojDomacinstava: -1 }, 'brojDomacinstava', CODEBOOKS.numberMin],
      [{ id: 'K-1', naziv: 'Kremna', brojIndirektnoPokrivenihSkola: '-3' }, 'brojIndirektnoPokrivenihSkola', CODEBOOKS.numberMin],
      [{ id: 'K-1', naziv: 'Kremna', brojDomacinstava: 1e12 }, 'brojDomacinstava', CODEBOOKS.numberIfGiven],
      [{ id: 'K-1', naziv: 'Kremna', brojSkola: {} }, 'brojSkola', expect.any(String)],
      [{ id: 42, naziv: 'Kremna' }, 'id', CODEBOOKS.settlementIdRequired],
    ];
    for (const [payload, field, message] of cases) {
      const res = await post(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().errors[field], JSON.stringify(payload)).toEqual(typeof message === 'string' ? said(message) : message);
    }
    expect((await t.db.select().from(settlements)).length).toBe(before);
  });

  it('answers a used id with 409 Дупликат за: {naziv}, naming the settlement that holds the id', async () => {
    await createSettlement(t.db, { code: 'DUP-1', naziv: 'Mokra Gora' });
    const res = await post({ id: ' DUP-1 ', naziv: 'Mokra Gora 2' });
    expect(res.statusCode).toBe(409);
    // The name as typed inside the words of the server.
    expect(res.json().message).toBe('Дупликат за: Mokra Gora (DUP-1)');
    expect(res.json().errors).toEqual({ id: said(CODEBOOKS.duplicateSettlement(`${asTyped('Mokra Gora')} (${asTyped('DUP-1')})`)) });
    expect(await t.db.select().from(settlements).where(eq(settlements.naziv, 'Mokra Gora 2'))).toEqual([]);
  });

  it('is Admin only', async () => {
    expect((await post({ id: 'X-1', naziv: 'Drežnik' }, managerToken)).statusCode).toBe(403);
  });
});

describe('PATCH /api/naselje/:id', () => {
  it('replaces the fields, keeps its own id free and refuses another one’s', async () => {
    const s = await createSettlement(t.db, { code: 'ED-1', naziv: 'Kremna' });
    await createSettlement(t.db, { code: 'ED-2', naziv: 'Bioska' });
    const same = await t.call({
      method: 'PATCH',
      url: `/api/naselje/${s.id}`,
      payload: { id: 'ED-1', naziv: 'Kremna ', opstina: ['Užice'], brojSkola: '2' },
      token: adminToken,
    });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().message).toBe(said(SETTLEMENT_TEXTS.saved));
    expect(same.json().naselje).toMatchObject({ _id: s.id, id: 'ED-1', naziv: 'Kremna', opstina: ['Užice'], brojSkola: 2 });
    const taken = await t.call({
      method: 'PATCH',
      url: `/api/naselje/${s.id}`,
      payload: { id: 'ED-2', naziv: 'Kremna' },
      token: adminToken,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(CODEBOOKS.duplicateSettlement('Bioska (ED-2)'));
    const [row] = await t.db.select().from(settlements).where(eq(settlements.id, s.id));
    expect(row?.code).toBe('ED-1');
  });

  it('answers 404 for a missing settlement and 400 for a malformed id', async () => {
    const missing = await t.call({ method: 'PATCH', url: `/api/naselje/${NO_ID}`, payload: { id: 'Z', naziv: 'Z' }, token: adminToken });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(said(COMMON.notFound));
    const malformed = await t.call({ method: 'PATCH', url: '/api/naselje/abc', payload: { id: 'Z', naziv: 'Z' }, token: adminToken });
    expect(malformed.statusCode).toBe(400);
  });
});

describe('DELETE /api/naselje/:id', () => {
  it('deletes an unused settlement', async () => {
    const s = await createSettlement(t.db, { naziv: 'Gostilje' });
    const res = await t.call({ method: 'DELETE', url: `/api/naselje/${s.id}`, token: adminToken });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: said(SETTLEMENT_TEXTS.deleted) });
    expect(await t.db.select().from(settlements).where(eq(settlements.id, s.id))).toEqual([]);
    expect((await t.call({ method: 'DELETE', url: `/api/naselje/${s.id}`, token: adminToken })).statusCode).toBe(404);
  });

  it('refuses a settlement a cluster has, as a settlement or an incidental one', async () => {
    const a = await createSettlement(t.db, { naziv: 'Rožanstvo' });
    const b = await createSettlement(t.db, { naziv: 'Ljubiš' });
    await createCluster(t.db, { naselja: [a.id], usputnaNaselja: [b.id] });
    for (const s of [a, b]) {
      const res = await t.call({ method: 'DELETE', url: `/api/naselje/${s.id}`, token: adminToken });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(said(SETTLEMENT_TEXTS.inCluster));
      expect(await t.db.select().from(settlements).where(eq(settlements.id, s.id))).toHaveLength(1);
    }
  });
});

describe('GET /api/naselje and /api/search/naselje', () => {
  it('answers a Zaposleni (the activity screen reads settlements) the same list as a Rukovodilac', async () => {
    await createSettlement(t.db, { naziv: 'Zaposleni Čita' });
    const employeeToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: (await createGroup(t.db)).id }));
    for (const url of ['/api/naselje', '/api/search/naselje?eng=zaposleni&srb=запослени']) {
      const asEmployee = await t.call({ method: 'GET', url, token: employeeToken });
      expect(asEmployee.statusCode, url).toBe(200);
      expect(asEmployee.json().naselja.map((n: { naziv: string }) => n.naziv)).toContain('Zaposleni Čita');
      expect(asEmployee.json()).toEqual((await t.call({ method: 'GET', url, token: managerToken })).json());
    }
  });

  it('orders names in the Serbian alphabet: c, č, ć, d, đ … s, š … z, ž', async () => {
    const names = ['Žabalj', 'Cer', 'Šabac', 'Ćuprija', 'Đurđevo', 'Zlatibor', 'Čačak', 'Sombor', 'Dobrinci'];
    for (const naziv of names) await createSettlement(t.db, { naziv: `${naziv} Azbuka` });
    const res = await t.call({ method: 'GET', url: '/api/search/naselje?eng=azbuka&srb=азбука&page=1&limit=50', token: managerToken });
    expect(res.json().naselja.map((n: { naziv: string }) => n.naziv.replace(' Azbuka', ''))).toEqual([
      'Cer',
      'Čačak',
      'Ćuprija',
      'Dobrinci',
      'Đurđevo',
      'Sombor',
      'Šabac',
      'Zlatibor',
      'Žabalj',
    ]);
  });

  it('lists by name; without page and limit all of them, with them one page', async () => {
    const all = (await t.call({ method: 'GET', url: '/api/naselje', token: managerToken })).json();
    const count = (await t.db.select({ n: sql<number>`count(*)::int` }).from(settlements))[0]?.n;
    expect(all.totalResults).toBe(count);
    expect(all.naselja).toHaveLength(count as number);
    const ordered = await t.db
      .select({ id: settlements.id })
      .from(settlements)
      .orderBy(...settlementOrder);
    expect(all.naselja.map((n: { _id: string }) => n._id)).toEqual(ordered.map((r) => r.id));
    const page2 = (await t.call({ method: 'GET', url: '/api/naselje?page=2&limit=2', token: managerToken })).json();
    expect(page2.totalResults).toBe(count);
    expect(page2.naselja).toEqual(all.naselja.slice(2, 4));
    expect((await t.call({ method: 'GET', url: '/api/naselje?limit=deset', token: managerToken })).statusCode).toBe(400);
  });

  it('finds by name, registry id and matični broj, in Latin and Cyrillic', async () => {
    const s = await createSettlement(t.db, { code: 'SR-7788', naziv: 'Đurđevica Šljivovica', maticniBroj: '991177' });
    for (const q of ['djurdjevica', 'Ђурђевица', 'šljivov', 'шљивов', 'SR-7788', '991177']) {
      const res = await t.call({ method: 'GET', url: `/api/search/naselje?${new URLSearchParams({ eng: q })}`, token: adminToken });
      expect(res.statusCode).toBe(200);
      expect(
        res.json().naselja.map((n: { _id: string }) => n._id),
        q,
      ).toEqual([s.id]);
    }
    const none = await t.call({ method: 'GET', url: '/api/search/naselje?eng=%25', token: adminToken });
    expect(none.json().totalResults).toBe(0);
  });

  it('pages a search the same whether its few matches are sorted or the order index is walked, every sort and page', async () => {
    const names = ['Brdo', 'Čukarica', 'Ćele', 'Donji', 'Đake', 'Lipa', 'Šume', 'Zvezda', 'Žarkovo', 'Avala', 'Ljig', 'Njegoš'];
    for (const [i, naziv] of names.entries()) {
      await createSettlement(t.db, { naziv: `${naziv} Ravnica`, brojSkola: i % 4, brojDomacinstava: i % 3 === 0 ? null : 10 + i });
    }
    const kept = SORTED_MATCHES.max;
    const pagesOf = async (query: string) => {
      const pages: unknown[] = [];
      for (let page = 1; page <= 4; page++) {
        const res = await t.call({
          method: 'GET',
          url: `/api/search/naselje?eng=ravnica&srb=${encodeURIComponent('равница')}&page=${page}&limit=4${query}`,
          token: adminToken,
        });
        expect(res.statusCode).toBe(200);
        pages.push(res.json());
      }
      return pages;
    };
    try {
      for (const query of [
        '',
        '&sort=naziv&order=desc',
        '&sort=brojSkola&order=asc',
        '&sort=brojDomacinstava&order=desc',
        '&sort=id&order=asc',
      ]) {
        SORTED_MATCHES.max = 1_000;
        const sorted = await pagesOf(query);
        SORTED_MATCHES.max = -1;
        const walked = await pagesOf(query);
        expect(sorted, query).toEqual(walked);
        const ids = sorted.flatMap((p) => (p as { naselja: { _id: string }[] }).naselja.map((n) => n._id));
        expect(new Set(ids).size, query).toBe(names.length);
        expect((sorted[0] as { totalResults: number }).totalResults).toBe(names.length);
      }
      // The default order is the Serbian alphabet's on the sorted path too.
      SORTED_MATCHES.max = 1_000;
      const first = (await pagesOf(''))[0] as { naselja: { naziv: string }[] };
      expect(first.naselja.map((n) => n.naziv.replace(' Ravnica', ''))).toEqual(['Avala', 'Brdo', 'Čukarica', 'Ćele']);
    } finally {
      SORTED_MATCHES.max = kept;
    }
  });
});
