import { eq, not } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/harness.js';
import { groups, users } from '../db/schema.js';
import { topicComments, topics } from '../db/schema-clusters.js';
import { groupsSeeingClusterCondition } from '../features/clusters/policy.js';
import { DEMO_GROUPS, DEMO_USERS, seedDemo } from './demo.js';
import { seedDemoClusters } from './demoClusters.js';
import { seedDemoContracts } from './demoContracts.js';
import { linkDemoClusters } from './demoLinks.js';
import { DEMO_TOPICS, seedDemoTopics } from './demoTopics.js';

const t = useTestApp();

describe('demo seed', () => {
  it('adds groups of every type and users of every role, once', async () => {
    expect(await seedDemo(t.db)).toEqual({ groups: DEMO_GROUPS.length, users: DEMO_USERS.length });
    expect(await seedDemo(t.db)).toEqual({ groups: 0, users: 0 });
    expect(new Set(DEMO_GROUPS.map((g) => g.type))).toEqual(new Set(['NARUCILAC', 'PIU_TA', 'IZVODJAC', 'PROJEKTANT', 'NADZOR']));
    expect(new Set(DEMO_USERS.map((u) => u.role))).toEqual(new Set(['Admin', 'Rukovodilac', 'Zaposleni', 'Gost']));
    const [child] = await t.db.select().from(groups).where(eq(groups.naziv, 'Optika Gradnja - Region Zapad'));
    expect(child?.parentId).not.toBeNull();
    const res = await t.call({
      method: 'POST',
      url: '/api/user/login',
      payload: { email: 'jovana.kostic@optikagradnja.rs', lozinka: 'Lozinka123' },
    });
    expect(res.json().user.grupa).toMatchObject({ naziv: 'Optika Gradnja - Region Zapad', tipKod: 'IZVODJAC' });
    const [guest] = await t.db.select().from(users).where(eq(users.email, 'snezana.jankovic@primer.rs'));
    expect(guest?.groupId).toBeNull();
  });

  it('has trees of three and more levels under the ministry and a contractor, children typed like their parents', async () => {
    const all = await t.db.select().from(groups);
    const byId = new Map(all.map((g) => [g.id, g]));
    const depth = (id: string | null): number => (id ? 1 + depth(byId.get(id)?.parentId ?? null) : 0);
    const rootOf = (id: string): string => {
      const g = byId.get(id);
      return g?.parentId ? rootOf(g.parentId) : (g?.naziv ?? '');
    };
    const deepest = (root: string) => Math.max(...all.filter((g) => rootOf(g.id) === root).map((g) => depth(g.id)));
    expect(deepest('Ministarstvo informisanja i telekomunikacija')).toBeGreaterThanOrEqual(3);
    expect(deepest('Kabl Mreže d.o.o.')).toBeGreaterThanOrEqual(4);
    // The e2e journeys rely on Optika Gradnja's two groups.
    expect(all.filter((g) => rootOf(g.id) === 'Optika Gradnja d.o.o.').map((g) => g.naziv)).toHaveLength(2);
    for (const g of all.filter((x) => x.parentId)) expect(g.typeId, g.naziv).toBe(byId.get(g.parentId as string)?.typeId);
    expect(all.find((g) => g.naziv === 'Kabl Mreže - Tim Niš')?.cirilica).toBe('Кабл Мреже - Тим Ниш');
  });

  it('has a few dozen people with Serbian names, guests without a group, and managers who see their subtree', async () => {
    expect(DEMO_USERS.length).toBeGreaterThanOrEqual(36);
    expect(DEMO_USERS.filter((u) => u.role === 'Gost').length).toBeGreaterThanOrEqual(5);
    for (const letter of ['đ', 'č', 'ć', 'š', 'ž']) {
      expect(
        DEMO_USERS.some((u) => `${u.ime} ${u.prezime}`.toLowerCase().includes(letter)),
        letter,
      ).toBe(true);
    }
    const emails = DEMO_USERS.map((u) => u.email);
    expect(new Set(emails).size).toBe(emails.length);
    expect(emails.every((e) => /^[a-z0-9.@-]+$/.test(e))).toBe(true);
    for (const u of DEMO_USERS)
      if (u.group)
        expect(
          DEMO_GROUPS.some((g) => g.naziv === u.group),
          u.group,
        ).toBe(true);
    const login = await t.call({
      method: 'POST',
      url: '/api/user/login',
      payload: { email: 'dragan.savic@kablmreze.rs', lozinka: 'Lozinka123' },
    });
    const { token } = login.json();
    const list = (await t.call({ method: 'GET', url: '/api/user?limit=100', token })).json();
    expect(list.users.map((u: { email: string }) => u.email).sort()).toEqual(
      [
        'dragan.savic@kablmreze.rs',
        'predrag.obradovic@kablmreze.rs',
        'vesna.ristic@kablmreze.rs',
        'miroslav.kovacevic@kablmreze.rs',
      ].sort(),
    );
    // The Cyrillic-named employee of the ministry: found by an Admin typing Latin, outside Dragan's scope.
    const searchUrl = `/api/search/user?${new URLSearchParams({ eng: 'djurdjev', srb: 'ђурђев' })}`;
    const admin = await t.call({
      method: 'POST',
      url: '/api/user/login',
      payload: { email: 'ana.admin@mit.gov.rs', lozinka: 'Lozinka123' },
    });
    const byAdmin = (await t.call({ method: 'GET', url: searchUrl, token: admin.json().token })).json();
    expect(byAdmin.users.map((u: { email: string }) => u.email)).toEqual(['ljiljana.djurdjevic@mit.gov.rs']);
    expect((await t.call({ method: 'GET', url: searchUrl, token })).json().totalResults).toBe(0);
  });

  it('adds open and closed topics with comments and a hand-over on the demo clusters, once', async () => {
    await seedDemo(t.db);
    await seedDemoClusters(t.db);
    const comments = DEMO_TOPICS.reduce((n, topic) => n + (topic.komentari?.length ?? 0), 0);
    expect(DEMO_TOPICS.length).toBeGreaterThanOrEqual(8);
    expect(await seedDemoTopics(t.db)).toEqual({ topics: DEMO_TOPICS.length, comments });
    expect(await seedDemoTopics(t.db)).toEqual({ topics: 0, comments: 0 });
    // Every topic, and every comment's answering group, belongs to a group that sees the cluster.
    await seedDemoContracts(t.db, t.ctx.files);
    await linkDemoClusters(t.db);
    const blind = await t.db
      .select({ id: topics.id })
      .from(topics)
      .innerJoin(groups, eq(groups.id, topics.groupId))
      .where(not(groupsSeeingClusterCondition(topics.clusterId)));
    expect(blind).toEqual([]);
    const blindComments = await t.db
      .select({ id: topicComments.id })
      .from(topicComments)
      .innerJoin(topics, eq(topics.id, topicComments.topicId))
      .innerJoin(groups, eq(groups.id, topicComments.groupId))
      .where(not(groupsSeeingClusterCondition(topics.clusterId)));
    expect(blindComments).toEqual([]);

    const login = async (email: string) =>
      (await t.call({ method: 'POST', url: '/api/user/login', payload: { email, lozinka: 'Lozinka123' } })).json().token as string;
    type Topic = {
      _id: string;
      nazivKlastera: string;
      opis: string;
      status: string;
      odgovoran: { naziv: string };
      brojKomentara: number;
      updatedAt: string;
    };
    const admin = await login('ana.admin@mit.gov.rs');
    const all = (await t.call({ method: 'GET', url: '/api/topic?limit=100', token: admin })).json() as { data: Topic[]; total: number };
    expect(all.total).toBe(DEMO_TOPICS.length);
    expect(new Set(all.data.map((x) => x.status))).toEqual(new Set(['otvoren', 'zatvoren']));
    const times = all.data.map((x) => x.updatedAt);
    expect(times).toEqual([...times].sort().reverse());

    // Stefan's firm sees the topics of its two clusters; the one handed over to it is theirs to answer.
    const stefan = await login('stefan.markovic@optikagradnja.rs');
    const mine = (await t.call({ method: 'GET', url: '/api/topic?limit=100', token: stefan })).json() as { data: Topic[] };
    expect(new Set(mine.data.map((x) => x.nazivKlastera))).toEqual(new Set(['Čajetina 1 - Sirogojno', 'Raška - Jošanička Banja']));
    const handedOver = mine.data.find((x) => x.nazivKlastera === 'Čajetina 1 - Sirogojno' && x.opis.includes('Rožanstvo'));
    expect(handedOver?.odgovoran.naziv).toBe('Optika Gradnja d.o.o.');
    const detail = (await t.call({ method: 'GET', url: `/api/topic/${handedOver?._id}`, token: stefan })).json();
    expect(detail.canComment).toBe(true);
    expect(detail.data.komentari).toEqual([
      expect.objectContaining({
        createdBy: { ime: 'Vladimir', prezime: 'Ćirić' },
        odgovoranZaOdgovor: expect.objectContaining({ naziv: 'Optika Gradnja d.o.o.' }),
      }),
    ]);
    const vladimir = await login('vladimir.ciric@nadzor-inzenjering.rs');
    expect((await t.call({ method: 'GET', url: `/api/topic/${handedOver?._id}`, token: vladimir })).json().canComment).toBe(false);
  });
});
