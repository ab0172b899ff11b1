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
});
