import type { IjoTaxRow } from '@trasa/domain';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { groups } from '../../db/schema.js';
import { activities, ijoHolders } from '../../db/schema-activities.js';
import { clusterGroups, clusters, contracts } from '../../db/schema-clusters.js';
import { createCluster, createContract, createGroup, createUser, linkClusterToContract, tokenFor } from '../../seed/factories.js';
import { createHolder } from '../activities/testing.js';
import { expectedRows, setupIjoRows, sorted, t, totals } from './ijoRowsSetup.js';
import { ijoTaxReport } from './service.js';

setupIjoRows();
describe('the IJO fees report in SQL', () => {
  let admin: string;
  let contractId: string;
  const get = async (url: string) => {
    const res = await t.call({ method: 'GET', url, token: admin });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    admin = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
    const eps = await createHolder(t, 'Elektroprivreda Šabac', 'Izvođač');
    const putevi = await createHolder(t, 'Čačanski putevi', 'Naručilac');
    const vode = await createHolder(t, 'Ćuprijske vode', 'Izvođač');
    const zeleznice = await createHolder(t, 'Železnice', 'Naručilac');
    const firmaZ = await createGroup(t.db, { naziv: 'Žarković gradnja', type: 'IZVODJAC' });
    const firmaC = await createGroup(t.db, { naziv: 'Čelik montaža', type: 'IZVODJAC' });
    const firmaD = await createGroup(t.db, { naziv: 'Džervis kabl', type: 'IZVODJAC' });
    const nar = await createGroup(t.db, { naziv: 'Ministarstvo Qijo', type: 'NARUCILAC' });
    const general = await createContract(t.db, { naziv: 'Ugovor Šumadija', broj: 'Š-1/2025' });
    const other = await createContract(t.db, { naziv: 'Ugovor Čačak', broj: 'Č-2/2025' });
    contractId = general.id;
    const izv = await createContract(t.db, { kind: 'contractIzv', naziv: 'Izvođački Qijo', groupIds: [firmaD.id, firmaC.id] });
    const fee = (ref: unknown, vrednost: unknown, naziv = '') => ({ key: 'A7Taksa', naziv, vrednost, ref });
    const ids = (...list: string[]) => list.join(',');
    const data: { naziv: string; groups: string[]; contract?: { id: string; kind: string }; izv?: boolean; podaci: unknown[] }[] = [
      {
        naziv: 'Čačak Qijo',
        groups: [firmaZ.id, nar.id],
        contract: general,
        podaci: [
          { key: 'Ijos', naziv: 'IJO', vrednost: ids(eps.id, putevi.id, vode.id) },
          { key: 'A7IjoChecked', vrednost: ` ${eps.id} , ${vode.id}` },
          fee(eps.id, '12 500 RSD'),
          fee(putevi.id, '1234,5'),
          fee(vode.id, '1.234,5'),
          fee(eps.id, '99'),
        ],
      },
      {
        naziv: 'Ćićevac Qijo',
        groups: [firmaZ.id, firmaC.id],
        contract: other,
        izv: true,
        podaci: [
          { key: 'Ijos', vrednost: `  ${eps.id},, ${eps.id} ,${zeleznice.id},nepoznat-ijo, ` },
          { key: 'Ijos', vrednost: vode.id },
          fee(eps.id, '300 m'),
          fee(zeleznice.id, '1\u00a0250,50 дин.'),
          fee('nepoznat-ijo', '77', 'Ručno upisan'),
          { key: 'A7IjoChecked', vrednost: 'nepoznat-ijo' },
        ],
      },
      {
        naziv: 'Cerovac Qijo',
        groups: [nar.id],
        podaci: [
          { key: 'Ijos', vrednost: ids(putevi.id, 'drugi-nepoznat', vode.id) },
          fee(putevi.id, 'abc'),
          fee(vode.id, null),
          7,
          null,
          ['x'],
        ],
      },
      {
        naziv: 'Dževrin Qijo',
        groups: [firmaD.id],
        contract: general,
        podaci: [
          { key: 'Ijos', vrednost: ids(vode.id, zeleznice.id) },
          { key: 'A7IjoChecked', vrednost: ids(zeleznice.id, vode.id) },
          fee(vode.id, '0.1'),
          fee({ id: zeleznice.id }, '5'),
          fee(zeleznice.id, '0.2'),
        ],
      },
      {
        naziv: 'Đurđevo Qijo',
        groups: [firmaC.id, firmaD.id],
        podaci: [{ key: 'Ijos', vrednost: ids(eps.id) }, fee(eps.id, '-0')],
      },
      { naziv: 'Bez IJO Qijo', groups: [firmaZ.id], podaci: [{ key: 'Ijos', vrednost: '   ' }] },
      { naziv: 'Azbuka Qijo', groups: [], podaci: [{ key: 'IjoNazivi', vrednost: 'x' }] },
    ];
    for (const d of data) {
      const c = await createCluster(t.db, { naziv: d.naziv, groupIds: d.groups, ...(d.contract ? { contract: d.contract } : {}) });
      if (d.izv) await linkClusterToContract(t.db, izv, c.id);
      await t.db
        .update(activities)
        .set({ podaci: d.podaci })
        .where(and(eq(activities.clusterId, c.id), eq(activities.code, 'A7')));
    }
  });

  it('gives the rows and totals of the reading before, in its order, for every sort both ways and every page', async () => {
    const all = await expectedRows();
    expect(all.length).toBeGreaterThan(12);
    const whole = await get('/api/report/ijo-takse');
    expect(whole.rows).toEqual(all);
    expect(JSON.stringify(whole)).toBe(JSON.stringify({ rows: all, totalResults: all.length, ...totals(all) }));
    for (const sort of ['ugovor', 'klaster', 'imaoc', 'status', 'taksa', 'zaduzen', 'izvodjac'] as const) {
      for (const order of ['asc', 'desc'] as const) {
        const expected = sorted(all, sort, order);
        expect((await get(`/api/report/ijo-takse?sort=${sort}&order=${order}`)).rows, `${sort} ${order}`).toEqual(expected);
        const page = await get(`/api/report/ijo-takse?sort=${sort}&order=${order}&page=3&limit=4`);
        expect(page.rows, `${sort} ${order} page 3`).toEqual(expected.slice(8, 12));
        expect(page.totalResults).toBe(all.length);
      }
    }
  });

  it('filters by payer and contract before paging and totalling', async () => {
    const all = await expectedRows();
    for (const [query, keep] of [
      ['payer=Naručilac', (r: IjoTaxRow) => r.zaduzen === 'Naručilac'],
      ['payer=izvodjac', (r: IjoTaxRow) => r.zaduzen === 'Izvođač'],
      [`contract=${contractId}`, (r: IjoTaxRow) => r.ugovorId === contractId],
      [
        `contract=${contractId}&payer=Izvođač&sort=taksa&order=desc`,
        (r: IjoTaxRow) => r.ugovorId === contractId && r.zaduzen === 'Izvođač',
      ],
    ] as const) {
      let expected = all.filter(keep);
      if (query.includes('sort=taksa')) expected = sorted(expected, 'taksa', 'desc');
      const body = await get(`/api/report/ijo-takse?${query}`);
      expect(body, query).toEqual({ rows: expected, totalResults: expected.length, ...totals(expected) });
    }
    const none = await get('/api/report/ijo-takse?payer=Naručilac&contract=00000000-0000-4000-8000-000000000000');
    expect(none).toEqual({ rows: [], totalResults: 0, narucilacTotal: 0, izvodjaciTotal: 0, byContractor: [], totalTax: 0 });
  });
  it('keeps its rows (migration 0018) equal to the reading of the data after every kind of change, totals summed from the rows', async () => {
    const check = async (what: string) => {
      const all = await expectedRows();
      const whole = await get('/api/report/ijo-takse');
      expect(JSON.stringify(whole), what).toBe(JSON.stringify({ rows: all, totalResults: all.length, ...totals(all) }));
      // The objects' path (the exports') gives the same as the route's text.
      const objects = await ijoTaxReport(t.db, { all: true }, { page: 1, limit: 100_000, sort: 'imaoc', order: 'desc' });
      expect(JSON.parse(JSON.stringify(objects)), what).toEqual(await get('/api/report/ijo-takse?sort=imaoc&order=desc'));
      const expected = sorted(all, 'taksa', 'desc');
      const page = await get('/api/report/ijo-takse?sort=taksa&order=desc&page=2&limit=3&payer=Izvođač');
      const izv = expected.filter((r) => r.zaduzen === 'Izvođač');
      expect(page, `${what}: a page`).toEqual({ rows: izv.slice(3, 6), totalResults: izv.length, ...totals(izv) });
      const [state] = (
        await t.db.execute<{ fresh: boolean }>(sql`select version = built as fresh from report_cache_state where name = 'ijo'`)
      ).rows;
      expect(state?.fresh, what).toBe(true);
      return all;
    };
    const before = await check('as seeded');
    const a7 = async (naziv: string) => {
      const [row] = await t.db
        .select({ id: activities.id, podaci: activities.podaci })
        .from(activities)
        .innerJoin(clusters, eq(clusters.id, activities.clusterId))
        .where(and(eq(clusters.naziv, naziv), eq(activities.code, 'A7')));
      if (!row) throw new Error(naziv);
      return row;
    };
    // An A7's data saved (the workflow's edit): a fee and a mark changed.
    const cacak = await a7('Čačak Qijo');
    const changed = (cacak.podaci as { key: string; vrednost: unknown; ref?: string }[]).map((p) =>
      p.key === 'A7Taksa' && p.vrednost === '12 500 RSD'
        ? { ...p, vrednost: '13 000,25' }
        : p.key === 'A7IjoChecked'
          ? { ...p, vrednost: '' }
          : p,
    );
    await t.db.update(activities).set({ podaci: changed }).where(eq(activities.id, cacak.id));
    const afterEdit = await check('A7 data edited');
    expect(afterEdit).not.toEqual(before);
    // A holder renamed and its payer changed through the API.
    const [eps] = await t.db.select().from(ijoHolders).where(eq(ijoHolders.naziv, 'Elektroprivreda Šabac'));
    if (!eps) throw new Error('holder');
    const patched = await t.call({
      method: 'PATCH',
      url: `/api/ijo/${eps.id}`,
      token: admin,
      payload: { naziv: 'EPS Šabac', odgovoran: 'Naručilac' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    await check('holder edited');
    // A contractor group renamed, a responsible group removed, a cluster renamed, a contract renamed.
    await t.db.update(groups).set({ naziv: 'Žarković i sinovi' }).where(eq(groups.naziv, 'Žarković gradnja'));
    await check('group renamed');
    const cicevac = await t.db.select({ id: clusters.id }).from(clusters).where(eq(clusters.naziv, 'Đurđevo Qijo'));
    await t.db.delete(clusterGroups).where(eq(clusterGroups.clusterId, cicevac[0]?.id ?? ''));
    await check('responsible groups removed');
    await t.db.update(clusters).set({ naziv: 'Aaa Đurđevo Qijo' }).where(eq(clusters.naziv, 'Đurđevo Qijo'));
    await check('cluster renamed');
    await t.db.update(contracts).set({ naziv: 'Ugovor Šumadija II', broj: 'Š-9' }).where(eq(contracts.id, contractId));
    await check('contract renamed');
    // A change not committed yet is not in the report; once committed it is.
    const dzevrin = await a7('Dževrin Qijo');
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let written = () => {};
    const wrote = new Promise<void>((r) => {
      written = r;
    });
    const writer = t.db.transaction(async (tx) => {
      await tx.update(activities).set({ podaci: [] }).where(eq(activities.id, dzevrin.id));
      written();
      await held;
    });
    await wrote;
    const during = await get('/api/report/ijo-takse');
    expect(during.rows.some((r: IjoTaxRow) => r.klaster === 'Dževrin Qijo')).toBe(true);
    release();
    await writer;
    const after = await check('A7 emptied in a transaction');
    expect(after.some((r) => r.klaster === 'Dževrin Qijo')).toBe(false);
    // A holder added to the codebook and removed (TRUNCATE-free paths: insert, delete).
    const extra = await createHolder(t, 'Novi imalac', 'Izvođač');
    await t.db.delete(ijoHolders).where(eq(ijoHolders.id, extra.id));
    await check('holder added and removed');
  });
});
