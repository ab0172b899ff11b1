import type { ActivityRowDto } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/harness.js';
import { users } from '../db/schema.js';
import { activityFileStore } from '../shared/activityFileStore.js';
import { seedDemo } from './demo.js';
import { seedDemoActivities } from './demoActivities.js';
import { seedDemoClusters } from './demoClusters.js';
import { seedDemoContracts } from './demoContracts.js';
import { linkDemoClusters } from './demoLinks.js';
import { createUser, tokenFor } from './factories.js';

const t = useTestApp();

describe('seedDemoActivities', () => {
  it('puts a few clusters under way with rows of every colour, once', { timeout: 180_000 }, async () => {
    await seedDemo(t.db);
    await seedDemoClusters(t.db);
    await seedDemoContracts(t.db, t.ctx.files);
    await linkDemoClusters(t.db);
    const store = activityFileStore(t.ctx.config.dataDir);
    expect((await seedDemoActivities(t.db, store)).activities).toBeGreaterThan(0);
    expect(await seedDemoActivities(t.db, store)).toEqual({ clusters: 0, activities: 0 });

    // The contractor's regional team sees its late activity in red.
    const [jovana] = await t.db.select().from(users).where(eq(users.email, 'jovana.kostic@optikagradnja.rs'));
    if (!jovana) throw new Error('demo user missing');
    const res = await t.call({ method: 'GET', url: '/api/activity/notifications', token: await tokenFor(t.ctx, jovana) });
    const rows = res.json().activities as ActivityRowDto[];
    expect(rows[0]).toMatchObject({ kratakNaziv: 'A2', boja: 'red', lokacija: { naziv: 'Užice 1 - Kremna' } });

    const admin = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
    const all = (await t.call({ method: 'GET', url: '/api/activity/in-progress?limit=50', token: admin })).json();
    expect(new Set((all.activities as ActivityRowDto[]).map((a) => a.boja))).toEqual(new Set(['red', 'orange', 'blue']));
    const list = (await t.call({ method: 'GET', url: '/api/location?limit=50', token: admin })).json();
    const status = (naziv: string) => list.locations.find((l: { naziv: string }) => l.naziv === naziv)?.status;
    expect([status('Bajina Bašta 2 - Rogačica'), status('Užice 2 - Stapari'), status('Raška - Jošanička Banja')]).toEqual([
      'Završen',
      'U toku',
      'Nije započet',
    ]);
  });
});
