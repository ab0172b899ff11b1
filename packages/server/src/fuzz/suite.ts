import type { RoleKey } from '@trasa/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../test/endpoints.js';
import { useTestApp } from '../../test/harness.js';
import { createUser, tokenFor } from '../seed/factories.js';
import { type FuzzRequest, type Pools, requestArb } from './arbitraries.js';
import { type DbSnapshot, filesSnapshot, fingerprinter } from './fingerprint.js';
import { type Operation, operationsOf, propertyNames } from './openapi.js';
import { callerGroups, poolsOf, seedWorld } from './world.js';

/**
 * Property tests generated from the OpenAPI document (docs/ARCHITECTURE.md "Reliability suites"): for
 * every operation and every caller (anonymous and each role), requests with malformed and boundary
 * values (arbitraries.ts). No answer is a 5xx, and every refused request (4xx) leaves the database and
 * the file store as they were (fingerprint.ts), checked after each request.
 *
 * A caller the authorization table (test/endpoints.ts) allows gets FUZZ_RUNS requests (20 in
 * `npm test`, 200 in `npm run fuzz`); a caller it refuses is stopped by the authentication hook before
 * the request is read (authorization.test.ts checks that), so it gets FUZZ_REFUSED_RUNS (a tenth as
 * many, at least 2) — the same checks, less time. The operations are split over PARTS test files
 * (properties-*.test.ts), each on its own database, so two cores share the work. FUZZ_SEED replays a run, FUZZ_ONLY (a regular expression over
 * "METHOD /route") narrows it. `login_failures` is left out of the comparison: counting refused
 * sign-ins is its purpose.
 */
const RUNS = Number(process.env.FUZZ_RUNS || 20);
const REFUSED_RUNS = Number(process.env.FUZZ_REFUSED_RUNS || Math.max(2, Math.ceil(RUNS / 10)));
export const PARTS = 2;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const ONLY = process.env.FUZZ_ONLY ? new RegExp(process.env.FUZZ_ONLY) : undefined;
const CALLERS = ['anonymous', 'Gost', 'Zaposleni', 'Rukovodilac', 'Admin'] as const;
type Caller = (typeof CALLERS)[number];

/**
 * Refusals that are recorded by design: a failed sign-in adds exactly one audit row (docs/decisions.md
 * "Answers and logs": audit rows for sign-in success and failure). Nothing else may change.
 */
const AUDITED_REFUSALS = new Set(['POST /api/user/login']);
const rowsOf = (snapshot: DbSnapshot, table: string) => Number(snapshot.get(table)?.split(':')[0] ?? Number.NaN);

/** Declares the tests of one part (every PARTS-th operation from `part`) in the calling test file. */
export async function fuzzSuite(part: number): Promise<void> {
  const t = useTestApp();
  // The document is built from the routes at start: read it before the tests are declared.
  const document = await (async () => {
    const { buildApp } = await import('../app.js');
    const { loadConfig } = await import('../config.js');
    const { connect } = await import('../platform/database.js');
    const pino = (await import('pino')).default;
    const db = connect('postgres://nobody@127.0.0.1:1/none', 1);
    const { app } = await buildApp({
      db,
      config: { ...loadConfig({}), webDist: '/nonexistent' },
      secret: 'f'.repeat(64),
      log: pino({ level: 'silent' }),
    });
    await app.ready();
    const doc = app.swagger();
    await app.close();
    await db.$client.end();
    return doc;
  })();
  const operations = operationsOf(document)
    .filter((op) => !ONLY || ONLY.test(`${op.method} ${op.route}`))
    .filter((_, i) => i % PARTS === part);

  let pools: Pools;
  let groupOf: Partial<Record<RoleKey, string>>;
  let fingerprint: ReturnType<typeof fingerprinter>;
  /** Time per operation (all callers), the ten slowest printed in the summary. */
  const slowest = new Map<string, number>();
  const stats = { requests: 0, refused: 0, accepted: 0, sendMs: 0, checkMs: 0, byStatus: new Map<number, number>() };

  async function tokenOf(caller: Caller): Promise<string | undefined> {
    if (caller === 'anonymous') return undefined;
    const user = await createUser(t.db, { role: caller, groupId: groupOf[caller] ?? null });
    return tokenFor(t.ctx, user);
  }

  const describeRequest = (r: FuzzRequest) =>
    `${r.method} ${r.url} ${JSON.stringify(r.headers)} ${Buffer.isBuffer(r.payload) ? `<${r.payload.length} bytes multipart>` : (r.payload ?? '').slice(0, 300)}`;

  describe(`property tests from the OpenAPI document, part ${part + 1} of ${PARTS}`, () => {
    it('seeds the demo data and reads the document', { timeout: 120_000 }, async () => {
      const started = Date.now();
      await seedWorld(t.db, t.ctx.config.dataDir);
      pools = await poolsOf(t.db, propertyNames(document));
      groupOf = await callerGroups(t.db);
      fingerprint = fingerprinter(t.db, { ignore: ['login_failures'] });
      expect(operations.length).toBeGreaterThan(ONLY ? -1 : 50);
      expect(pools.ids.length).toBeGreaterThan(20);
      console.info(
        `fuzz: ${operations.length} operations × ${CALLERS.length} callers × ${RUNS} runs; seeded in ${Date.now() - started} ms`,
      );
    });

    for (const op of operations) {
      for (const caller of CALLERS) {
        it(`${op.method} ${op.route} as ${caller}`, { timeout: 60_000 + RUNS * 2_000 }, async () => {
          const started = performance.now();
          await runProperty(op, caller);
          const key = `${op.method} ${op.route}`;
          slowest.set(key, (slowest.get(key) ?? 0) + performance.now() - started);
        });
      }
    }

    it('summary', () => {
      console.info(
        `fuzz: ${stats.requests} requests (${Math.round(stats.sendMs)} ms answering, ${Math.round(stats.checkMs)} ms comparing snapshots), ${stats.refused} refused, ${stats.accepted} accepted; by status ${JSON.stringify(Object.fromEntries([...stats.byStatus].sort(([a], [b]) => a - b)))}`,
      );
      const top = [...slowest].sort(([, a], [, b]) => b - a).slice(0, 10);
      console.info(`fuzz: slowest operations ${top.map(([k, ms]) => `${k} ${Math.round(ms)} ms`).join('; ')}`);
      expect(stats.requests).toBeGreaterThan(0);
    });
  });

  /**
   * Whether the authorization table (test/endpoints.ts) lets a caller of this role in a regular group use
   * the operation; only the number of runs depends on it (a route without a row gets the full number).
   */
  function allows(op: Operation, caller: Caller): boolean {
    const row = ENDPOINTS.find((e) => e.method === op.method && e.route === op.route);
    if (!row || row.allowed === 'public') return true;
    if (caller === 'anonymous') return false;
    return row.allowed === 'signedIn' || row.allowed.includes(caller);
  }

  /** FUZZ_RUNS (or FUZZ_REFUSED_RUNS) requests, each answer checked: no 5xx; a 4xx changed nothing. */
  async function runProperty(op: Operation, caller: Caller): Promise<void> {
    const token = await tokenOf(caller);
    const dataDir = t.ctx.config.dataDir;
    let dbBefore: DbSnapshot = await fingerprint.snapshot();
    let filesBefore = await filesSnapshot(dataDir);
    await fc.assert(
      fc.asyncProperty(requestArb(op, pools), async (req) => {
        const res = await send(req, token);
        if (res.statusCode >= 500) throw new Error(`${res.statusCode} ${res.body.slice(0, 300)} for ${describeRequest(req)}`);
        const started = performance.now();
        if (res.statusCode >= 400) {
          stats.refused++;
          const now = await fingerprint.snapshot();
          const files = await filesSnapshot(dataDir);
          stats.checkMs += performance.now() - started;
          const changed = [...now].filter(([table, f]) => dbBefore.get(table) !== f).map(([table]) => table);
          const audited = AUDITED_REFUSALS.has(`${op.method} ${op.route}`) && changed.length === 1 && changed[0] === 'audit_logs';
          if (audited && rowsOf(now, 'audit_logs') === rowsOf(dbBefore, 'audit_logs') + 1) {
            // A refused sign-in is recorded (docs/decisions.md "Answers and logs": audit rows for sign-in failures).
            dbBefore = now;
          } else if (changed.length || files !== filesBefore) {
            const fileNote = files !== filesBefore ? ` files: before [${filesBefore}] after [${files}]` : '';
            throw new Error(
              `refused with ${res.statusCode} ${res.body.slice(0, 200)} yet changed [${changed.join(', ')}]${fileNote} for ${describeRequest(req)}`,
            );
          }
        } else {
          // An accepted request may change data (and finish some of its work after answering): a new baseline.
          stats.accepted++;
          if (req.method !== 'GET') await new Promise((r) => setTimeout(r, 20));
          dbBefore = await fingerprint.snapshot();
          filesBefore = await filesSnapshot(dataDir);
          stats.checkMs += performance.now() - started;
        }
      }),
      { numRuns: allows(op, caller) ? RUNS : REFUSED_RUNS, ...(SEED !== undefined && { seed: SEED }), endOnFailure: true },
    );
  }

  async function send(req: FuzzRequest, token: string | undefined) {
    const started = performance.now();
    const res = await t.app.inject({
      method: req.method,
      url: req.url,
      headers: { ...req.headers, ...(token && { authorization: `Bearer ${token}` }) },
      ...(req.payload !== undefined && { payload: req.payload }),
    });
    stats.requests++;
    stats.sendMs += performance.now() - started;
    stats.byStatus.set(res.statusCode, (stats.byStatus.get(res.statusCode) ?? 0) + 1);
    return res;
  }
}
