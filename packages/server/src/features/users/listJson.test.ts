import { LIST_SORTS, type UserDto } from '@trasa/domain';
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, withoutKeptVerify } from '../../../test/harness.js';
import { groups, users } from '../../db/schema.js';
import { builtinRoleId } from '../../platform/builtinRoles.js';
import { offsetOf, type Paging } from '../../platform/paging.js';
import { orderOf } from '../../platform/sorting.js';
import { matchCondition, searchTerms } from '../../platform/textSearch.js';
import { createGroup, createOrgTree, createUser, tokenFor } from '../../seed/factories.js';
import { isGuestCondition, memberCondition, type Scope, scopeOf } from '../groups/policy.js';
import { presentUser, selectUserWithRelations, userOrder } from './presenter.js';
import { USER_SORTS, type UserSorting } from './service.js';

/**
 * The users lists (GET /api/user, /api/user/users-per-role, /api/user/guests, /api/search/user) answer
 * JSON text built by PostgreSQL with their count in the same statement (usersPageJson). Every page must
 * equal, field by field and in order, what the Node presenter (selectUserWithRelations + presentUser, the
 * detail's path) builds for the same rows with a plain count: Admin and a Rukovodilac, every sort key both
 * ways, small pages, a page past the end and the whole list.
 */
const t = useTestApp();

type Caller = { name: string; token: string; scope: Scope };
const callers: Caller[] = [];
let staffRole = '';
let guestRole = '';
let narrowGroup = '';
let tree: Awaited<ReturnType<typeof createOrgTree>>;

/** The page as the presenter builds it, counted plainly. */
async function presented(where: SQL, paging: Paging & UserSorting, key = 'users') {
  const order = orderOf(USER_SORTS, paging, userOrder, users.id);
  const rows = await selectUserWithRelations(t.db)
    .where(where)
    .orderBy(...order)
    .limit(paging.limit)
    .offset(offsetOf(paging));
  const [total] = await t.db.select({ n: sql<number>`count(*)::int` }).from(users).where(where);
  return { [key]: rows.map(presentUser), totalResults: total?.n ?? 0 };
}

beforeAll(async () => {
  tree = await createOrgTree(t.db, 'Json');
  // A group without a type (tip '', tipKod null) inside the Rukovodilac's subtree.
  const untyped = await createGroup(t.db, { naziv: 'Bez tipa "tim"', parentId: tree.mid.id });
  await t.db.update(groups).set({ typeId: null }).where(eq(groups.id, untyped.id));
  narrowGroup = tree.leaf.id;
  // Quotes, a backslash, a control character, both scripts and letters the Serbian order places apart.
  const people: [string, string, string][] = [
    ['Đorđe', 'Đorđević', tree.mid.id],
    ['Ђорђе', 'Ђорђевић', tree.leaf.id],
    ['Dragan', 'Džonić "Dž"', tree.leaf.id],
    ['Ljubica', 'Lukić \\ kosa', untyped.id],
    ['Nikola', 'Njegoš\ttab', tree.mid.id],
    ['Čeda', 'Cvetković', tree.other.id],
    ['Ćira', 'Ćosić', tree.root.id],
    ['Zoran', 'Žikić', tree.leaf.id],
    // More of the search's matches: its pages in the second half are read from the other end.
    ['Đorđije', 'Anđelić', tree.mid.id],
    ['Djordje', 'Zec', tree.leaf.id],
    ['Ђорђина', 'Бабић', tree.other.id],
  ];
  for (const [i, [ime, prezime, groupId]] of people.entries()) {
    const user = await createUser(t.db, { ime, prezime, groupId, status: i % 3 === 0 ? 'neaktivan' : 'aktivan' });
    if (i === 1)
      await t.db
        .update(users)
        .set({ tables: [{ tabela: 'korisnici', kolone: ['ime', 'email'], sirina: 1.5 }], pismo: 'lat' })
        .where(eq(users.id, user.id));
    if (i === 2)
      await t.db
        .update(users)
        .set({ tables: { nije: 'niz' } })
        .where(eq(users.id, user.id));
  }
  await t.db
    .update(users)
    .set({ deletedAt: new Date() })
    .where(eq(users.id, (await createUser(t.db, { ime: 'Obrisan', prezime: 'Đorđić', groupId: tree.mid.id })).id));
  await createUser(t.db, { role: 'Gost', ime: 'Goran', prezime: 'Gostić' });
  await createUser(t.db, { role: 'Gost', ime: 'Đurđa', prezime: 'Gostović' });
  const admin = await createUser(t.db, { role: 'Admin', ime: 'Ana', prezime: 'Adminović' });
  callers.push({ name: 'admin', token: await tokenFor(t.ctx, admin), scope: { all: true } });
  const managerActor = { id: tree.manager.id, role: 'Rukovodilac', group: { id: tree.mid.id } } as Parameters<typeof scopeOf>[1];
  callers.push({ name: 'manager', token: await tokenFor(t.ctx, tree.manager), scope: await scopeOf(t.db, managerActor) });
  staffRole = await builtinRoleId(t.db, 'Zaposleni');
  guestRole = await builtinRoleId(t.db, 'Gost');
});

type List = { name: string; url: string; where: SQL; key?: string };
const terms = { eng: 'djordj', srb: 'дјордј' };
/** The lists as `scope` sees them, with the rows the presenter is given for each. */
function listsFor(scope: Scope): List[] {
  return [
    { name: 'all users', url: '/api/user', where: memberCondition(scope) },
    {
      name: "one group's",
      url: `/api/user?groupId=${narrowGroup}`,
      where: and(memberCondition(scope), eq(users.groupId, narrowGroup)) as SQL,
    },
    {
      name: 'per role (Zaposleni)',
      url: `/api/user/users-per-role?roleId=${staffRole}`,
      where: and(memberCondition(scope), eq(users.roleId, staffRole)) as SQL,
    },
    {
      name: 'per role (Gost)',
      url: `/api/user/users-per-role?roleId=${guestRole}`,
      where: and(isNull(users.deletedAt), eq(users.roleId, guestRole)) as SQL,
    },
    { name: 'guests', url: '/api/user/guests', where: and(isNull(users.deletedAt), isGuestCondition()) as SQL, key: 'guests' },
    {
      name: 'search',
      url: `/api/search/user?eng=${terms.eng}&srb=${encodeURIComponent(terms.srb)}`,
      where: and(memberCondition(scope), matchCondition(users.searchText, searchTerms(terms))) as SQL,
    },
  ];
}
const LIST_NAMES = ['all users', "one group's", 'per role (Zaposleni)', 'per role (Gost)', 'guests', 'search'] as const;
/** One case per sort key (both ways), and one for the default order. */
const SORT_CASES: [string, UserSorting[]][] = [
  ['in the default order', [{}]],
  ...LIST_SORTS.users.map((sort): [string, UserSorting[]] => [`by ${sort}`, (['asc', 'desc'] as const).map((order) => ({ sort, order }))]),
];

// One case per caller, list and sort key, each a few dozen requests: the whole enumeration in one case
// ran past the test timeout on a busy machine.
describe.each(['admin', 'manager'])('the users lists built in SQL, as the %s', (callerName) => {
  describe.each(LIST_NAMES)('%s', (listName) => {
    it.each(SORT_CASES)('equal the presenter on every page, %s', async (_, sorts) => {
      const caller = callers.find((c) => c.name === callerName);
      const list = caller && listsFor(caller.scope).find((l) => l.name === listName);
      if (!caller || !list) throw new Error(`no ${callerName} or ${listName}`);
      const searched = list.url.startsWith('/api/search/');
      // A search's pages one row at a time too: after page 1 its count is kept, and each page in the
      // second half is read from the end (usersPageJson's fromEnd) — every position checked.
      const pages: (readonly [number, number])[] = [
        [1, 50000],
        [1, 3],
        [2, 3],
        [99, 3],
      ];
      if (searched) pages.push([2, 2], [3, 2], ...[1, 2, 3, 4, 5, 6].map((p) => [p, 1] as const));
      for (const sorting of sorts) {
        for (const [page, limit] of pages) {
          const query = new URLSearchParams({ page: String(page), limit: String(limit), ...sorting });
          const url = `${list.url}${list.url.includes('?') ? '&' : '?'}${query}`;
          const res = await t.call({ method: 'GET', url, token: caller.token });
          const label = `${caller.name} ${url}`;
          expect(res.statusCode, `${label} ${res.body}`).toBe(200);
          expect(res.headers['content-type']).toMatch(/^application\/json/);
          const expected = await presented(list.where, { page, limit, ...sorting }, list.key);
          expect(res.json(), label).toEqual(expected);
          // The same keys in the same order as presentUser.
          expect(JSON.stringify(res.json()), label).toBe(JSON.stringify(expected));
          if (page === 1 && limit === 50000) {
            const shown = res.json()[list.key ?? 'users'] as UserDto[];
            expect(shown.length, label).toBeGreaterThan(0);
          }
        }
      }
    });
  });
});

describe('the test data of the users lists', () => {
  it('hold a saved table, a non-array table, a group without a type, a quote, a backslash and a tab', async () => {
    const all = (await t.call({ method: 'GET', url: '/api/user?limit=50000', token: callers[0]?.token })).json().users as UserDto[];
    expect(all.some((u) => u.tabela.length === 1 && u.pismo === 'lat')).toBe(true);
    expect(all.find((u) => u.prezime === 'Džonić "Dž"')?.tabela).toEqual([]);
    expect(all.find((u) => u.prezime === 'Lukić \\ kosa')?.grupa).toMatchObject({ tip: '', tipKod: null, naziv: 'Bez tipa "tim"' });
    expect(all.some((u) => u.prezime === 'Njegoš\ttab')).toBe(true);
  });
});

describe("a search's count kept by the users' version", () => {
  it('is counted again after every change the search reads, and only then', async () => {
    const [admin, manager] = callers;
    if (!admin || !manager) throw new Error('callers missing');
    const totals = async () =>
      Promise.all(
        [admin, manager].map(async (caller) => {
          const res = await t.call({ method: 'GET', url: '/api/search/user?eng=zapamcen&srb=&page=1&limit=2', token: caller.token });
          expect(res.statusCode, res.body).toBe(200);
          return res.json().totalResults as number;
        }),
      );
    expect(await totals()).toEqual([0, 0]);
    const first = await createUser(t.db, { ime: 'Zapamćen', prezime: 'Prvi', groupId: tree.leaf.id });
    expect(await totals()).toEqual([1, 1]);
    const outside = await createUser(t.db, { ime: 'Zapamćen', prezime: 'Drugi', groupId: tree.other.id });
    expect(await totals()).toEqual([2, 1]);
    // Renamed out of the search and back, moved out of the Rukovodilac's scope, deactivated (soft delete), deleted.
    await t.db.update(users).set({ ime: 'Promenjen' }).where(eq(users.id, first.id));
    expect(await totals()).toEqual([1, 0]);
    await t.db.update(users).set({ ime: 'Zapamćen' }).where(eq(users.id, first.id));
    expect(await totals()).toEqual([2, 1]);
    await t.db.update(users).set({ groupId: tree.other.id }).where(eq(users.id, first.id));
    expect(await totals()).toEqual([2, 0]);
    await t.db.update(users).set({ groupId: tree.leaf.id, email: 'zapamcen.treci@primer.rs' }).where(eq(users.id, outside.id));
    expect(await totals()).toEqual([2, 1]);
    await t.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, outside.id));
    expect(await totals()).toEqual([1, 0]);
    await t.db.delete(users).where(eq(users.id, outside.id));
    expect(await totals()).toEqual([1, 0]);
    // A change the search does not read keeps the count; one made with the triggers off (the version
    // unmoved) shows that the count is indeed kept, not counted again.
    await t.db
      .update(users)
      .set({ tables: [{ tabela: 'x' }], pismo: 'lat' })
      .where(eq(users.id, first.id));
    expect(await totals()).toEqual([1, 0]);
    await withoutKeptVerify(t, async () => {
      await t.db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.update(users).set({ groupId: tree.leaf.id }).where(eq(users.id, first.id));
      });
      expect(await totals()).toEqual([1, 0]);
    });
    await t.db.update(users).set({ ime: 'Zapamćen ' }).where(eq(users.id, first.id));
    expect(await totals()).toEqual([1, 1]);
  });
});
