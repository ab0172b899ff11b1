import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/harness.js';
import { groups } from '../db/schema.js';
import { DEMO_GROUPS, seedDemo } from './demo.js';

/** Issue 14: the demo's groups are added as the screens add them, so a subtree sees what its root decides. */

const t = useTestApp();

describe('demo groups', () => {
  it("every group takes its parent's type and 'sees all' flag (the ministry's whole tree sees all)", async () => {
    await seedDemo(t.db);
    const all = await t.db.select().from(groups);
    const byId = new Map(all.map((g) => [g.id, g]));
    const rootOf = (id: string): (typeof all)[number] => {
      const g = byId.get(id) as (typeof all)[number];
      return g.parentId ? rootOf(g.parentId) : g;
    };
    const demo = all.filter((g) => DEMO_GROUPS.some((d) => d.naziv === g.naziv));
    expect(demo).toHaveLength(DEMO_GROUPS.length);
    for (const g of demo) {
      expect(g.sveVideci, g.naziv).toBe(rootOf(g.id).sveVideci);
      expect(g.typeId, g.naziv).toBe(rootOf(g.id).typeId);
    }
    const ministry = demo.filter((g) => rootOf(g.id).naziv === 'Ministarstvo informisanja i telekomunikacija');
    expect(ministry.length).toBeGreaterThanOrEqual(4);
    expect(ministry.every((g) => g.sveVideci)).toBe(true);
  });
});
