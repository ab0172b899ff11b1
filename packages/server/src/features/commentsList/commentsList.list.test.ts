import { COMMENT_LIST, COMMON, type CommentListDto } from '@trasa/domain';
import { desc, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activityOf, addComment } from '../../../test/activityData.js';
import { said } from '../../../test/harness.js';
import { auditLogs } from '../../db/schema.js';
import { activityCatalogue, activityComments } from '../../db/schema-activities.js';
import { createCluster, createGroup, createUser, tokenFor } from '../../seed/factories.js';
import {
  adminToken,
  at,
  clusterIds,
  guestToken,
  ids,
  komentari,
  leafToken,
  list,
  managerToken,
  otherToken,
  setupCommentsList,
  t,
} from './commentsListSetup.js';

setupCommentsList();
describe('comments list', () => {
  it('lists every comment for the Admin, newest first, with author, activity and cluster', async () => {
    const res = await list('/api/comment?page=1&limit=10');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(komentari(body)).toEqual(['Надзор: датум потврђен.', 'Čeka se saglasnost Srbijagasa.', 'Trasa prelazi preko njive.']);
    expect(body.totalResults).toBe(3);
    expect(body.comments[2]).toEqual({
      _id: ids.first,
      komentar: 'Trasa prelazi preko njive.',
      createdAt: at(1).toISOString(),
      user: { ime: 'Đorđe', prezime: 'Živković', email: 'djordje@izvodjac.rs' },
      aktivnost: ids.a1,
      kratakNaziv: 'A1',
      naziv: expect.any(String),
      lokacija: { _id: clusterIds.mine, naziv: 'Klaster Šabac' },
    });
    // A deleted account, and an author row that is gone: no person shown ('Korisnik je obrisan').
    expect(body.comments[1].user).toBeNull();
    expect(body.comments[0].user).toBeNull();
    const page2 = (await list('/api/comment?page=2&limit=2')).json();
    expect(komentari(page2)).toEqual(['Trasa prelazi preko njive.']);
    expect(page2.totalResults).toBe(3);
  });

  it('shows others only the comments of the clusters they see', async () => {
    expect(komentari((await list('/api/comment', leafToken)).json())).toEqual([
      'Čeka se saglasnost Srbijagasa.',
      'Trasa prelazi preko njive.',
    ]);
    expect(komentari((await list('/api/comment', managerToken)).json())).toEqual([
      'Čeka se saglasnost Srbijagasa.',
      'Trasa prelazi preko njive.',
    ]);
    const other = (await list('/api/comment', otherToken)).json();
    expect(other).toMatchObject({ totalResults: 1 });
    expect(komentari(other)).toEqual(['Надзор: датум потврђен.']);
    expect((await list('/api/comment', guestToken)).statusCode).toBe(403);
    // A group that sees everything sees them all.
    const all = await createGroup(t.db, { type: 'NARUCILAC', sveVideci: true });
    const seer = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: all.id }));
    expect((await list('/api/comment', seer)).json().totalResults).toBe(3);
  });

  it('searches comment, author, cluster and activity in both scripts, within the scope', async () => {
    const search = async (query: string, token = adminToken) => komentari((await list(`/api/search/comment?${query}`, token)).json());
    const both = (text: string, cyr: string) => `eng=${encodeURIComponent(text)}&srb=${encodeURIComponent(cyr)}`;
    expect(await search(both('njive', 'њиве'))).toEqual(['Trasa prelazi preko njive.']);
    expect(await search(`eng=${encodeURIComponent('ЊИВЕ')}`)).toEqual(['Trasa prelazi preko njive.']);
    expect(await search(both('datum potvrdjen', 'датум потврдјен'))).toEqual(['Надзор: датум потврђен.']);
    expect(await search(both('djordje', 'дјордје'))).toEqual(['Trasa prelazi preko njive.']);
    expect(await search(both('cacak', 'цацак'))).toEqual(['Čeka se saglasnost Srbijagasa.']);
    expect(await search(both('nis', 'нис'), leafToken)).toEqual([]);
    expect(await search(both('klaster', 'кластер'), leafToken)).toEqual(['Čeka se saglasnost Srbijagasa.', 'Trasa prelazi preko njive.']);
    expect(await search('eng=%25')).toEqual([]);
    const res = (await list(`/api/search/comment?${both('klaster', 'кластер')}&page=1&limit=1`)).json();
    expect(res.totalResults).toBe(3);
    expect(res.comments).toHaveLength(1);
  });

  it('finds comments by the code or name of their activity and pages a search newest first (issue 15)', async () => {
    const search = async (query: string, token = adminToken) => (await list(`/api/search/comment?${query}`, token)).json();
    expect(komentari(await search('eng=A7'))).toEqual(['Čeka se saglasnost Srbijagasa.']);
    const [a7] = await t.db.select().from(activityCatalogue).where(eq(activityCatalogue.code, 'A7'));
    expect(komentari(await search(`eng=${encodeURIComponent(a7?.naziv ?? '')}`))).toContain('Čeka se saglasnost Srbijagasa.');
    // Only within the caller's clusters: the leaf doesn't see the A2 of the foreign cluster, which the Admin
    // finds. (Not "nothing at all": the author arm may match 'a2' inside a generated e-mail address.)
    expect(komentari(await search('eng=A2'))).toContain('Надзор: датум потврђен.');
    expect(komentari(await search('eng=A2', leafToken))).not.toContain('Надзор: датум потврђен.');
    const pages = [1, 2, 3, 4].map((page) => search(`eng=klaster&page=${page}&limit=1`));
    const answers = await Promise.all(pages);
    expect(answers.map((a) => komentari(a))).toEqual([
      ['Надзор: датум потврђен.'],
      ['Čeka se saglasnost Srbijagasa.'],
      ['Trasa prelazi preko njive.'],
      [],
    ]);
    expect(answers.map((a) => a.totalResults)).toEqual([3, 3, 3, 3]);
  });

  it('lets only the Admin delete, logging how many', async () => {
    const extra = await addComment(t.db, { activityId: ids.a1 as string, userId: null, komentar: 'Za brisanje', createdAt: at(9) });
    const extra2 = await addComment(t.db, { activityId: ids.a1 as string, userId: null, komentar: 'Za brisanje 2', createdAt: at(9) });
    const payload = { komentari: [extra.id, extra2.id] };
    for (const token of [managerToken, leafToken]) {
      expect((await t.call({ method: 'DELETE', url: '/api/comment/', payload, token })).statusCode).toBe(403);
    }
    const res = await t.call({ method: 'DELETE', url: '/api/comment/', payload, token: adminToken });
    expect(res.json()).toEqual({ message: said(COMMENT_LIST.deleted) });
    expect(await t.db.select().from(activityComments).where(inArray(activityComments.id, payload.komentari))).toEqual([]);
    const [log] = await t.db.select().from(auditLogs).orderBy(desc(auditLogs.createdAt)).limit(1);
    expect(log?.message).toMatch(/je obrisao 2 komentara na aktivnostima\.$/);
    const again = await t.call({ method: 'DELETE', url: '/api/comment/', payload, token: adminToken });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(said(COMMON.notFound));
    const empty = await t.call({ method: 'DELETE', url: '/api/comment/', payload: { komentari: [] }, token: adminToken });
    expect(empty.json()).toMatchObject({ message: said(COMMENT_LIST.noneChosen) });
  });
});

describe("the comment's copies of its author (drizzle/0014: the sorts by author and e-mail read them)", () => {
  /** Comments whose copies differ from their author's name and e-mail as the SortMap's subqueries read them. */
  const stale = async () =>
    (
      await t.db.execute(sql`select count(*)::int as n from activity_comments ac left join users u on u.id = ac.user_id
        where ac.author_name is distinct from u.ime || ' ' || u.prezime or ac.author_email is distinct from u.email`)
    ).rows[0]?.n;

  it('follow a new comment, a rename, an anonymised account and a removed user', async () => {
    const writer = await createUser(t.db, { role: 'Zaposleni', ime: 'Ana', prezime: 'Zec', email: 'ana.zec@trasa.test' });
    const comment = await addComment(t.db, {
      activityId: ids.a1 as string,
      userId: writer.id,
      komentar: 'Kopija autora.',
      createdAt: at(9),
    });
    const [copy] = (await t.db.execute(sql`select author_name, author_email from activity_comments where id = ${comment.id}`)).rows as {
      author_name: string;
      author_email: string;
    }[];
    expect(copy).toEqual({ author_name: 'Ana Zec', author_email: 'ana.zec@trasa.test' });
    expect(await stale()).toBe(0);
    await t.db.execute(sql`update users set ime = 'Čedomir', email = 'cedomir@trasa.test' where id = ${writer.id}`);
    expect(await stale()).toBe(0);
    const byName = (await list('/api/comment?sort=ime&order=asc&limit=100')).json() as { comments: CommentListDto[] };
    expect(byName.comments.map((c) => c.komentar)).toContain('Kopija autora.');
    await t.db.execute(sql`delete from users where id = ${writer.id}`);
    expect(await stale()).toBe(0);
    const [gone] = (await t.db.execute(sql`select author_name from activity_comments where id = ${comment.id}`)).rows;
    expect(gone?.author_name).toBeNull();
  });
});

describe("a search's total (issue 15: the count of a common word's matches)", () => {
  it('is exact past 1,000 matches (up to 10,000, as the list)', async () => {
    const before = (await list('/api/comment?page=1&limit=10')).json().totalResults as number;
    await t.db.execute(sql`insert into activity_comments (activity_id, user_id, komentar, created_at)
      select ${ids.a1}, null, 'Optički kabl položen, deonica ' || n, now() - n * interval '1 minute'
      from generate_series(1, 1005) n`);
    await t.db.execute(sql`analyze activity_comments`);
    const search = async (query: string) => (await list(`/api/search/comment?${query}&page=1&limit=10`)).json();
    const common = await search('eng=deonica');
    expect(common.comments).toHaveLength(10);
    expect(common.totalResults).toBe(1005);
    // Exact below the limit: 'deonica 100' is in the 100th and the 1000th to 1005th, and no comment has the other.
    expect((await search('eng=deonica 100')).totalResults).toBe(7);
    expect((await search('eng=nepostojeca rec')).totalResults).toBe(0);
    // The list itself stays exact up to 10,000.
    expect((await list('/api/comment?page=1&limit=10')).json().totalResults).toBe(before + 1005);
  });
});

describe("the comment's kept search texts (drizzle/0024: the search's author, cluster and activity arms read them)", () => {
  /** Comments whose kept texts differ from what the arms read before: the author's, cluster's and catalogue's folded text. */
  const stale = async () =>
    (
      await t.db.execute(sql`select count(*)::int as n from activity_comments ac
        join activities a on a.id = ac.activity_id join clusters c on c.id = a.cluster_id
        join activity_catalogue k on k.code = a.code left join users u on u.id = ac.user_id
        where ac.author_search is distinct from u.search_text or ac.cluster_search is distinct from c.search_text
          or ac.activity_search is distinct from trasa_fold(k.code || ' ' || k.naziv)`)
    ).rows[0]?.n;

  /**
   * The search as it was before drizzle/0024 (the authors, clusters and catalogue entries found first,
   * their comments by id), in the list's order: the ids the Admin must get.
   */
  const reference = async (term: string) => {
    const like = `%${term}%`;
    const rows = await t.db.execute(sql`select ac.id from activity_comments ac
      where ac.search_text like ${like}
        or ac.user_id in (select u.id from users u where u.search_text like ${like})
        or ac.activity_id in (select a.id from activities a
          where a.cluster_id in (select c.id from clusters c where c.search_text like ${like})
            or a.code in (select k.code from activity_catalogue k where trasa_fold(k.code || ' ' || k.naziv) like ${like}))
      order by ac.created_at desc, ac.id desc`);
    return rows.rows.map((r) => r.id as string);
  };
  const found = async (term: string, token = adminToken) => {
    const res = await list(`/api/search/comment?eng=${encodeURIComponent(term)}&page=1&limit=100`, token);
    expect(res.statusCode).toBe(200);
    return (res.json().comments as CommentListDto[]).map((c) => c._id);
  };
  /** The Admin's answer equals the reference; the leaf's is the reference within its clusters, in the same order. */
  const agrees = async (term: string) => {
    const expected = await reference(term);
    expect(await found(term), term).toEqual(expected);
    const leafSees = new Set(
      ((await list('/api/comment?page=1&limit=100', leafToken)).json().comments as CommentListDto[]).map((c) => c._id),
    );
    expect(await found(term, leafToken), term).toEqual(expected.filter((id) => leafSees.has(id)));
    return expected;
  };

  it('follow a new comment, renamed authors, clusters and catalogue entries, a moved activity and a removed user', async () => {
    await t.db.execute(sql`delete from activity_comments where komentar like 'Optički kabl položen, deonica %'`);
    const writer = await createUser(t.db, { role: 'Zaposleni', ime: 'Radomir', prezime: 'Zlatić', email: 'radomir@trasa.test' });
    const vrnjci = await createCluster(t.db, { naziv: 'Klaster Vrnjačka Banja', groupIds: [] });
    const a3 = await activityOf(t.db, vrnjci.id, 'A3');
    const comment = await addComment(t.db, { activityId: a3.id, userId: writer.id, komentar: 'Probni tekst.', createdAt: at(20) });
    const visible = await addComment(t.db, {
      activityId: ids.a1 as string,
      userId: writer.id,
      komentar: 'Vidljiv tekst.',
      createdAt: at(21),
    });
    expect(await stale()).toBe(0);
    expect(await agrees('zlatic')).toEqual([visible.id, comment.id]);
    expect(await agrees('vrnjacka')).toEqual([comment.id]);
    expect(await found('zlatic', leafToken)).toEqual([visible.id]);

    await t.db.execute(sql`update users set prezime = 'Bogdanović' where id = ${writer.id}`);
    expect(await stale()).toBe(0);
    expect(await agrees('zlatic')).toEqual([]);
    expect(await agrees('bogdanovic')).toEqual([visible.id, comment.id]);

    await t.db.execute(sql`update clusters set naziv = 'Klaster Sokobanja' where id = ${vrnjci.id}`);
    expect(await stale()).toBe(0);
    expect(await agrees('vrnjacka')).toEqual([]);
    expect(await agrees('sokobanja')).toEqual([comment.id]);

    const [a3Entry] = await t.db.select().from(activityCatalogue).where(eq(activityCatalogue.code, 'A3'));
    await t.db.update(activityCatalogue).set({ naziv: 'Privremeno ime Šljivovica' }).where(eq(activityCatalogue.code, 'A3'));
    try {
      expect(await stale()).toBe(0);
      expect(await agrees('sljivovica')).toEqual([comment.id]);
    } finally {
      await t.db
        .update(activityCatalogue)
        .set({ naziv: a3Entry?.naziv ?? '' })
        .where(eq(activityCatalogue.code, 'A3'));
    }
    expect(await stale()).toBe(0);
    expect(await agrees('sljivovica')).toEqual([]);

    // The activity moved into the leaf's cluster (its own A3 removed first: one record per code): the leaf finds it.
    await t.db.execute(sql`delete from activities where id = ${(await activityOf(t.db, clusterIds.mine, 'A3')).id}`);
    await t.db.execute(sql`update activities set cluster_id = ${clusterIds.mine} where id = ${a3.id}`);
    expect(await stale()).toBe(0);
    expect(await agrees('sokobanja')).toEqual([]);
    expect(await agrees('sabac')).toContain(comment.id);
    expect(await found('bogdanovic', leafToken)).toEqual([visible.id, comment.id]);

    await t.db.execute(sql`delete from users where id = ${writer.id}`);
    expect(await stale()).toBe(0);
    expect(await agrees('bogdanovic')).toEqual([]);
    for (const term of ['a3', 'klaster', 'trasa', 'djordj', 'sab', 'saglasnost', 'a7']) await agrees(term);
  });
});
