import type { LogDto } from '@trasa/domain';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { addLogs } from '../../../test/logData.js';
import { searchTerms } from '../../platform/textSearch.js';
import { createGroup, createUser, tokenFor } from '../../seed/factories.js';
import { adminToken, explained, g, list, managerToken, messagesOf, setupLogs, t, tree } from './logsSetup.js';
import { EXACT_COUNT_CAP, LETTER_PATHS, letterQuery, MATCH_INDEX, SEARCH_WINDOW } from './service.js';

setupLogs();

describe('logs', () => {
  it('a frequent text’s deep pages walk from its kept matches: exact either way, new rows counted, deletions followed', async () => {
    // 300 old rows, every third naming the word (100 matches, one of them Cyrillic), in groups and without.
    await addLogs(
      t.db,
      Array.from({ length: 300 }, (_, i) => ({
        message: i % 3 === 0 ? `Korisnik k@kvaz.rs je dodao ${i === 150 ? 'Кварцит' : 'Kvarcit'} ${i}.` : `Ostalo ${i}`,
        group: i % 2 === 0 ? g(tree.leaf) : null,
        createdAt: new Date(Date.UTC(2021, 0, 1, 0, 0, i)),
      })),
    );
    const query = `eng=kvarcit&srb=${encodeURIComponent('кварцит')}`;
    const ascending = '&sort=createdAt&order=asc';
    const idsOf = (body: { logs: LogDto[] }) => body.logs.map((l) => l._id);
    const keptIndexing = { ...MATCH_INDEX };
    const keptPaths = { ...LETTER_PATHS };
    // Every match as everyMatch reads it (nothing kept), and the pages of 7 through kept positions (every
    // 3rd match kept: walkRows over the table's rows), newest and oldest first, totals exact.
    const pagesAgree = async (expected: string[], indexing: Partial<typeof MATCH_INDEX>, token = adminToken) => {
      Object.assign(MATCH_INDEX, indexing, { min: -1 });
      const pages = Math.ceil(expected.length / 7);
      for (const page of [1, 2, Math.floor(pages / 2), pages - 1, pages, pages + 1]) {
        const newest = (await list(`/api/search/log?${query}&limit=7&page=${page}`, token)).json();
        expect({ page, ids: idsOf(newest), total: newest.totalLogs, exact: newest.totalExact }).toEqual({
          page,
          ids: expected.slice((page - 1) * 7, page * 7),
          total: expected.length,
          exact: true,
        });
        const oldest = (await list(`/api/search/log?${query}&limit=7&page=${page}${ascending}`, token)).json();
        expect({ page, ids: idsOf(oldest), total: oldest.totalLogs }).toEqual({
          page,
          ids: [...expected].reverse().slice((page - 1) * 7, page * 7),
          total: expected.length,
        });
      }
    };
    try {
      // Every match by the letters at once (firstMax: no window first).
      Object.assign(LETTER_PATHS, { firstMax: Infinity, rowsMax: Infinity });
      const everyOne = async (token = adminToken) => {
        Object.assign(MATCH_INDEX, { min: Infinity });
        return idsOf((await list(`/api/search/log?${query}&limit=50000`, token)).json());
      };
      const before = await everyOne();
      expect(before.length).toBeGreaterThanOrEqual(100);
      const reltuples = await t.db.execute<{ n: number }>(
        sql`select reltuples::float8 as n from pg_class where oid = 'audit_logs'::regclass`,
      );
      const every3rd = (3 * Number(reltuples.rows[0]?.n ?? 0)) / before.length;
      await pagesAgree(before, { walkRows: every3rd, keptMs: Infinity });
      // A Rukovodilac's (their subtree's groups: the leaf's rows) are kept for their scope.
      const managers = await everyOne(managerToken);
      expect(managers.length).toBeGreaterThanOrEqual(50);
      expect(managers.length).toBeLessThan(before.length);
      await pagesAgree(managers, { walkRows: every3rd, keptMs: Infinity }, managerToken);
      // Two new rows (now: newer than the cutoff) are counted on the next request, the kept positions
      // kept; a row deleted moves the 'logs' version and the positions are read again.
      const now = Date.now();
      await addLogs(t.db, [
        { message: 'Kvarcit novi 1', createdAt: new Date(now - 1_000) },
        { message: 'Kvarcit novi 2', group: g(tree.leaf), createdAt: new Date(now) },
      ]);
      const added = await everyOne();
      expect(added.length).toBe(before.length + 2);
      await pagesAgree(added, { keptMs: Infinity });
      expect(await everyOne(managerToken)).toEqual([added[0], ...managers]);
      await pagesAgree([added[0] as string, ...managers], { keptMs: Infinity }, managerToken);
      const gone = added[added.length - 1] as string;
      const deleted = await t.call({ method: 'DELETE', url: '/api/log/', payload: { logIds: [gone] }, token: adminToken });
      expect(deleted.statusCode).toBe(200);
      const after = await everyOne();
      expect(after).toEqual(added.filter((id) => id !== gone));
      await pagesAgree(after, { keptMs: Infinity });
      // With every match kept, and read again on every request.
      await pagesAgree(after, { walkRows: Number.MAX_SAFE_INTEGER, keptMs: 0 });
    } finally {
      Object.assign(MATCH_INDEX, keptIndexing);
      Object.assign(LETTER_PATHS, keptPaths);
    }
  });

  it('a frequent word that fills the page is estimated by its own statistics, not raised to the list’s cap', async () => {
    const team = await createGroup(t.db, { naziv: 'Frekventni tim', cirilica: 'Фреквентни тим' });
    const teamToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: team.id }));
    // 2,000 rows of the team, every fifth naming the place (400), newest among them; and 300 of no group.
    await addLogs(t.db, [
      ...Array.from({ length: 2_000 }, (_, i) => ({
        message: i % 5 === 0 ? `Korisnik f@frek.rs je dodao naselje Frekventnik ${i}.` : `Frek unos ${i}`,
        group: g(team),
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
      })),
      ...Array.from({ length: 300 }, (_, i) => ({
        message: `Frekventnik bez grupe ${i}`,
        createdAt: new Date(Date.UTC(2025, 11, 1, 0, 0, i)),
      })),
    ]);
    await t.db.execute(sql`analyze audit_logs`);
    const terms = searchTerms({ eng: 'frekventnik', srb: 'фреквентник' });
    const keyed = sql`trasa_letter_suffixes(search_text) @@ ${`${letterQuery(terms)} | '~long'`}::tsquery`;
    const kept = { ...LETTER_PATHS };
    const keptIndexing = { ...MATCH_INDEX };
    const keptWindow = { ...SEARCH_WINDOW };
    try {
      // The window first (a frequent word fills the page there), the trigrams after it.
      Object.assign(LETTER_PATHS, { firstMax: -1, rowsMax: -1 });
      const query = `eng=frekventnik&srb=${encodeURIComponent('фреквентник')}&limit=10`;
      const teams = (await list(`/api/search/log?${query}`, teamToken)).json();
      expect(teams.logs).toHaveLength(10);
      expect(teams.totalExact).toBe(false);
      // The scope's estimate over the letter index (on a table this small, with fewer than 100 common
      // elements, the planner's default for a prefix: 2 % of the rows), never the list's 1,001.
      expect(letterQuery(terms)).toBe("('frekventnik':*)");
      const estimate = await explained(sql`${keyed} and group_id = ${team.id}`);
      expect(teams.totalLogs).toBe(Math.max(11, estimate));
      expect(teams.totalLogs).toBeLessThan(EXACT_COUNT_CAP);
      // The Admin's: the letter index's over the whole table, as the narrowing was chosen by.
      const all = (await list(`/api/search/log?${query}`)).json();
      const letters = sql`trasa_letter_suffixes(search_text) @@ ${letterQuery(terms)}::tsquery`;
      const before = await explained(letters);
      expect(all).toMatchObject({ totalExact: false, totalLogs: Math.max(11, before) });
      // The estimates are asked on every request: 3,000 more rows of no group naming the place change the
      // planner's figure, and the total with it.
      await addLogs(
        t.db,
        Array.from({ length: 3_000 }, (_, i) => ({
          message: `Frekventnik opet ${i}`,
          createdAt: new Date(Date.UTC(2025, 10, 1, 0, 0, i)),
        })),
      );
      await t.db.execute(sql`analyze audit_logs`);
      const after = await explained(letters);
      expect(after).toBeGreaterThan(before);
      expect((await list(`/api/search/log?${query}`)).json()).toMatchObject({ totalLogs: Math.max(11, after) });
      // A page past the end is counted: the real number.
      const past = (await list(`/api/search/log?${query}&page=41`, teamToken)).json();
      expect(past).toMatchObject({ logs: [], totalLogs: 400, totalExact: true });
      // A deeper page the window fills: at least what the pages show.
      const deep = (await list(`/api/search/log?${query}&page=30`, teamToken)).json();
      expect(deep.logs).toHaveLength(10);
      expect(deep.totalLogs).toBeGreaterThanOrEqual(301);
      // Once a page the window can't hold has kept the word's positions (MATCH_INDEX), page 1, which the
      // window holds, is still read from the window (its total an estimate), not walked from a kept match
      // (that walk cost three times the window's read: bench case `logs search deep`, Admin, page 1); the
      // page the window can't hold is answered from the kept ones.
      Object.assign(SEARCH_WINDOW, { rows: 1_000, max: 1_000 });
      // Every match read, sorted and counted at once (nothing kept: everyMatch).
      Object.assign(MATCH_INDEX, { min: Number.POSITIVE_INFINITY });
      const expected = (await list(`/api/search/log?eng=frekventnik&srb=${encodeURIComponent('фреквентник')}&limit=2000`)).json();
      expect(expected.logs.length).toBeGreaterThan(1_000);
      Object.assign(MATCH_INDEX, { min: -1, keptMs: Number.POSITIVE_INFINITY });
      const first = (await list(`/api/search/log?${query}`)).json();
      expect(first).toMatchObject({ totalExact: false });
      expect(first.logs.map((l: LogDto) => l._id)).toEqual(expected.logs.slice(0, 10).map((l: LogDto) => l._id));
      for (let round = 0; round < 2; round++) {
        const far = (await list(`/api/search/log?${query}&page=100`)).json();
        expect(far).toMatchObject({ totalExact: true, totalLogs: expected.totalLogs });
        expect(far.logs.map((l: LogDto) => l._id)).toEqual(expected.logs.slice(990, 1000).map((l: LogDto) => l._id));
        const again = (await list(`/api/search/log?${query}`)).json();
        expect(again).toEqual(first);
      }
    } finally {
      Object.assign(LETTER_PATHS, kept);
      Object.assign(MATCH_INDEX, keptIndexing);
      Object.assign(SEARCH_WINDOW, keptWindow);
    }
  });

  it('counts exactly up to the cap, then estimates (never below the cap)', async () => {
    const big = await createGroup(t.db, { naziv: 'Velika grupa', cirilica: 'Велика група' });
    await addLogs(
      t.db,
      Array.from({ length: EXACT_COUNT_CAP + 5 }, (_, i) => ({
        message: `Masovni unos ${i}`,
        group: g(big),
        createdAt: new Date(Date.UTC(2024, 0, 1, 0, 0, i)),
      })),
    );
    const res = (await list(`/api/log?group=${encodeURIComponent('Велика група')}&page=3&limit=10`)).json();
    expect(res.totalExact).toBe(false);
    expect(res.totalLogs).toBeGreaterThan(EXACT_COUNT_CAP);
    expect(messagesOf(res)[0]).toBe(`Masovni unos ${EXACT_COUNT_CAP + 4 - 20}`);
    // A page past the end of an estimated list does not claim rows up to it.
    const past = (await list(`/api/log?group=${encodeURIComponent('Велика група')}&page=5000&limit=10`)).json();
    expect(past.logs).toEqual([]);
    expect(past.totalLogs).toBeLessThan(49_990);
    // The scope's estimate is asked on every request: 3,000 more rows of the group change it at once.
    const groupPage = `/api/log?group=${encodeURIComponent('Велика група')}&page=1&limit=10`;
    const before = (await list(groupPage)).json();
    expect(before.totalExact).toBe(false);
    await addLogs(
      t.db,
      Array.from({ length: 3_000 }, (_, i) => ({
        message: `Masovni dodatak ${i}`,
        group: g(big),
        createdAt: new Date(Date.UTC(2023, 6, 1, 0, 0, i)),
      })),
    );
    await t.db.execute(sql`analyze audit_logs`);
    const again = (await list(groupPage)).json();
    expect(again.totalLogs).toBe(await explained(sql`group_id = ${big.id}`));
    expect(again.totalLogs).toBeGreaterThan(before.totalLogs + 2_000);
    const few = (await list('/api/search/log?eng=masovni%20unos%201004')).json();
    expect(few).toMatchObject({ totalLogs: 1, totalExact: true });
    // The Admin's whole list: the table's estimate read with the page (pg_class) is EXPLAIN's, before
    // the table was analyzed (the EXPLAIN itself) and after it, on page 1 and past the end.
    for (const analyzed of [false, true]) {
      if (analyzed) {
        await t.db.execute(sql`analyze audit_logs`);
        await addLogs(
          t.db,
          Array.from({ length: 300 }, (_, i) => ({ message: `Posle analize ${i}`, createdAt: new Date(Date.UTC(2023, 0, 1, 0, 0, i)) })),
        );
      }
      const first = (await list('/api/log?page=1&limit=10')).json();
      expect(first.logs).toHaveLength(10);
      expect({ analyzed, total: first.totalLogs, exact: first.totalExact }).toEqual({
        analyzed,
        total: Math.max(await explained(), EXACT_COUNT_CAP + 1),
        exact: false,
      });
      const end = (await list('/api/log?page=100000&limit=10')).json();
      expect({ analyzed, logs: end.logs, total: end.totalLogs }).toEqual({
        analyzed,
        logs: [],
        total: Math.max(await explained(), EXACT_COUNT_CAP + 1),
      });
    }
  });
});
