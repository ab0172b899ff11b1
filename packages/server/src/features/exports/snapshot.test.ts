import { count } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { clusters } from '../../db/schema-clusters.js';
import { createCluster } from '../../seed/factories.js';
import { exportSnapshot, openCursor } from './cursor.js';

const t = useTestApp();
const clusterCount = async (db: typeof t.db) => (await db.select({ n: count() }).from(clusters))[0]?.n ?? 0;

describe('an export reads in one snapshot', () => {
  it('its statements see one moment: a row committed meanwhile is in none of them, the cursor included', async () => {
    await createCluster(t.db, { naziv: 'Snimak Prvi' });
    const snapshot = await exportSnapshot(t.ctx);
    try {
      const before = await clusterCount(snapshot.ctx.db);
      await createCluster(t.db, { naziv: 'Snimak Drugi' });
      expect(await clusterCount(t.db)).toBe(before + 1);
      // A later statement of the same export (the next page of a report) still sees the first moment.
      expect(await clusterCount(snapshot.ctx.db)).toBe(before);
      // A service's own transaction inside the export is a savepoint of the snapshot.
      expect(await snapshot.ctx.db.transaction(async (tx) => clusterCount(tx as unknown as typeof t.db))).toBe(before);
      const rows = await openCursor(snapshot.client, { sql: 'select naziv from clusters order by naziv', params: [] });
      const names: unknown[] = [];
      for await (const batch of rows) names.push(...batch.map((r) => r[0]));
      expect(names).toHaveLength(before);
      expect(names).not.toContain('Snimak Drugi');
    } finally {
      await snapshot.end();
    }
  });

  it('is read only, and ends returning its connection (twice is harmless)', async () => {
    const idleBefore = t.db.$client.totalCount - t.db.$client.idleCount;
    const snapshot = await exportSnapshot(t.ctx);
    await expect(createCluster(snapshot.ctx.db, { naziv: 'Snimak Upis' })).rejects.toMatchObject({ cause: { code: '25006' } });
    await snapshot.end();
    await snapshot.end();
    expect(t.db.$client.totalCount - t.db.$client.idleCount).toBe(idleBefore);
    expect(await clusterCount(t.db)).toBeGreaterThan(0);
  });
});
