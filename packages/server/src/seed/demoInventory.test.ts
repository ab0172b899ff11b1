import type { AllInventoryPage, SchoolNotificationsPage } from '@trasa/domain';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/harness.js';
import { seedDemo } from './demo.js';
import { seedDemoClusters } from './demoClusters.js';
import { DEMO_INV_TYPES, seedDemoInventory } from './demoInventory.js';

const t = useTestApp();

describe('demo inventory', () => {
  it('adds contracts with schools, the codebook and items once; a client employee sees a sent and a confirmed list', async () => {
    await seedDemo(t.db);
    await seedDemoClusters(t.db);
    const first = await seedDemoInventory(t.db);
    expect(first).toEqual({ types: DEMO_INV_TYPES.length, contracts: 2, items: 21 });
    expect(await seedDemoInventory(t.db)).toEqual({ types: 0, contracts: 0, items: 0 });
    const login = await t.call({
      method: 'POST',
      url: '/api/user/login',
      payload: { email: 'dejan.milosevic@mit.gov.rs', lozinka: 'Lozinka123' },
    });
    const token = login.json().token as string;
    const all = (await t.call({ method: 'GET', url: '/api/inventory-reports/sve?limit=100', token })).json() as AllInventoryPage;
    expect(all.totalResults).toBe(21);
    expect(new Set(all.allInventory.map((i) => i.lokacija._id)).size).toBe(4);
    const sent = (await t.call({ method: 'GET', url: '/api/school-notification', token })).json() as SchoolNotificationsPage;
    expect(sent.notifications.map((n) => n.potvrdaSkole).sort()).toEqual([false, true]);
    const inv = (await t.call({ method: 'GET', url: '/api/contract?inventory=true', token })).json();
    expect(inv.totalResults).toBe(2);
  });
});
