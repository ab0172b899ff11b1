import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/harness.js';
import { ijoHolders } from '../db/schema-activities.js';
import { DEMO_IJOS, seedDemoIjos } from './demoIjo.js';

const t = useTestApp();

describe('demo IJO holders', () => {
  it('adds the glossary’s holders once, with both payers', async () => {
    expect(await seedDemoIjos(t.db)).toEqual({ ijos: DEMO_IJOS.length });
    expect(await seedDemoIjos(t.db)).toEqual({ ijos: 0 });
    const rows = await t.db.select().from(ijoHolders);
    expect(rows.map((r) => r.naziv).sort()).toEqual(DEMO_IJOS.map((i) => i.naziv).sort());
    expect(new Set(rows.map((r) => r.odgovoran))).toEqual(new Set(['Izvođač', 'Naručilac']));
  });
});
