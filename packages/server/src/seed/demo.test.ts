import type { ActivityDto, ActivityRowDto } from '@trasa/domain';
import { and, asc, eq, like, not, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/harness.js';
import { auditLogs, groups, users } from '../db/schema.js';
import { activities, activityComments, activityFiles } from '../db/schema-activities.js';
import { clusters, topicComments, topics } from '../db/schema-clusters.js';
import { groupsSeeingClusterCondition } from '../features/clusters/policy.js';
import { activityFileStore } from '../shared/activityFileStore.js';
import { DEMO_GROUPS, DEMO_USERS, seedDemo } from './demo.js';
import { DEMO_WORKFLOW_CLUSTERS, seedDemoActivities } from './demoActivities.js';
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
  it('leaves the clusters at every stage of the workflow, with late, rejected and revised activities, once', {
    timeout: 180_000,
  }, async () => {
    await seedDemo(t.db);
    await seedDemoClusters(t.db);
    await seedDemoContracts(t.db, t.ctx.files);
    await linkDemoClusters(t.db);
    const store = activityFileStore(t.ctx.config.dataDir);
    const first = await seedDemoActivities(t.db, store);
    expect(first.clusters).toBe(DEMO_WORKFLOW_CLUSTERS.length);
    expect(first.activities).toBeGreaterThan(150);

    // Running it again changes nothing.
    const state = async () => ({
      activities: await t.db
        .select({ id: activities.id, status: activities.status, version: activities.version, returned: activities.returned })
        .from(activities)
        .orderBy(asc(activities.id)),
      files: (await t.db.select({ n: sql<number>`count(*)::int` }).from(activityFiles))[0]?.n,
      comments: (await t.db.select({ n: sql<number>`count(*)::int` }).from(activityComments))[0]?.n,
      clusters: (await t.db.select({ n: sql<number>`count(*)::int` }).from(clusters))[0]?.n,
    });
    const before = await state();
    expect(await seedDemoActivities(t.db, store)).toEqual({ clusters: 0, activities: 0 });
    expect(await state()).toEqual(before);

    const login = async (email: string) =>
      (await t.call({ method: 'POST', url: '/api/user/login', payload: { email, lozinka: 'Lozinka123' } })).json().token as string;
    const admin = await login('ana.admin@mit.gov.rs');

    // Cluster statuses: two not started (one under no contract), one finished, the rest under way.
    const list = (await t.call({ method: 'GET', url: '/api/location?limit=100', token: admin })).json();
    type Row = { naziv: string; status: string; ugovor: unknown };
    const byStatus = (status: string) =>
      (list.locations as Row[])
        .filter((l) => l.status === status)
        .map((l) => l.naziv)
        .sort();
    expect(byStatus('Nije započet')).toEqual(['Kosjerić - Seča Reka', 'Raška - Jošanička Banja']);
    expect(byStatus('Završen')).toEqual(['Bajina Bašta 2 - Rogačica']);
    expect(byStatus('U toku')).toHaveLength(9);
    expect((list.locations as Row[]).find((l) => l.naziv === 'Kosjerić - Seča Reka')?.ugovor ?? null).toBeNull();

    // What each cluster has in progress: early, permits, works, late in the flow.
    const running = await t.db
      .select({ cluster: clusters.naziv, code: activities.code })
      .from(activities)
      .innerJoin(clusters, eq(clusters.id, activities.clusterId))
      .where(eq(activities.status, 'U toku'))
      .orderBy(asc(clusters.naziv), asc(activities.position));
    const stages: Record<string, string[]> = {};
    for (const r of running) stages[r.cluster] = [...(stages[r.cluster] ?? []), r.code];
    expect(stages).toEqual({
      'Arilje - Brekovo': ['A9'],
      'Bajina Bašta 1 - Perućac': ['A3', 'A4.1'],
      'Čajetina 1 - Sirogojno': ['A3', 'A4'],
      'Čajetina 2 - Mačkat': ['A1'],
      'Ivanjica - Kušići': ['A7', 'A8'],
      'Nova Varoš - Akmačići': ['A24'],
      'Priboj - Kratovo': ['A26.1', 'A27'],
      'Užice 1 - Kremna': ['A2'],
      'Užice 2 - Stapari': ['A13', 'A14'],
    });

    // A demo employee's notifications: the contractor's regional team sees its late activity first, in red.
    const jovana = (
      await t.call({ method: 'GET', url: '/api/activity/notifications', token: await login('jovana.kostic@optikagradnja.rs') })
    ).json();
    expect(jovana.activities[0]).toMatchObject({ kratakNaziv: 'A2', boja: 'red', lokacija: { naziv: 'Užice 1 - Kremna' } });
    const milica = (
      await t.call({ method: 'GET', url: '/api/activity/notifications', token: await login('milica.pavlovic@piuta.rs') })
    ).json();
    expect(milica.activities[0]).toMatchObject({ kratakNaziv: 'A7', boja: 'red', lokacija: { naziv: 'Ivanjica - Kušići' } });
    // The Admin's list: the most overdue first; orange only on Perućac (the supervision's A4.1 among them) and Priboj.
    const rows = (await t.call({ method: 'GET', url: '/api/activity/in-progress?limit=50', token: admin })).json()
      .activities as ActivityRowDto[];
    expect(rows[0]).toMatchObject({ kratakNaziv: 'A2', boja: 'red', lokacija: { naziv: 'Užice 1 - Kremna' } });
    expect(new Set(rows.map((r) => r.boja))).toEqual(new Set(['red', 'orange', 'blue']));
    const orange = rows.filter((r) => r.boja === 'orange').map((r) => `${r.lokacija.naziv} ${r.kratakNaziv}`);
    expect(orange.sort()).toEqual(['Bajina Bašta 1 - Perućac A3', 'Bajina Bašta 1 - Perućac A4.1', 'Priboj - Kratovo A26.1']);

    // A4.1 'Sa primedbama', A4 redone in revision 1 with its '_revizija=1' file, which downloads.
    const activityOf = async (cluster: string, code: string, token = admin) => {
      const [row] = await t.db
        .select({ id: activities.id })
        .from(activities)
        .innerJoin(clusters, eq(clusters.id, activities.clusterId))
        .where(and(eq(clusters.naziv, cluster), eq(activities.code, code)));
      return (await t.call({ method: 'GET', url: `/api/activity/${row?.id}`, token })).json().activity as ActivityDto;
    };
    const a4 = await activityOf('Arilje - Brekovo', 'A4', await login('luka.petkovic@kablmreze.rs'));
    expect(a4).toMatchObject({ status: 'Završena', returned: 1, revizija: 1 });
    const revised = a4.fajlovi.find((f) => f.revizija === 1);
    expect(revised?.originalnoIme).toBe('Idejno rešenje (IDR) - Brekovo_revizija=1.pdf');
    const download = await t.call({
      method: 'GET',
      url: `/api/files/activity/${a4.lokacija._id}/${a4._id}/${revised?._id}`,
      token: await login('luka.petkovic@kablmreze.rs'),
    });
    expect(download.statusCode).toBe(200);
    expect(download.body.startsWith('%PDF-1.4')).toBe(true);
    expect(await activityOf('Arilje - Brekovo', 'A9')).toMatchObject({ status: 'U toku', returned: 1, boja: 'red' });
    // A5.1 'Odbijen IDR' sent A4 back; the LU came with the second request.
    const [rejected] = await t.db
      .select({ message: auditLogs.message })
      .from(auditLogs)
      .where(like(auditLogs.message, '%kontrolu A5.1 na klasteru Ivanjica - Kušići: Odbijen IDR; A4 vraćena na doradu (revizija 1)%'));
    expect(rejected).toBeDefined();
    expect(await activityOf('Ivanjica - Kušići', 'A5.1')).toMatchObject({ status: 'Završena', version: 1, faults: false });

    // A6.1 names real holders; A7 their conditions and fees (all of them where it is finished, three of four where late).
    const stapari = await activityOf('Užice 2 - Stapari', 'A7');
    expect(stapari.podaci.find((d) => d.key === 'IjoNazivi')?.vrednost).toContain('JP „Putevi Srbije“');
    expect(stapari.podaci.filter((d) => d.key === 'A7Taksa').map((d) => Number(d.vrednost))).toEqual(
      expect.arrayContaining([58320, 21450, 12000, 8760]),
    );
    const kusici = await activityOf('Ivanjica - Kušići', 'A7');
    expect(kusici.podaci.filter((d) => d.key === 'A7Taksa')).toHaveLength(3);
    expect(kusici.komentari[0]).toMatchObject({ user: { ime: 'Milica', prezime: 'Pavlović' } });

    // The finished cluster: every activity done, A14.1 once with remarks.
    const rogacica = await activityOf('Bajina Bašta 2 - Rogačica', 'A14');
    expect(rogacica).toMatchObject({ status: 'Završena', returned: 1 });
  });
});
