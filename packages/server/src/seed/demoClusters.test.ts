import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/harness.js';
import { users } from '../db/schema.js';
import { seedDemo } from './demo.js';
import { DEMO_CLUSTERS, DEMO_PRIORITIES, DEMO_SETTLEMENTS, seedDemoClusters } from './demoClusters.js';
import { createUser, tokenFor } from './factories.js';

const t = useTestApp();

describe('demo clusters seed', () => {
  it('adds settlements, priorities and clusters with the demo groups, once', async () => {
    await seedDemo(t.db);
    expect(await seedDemoClusters(t.db)).toEqual({
      settlements: DEMO_SETTLEMENTS.length,
      priorities: DEMO_PRIORITIES.length,
      clusters: DEMO_CLUSTERS.length,
    });
    expect(await seedDemoClusters(t.db)).toEqual({ settlements: 0, priorities: 0, clusters: 0 });
    expect(DEMO_SETTLEMENTS.length).toBeGreaterThanOrEqual(25);

    const admin = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
    const { locations, totalResults } = (await t.call({ method: 'GET', url: '/api/location?limit=100', token: admin })).json();
    expect(totalResults).toBe(DEMO_CLUSTERS.length);
    // The list carries what its table shows (naselja: []); each cluster's detail carries its settlements.
    for (const location of locations) {
      expect(location.odgovoran.length, location.naziv).toBeGreaterThan(0);
      const detail = (await t.call({ method: 'GET', url: `/api/location/${location._id}`, token: admin })).json().location;
      expect(detail.naselja.length, location.naziv).toBeGreaterThan(0);
    }
    const listed = locations.find((l: { naziv: string }) => l.naziv === 'Užice 1 - Kremna');
    const kremna = (await t.call({ method: 'GET', url: `/api/location/${listed._id}`, token: admin })).json().location;
    expect(kremna.naselja.map((n: { naziv: string }) => n.naziv)).toEqual(['Kremna', 'Mokra Gora']);
    expect(kremna.usputnaNaselja[0]).toMatchObject({ naziv: 'Zlakusa', opstina: ['Užice'] });

    // An employee of Optika Gradnja sees their firm's clusters only.
    const [stefan] = await t.db.select().from(users).where(eq(users.email, 'stefan.markovic@optikagradnja.rs'));
    const mine = (await t.call({ method: 'GET', url: '/api/location?limit=100', token: await tokenFor(t.ctx, stefan as never) })).json();
    expect(new Set(mine.locations.map((l: { naziv: string }) => l.naziv))).toEqual(
      new Set(['Čajetina 1 - Sirogojno', 'Raška - Jošanička Banja']),
    );

    const { priorities } = (await t.call({ method: 'GET', url: '/api/priority', token: admin })).json();
    expect(priorities.map((p: { naziv: string; broj: number }) => [p.naziv, p.broj])).toEqual([
      ['Nizak', 1],
      ['Srednji', 2],
      ['Visok', 3],
    ]);
  });
});
