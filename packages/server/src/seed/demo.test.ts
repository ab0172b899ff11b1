import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/harness.js';
import { groups, users } from '../db/schema.js';
import { DEMO_GROUPS, DEMO_USERS, seedDemo } from './demo.js';

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
});
