import { type GroupsPage, LIST_SORTS } from '@trasa/domain';
import { and, type SQL, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { groups } from '../../db/schema.js';
import { offsetOf, type Paging } from '../../platform/paging.js';
import { orderOf } from '../../platform/sorting.js';
import { matchCondition, searchTerms } from '../../platform/textSearch.js';
import { createGroup, createUser, tokenFor } from '../../seed/factories.js';
import { groupCondition, type Scope, scopeOf } from './policy.js';
import { presentGroup, selectGroups } from './presenter.js';
import { GROUP_SORTS, type GroupSorting, groupOrder } from './service.js';

/**
 * GET /api/group and GET /api/search/group answer JSON text built by PostgreSQL (groupsPageJson). Every
 * page must equal, field by field and in order, what the Node presenter (selectGroups + presentGroup, the
 * detail's path) builds for the same caller and paging, less the detail's own fields (GroupListItem): Admin and a Rukovodilac (whose parent group is
 * outside their scope), the whole list (the picker's limit=50000), small pages and every sort key both ways.
 */
const t = useTestApp();

/** The page as the presenter builds it: rows in the list's order, their children, a plain count. */
async function presented(scope: Scope, where: SQL, paging: Paging & GroupSorting): Promise<GroupsPage> {
  const orderBy = orderOf(GROUP_SORTS, paging, groupOrder, groups.id);
  const rows = await selectGroups(t.db, where, { orderBy, limit: paging.limit, offset: offsetOf(paging) });
  const [total] = await t.db.select({ n: sql<number>`count(*)::int` }).from(groups).where(where);
  // The list's fields of each (GroupListItem): the detail's own (Cyrillic name, children, member count) left out.
  const listed = rows.map((r) => {
    const { cirilica: _c, podredjeneGrupe: _p, brojClanova: _b, ...item } = presentGroup(r, scope);
    return item;
  });
  return { groups: listed, totalResults: total?.n ?? 0 };
}
const callers: { name: string; token: string; actor: Parameters<typeof scopeOf>[1] }[] = [];

beforeAll(async () => {
  const root = await createGroup(t.db, { naziv: 'Čačak koren' });
  const mid = await createGroup(t.db, { naziv: 'Ćuprija sredina', parentId: root.id });
  // Quotes and a backslash: the text is written by hand in SQL (platform/jsonText.ts), so escaping is tested here.
  for (const naziv of ['Žabalj tim', 'Ljig tim', 'Lazarevac tim', 'Đakovica tim', 'Tim "Južni" \\ kraj'])
    await createGroup(t.db, { naziv, parentId: mid.id });
  for (const naziv of ['Zaječar', 'Cer', 'Šabac']) await createGroup(t.db, { naziv, type: 'PROJEKTANT' });
  for (let i = 0; i < 4; i++) await createUser(t.db, { groupId: mid.id });
  const admin = await createUser(t.db, { role: 'Admin', ime: 'Ana', prezime: 'Adminović' });
  const manager = await createUser(t.db, { role: 'Rukovodilac', groupId: mid.id });
  for (const [name, user] of [
    ['admin', admin],
    ['manager', manager],
  ] as const) {
    callers.push({
      name,
      token: await tokenFor(t.ctx, user),
      actor: {
        id: user.id,
        role: name === 'admin' ? 'Admin' : 'Rukovodilac',
        group: name === 'admin' ? null : { id: mid.id },
      } as Parameters<typeof scopeOf>[1],
    });
  }
});

/** Every sort key both ways, and the default order. */
const sorts: { sort?: (typeof LIST_SORTS.groups)[number]; order?: 'asc' | 'desc' }[] = [
  {},
  ...LIST_SORTS.groups.flatMap((sort) => (['asc', 'desc'] as const).map((order) => ({ sort, order }))),
];
const PAGES = [
  [1, 50000],
  [1, 3],
  [2, 3],
  [9, 3],
] as const;

// One case per caller, list (GET /api/group, GET /api/search/group: one statement too) and sort: each a
// few requests, so none runs long on a busy machine.
describe.each(['admin', 'manager'] as const)('the groups lists built in SQL, for the %s', (name) => {
  const callerOf = () => {
    const caller = callers.find((c) => c.name === name);
    if (!caller) throw new Error(`no caller ${name}`);
    return caller;
  };
  const cases = sorts.map((sorting) => [sorting.sort ? `${sorting.sort} ${sorting.order}` : 'default', sorting] as const);

  it.each(cases)('GET /api/group equals the presenter, sorted %s', async (_label, sorting) => {
    const caller = callerOf();
    const scope = await scopeOf(t.db, caller.actor);
    for (const [page, limit] of PAGES) {
      const query = new URLSearchParams({ page: String(page), limit: String(limit), ...sorting });
      const res = await t.call({ method: 'GET', url: `/api/group?${query}`, token: caller.token });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const expected = await presented(scope, groupCondition(scope), { page, limit, ...sorting });
      const label = `${caller.name} ${query}`;
      expect(res.json(), label).toEqual(expected);
      // The same fields in the same order as presentGroup.
      expect(JSON.stringify(res.json()), label).toBe(JSON.stringify(expected));
    }
  });

  it.each(cases)('GET /api/search/group equals the presenter, sorted %s', async (_label, sorting) => {
    const caller = callerOf();
    const scope = await scopeOf(t.db, caller.actor);
    const where = and(groupCondition(scope), matchCondition(groups.searchText, searchTerms({ eng: 'tim', srb: 'тим' }))) as SQL;
    for (const [page, limit] of PAGES) {
      const query = new URLSearchParams({ page: String(page), limit: String(limit), ...sorting });
      const searched = await t.call({
        method: 'GET',
        url: `/api/search/group?eng=tim&srb=${encodeURIComponent('тим')}&${query}`,
        token: caller.token,
      });
      expect(searched.statusCode, searched.body).toBe(200);
      const found = await presented(scope, where, { page, limit, ...sorting });
      expect(found.totalResults, `${caller.name} ${query}`).toBeGreaterThan(0);
      expect(JSON.stringify(searched.json()), `search ${caller.name} ${query}`).toBe(JSON.stringify(found));
    }
  });
});
