import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import type { Executor } from '../database.js';
import { KINDS, type TableEvent, VERSIONS } from './kinds.js';

/**
 * The data versions as the migrations build them, compared with kinds.ts: every trigger that moves a
 * version runs trasa_list_changed with the version's name as its argument (drizzle/0020, 0039), so
 * pg_trigger says which version each one moves (tgargs), on which table (tgrelid) and on which events
 * (tgtype). The test fails when
 * - a table and event kinds.ts declares for a version has no such trigger (a kept value would outlive a
 *   change of its data),
 * - a trigger moves a version for a table or event kinds.ts does not declare (the declaration is the
 *   one place a reader learns what moves a version),
 * - a trigger moves a version no kept kind declares, or a version is declared that no kind uses (nor rows
 *   kept in PostgreSQL under it: `keptRows`),
 * - a function other than trasa_list_changed writes report_cache_state (a version moved where this test
 *   cannot see it),
 * - a declared version has no row.
 */
const t = useTestApp();

type VersionTable = Record<string, { tables: Readonly<Record<string, readonly TableEvent[]>>; keptRows?: string }>;
type KindTable = Record<string, { versions: readonly string[] }>;
/** A trigger as the catalog describes it. */
type CatalogTrigger = { name: string; table: string; fn: string; args: string[]; events: TableEvent[] };
type Catalog = { triggers: CatalogTrigger[]; writers: string[]; rows: string[] };

const EVENT_BITS: [TableEvent, number][] = [
  ['insert', 1 << 2],
  ['delete', 1 << 3],
  ['update', 1 << 4],
  ['truncate', 1 << 5],
];

/** The triggers of public tables, the functions that write report_cache_state and its rows, read from the catalog. */
async function readCatalog(db: Executor): Promise<Catalog> {
  const triggers = await db.execute<{ name: string; tbl: string; fn: string; type: number; args: Buffer; nargs: number }>(sql`
    select t.tgname as name, c.relname as tbl, p.proname as fn, t.tgtype::int as type, t.tgargs as args, t.tgnargs::int as nargs
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
      join pg_proc p on p.oid = t.tgfoid
    where n.nspname = 'public' and not t.tgisinternal order by c.relname collate "C", t.tgname collate "C"`);
  const writers = await db.execute<{ fn: string }>(sql`
    select p.proname as fn from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public' and p.prosrc ~* '(update|insert\\s+into|delete\\s+from)\\s+("?public"?\\.)?"?report_cache_state'
    order by p.proname collate "C"`);
  const rows = await db.execute<{ name: string }>(sql`select name from report_cache_state order by name collate "C"`);
  return {
    triggers: triggers.rows.map((r) => ({
      name: r.name,
      table: r.tbl,
      fn: r.fn,
      args: r.nargs === 0 ? [] : Buffer.from(r.args).toString('utf8').split('\0').slice(0, r.nargs),
      events: EVENT_BITS.filter(([, bit]) => (r.type & bit) !== 0).map(([event]) => event),
    })),
    writers: writers.rows.map((r) => r.fn),
    rows: rows.rows.map((r) => r.name),
  };
}

/** Everything in which the catalog and the declarations disagree, one sentence each. */
function versionProblems(versions: VersionTable, kinds: KindTable, catalog: Catalog): string[] {
  const problems: string[] = [];
  // A version is read by a kept kind, or by rows kept in PostgreSQL under it (the IJO report's).
  const used = new Set([
    ...Object.values(kinds).flatMap((k) => k.versions),
    ...Object.entries(versions)
      .filter(([, decl]) => decl.keptRows)
      .map(([name]) => name),
  ]);
  const moved = new Set<string>();
  for (const trigger of catalog.triggers.filter((tr) => tr.fn === 'trasa_list_changed')) {
    const [version, ...rest] = trigger.args;
    if (version === undefined || rest.length > 0) {
      problems.push(
        `trigger ${trigger.name} on ${trigger.table} runs trasa_list_changed with ${trigger.args.length} arguments, not one version`,
      );
      continue;
    }
    for (const event of trigger.events) {
      moved.add(`${version} ${trigger.table} ${event}`);
      if (!versions[version]?.tables[trigger.table]?.includes(event)) {
        problems.push(
          `trigger ${trigger.name} moves version '${version}' on ${event} of ${trigger.table}, which platform/kept/kinds.ts does not declare`,
        );
      }
    }
    if (!used.has(version))
      problems.push(`trigger ${trigger.name} on ${trigger.table} moves version '${version}', which no kept kind declares`);
  }
  for (const [version, decl] of Object.entries(versions)) {
    if (!used.has(version)) problems.push(`version '${version}' is declared, but no kept kind is kept under it`);
    if (!catalog.rows.includes(version)) problems.push(`version '${version}' has no row in report_cache_state`);
    for (const [table, events] of Object.entries(decl.tables)) {
      for (const event of events) {
        if (!moved.has(`${version} ${table} ${event}`)) {
          problems.push(
            `version '${version}' is declared to move on ${event} of ${table}, but no trigger on ${table} runs trasa_list_changed('${version}') on ${event}`,
          );
        }
      }
    }
  }
  for (const fn of catalog.writers.filter((f) => f !== 'trasa_list_changed')) {
    problems.push(`function ${fn} writes report_cache_state: a version moves only through trasa_list_changed('<name>')`);
  }
  return problems;
}

describe('the data versions kept values depend on (platform/kept/kinds.ts) and the triggers that move them', () => {
  it('are the same in kinds.ts and in the migrated database', async () => {
    const catalog = await readCatalog(t.db);
    expect(catalog.triggers.filter((tr) => tr.fn === 'trasa_list_changed').length).toBeGreaterThan(40);
    expect(catalog.writers).toEqual(['trasa_list_changed']);
    expect(versionProblems(VERSIONS, KINDS, catalog)).toEqual([]);
  });

  it('fail when a declared table loses its trigger (dropped here inside a transaction, then restored)', async () => {
    const caught: string[] = [];
    await t.db
      .transaction(async (tx) => {
        await tx.execute(sql`drop trigger list_users_users_upd on users`);
        await tx.execute(sql`drop trigger list_catalogue_activity_catalogue_trunc on activity_catalogue`);
        caught.push(...versionProblems(VERSIONS, KINDS, await readCatalog(tx)));
        // Rolled back: the triggers are back as they were (drizzle rejects the transaction's promise).
        tx.rollback();
      })
      .catch(() => undefined);
    expect(caught).toEqual([
      "version 'users' is declared to move on update of users, but no trigger on users runs trasa_list_changed('users') on update",
      "version 'catalogue' is declared to move on truncate of activity_catalogue, but no trigger on activity_catalogue runs trasa_list_changed('catalogue') on truncate",
    ]);
    expect(versionProblems(VERSIONS, KINDS, await readCatalog(t.db))).toEqual([]);
  });

  it('fail when a declaration is doctored: a table without its trigger, a version no kind uses, a trigger not declared', async () => {
    const catalog = await readCatalog(t.db);
    // A kept query of the users that starts to read the groups' names: declared, but no trigger moves it.
    const withTable = { ...VERSIONS, users: { ...VERSIONS.users, tables: { ...VERSIONS.users.tables, groups: ['update'] as const } } };
    expect(versionProblems(withTable, KINDS, catalog)).toEqual([
      "version 'users' is declared to move on update of groups, but no trigger on groups runs trasa_list_changed('users') on update",
    ]);
    // No kind kept under 'logs' any more: its triggers move a version nobody reads.
    const kinds = Object.fromEntries(
      Object.entries(KINDS).map(([name, kind]) => [name, { versions: kind.versions.filter((v) => v !== 'logs') }]),
    );
    expect(versionProblems(VERSIONS, kinds, catalog)).toEqual([
      "trigger list_logs_audit_logs on audit_logs moves version 'logs', which no kept kind declares",
      "trigger list_logs_audit_logs_trunc on audit_logs moves version 'logs', which no kept kind declares",
      "version 'logs' is declared, but no kept kind is kept under it",
    ]);
    // The A13 confirmations' table left out of the declaration: its trigger is there, undeclared.
    const { a13: _, ...withoutA13 } = VERSIONS;
    expect(versionProblems({ ...withoutA13, a13: { tables: {} } }, KINDS, catalog)).toEqual([
      "trigger list_a13_confirmations moves version 'a13' on insert of a13_confirmations, which platform/kept/kinds.ts does not declare",
      "trigger list_a13_confirmations moves version 'a13' on delete of a13_confirmations, which platform/kept/kinds.ts does not declare",
      "trigger list_a13_confirmations moves version 'a13' on update of a13_confirmations, which platform/kept/kinds.ts does not declare",
    ]);
    // A function that moves a version by its own UPDATE, as 0018's trasa_ijo_changed did.
    expect(versionProblems(VERSIONS, KINDS, { ...catalog, writers: [...catalog.writers, 'trasa_ijo_changed'] })).toEqual([
      "function trasa_ijo_changed writes report_cache_state: a version moves only through trasa_list_changed('<name>')",
    ]);
  });
});
