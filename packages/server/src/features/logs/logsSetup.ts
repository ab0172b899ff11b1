import type { LogDto } from '@trasa/domain';
import { type SQL, sql } from 'drizzle-orm';
import { beforeAll } from 'vitest';
import { type TestApp, useTestApp } from '../../../test/harness.js';
import { addLogs } from '../../../test/logData.js';
import { createOrgTree, createUser, tokenFor } from '../../seed/factories.js';

/**
 * What the log tests share (logs.*.test.ts): an org tree's tokens, rows written at known minutes in each
 * group, and helpers to list them and read the planner's estimate.
 */

/** The running test file's app (set by its set-up: the modules are shared between a worker's files). */
export let t: TestApp;

type Tree = Awaited<ReturnType<typeof createOrgTree>>;
export let tree: Tree;
export let adminToken: string;
export let managerToken: string;
export let leafToken: string;
export let otherToken: string;
/** Messages in the order written (oldest first). */
export const written: string[] = [];

export const at = (minute: number) => new Date(Date.UTC(2025, 4, 10, 8, minute, 0));
export const g = (row: { id: string; cirilica: string }) => ({ id: row.id, cirilica: row.cirilica });

export const list = (url: string, token = adminToken) => t.call({ method: 'GET', url, token });
export const messagesOf = (body: { logs: LogDto[] }) => body.logs.map((l) => l.message);
/** The planner's estimate of the log rows `where` selects (all without it), as EXPLAIN answers it. */
export async function explained(where?: SQL): Promise<number> {
  const plan = await t.db.execute<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
    sql`explain (format json) select 1 from audit_logs${where ? sql` where ${where}` : sql``}`,
  );
  return plan.rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0;
}
/** Rows this file wrote (requests of the tests add sign-in-free rows only when they delete). */
export const ours = (body: { logs: LogDto[] }) => messagesOf(body).filter((m) => written.includes(m));

/**
 * Registers the set-up of the calling test file: its own app and data, read through the bindings above
 * while its tests run (vitest isolate: false shares this module between a worker's files).
 */
export function setupLogs(): void {
  const app = useTestApp();
  beforeAll(async () => {
    t = app;
    // This file's rows only (the module is shared with the worker's other files).
    written.length = 0;
    tree = await createOrgTree(t.db, 'Log');
    adminToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
    managerToken = await tokenFor(t.ctx, tree.manager);
    leafToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id }));
    otherToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: tree.other.id }));
    const specs = [
      { message: 'Korisnik a@root.rs je dodao klaster Đurđevo.', group: g(tree.root), createdAt: at(1) },
      { message: 'Korisnik b@mid.rs je izmenio klaster Zlatibor.', group: g(tree.mid), createdAt: at(2), url: '/api/location/1' },
      { message: 'Korisnik c@leaf.rs se prijavio.', group: g(tree.leaf), createdAt: at(3), ip: '10.20.30.40' },
      { message: 'Korisnik d@other.rs je otvorio temu na klasteru Ćuprija.', group: g(tree.other), createdAt: at(4) },
      { message: 'Neuspešna prijava: niko@primer.rs.', userLabel: 'niko@primer.rs', group: null, createdAt: at(5) },
      {
        message: 'Korisnik e@leaf.rs je komentarisao 100% završeno.',
        group: g(tree.leaf),
        createdAt: at(6),
        userLabel: 'Јована Јовић (e@leaf.rs)',
      },
    ];
    await addLogs(t.db, specs);
    written.push(...specs.map((s) => s.message));
  });
}
