import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addComment } from '../../../test/activityData.js';
import { useTestApp } from '../../../test/harness.js';
import { backup, restore } from '../../ops/backup.js';
import { createCluster, createUser, setActivityState } from '../../seed/factories.js';

/**
 * Migrations 0014's and 0028's kept tables and copies survive a backup and restore (ops/backup.ts loads the tables in
 * name order with the triggers on: inventory_items, whose trigger makes the totals, before
 * inventory_totals, whose rows from the archive must then not collide with them).
 */
const t = useTestApp();
let work: string;

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'trasa-restore-inventory-'));
});
afterAll(() => fs.rm(work, { recursive: true, force: true }));

const rowsOf = async (table: string) =>
  (await t.db.execute<{ r: string }>(sql.raw(`select t::text as r from public."${table}" t order by 1`))).rows.map((r) => r.r);

describe('backup and restore with inventory totals and name copies', () => {
  it('gives back the same totals, items and comments, and the totals still follow writes', async () => {
    const cluster = await createCluster(t.db, { naziv: 'OŠ Rezerva' });
    const author = await createUser(t.db, { role: 'Zaposleni', ime: 'Đorđe', prezime: 'Šćepanović' });
    const activity = await setActivityState(t.db, cluster.id, 'A1', {});
    await addComment(t.db, { activityId: activity.id, userId: author.id, komentar: 'Rezerva.', createdAt: new Date() });
    const [type] = (
      await t.db.execute<{ id: string }>(
        sql`insert into inventory_types (naziv, tip, cena, cena_rsd) values ('Čvorište', 'Oprema', 10, 10) returning id`,
      )
    ).rows;
    await t.db.execute(sql`insert into inventory_items (type_id, cluster_id, kolicina, cena_rsd, datum_primopredaje)
      values (${type?.id}, ${cluster.id}, 2.5, 10.01, '2026-03-01'), (${type?.id}, ${cluster.id}, 1, 3, '2026-04-01')`);
    const before = {
      totals: await rowsOf('inventory_totals'),
      locations: await rowsOf('inventory_location_totals'),
      items: await rowsOf('inventory_items'),
      comments: await rowsOf('activity_comments'),
    };
    expect(before.totals).toHaveLength(1);

    const url = t.db.$client.options.connectionString ?? '';
    const archive = path.join(work, 'trasa.tar.gz');
    await backup({ databaseUrl: url, dataDir: t.ctx.config.dataDir, out: archive });
    await t.db.execute(sql`drop schema public cascade`);
    await t.db.execute(sql`create schema public`);
    await t.db.execute(sql`drop schema drizzle cascade`);
    // The test's own application stays connected: a running server as far as the restore can tell.
    await restore({ databaseUrl: url, dataDir: t.ctx.config.dataDir, archive, whileRunning: true });

    expect({
      totals: await rowsOf('inventory_totals'),
      locations: await rowsOf('inventory_location_totals'),
      items: await rowsOf('inventory_items'),
      comments: await rowsOf('activity_comments'),
    }).toEqual(before);
    await t.db.execute(sql`delete from inventory_items where datum_primopredaje = '2026-04-01'`);
    const [after] = (
      await t.db.execute<{ n: number; datum: string }>(sql`select n, datum::text from inventory_totals where cluster_id = ${cluster.id}`)
    ).rows;
    expect(after).toEqual({ n: 1, datum: '2026-03-01' });
    const [location] = (
      await t.db.execute<{ n: number; oprema: string; vrednost: string }>(
        sql`select n, oprema::text, vrednost::text from inventory_location_totals where cluster_id = ${cluster.id}`,
      )
    ).rows;
    expect(location).toEqual({ n: 1, oprema: '25.03', vrednost: '25.03' });
  });
});
