import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { activityOf, addComment, setActivityData } from '../../../test/activityData.js';
import { said, useTestApp } from '../../../test/harness.js';
import { addLogs } from '../../../test/logData.js';
import { users } from '../../db/schema.js';
import {
  createCluster,
  createContract,
  createOrgTree,
  createSettlement,
  createUser,
  setActivityState,
  tokenFor,
} from '../../seed/factories.js';
import { createHolder } from '../activities/testing.js';
import { backfillSnapshots } from '../reports/snapshots.js';

/**
 * The exports of the logs, comments, IJO holders, roles, codebooks and reports: each file holds what its
 * list call answers (every row, not a page), in its order, within the caller's scope, with the cells
 * escaped against formulas. The reports' own figures are tested in reports.test.ts; here the file is
 * compared with the report call, and the totals rows with sums computed in the test.
 */
const t = useTestApp();

let tree: Awaited<ReturnType<typeof createOrgTree>>;
let tok: Record<'admin' | 'manager' | 'employee' | 'guest', string>;
let mine: { id: string; naziv: string };
let theirs: { id: string; naziv: string };
let contract: { id: string; naziv: string; kind: string };
/** The snapshots' days, newest first (YYYY-MM-DD). */
let days: string[];
const HOSTILE = '=HYPERLINK("http://zlo.example","klik")';

beforeAll(async () => {
  tree = await createOrgTree(t.db, 'IzvozDva');
  tok = {
    admin: await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' })),
    manager: await tokenFor(t.ctx, tree.manager),
    employee: await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id })),
    guest: await tokenFor(t.ctx, await createUser(t.db, { role: 'Gost' })),
  };
  contract = await createContract(t.db, { naziv: 'Opšti ugovor IzvozDva' });
  const s1 = await createSettlement(t.db, { naziv: 'Мокра Гора' });
  const s2 = await createSettlement(t.db, { naziv: 'Kremna' });
  mine = await createCluster(t.db, { naziv: 'Klaster Moj IzvozDva', groupIds: [tree.leaf.id], naselja: [s1.id, s2.id], contract });
  theirs = await createCluster(t.db, { naziv: 'Кластер Туђи ИзвозДва', groupIds: [tree.other.id], contract });
  for (const c of [mine, theirs]) {
    await setActivityState(t.db, c.id, 'A1', {
      status: 'Završena',
      datumPocetka: '2026-01-02',
      rokZavrsetka: '2026-01-20',
      datumZavrsetka: '2026-01-18',
    });
  }
  await setActivityState(t.db, mine.id, 'A2', {
    status: 'Završena',
    datumPocetka: '2026-01-19',
    rokZavrsetka: '2026-01-25',
    datumZavrsetka: '2026-02-01',
  });
  const a1 = await activityOf(t.db, mine.id, 'A1');
  await setActivityData(t.db, a1.id, [
    { key: 'DuzinaTrase', naziv: 'Dužina trase', vrednost: '1200.5', ref: s1.id },
    { key: 'DuzinaTrase', naziv: 'Dužina trase', vrednost: '800', ref: s2.id },
  ]);
  // A7 on my cluster: two holders, fees; one of them named like a formula.
  const h1 = await createHolder(t, 'Elektrodistribucija IzvozDva', 'Izvođač');
  const h2 = await createHolder(t, HOSTILE, 'Naručilac');
  await setActivityState(t.db, mine.id, 'A7', { status: 'U toku', datumPocetka: '2026-02-02' });
  await setActivityData(t.db, (await activityOf(t.db, mine.id, 'A7')).id, [
    { key: 'Ijos', naziv: '', vrednost: `${h1.id},${h2.id}` },
    { key: 'A7IjoChecked', naziv: '', vrednost: h1.id },
    { key: 'A7Taksa', naziv: h1.naziv, vrednost: '15000,50', ref: h1.id },
    { key: 'A7Taksa', naziv: h2.naziv, vrednost: '2500', ref: h2.id },
  ]);
  // Comments on both clusters, one by a deleted author.
  const employee = await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id, ime: 'Ana', prezime: 'Anić' });
  const gone = await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id, ime: 'Bora', prezime: 'Borić' });
  for (let i = 0; i < 15; i++)
    await addComment(t.db, {
      activityId: i % 3 === 0 ? (await activityOf(t.db, theirs.id, 'A1')).id : a1.id,
      userId: i === 1 ? gone.id : employee.id,
      komentar: i === 2 ? HOSTILE : `Komentar ${i} о траси`,
      createdAt: new Date(Date.UTC(2026, 0, 10, 8, i)),
    });
  await t.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, gone.id));
  // Log rows of the manager's subtree and of another group.
  await addLogs(t.db, [
    ...Array.from({ length: 30 }, (_, i) => ({
      message: i === 0 ? HOSTILE : `Korisnik ana@primer.rs je izmenio klaster ${i}.`,
      group: { id: i % 2 ? tree.leaf.id : tree.other.id, cirilica: i % 2 ? 'Тим' : 'Надзор' },
      createdAt: new Date(Date.UTC(2026, 0, 1, 10, i)),
    })),
  ]);
  // Today's and yesterday's snapshots for the comparison (the application's days).
  days = (await backfillSnapshots(t.db, 2, false)).map((r) => r.date);
}, 60_000);

type Sheet = { header: string[]; rows: string[][]; cells: unknown[] };

async function xlsx(url: string, token = tok.admin): Promise<Sheet> {
  const res = await t.call({ method: 'GET', url, token });
  expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
  expect(res.headers['content-type']).toContain('spreadsheetml');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const sheet = wb.worksheets[0];
  if (!sheet) throw new Error('no sheet');
  const all: unknown[][] = [];
  sheet.eachRow((row) => {
    all.push((row.values as unknown[]).slice(1));
  });
  const text = (r: unknown[]) => r.map((v) => (v === null || v === undefined ? '' : String(v)));
  const [head, ...rest] = all;
  return { header: head ? text(head) : [], rows: rest.map(text), cells: rest.flat() };
}

async function json(url: string, token = tok.admin) {
  const res = await t.call({ method: 'GET', url, token });
  expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
  return res.json();
}

function expectEscaped(cells: unknown[]) {
  for (const cell of cells) {
    expect(typeof cell === 'object' && cell !== null && 'formula' in cell).toBe(false);
    if (typeof cell === 'string') expect(cell).not.toMatch(/^[=+\-@]/);
  }
}

describe('exports of the logs and comments', () => {
  it('logs: every row of the caller’s scope, newest first, as the list; searched; one group', async () => {
    for (const token of [tok.admin, tok.manager, tok.employee]) {
      const list = await json('/api/log?page=1&limit=1000', token);
      const file = await xlsx('/api/export/logs', token);
      expect(file.header).toEqual(['Време', 'Корисник', 'Порука', 'Група', 'IP адреса', 'Адреса захтева']);
      expect(file.rows.length).toBe(list.totalLogs);
      expect(file.rows.map((r) => r[2])).toEqual(
        list.logs.map((l: { message: string }) => (l.message === HOSTILE ? `'${HOSTILE}` : l.message)),
      );
      expectEscaped(file.cells);
    }
    const manager = await xlsx('/api/export/logs', tok.manager);
    expect(manager.rows.length).toBe(15);
    expect(manager.rows[0]?.[0]).toBe('11:29:00 01-01-2026');
    const searched = await json('/api/search/log?eng=klaster%2029&srb=клaster%2029&limit=100');
    const file = await xlsx('/api/export/logs?eng=klaster%2029&srb=клaster%2029');
    expect(file.rows.length).toBe(searched.totalLogs);
    expect(file.rows.length).toBe(1);
    expect((await xlsx('/api/export/logs?group=nema-te-grupe')).rows).toEqual([]);
  });

  it('comments: the visible clusters’ comments, newest first; a deleted author as such; searched', async () => {
    for (const token of [tok.admin, tok.employee]) {
      const list = await json('/api/comment?page=1&limit=100', token);
      const file = await xlsx('/api/export/comments', token);
      expect(file.header).toEqual(['Име', 'Коментар', 'Имејл', 'Кластер', 'Активност', 'Време']);
      expect(file.rows.length).toBe(list.totalResults);
      expect(file.rows.map((r) => r[3])).toEqual(list.comments.map((c: { lokacija: { naziv: string } }) => c.lokacija.naziv));
      expectEscaped(file.cells);
    }
    expect((await xlsx('/api/export/comments', tok.employee)).rows.length).toBe(10);
    const all = await xlsx('/api/export/comments');
    expect(all.rows.filter((r) => r[0] === said('Korisnik je obrisan'))).toHaveLength(1);
    expect(all.rows.find((r) => r[1] === `'${HOSTILE}`)).toBeDefined();
    expect(all.rows.at(-1)).toEqual([
      'Ana Anić',
      'Komentar 0 о траси',
      all.rows.at(-1)?.[2],
      theirs.naziv,
      all.rows.at(-1)?.[4],
      '09:00:00 10-01-2026',
    ]);
    const searched = await json('/api/search/comment?eng=trasi&srb=траси&limit=100');
    expect((await xlsx('/api/export/comments?eng=trasi&srb=траси')).rows.length).toBe(searched.totalResults);
    expect((await t.call({ method: 'GET', url: '/api/export/comments', token: tok.guest })).statusCode).toBe(403);
  });
});

describe('exports of the codebooks', () => {
  it('IJO holders, roles, priorities and group types: the list calls’ rows in their order', async () => {
    const ijo = await xlsx('/api/export/ijo?format=xlsx', tok.employee);
    const ijos = (await json('/api/ijo', tok.employee)).ijos;
    expect(ijo.rows.map((r) => r[0])).toEqual(ijos.map((i: { naziv: string }) => (i.naziv === HOSTILE ? `'${HOSTILE}` : i.naziv)));
    expect(ijo.rows.find((r) => r[0] === 'Elektrodistribucija IzvozDva')?.[1]).toBe('Извођач');
    expectEscaped(ijo.cells);
    const roles = await xlsx('/api/export/roles', tok.manager);
    const roleList = await json('/api/role?page=1&limit=100', tok.manager);
    // A built-in role's name is the product's: in the reader's script; a role someone named as named.
    expect(roles.rows.map((r) => r[0])).toEqual(
      roleList.roles.map((r: { imeRole: string; ugradjena: boolean }) => (r.ugradjena ? said(r.imeRole) : r.imeRole)),
    );
    expect(roles.rows.length).toBe(roleList.totalResults);
    const priorities = await xlsx('/api/export/priorities');
    expect(priorities.rows.map((r) => r[0])).toEqual((await json('/api/priority')).priorities.map((p: { naziv: string }) => p.naziv));
    const types = await xlsx('/api/export/group-types');
    // A built-in type's name is the product's: in the reader's script.
    expect(types.rows.map((r) => r[0])).toEqual(
      (await json('/api/types')).types.map((p: { naziv: string; code: string | null }) => (p.code ? said(p.naziv) : p.naziv)),
    );
    expect(types.header).toEqual(['Назив', 'Кратак назив', 'Уграђена']);
    expect((await t.call({ method: 'GET', url: '/api/export/roles', token: tok.employee })).statusCode).toBe(403);
  });
});

describe('exports of the reports', () => {
  it('finished: a row per visible cluster with finished activities, as the report', async () => {
    for (const [token, expected] of [
      [tok.admin, 2],
      [tok.employee, 1],
    ] as const) {
      const report = await json('/api/report/finished?page=1&limit=100', token);
      const file = await xlsx('/api/export/report-finished', token);
      expect(file.rows.length).toBe(report.totalResults);
      expect(file.rows.length).toBe(expected);
      expect(file.rows.map((r) => r[0])).toEqual(report.clusters.map((c: { klaster: string }) => c.klaster));
    }
    const row = (await xlsx('/api/export/report-finished', tok.employee)).rows[0];
    // A1 on time, A2 a week late: counted in the test from the states put in.
    expect(row).toEqual([mine.naziv, contract.naziv, 'A1 (18.01.2026), A2 (01.02.2026, касни)', '1', '1']);
  });

  it('summary: per catalogue activity, then the clusters’ count; filtered by contract', async () => {
    const report = await json(`/api/report/summary?contract=${contract.id}`, tok.employee);
    const file = await xlsx(`/api/export/report-summary?contract=${contract.id}`, tok.employee);
    expect(file.rows.length).toBe(report.summary.length + 1);
    expect(file.rows.find((r) => r[0] === 'A1')?.[2]).toBe('1');
    expect(file.rows.find((r) => r[0] === 'A2')?.[2]).toBe('1');
    expect(file.rows.at(-1)).toEqual(['—', 'Кластера укупно', '1']);
    expect((await xlsx('/api/export/report-summary')).rows.find((r) => r[0] === 'A1')?.[2]).toBe('2');
    expect((await t.call({ method: 'GET', url: '/api/export/report-summary?contract=nije-id' })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: '/api/export/report-summary?contract=nije-id', token: tok.admin })).statusCode).toBe(400);
  });

  it('per activity: that activity on the visible, matching clusters; an unknown activity is 404 before the file', async () => {
    const report = await json('/api/report/A1?page=1&limit=100', tok.admin);
    const file = await xlsx('/api/export/report-activity?activity=a1');
    expect(file.rows.length).toBe(report.totalResults);
    expect(file.rows.find((r) => r[0] === mine.naziv)).toEqual([
      mine.naziv,
      contract.naziv,
      said('Završena'),
      '02.01.2026',
      '18.01.2026',
      '20.01.2026',
      said('Dužina trase: 1200.5; Dužina trase: 800'),
      '—',
    ]);
    const searched = await xlsx('/api/export/report-activity?activity=A1&eng=tudji&srb=туђи');
    expect(searched.rows.map((r) => r[0])).toEqual([theirs.naziv]);
    expect((await xlsx('/api/export/report-activity?activity=A1', tok.employee)).rows.map((r) => r[0])).toEqual([mine.naziv]);
    const unknown = await t.call({ method: 'GET', url: '/api/export/report-activity?activity=A99', token: tok.admin });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(said('Nepostojeća aktivnost.'));
    expect((await t.call({ method: 'GET', url: '/api/export/report-activity', token: tok.admin })).statusCode).toBe(400);
  });

  it('IJO taxes: a row per holder, then the totals summed in the test; filtered by payer', async () => {
    const file = await xlsx('/api/export/report-ijo', tok.employee);
    const report = await json('/api/report/ijo-takse', tok.employee);
    expect(file.rows.length).toBe(report.totalResults + 4);
    const holders = file.rows.slice(0, 2);
    expect(holders.map((r) => [r[2], r[3], r[5], r[6]])).toEqual([
      ['Elektrodistribucija IzvozDva', 'Извођач', 'Да', '15000.5'],
      [`'${HOSTILE}`, 'Наручилац', 'Не', '2500'],
    ]);
    const totals = Object.fromEntries(file.rows.slice(2).map((r) => [r[2], Number(r[6])]));
    expect(totals).toEqual({
      'Наручилац укупно': 2500,
      'Извођачи укупно': 15000.5,
      [`Извођач: ${tree.leaf.naziv}`]: 15000.5,
      'Укупно такси': 17500.5,
    });
    expectEscaped(file.cells);
    const payer = await xlsx('/api/export/report-ijo?payer=narucilac', tok.employee);
    expect(payer.rows.at(-1)?.[6]).toBe('2500');
    expect((await xlsx('/api/export/report-ijo', tok.manager)).rows.length).toBe(
      4 + (await json('/api/report/ijo-takse', tok.manager)).totalResults,
    );
  });

  it('route lengths: A1 per settlement in metres, the sum last; an unknown code is 404', async () => {
    const file = await xlsx('/api/export/report-lengths?code=a1', tok.employee);
    const report = await json('/api/report/duzine/A1?page=1&limit=100', tok.employee);
    expect(file.header).toEqual(['Кластер', 'Насеље', 'Уговор', 'Статус', 'Датум завршетка', 'Дужина (м)']);
    expect(file.rows.length).toBe(report.totalResults + 1);
    expect(file.rows.slice(0, -1).map((r) => [r[1], r[5]])).toEqual([
      ['Мокра Гора', '1200.5'],
      ['Kremna', '800'],
    ]);
    expect(file.rows.at(-1)?.[5]).toBe(String(1200.5 + 800));
    expect((await xlsx('/api/export/report-lengths?code=A9')).header).toEqual([
      'Кластер',
      'Уговор',
      'Статус',
      'Датум завршетка',
      'Дужина (м)',
    ]);
    expect((await t.call({ method: 'GET', url: '/api/export/report-lengths?code=A5', token: tok.admin })).statusCode).toBe(404);
  });

  it('comparison: both dates’ rows side by side; no snapshot on either date is 404; a future date 400', async () => {
    const [today, yesterday] = days.map((d) => d.split('-').reverse().join('.')) as [string, string];
    const file = await xlsx(`/api/export/report-compare?type=summaryReport&dateA=${yesterday}&dateB=${today}`, tok.employee);
    expect(file.header).toEqual(['Ознака', 'Назив', `Број кластера (${yesterday})`, `Број кластера (${today})`, 'Измењено']);
    const a1 = file.rows.find((r) => r[0] === 'A1');
    expect([a1?.[2], a1?.[3], a1?.[4] ?? '']).toEqual(['1', '1', '']);
    const finished = await xlsx(`/api/export/report-compare?type=finishedReport&dateA=${yesterday}&dateB=${today}`);
    expect(finished.rows.map((r) => r[0]).sort()).toEqual([mine.naziv, theirs.naziv].sort());
    const pdf = await t.call({
      method: 'GET',
      url: `/api/export/report-compare?type=ijoTaxesReport&dateA=${yesterday}&dateB=${today}&format=pdf`,
      token: tok.admin,
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const none = await t.call({
      method: 'GET',
      url: '/api/export/report-compare?type=summaryReport&dateA=01.01.2020&dateB=02.01.2020',
      token: tok.admin,
    });
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe(said('Nisu sačuvani podaci za izabrane datume'));
    const future = await t.call({
      method: 'GET',
      url: '/api/export/report-compare?type=summaryReport&dateA=01.01.2099&dateB=02.01.2020',
      token: tok.admin,
    });
    expect(future.statusCode).toBe(400);
    expect((await t.call({ method: 'GET', url: '/api/export/report-compare?type=nesto', token: tok.admin })).statusCode).toBe(400);
  });

  it('writes every report as a PDF too', async () => {
    for (const url of [
      '/api/export/report-finished',
      '/api/export/report-summary',
      '/api/export/report-activity?activity=A1',
      '/api/export/report-ijo',
      '/api/export/report-lengths?code=A1',
      '/api/export/logs',
      '/api/export/comments',
    ]) {
      const res = await t.call({ method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}format=pdf`, token: tok.admin });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    }
  });
});
