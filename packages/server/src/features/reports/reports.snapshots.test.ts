import { addDays, type Payer, REPORTS, SNAPSHOT_TYPES } from '@trasa/domain';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { said } from '../../../test/harness.js';
import { reportSnapshotRows, reportSnapshots } from '../../db/schema-reports.js';
import { createGroup, createUser, tokenFor } from '../../seed/factories.js';
import type { ClusterScope } from '../clusters/policy.js';
import { C1, C2, C3, C4, D, expectedSummary, finishedOf, get, izvA, izvB, K1, post, setupReports, t, today, tok } from './reportsSetup.js';
import { compareSnapshots, compareSnapshotsText, takeNightlySnapshot } from './snapshots.js';

setupReports();

describe('snapshots', () => {
  it('the test panel is for the Admin and a sees-all group only', async () => {
    for (const token of [tok.izvA, tok.managerA, tok.nar]) {
      for (const url of ['/api/report/backfill-snapshots?days=1', '/api/report/clear-snapshots']) {
        const res = await post(url, token);
        expect(res.statusCode, url).toBe(403);
        expect(res.json().message).toBe(said(REPORTS.testPanelForbidden));
      }
      expect((await get('/api/report/snapshots', token)).mozeUpravljati).toBe(false);
    }
    expect(await t.db.select().from(reportSnapshots)).toHaveLength(0);
    for (const token of [tok.admin, tok.seesAll, tok.seesAllManager]) {
      expect((await get('/api/report/snapshots', token)).mozeUpravljati).toBe(true);
      const res = await post('/api/report/backfill-snapshots?days=1', token);
      expect(res.statusCode, res.body).toBe(200);
    }
    const cleared = await post('/api/report/clear-snapshots', tok.seesAll);
    expect(cleared.json()).toMatchObject({ deleted: 3 });
  });

  it('the profile says whom the test panel is for (vidiSve), also a Rukovodilac whose sees-all group is below', async () => {
    const above = await createGroup(t.db, { naziv: 'PIU Nad svevidećom', type: 'PIU_TA' });
    await createGroup(t.db, { naziv: 'PIU Svevideća ispod', type: 'PIU_TA', parentId: above.id, sveVideci: true });
    const below = await tokenFor(t.ctx, await createUser(t.db, { role: 'Rukovodilac', groupId: above.id }));
    const employeeAbove = await tokenFor(t.ctx, await createUser(t.db, { groupId: above.id }));
    for (const [token, sees] of [
      [tok.admin, true],
      [tok.seesAll, true],
      [tok.seesAllManager, true],
      [below, true],
      [tok.managerA, false],
      [tok.izvA, false],
      [tok.nar, false],
      [employeeAbove, false],
    ] as const) {
      expect((await get('/api/user/my-profile', token)).user.vidiSve).toBe(sees);
      expect((await get('/api/report/snapshots', token)).mozeUpravljati).toBe(sees);
    }
  });

  it('backfill: days 1–60, default 10, an invalid value becomes 10; stored once per date and type', async () => {
    for (const [query, n] of [
      ['', 10],
      ['?days=abc', 10],
      ['?days=0', 10],
      ['?days=61', 10],
      ['?days=2', 2],
      ['?days=60', 60],
    ] as const) {
      const res = await post(`/api/report/backfill-snapshots${query}`, tok.admin);
      expect(res.statusCode, res.body).toBe(200);
      const { results } = res.json();
      expect(results, query).toHaveLength(n);
      expect(results[0].date).toBe(today);
      expect(results.at(-1).date).toBe(D(n - 1));
    }
    const stored = await t.db.select().from(reportSnapshots);
    expect(stored).toHaveLength(60 * 3);
    const again = (await post('/api/report/backfill-snapshots?days=2', tok.admin)).json();
    expect(again.results).toEqual([
      { date: today, status: 'updated' },
      { date: D(1), status: 'updated' },
    ]);
    expect((await post('/api/report/clear-snapshots', tok.admin)).json().deleted).toBe(180);
    const fresh = (await post('/api/report/backfill-snapshots?days=3', tok.admin)).json();
    expect(fresh.results.map((r: { status: string }) => r.status)).toEqual(['created', 'created', 'created']);
  });

  it('compares two dates of a report, each as it was at the end of its day, for the visible clusters only', async () => {
    const url = (type: string, a: string, b: string) => `/api/report/compare?type=${type}&dateA=${a}&dateB=${b}`;
    const dmy = (iso: string) => iso.split('-').reverse().join('.');
    // Two days ago C2 had finished A1 only; yesterday it went through A8.
    const finished = await get(url('finishedReport', dmy(D(2)), D(1)), tok.admin);
    expect(finished.metaA).toMatchObject({ date: D(2), randomized: false });
    expect(finished.metaB.date).toBe(D(1));
    const c2 = (r: { rows: { _id: string; zavrseno: number; aktivnosti: string }[] }) => r.rows.find((x) => x._id === C2.id);
    const before = await finishedOf([C2.id], D(2));
    const after = await finishedOf([C2.id], D(1));
    expect(c2(finished.reportA)).toMatchObject({ zavrseno: before.get(C2.id)?.length, aktivnosti: 'A1' });
    expect(c2(finished.reportB)?.zavrseno).toBe(after.get(C2.id)?.length);
    expect(finished.reportA.rows).toHaveLength(4);
    // Every row's figures, counted here from the activities.
    const endOfB = await finishedOf([C1.id, C2.id, C3.id, C4.id], D(1));
    for (const row of finished.reportB.rows as { _id: string; zavrseno: number; uRoku: number; kasni: number; aktivnosti: string }[]) {
      const list = endOfB.get(row._id) ?? [];
      const late = list.filter((a) => a.end && a.deadline && a.end > a.deadline).length;
      expect(row).toMatchObject({
        zavrseno: list.length,
        uRoku: list.length - late,
        kasni: late,
        aktivnosti: list.map((a) => a.code).join(', '),
      });
    }
    // A snapshot stored before the figures were kept with it (its rows hold the activities alone): the
    // comparison counts them from the activities, the same.
    const stripped = await t.db
      .update(reportSnapshotRows)
      .set({ data: sql`${reportSnapshotRows.data} - 'zavrseno' - 'uRoku' - 'aktivnosti'` })
      .where(sql`${reportSnapshotRows.data} ? 'uRoku'`)
      .returning({ id: reportSnapshotRows.clusterId });
    expect(stripped.length).toBeGreaterThan(0);
    expect(await get(url('finishedReport', dmy(D(2)), D(1)), tok.admin)).toEqual(finished);

    const summary = await get(url('summaryReport', D(2), D(1)), tok.admin);
    const countOf = (r: { rows: { kratakNaziv: string; count: number }[] }, code: string) =>
      r.rows.find((x) => x.kratakNaziv === code)?.count;
    const all = [C1.id, C2.id, C3.id, C4.id];
    const expA = expectedSummary(await finishedOf(all, D(2)));
    const expB = expectedSummary(await finishedOf(all, D(1)));
    for (const code of ['A1', 'A2', 'A4', 'A7', 'A8']) {
      expect(countOf(summary.reportA, code), code).toBe(expA[code] ?? 0);
      expect(countOf(summary.reportB, code), code).toBe(expB[code] ?? 0);
    }
    expect(countOf(summary.reportB, 'A2')).toBe((countOf(summary.reportA, 'A2') ?? 0) + 1);

    const ijo = await get(url('ijoTaxesReport', D(1), today), tok.admin);
    expect(ijo.reportA.totalTax).toBe(17800.5);
    expect(ijo.reportB.rows).toHaveLength(5);

    // The sibling company: only its own clusters, on either side and in every report.
    for (const type of ['finishedReport', 'ijoTaxesReport']) {
      const res = await get(url(type, D(2), today), tok.izvB);
      for (const side of [res.reportA, res.reportB]) {
        const ids = side.rows.map((r: { _id?: string; klasterId?: string }) => r._id ?? r.klasterId);
        expect(
          ids.every((id: string) => id === C3.id || id === C4.id),
          type,
        ).toBe(true);
      }
    }
    const siblingSummary = await get(url('summaryReport', D(2), D(1)), tok.izvB);
    const expSibling = expectedSummary(await finishedOf([C3.id, C4.id], D(1)));
    for (const row of siblingSummary.reportB.rows) expect(row.count).toBe(expSibling[row.kratakNaziv] ?? 0);
  });

  it('answers null for a date without a snapshot, 400 for a future or malformed date or an unknown type', async () => {
    const res = await get(`/api/report/compare?type=summaryReport&dateA=${D(30)}&dateB=${today}`, tok.izvA);
    expect(res.reportA).toBeNull();
    expect(res.metaA).toBeNull();
    expect(res.reportB.rows.length).toBeGreaterThan(0);
    for (const [query, message] of [
      [`type=summaryReport&dateA=${addDays(today, 1)}&dateB=${today}`, REPORTS.futureDate],
      [`type=summaryReport&dateA=${today}&dateB=31.02.2026`, REPORTS.invalidDate],
      [`type=summaryReport&dateA=${today}`, REPORTS.invalidDate],
      [`type=nepoznat&dateA=${today}&dateB=${today}`, REPORTS.unknownReport],
    ]) {
      const bad = await t.call({ method: 'GET', url: `/api/report/compare?${query}`, token: tok.admin });
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().message, query).toBe(said(message as string));
    }
  });

  it('randomize perturbs the stored reports for demonstration', async () => {
    const res = (await post('/api/report/backfill-snapshots?days=1&randomize=true', tok.admin)).json();
    expect(res.results).toEqual([{ date: today, status: 'updated' }]);
    const compared = await get(`/api/report/compare?type=ijoTaxesReport&dateA=${D(1)}&dateB=${today}`, tok.admin);
    expect(compared.metaB.randomized).toBe(true);
    expect(compared.reportB.rows).toHaveLength(5);
  });

  it('the comparison built in SQL (compareSnapshotsText) equals the one built in the server (compareSnapshots) cell by cell', async () => {
    const scopes: ClusterScope[] = [
      { all: true },
      { all: false, groupIds: [izvA.id] },
      { all: false, groupIds: [izvB.id] },
      { all: false, groupIds: [] },
    ];
    const filters: { contractId: string | null; payer: Payer | null }[] = [
      { contractId: null, payer: null },
      { contractId: K1.id, payer: null },
      { contractId: null, payer: 'Izvođač' },
      { contractId: null, payer: 'Naručilac' },
      { contractId: K1.id, payer: 'Izvođač' },
    ];
    let withRows = 0;
    let withTotals = 0;
    for (const type of SNAPSHOT_TYPES) {
      for (const scope of scopes) {
        for (const [dateA, dateB] of [
          [D(2), D(1)],
          [D(1), today],
          [D(30), today],
        ] as const) {
          for (const f of filters) {
            const input = { type, dateA, dateB, ...f };
            const expected = JSON.parse(JSON.stringify(await compareSnapshots(t.db, scope, input)));
            const text = await compareSnapshotsText(t.db, scope, input);
            expect(JSON.parse(text), JSON.stringify({ input, scope })).toEqual(expected);
            if ((expected.reportA?.rows.length ?? 0) > 0) withRows++;
            if ((expected.reportB?.totalTax ?? 0) !== 0 && !Number.isInteger(expected.reportB.totalTax)) withTotals++;
          }
        }
      }
    }
    expect(withRows).toBeGreaterThan(20);
    expect(withTotals).toBeGreaterThan(0);
    // The route answers that text, for the Admin and for a contractor's employee (their scope).
    const routeCases: [string, ClusterScope][] = [
      [tok.admin, { all: true }],
      [tok.izvB, { all: false, groupIds: [izvB.id] }],
    ];
    for (const [token, scope] of routeCases) {
      for (const type of SNAPSHOT_TYPES) {
        const res = await t.call({ method: 'GET', url: `/api/report/compare?type=${type}&dateA=${D(2)}&dateB=${today}`, token });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toContain('application/json');
        const expected = await compareSnapshots(t.db, scope, { type, dateA: D(2), dateB: today, contractId: null, payer: null });
        expect(res.json()).toEqual(JSON.parse(JSON.stringify(expected)));
      }
    }
  });

  it('the nightly job stores the day that ended once, also when two instances run it at once', async () => {
    await post('/api/report/clear-snapshots', tok.admin);
    const results = await Promise.all([takeNightlySnapshot(t.db), takeNightlySnapshot(t.db)]);
    const stored = await t.db.select().from(reportSnapshots);
    expect(stored.map((s) => s.date)).toEqual([D(1), D(1), D(1)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await takeNightlySnapshot(t.db)).toBe(false);
    expect(await t.db.select().from(reportSnapshots)).toHaveLength(3);
  });
});
