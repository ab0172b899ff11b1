import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { ensureDatabase } from '../platform/ensureDatabase.js';

/**
 * The schema the migrations build, read back from the catalog of a migrated database and compared with
 * the committed drizzle/schema/*.txt (one file per table group): a migration that adds, drops or changes
 * a table, column, index, constraint, trigger, function, sequence, type or collation the snapshot does
 * not show fails here. After a deliberate change, rewrite the snapshot with
 *   UPDATE_SCHEMA_SNAPSHOT=1 npx vitest run --project server packages/server/src/db/schemaSnapshot.test.ts
 * and commit it with the migration (its diff is the schema change to review).
 *
 * Read from pg_catalog (no pg_dump: the embedded PostgreSQL ships none) in a form that is the same on
 * PostgreSQL 15 and 18: objects an extension owns are left out (pg_trgm's functions live in public),
 * NOT NULL is read from the column (PostgreSQL 18 also lists it as a named constraint), a statistics
 * target only when set (15 keeps -1, 18 NULL), and a function is its signature, settings and its source
 * text as written (prosrc; pg_get_functiondef's layout is the server's).
 */
const snapshotDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle/schema');

/**
 * The table groups, as the schema files divide them (src/db/schema*.ts; the kept tables with the ones
 * they are kept from). A table, its columns, indexes, constraints and triggers are in its group's file; a
 * function in the file of the tables whose triggers run it, or in shared.txt (called from several groups,
 * or from other functions), with the extensions, collations and types.
 */
const tableGroups: Record<string, string[]> = {
  accounts: [
    'roles',
    'group_types',
    'groups',
    'users',
    'user_codes',
    'revoked_tokens',
    'login_failures',
    'idempotency_keys',
    'smtp_servers',
    'mail_outbox',
    'audit_logs',
  ],
  clusters: [
    'settlements',
    'priorities',
    'contracts',
    'contract_groups',
    'contract_files',
    'clusters',
    'contract_clusters',
    'cluster_groups',
    'cluster_settlements',
    'topics',
    'topic_comments',
    'cluster_list_counts',
  ],
  activities: ['activity_catalogue', 'activities', 'activity_files', 'activity_comments', 'ijo_holders'],
  reports: ['report_snapshots', 'report_snapshot_rows', 'report_cache_state', 'ijo_report_rows'],
  inventory: [
    'inventory_contracts',
    'inventory_contract_files',
    'inventory_contract_locations',
    'inventory_types',
    'inventory_items',
    'school_notifications',
    'a13_confirmations',
    'inventory_totals',
    'inventory_location_totals',
  ],
};
const groupOf = new Map(Object.entries(tableGroups).flatMap(([group, tables]) => tables.map((t) => [t, group] as const)));

/**
 * Each query returns `line` (one entry of the snapshot) and `tbl`: the table it belongs to, or for a
 * function the tables whose triggers run it (comma-separated), or null (shared). Entries are sorted
 * within their section.
 */
const sections: [string, string][] = [
  ['extensions', `select null as tbl, e.extname as line from pg_extension e where e.extname <> 'plpgsql'`],
  [
    'collations',
    `select null as tbl, c.collname || ' provider=' || c.collprovider::text || ' deterministic=' || c.collisdeterministic as line
       from pg_collation c where c.collnamespace = 'public'::regnamespace`,
  ],
  [
    'types',
    `select null as tbl, t.typname || ' ' || t.typtype::text ||
            coalesce(' (' || (select string_agg(quote_literal(e.enumlabel), ', ' order by e.enumsortorder)
                                from pg_enum e where e.enumtypid = t.oid) || ')', '') ||
            case when t.typtype = 'd' then ' ' || format_type(t.typbasetype, t.typtypmod) else '' end as line
       from pg_type t
      where t.typnamespace = 'public'::regnamespace and t.typtype in ('e', 'd', 'r', 'm')
        and not exists (select 1 from pg_depend d where d.classid = 'pg_type'::regclass and d.objid = t.oid and d.deptype = 'e')`,
  ],
  [
    'tables',
    `select c.relname as tbl, c.relname || ' kind=' || c.relkind::text || ' persistence=' || c.relpersistence::text ||
            coalesce(' options=' || array_to_string(c.reloptions, ','), '') ||
            case when c.relrowsecurity then ' rls' else '' end as line
       from pg_class c
      where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f')
        and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'e')`,
  ],
  [
    'columns',
    `select c.relname as tbl, c.relname || '.' || a.attname || ' #' || row_number() over (partition by c.oid order by a.attnum) ||
            ' ' || format_type(a.atttypid, a.atttypmod) ||
            case when a.attnotnull then ' not null' else '' end ||
            coalesce(' default ' || pg_get_expr(ad.adbin, ad.adrelid), '') ||
            case when a.attidentity <> '' then ' identity=' || a.attidentity::text else '' end ||
            case when a.attgenerated <> '' then ' generated=' || a.attgenerated::text else '' end ||
            case when a.attcollation <> 0 and a.attcollation <> t.typcollation
                 then ' collate ' || (select collname from pg_collation where oid = a.attcollation) else '' end ||
            case when coalesce(a.attstattarget, -1) <> -1 then ' statistics=' || a.attstattarget else '' end as line
       from pg_class c
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
       join pg_type t on t.oid = a.atttypid
       left join pg_attrdef ad on ad.adrelid = c.oid and ad.adnum = a.attnum
      where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f')
        and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'e')`,
  ],
  [
    'views',
    `select c.relname as tbl, c.relname || ': ' || md5(pg_get_viewdef(c.oid)) as line
       from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind in ('v', 'm')`,
  ],
  [
    'indexes',
    `select t.relname as tbl, pg_get_indexdef(i.indexrelid) ||
            coalesce(' -- statistics ' || (select string_agg(a.attnum || '=' || a.attstattarget, ',' order by a.attnum)
                                              from pg_attribute a
                                             where a.attrelid = i.indexrelid and coalesce(a.attstattarget, -1) <> -1), '') as line
       from pg_index i join pg_class c on c.oid = i.indexrelid join pg_class t on t.oid = i.indrelid
      where c.relnamespace = 'public'::regnamespace`,
  ],
  [
    'constraints',
    `select t.relname as tbl, t.relname || ' ' || c.conname || ': ' || pg_get_constraintdef(c.oid) as line
       from pg_constraint c join pg_class t on t.oid = c.conrelid
      where c.connamespace = 'public'::regnamespace and c.contype <> 'n'`,
  ],
  [
    'triggers',
    `select c.relname as tbl, pg_get_triggerdef(t.oid) || case t.tgenabled when 'O' then '' else ' -- enabled=' || t.tgenabled::text end as line
       from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where not t.tgisinternal and c.relnamespace = 'public'::regnamespace`,
  ],
  [
    'functions',
    `select (select string_agg(distinct c.relname, ',') from pg_trigger t join pg_class c on c.oid = t.tgrelid
                where t.tgfoid = p.oid and not t.tgisinternal) as tbl,
            p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' ||
            case when p.prokind = 'p' then ' procedure' else ' returns ' || pg_get_function_result(p.oid) end ||
            ' language ' || l.lanname || ' volatility=' || p.provolatile::text || ' parallel=' || p.proparallel::text ||
            case when p.proisstrict then ' strict' else '' end ||
            case when p.prosecdef then ' security definer' else '' end ||
            coalesce(' set ' || array_to_string(p.proconfig, ','), '') ||
            E'\n' || case when p.prosrc = '' or p.prosrc is null then pg_get_functiondef(p.oid) else p.prosrc end as line
       from pg_proc p join pg_language l on l.oid = p.prolang
      where p.pronamespace = 'public'::regnamespace
        and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')`,
  ],
  [
    'sequences',
    `select (select c.relname from pg_depend d join pg_class c on c.oid = d.refobjid
              where d.classid = 'pg_class'::regclass and d.objid = (quote_ident(s.schemaname) || '.' || quote_ident(s.sequencename))::regclass
                and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')) as tbl,
            s.sequencename || ' ' || s.data_type || ' start=' || s.start_value || ' increment=' || s.increment_by ||
            ' min=' || s.min_value || ' max=' || s.max_value || ' cache=' || s.cache_size ||
            case when s.cycle then ' cycle' else '' end ||
            coalesce(' owned by ' || (select c.relname || '.' || a.attname
                                        from pg_depend d
                                        join pg_class c on c.oid = d.refobjid
                                        join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
                                       where d.classid = 'pg_class'::regclass and d.objid = (quote_ident(s.schemaname) || '.' || quote_ident(s.sequencename))::regclass
                                         and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')), '') as line
       from pg_sequences s where s.schemaname = 'public'`,
  ],
  [
    'statistics',
    `select (select relname from pg_class where oid = s.stxrelid) as tbl, s.stxname || ': ' || pg_get_statisticsobjdef(s.oid) as line
       from pg_statistic_ext s where s.stxnamespace = 'public'::regnamespace`,
  ],
  [
    'policies',
    `select p.tablename as tbl, p.tablename || ' ' || p.policyname || ' ' || p.cmd || coalesce(' using ' || p.qual, '') ||
            coalesce(' check ' || p.with_check, '') as line
       from pg_policies p where p.schemaname = 'public'`,
  ],
];

/** An entry as the snapshot shows it: one line, or a function's header and its source lines as written. */
function normalise(entry: string): string {
  const [head = '', ...body] = entry.split('\n');
  const lines = body.map((l) => l.replace(/\s+$/, ''));
  while (lines[0] === '') lines.shift();
  while (lines.at(-1) === '') lines.pop();
  return [head.replace(/\s+/g, ' ').trim(), ...lines.map((l) => `    ${l}`.trimEnd())].join('\n');
}

/** The schema of the database at `url`: each group's file name and text. */
async function readSchema(url: string): Promise<Map<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // The definitions name objects outside the search path with their schema: read with public alone on it.
    await client.query('set search_path = public');
    const files = new Map<string, string[]>([...Object.keys(tableGroups), 'shared'].map((g) => [`${g}.txt`, []]));
    for (const [name, query] of sections) {
      const { rows } = await client.query<{ tbl: string | null; line: string }>(query);
      const byFile = new Map<string, string[]>();
      for (const row of rows) {
        const groups = new Set(
          (row.tbl ?? '')
            .split(',')
            .filter(Boolean)
            .map((t) => groupOf.get(t) ?? `(table ${t} in no group)`),
        );
        const unknown = [...groups].find((g) => g.startsWith('('));
        if (unknown) throw new Error(`${unknown}: add it to tableGroups in db/schemaSnapshot.test.ts`);
        const file = `${groups.size === 1 ? [...groups][0] : 'shared'}.txt`;
        byFile.set(file, [...(byFile.get(file) ?? []), normalise(row.line)]);
      }
      for (const [file, entries] of byFile) {
        entries.sort();
        files.get(file)?.push(`## ${name} (${entries.length})`, ...entries, '');
      }
    }
    return new Map([...files].map(([file, lines]) => [file, lines.join('\n')]));
  } finally {
    await client.end();
  }
}

describe('the schema the migrations build', () => {
  it('matches the committed snapshot (drizzle/schema/*.txt)', async () => {
    const name = `${inject('dbPrefix')}_${randomBytes(4).toString('hex')}`;
    const url = await ensureDatabase(inject('pgAdminUrl'), name, inject('templateDb'));
    const actual = await readSchema(url);
    if (process.env.UPDATE_SCHEMA_SNAPSHOT === '1') {
      rmSync(snapshotDir, { recursive: true, force: true });
      mkdirSync(snapshotDir, { recursive: true });
      for (const [file, text] of actual) writeFileSync(path.join(snapshotDir, file), text);
      return;
    }
    const hint =
      'If the change is intended, rewrite the snapshot with UPDATE_SCHEMA_SNAPSHOT=1 npx vitest run --project server ' +
      'packages/server/src/db/schemaSnapshot.test.ts and commit it with the migration.';
    const committedFiles = existsSync(snapshotDir) ? readdirSync(snapshotDir).sort() : [];
    expect(committedFiles, `The files of drizzle/schema differ. ${hint}`).toEqual([...actual.keys()].sort());
    for (const [file, text] of actual) {
      const committed = readFileSync(path.join(snapshotDir, file), 'utf8');
      expect.soft(text, `The migrated schema differs from drizzle/schema/${file}. ${hint}`).toBe(committed);
    }
  });
});
