import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { activityCatalogue } from '../../db/schema-activities.js';
import {
  createCluster,
  createContract,
  createGroup,
  createOrgTree,
  createSettlement,
  createUser,
  setActivityState,
  tokenFor,
} from '../../seed/factories.js';
import { exportFileName } from './routes.js';

const t = useTestApp();

let tree: Awaited<ReturnType<typeof createOrgTree>>;
let adminToken: string;
let managerToken: string;
let employeeToken: string;
let mine: { id: string; naziv: string };
let theirs: { id: string; naziv: string };

const HOSTILE = ['=HYPERLINK("http://zlo.example","klik")', '+381 11 123', '-2+3', '@SUM(A1)'];

beforeAll(async () => {
  tree = await createOrgTree(t.db, 'Izvoz');
  adminToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
  managerToken = await tokenFor(t.ctx, tree.manager);
  employeeToken = await tokenFor(
    t.ctx,
    await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id, ime: 'Zora', prezime: 'Zaposlić' }),
  );
  for (let i = 0; i < 8; i++)
    await createUser(t.db, { groupId: i % 2 ? tree.leaf.id : tree.other.id, ime: `Ђорђе ${i}`, prezime: 'Đorđević' });
  await createUser(t.db, { role: 'Gost', ime: 'Gost', prezime: 'Gostić' });
  for (const naziv of HOSTILE) await createGroup(t.db, { naziv });
  const general = await createContract(t.db, { naziv: 'Opšti ugovor Izvoz' });
  mine = await createCluster(t.db, { naziv: 'Klaster Izvoz Moj', groupIds: [tree.leaf.id], contract: general });
  theirs = await createCluster(t.db, { naziv: 'Кластер Извоз Туђи', groupIds: [tree.other.id] });
  await createContract(t.db, { kind: 'contractIzv', naziv: 'Ugovor izvođača Izvoz', groupIds: [tree.leaf.id] });
  await createContract(t.db, { kind: 'contractIzv', naziv: 'Ugovor izvođača drugi', groupIds: [tree.other.id] });
  await createContract(t.db, { kind: 'contractPro', naziv: 'Ugovor projektanta Izvoz' });
  await createContract(t.db, { kind: 'contractNad', naziv: 'Ugovor nadzora Izvoz' });
  for (let i = 0; i < 150; i++)
    await createSettlement(t.db, { naziv: `Насеље ${String(i).padStart(3, '0')} Šid`, opstine: ['Šid', 'Бачка'] });
  for (const naziv of HOSTILE) await createSettlement(t.db, { naziv });
  // Activities in progress on both clusters: every catalogue entry that names the contractor, and a few others.
  const catalogue = await t.db.select({ code: activityCatalogue.code, odgovoran: activityCatalogue.odgovoran }).from(activityCatalogue);
  const started = catalogue.filter((c, i) => c.odgovoran.includes('IZVODJAC') || i % 5 === 0).slice(0, 12);
  for (const [n, c] of started.entries()) {
    for (const cluster of [mine.id, theirs.id]) {
      await setActivityState(t.db, cluster, c.code, {
        status: 'U toku',
        datumPocetka: '2026-01-10',
        rokZavrsetka: n % 3 === 0 ? null : `2026-0${1 + (n % 8)}-20`,
      });
    }
  }
  for (const [cluster, group] of [
    [mine.id, tree.leaf.id],
    [theirs.id, tree.other.id],
  ] as const) {
    const res = await t.call({
      method: 'POST',
      url: '/api/topic',
      token: adminToken,
      payload: { locationId: cluster, odgovoran: group, opis: '=1+1 pitanje', prioritet: 'visok', rok: '' },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
});

async function download(url: string, token: string) {
  const res = await t.call({ method: 'GET', url, token });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return res;
}

/** The data rows of an exported sheet (the header row left out), as text. */
async function xlsxRows(url: string, token = adminToken): Promise<{ header: string[]; rows: string[][]; raw: ExcelJS.Row[] }> {
  const res = await download(url, token);
  expect(res.headers['content-type']).toContain('spreadsheetml');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const sheet = wb.worksheets[0];
  if (!sheet) throw new Error('no sheet');
  const all: ExcelJS.Row[] = [];
  sheet.eachRow((row) => {
    all.push(row);
  });
  const text = (row: ExcelJS.Row) => (row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v)));
  const [head, ...rest] = all;
  return { header: head ? text(head) : [], rows: rest.map(text), raw: rest };
}

async function totalOf(url: string, token = adminToken): Promise<number> {
  const res = await t.call({ method: 'GET', url, token });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  const body = res.json();
  return body.totalResults ?? body.total;
}

describe('GET /api/export/{list}', () => {
  const cases: [string, string, string][] = [
    ['users', '/api/export/users', '/api/user?limit=1'],
    ['users searched', '/api/export/users?eng=djordjevic&srb=дјордјевиц', '/api/search/user?eng=djordjevic&srb=дјордјевиц&limit=1'],
    ['users of a group', `/api/export/users?groupId=${'LEAF'}`, `/api/user?groupId=${'LEAF'}&limit=1`],
    ['guests', '/api/export/guests', '/api/user/guests?limit=1'],
    ['groups', '/api/export/groups', '/api/group?limit=1'],
    ['groups searched', '/api/export/groups?eng=izvoz', '/api/search/group?eng=izvoz&limit=1'],
    ['clusters', '/api/export/clusters', '/api/location?limit=1'],
    ['clusters searched', '/api/export/clusters?eng=izvoz&srb=извоз', '/api/search/location?eng=izvoz&srb=извоз&limit=1'],
    ['settlements', '/api/export/settlements', '/api/naselje?limit=1'],
    ['settlements searched', '/api/export/settlements?eng=sid&srb=сид', '/api/search/naselje?eng=sid&srb=сид&limit=1'],
    ['contracts', '/api/export/contract', '/api/contract?limit=1'],
    ['contractor contracts', '/api/export/contractIzv', '/api/contractIzv?limit=1'],
    ['designer contracts', '/api/export/contractPro', '/api/contractPro?limit=1'],
    ['supervision contracts', '/api/export/contractNad', '/api/contractNad?limit=1'],
    ['topics', '/api/export/topics', '/api/topic?limit=1'],
    ['topics filtered', '/api/export/topics?prioritet=visok&q=pitanje', '/api/topic?prioritet=visok&q=pitanje&limit=1'],
    ['activities in progress', '/api/export/in-progress', '/api/activity/in-progress?limit=1'],
    [
      'activities in progress filtered',
      '/api/export/in-progress?odgovoran=IZVODJAC&eng=izvoz',
      '/api/activity/in-progress?odgovoran=IZVODJAC&eng=izvoz&limit=1',
    ],
  ];
  it('exports the topics a search finds by the list condition (not a term across the description and the cluster)', async () => {
    // 'pitanje' ends the description and 'Klaster' starts the cluster's name: the list finds neither
    // as one text, so its export has no rows either; each alone finds the topic in both.
    for (const [q, expected] of [
      ['pitanje klaster', 0],
      ['pitanje', 2],
      ['klaster izvoz moj', 1],
    ] as const) {
      const query = `q=${encodeURIComponent(q)}`;
      expect(await totalOf(`/api/topic?${query}&limit=1`)).toBe(expected);
      expect((await xlsxRows(`/api/export/topics?${query}`)).rows).toHaveLength(expected);
    }
  });

  for (const [name, exportUrl, listUrl] of cases) {
    it(`exports ${name}: as many rows as the list's totalResults`, async () => {
      const fill = (u: string) => u.replaceAll('LEAF', tree.leaf.id);
      const total = await totalOf(fill(listUrl));
      expect(total).toBeGreaterThan(0);
      const { rows } = await xlsxRows(fill(exportUrl));
      expect(rows.length).toBe(total);
    });
  }

  it('exports the notifications of the caller', async () => {
    const total = await totalOf('/api/activity/notifications?limit=1', employeeToken);
    expect(total).toBeGreaterThan(0);
    const { header, rows } = await xlsxRows('/api/export/notifications', employeeToken);
    expect(header).toEqual(['Кратак назив', 'Назив', 'Кластер', 'Одговорни', 'Почетак', 'Рок', 'Дана до рока']);
    expect(rows.length).toBe(total);
    expect(new Set(rows.map((r) => r[2]))).toEqual(new Set([mine.naziv]));
    const list = (await t.call({ method: 'GET', url: '/api/activity/notifications?limit=100', token: employeeToken })).json();
    expect(rows.map((r) => r[0])).toEqual(list.activities.map((a: { kratakNaziv: string }) => a.kratakNaziv));
    expect(rows.map((r) => r[6])).toEqual(list.activities.map((a: { brojDanaDoRoka: number | null }) => String(a.brojDanaDoRoka ?? '—')));
  });

  it('keeps each caller within the list call’s scope', async () => {
    const employee = await xlsxRows('/api/export/clusters', employeeToken);
    expect(employee.rows.map((r) => r[0])).toEqual([mine.naziv]);
    expect(employee.rows.length).toBe(await totalOf('/api/location?limit=1', employeeToken));
    const izv = await xlsxRows('/api/export/contractIzv', employeeToken);
    expect(izv.rows.map((r) => r[0])).toEqual(['Ugovor izvođača Izvoz']);
    const managerUsers = await xlsxRows('/api/export/users', managerToken);
    expect(managerUsers.rows.length).toBe(await totalOf('/api/user?limit=1', managerToken));
    expect(managerUsers.rows.length).toBeLessThan((await xlsxRows('/api/export/users')).rows.length);
    const managerGroups = await xlsxRows('/api/export/groups', managerToken);
    expect(managerGroups.rows.length).toBe(await totalOf('/api/group?limit=1', managerToken));
    // The list call's 404 for a group outside the scope, before any file starts.
    const outside = await t.call({ method: 'GET', url: `/api/export/users?groupId=${tree.other.id}`, token: managerToken });
    expect(outside.statusCode).toBe(404);
    // Roles of the list call: an employee has no users list.
    expect((await t.call({ method: 'GET', url: '/api/export/users', token: employeeToken })).statusCode).toBe(403);
  });

  it('writes the screens’ headers and formatted cells, rows in the list’s order', async () => {
    const clusters = await xlsxRows('/api/export/clusters?eng=izvoz');
    expect(clusters.header).toEqual(['Назив кластера', 'Одговорни извођач', 'Статус', 'Уговор']);
    const row = clusters.rows.find((r) => r[0] === mine.naziv);
    expect(row).toEqual([mine.naziv, tree.leaf.naziv, 'У току', 'Opšti ugovor Izvoz']);
    const list = (await t.call({ method: 'GET', url: '/api/search/naselje?eng=sid&limit=200', token: adminToken })).json();
    const settlements = await xlsxRows('/api/export/settlements?eng=sid');
    expect(settlements.rows.map((r) => r[1])).toEqual(list.naselja.map((s: { naziv: string }) => s.naziv));
    expect(settlements.rows[0]?.[3]).toBe('Šid, Бачка');
    const contracts = await xlsxRows('/api/export/contract');
    expect(contracts.header).toEqual([
      'Назив',
      'Број',
      'Датум почетка',
      'Рок трајања (дана)',
      'Рок завршетка',
      'Статус',
      'Број докумената',
      'Број кластера',
    ]);
    expect(contracts.rows[0]?.slice(2, 6)).toEqual(['15.01.2025', '365', '15.01.2026', 'У току']);
  });

  it('neutralises cells that a spreadsheet would read as formulas', async () => {
    for (const url of ['/api/export/settlements', '/api/export/groups']) {
      const { raw } = await xlsxRows(url);
      const cells = raw.flatMap((r) => (r.values as unknown[]).slice(1));
      for (const text of HOSTILE) expect(cells, `${url} ${text}`).toContain(`'${text}`);
      for (const cell of cells) {
        expect(typeof cell === 'object' && cell !== null && 'formula' in cell).toBe(false);
        if (typeof cell === 'string') expect(cell).not.toMatch(/^[=+\-@]/);
      }
    }
  });

  it('names the file <list>-YYYY-MM-DD-HHmm with RFC 5987 Content-Disposition', async () => {
    const res = await download('/api/export/topics?format=pdf', adminToken);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="topics-\d{4}-\d{2}-\d{2}-\d{4}\.pdf"; filename\*=UTF-8''topics-/,
    );
    expect(exportFileName('users', 'xlsx', new Date('2026-01-05T23:07:00Z'))).toBe('users-2026-01-06-0007.xlsx');
  });

  it('writes a PDF: pages of the list with the header on each', async () => {
    const res = await download('/api/export/settlements?format=pdf', adminToken);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const pages = Number(/\/Type \/Pages\s*\/Count (\d+)/.exec(pdf.toString('latin1'))?.[1]);
    // 154 rows at 39 a landscape page.
    expect(pages).toBe(4);
    expect(pdf.toString('latin1')).toContain('DejaVuSans');
  });

  it('keeps the lists answering the export fallback’s limit=100000 (clamped to 50,000)', async () => {
    for (const url of [
      '/api/naselje',
      '/api/user',
      '/api/group',
      '/api/location',
      '/api/contract',
      '/api/topic',
      '/api/activity/in-progress',
    ]) {
      const res = await t.call({ method: 'GET', url: `${url}?page=1&limit=100000`, token: adminToken });
      expect(res.statusCode, url).toBe(200);
    }
    const all = (await t.call({ method: 'GET', url: '/api/naselje?page=1&limit=100000', token: adminToken })).json();
    expect(all.naselja.length).toBe(all.totalResults);
  });

  it('refuses an unknown format or a malformed filter like the list call', async () => {
    for (const url of ['/api/export/users?format=csv', '/api/export/users?groupId=nije-id', '/api/export/topics?status=nesto']) {
      expect((await t.call({ method: 'GET', url, token: adminToken })).statusCode, url).toBe(400);
    }
  });
});
