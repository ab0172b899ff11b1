// The PostgreSQL CPU time of each statement one request sends (issue 15 item 3): the
// statements are recorded as the suite records them (bench/capture-sql.mjs), then each is run BENCH_RUNS
// times (300) on one warm connection — a named one as a named prepared statement, as the server runs it —
// and that backend's utime + stime (/proc) is divided by the runs. EXPLAIN ANALYZE's planning times come
// from a fresh connection whose catalogue caches are cold; this is what a pooled connection pays.
//
//   DATABASE_URL=… BENCH_DB=trasa_cmt node bench/statement-cpu.mjs "/api/comment?page=1&limit=10 manager" …
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { benchTarget, benchTokens } from './generate.mjs';
import { startBenchServer } from './support.mjs';

const runs = Number(process.env.BENCH_RUNS ?? 300);
const sqlLog = path.join(os.tmpdir(), `trasa-statement-cpu-${process.pid}.jsonl`);
const target = benchTarget();
const server = await startBenchServer(
  { BENCH_SQL_LOG: sqlLog, NODE_OPTIONS: `--import ${path.resolve('bench/capture-sql.mjs')}` },
  { ...target, quiet: true },
);
const client = new pg.Client({ connectionString: server.dbUrl });
await client.connect();
const backend = (await client.query('select pg_backend_pid() as pid')).rows[0].pid;
if (process.env.BENCH_PLAN_MODE) await client.query(`set plan_cache_mode = ${client.escapeLiteral(process.env.BENCH_PLAN_MODE)}`);
const ticks = () => {
  const f = readFileSync(`/proc/${backend}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(f[11]) + Number(f[12]);
};
try {
  const tokens = await benchTokens(server.base);
  for (const arg of process.argv.slice(2)) {
    const [url, role = 'admin'] = arg.split(' ');
    // Once before recording: what the server keeps (the scope, its visible clusters, kept totals) is kept
    // then, so the statements recorded are those of the requests after the first.
    await fetch(server.base + url, { headers: { authorization: `Bearer ${tokens[role]}` } });
    rmSync(sqlLog, { force: true });
    process.kill(server.pid, 'SIGUSR2');
    await new Promise((r) => setTimeout(r, 50));
    await fetch(server.base + url, { headers: { authorization: `Bearer ${tokens[role]}` } });
    process.kill(server.pid, 'SIGUSR2');
    await new Promise((r) => setTimeout(r, 50));
    const statements = readFileSync(sqlLog, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    // BENCH_NAME_ALL=1: an unnamed statement run as a named one too (its parse and, with a generic plan, its
    // planning paid once); BENCH_PLAN_MODE sets plan_cache_mode (force_generic_plan: no planning at all).
    const nameOf = (s) => s.name ?? (process.env.BENCH_NAME_ALL ? `bench_${statements.indexOf(s)}_${url.length}` : undefined);
    const query = (s) => client.query(nameOf(s) ? { name: nameOf(s), text: s.text, values: s.values } : { text: s.text, values: s.values });
    let total = 0;
    console.log(`${role} ${url} (load ${os.loadavg()[0].toFixed(1)})`);
    for (const s of statements) {
      for (let i = 0; i < 20; i++) await query(s);
      const t0 = ticks();
      const w0 = performance.now();
      for (let i = 0; i < runs; i++) await query(s);
      const cpu = ((ticks() - t0) * 10) / runs;
      const wall = (performance.now() - w0) / runs;
      total += cpu;
      console.log(
        `  ${cpu.toFixed(2).padStart(6)} ms cpu ${wall.toFixed(2).padStart(6)} ms wall ${s.name ? `[${s.name}] ` : ''}${s.text.replace(/\s+/g, ' ').slice(0, 110)}`,
      );
    }
    console.log(`  ${total.toFixed(2).padStart(6)} ms cpu in all, ${statements.length} statements`);
  }
} finally {
  await client.end();
  await server.stop();
  rmSync(sqlLog, { force: true });
}
