// CPU time per request of two builds side by side (issue 15 item 3): the server process's and
// its own PostgreSQL backends' utime + stime from /proc, over the same requests, alternating the builds
// so that the machine's load falls on both alike. What a loaded 2-core machine changes least.
//
//   BENCH_BEFORE=packages/server/dist-before/main.js DATABASE_URL=… BENCH_DB=trasa_cmt \
//     node bench/lists-cpu.mjs "/api/comment?page=1&limit=10 manager" …
//
// Each argument is a URL and a role (admin, manager, employee). BENCH_REQUESTS per round (200), BENCH_ROUNDS
// (3); 2 requests in flight, each with a browser's Accept-Encoding (bench/suite/measure.mjs). The backends
// are told apart by application_name (each server's own).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { benchTarget, benchTokens } from './generate.mjs';
import { headersFor } from './suite/measure.mjs';
import { startBenchServer } from './support.mjs';

const target = benchTarget();
const builds = [
  ['before', process.env.BENCH_BEFORE],
  ['after', process.env.BENCH_AFTER || 'packages/server/dist/main.js'],
].filter(([, main]) => main);
const perRound = Number(process.env.BENCH_REQUESTS ?? 200);
// Requests in flight at once (BENCH_CONCURRENCY, 2): the suite loads with 10.
const inFlight = Number(process.env.BENCH_CONCURRENCY ?? 2);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const cases = process.argv.slice(2).map((a) => {
  const [url, role = 'admin'] = a.split(' ');
  return { url, role };
});

const ticks = (pid) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return 0;
  }
};

const admin = new pg.Client({ connectionString: target.databaseUrl });
await admin.connect();
const backends = async (name) =>
  (await admin.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [name])).rows.map((r) => r.pid);

// One server at a time (a second server starting on the database while the first runs waited for it),
// started afresh for each build in each round.
async function startBuild(name, main) {
  const u = new URL(target.databaseUrl);
  u.searchParams.set('application_name', `trasa-cpu-${name}`);
  // startBenchServer reads the build to start from this process's environment.
  process.env.BENCH_SERVER_MAIN = main;
  const server = await startBenchServer({}, { databaseUrl: u.toString(), quiet: true });
  return { server, tokens: await benchTokens(server.base) };
}

async function load(running, name, c, n) {
  const { server, tokens } = running;
  let sent = 0;
  let body = '';
  const worker = async () => {
    while (sent < n) {
      sent++;
      const res = await fetch(server.base + c.url, { headers: headersFor(tokens[c.role]) });
      body = await res.text();
      if (res.status !== 200) throw new Error(`${name} ${c.url}: ${res.status} ${body.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return body;
}

const sums = cases.map(() => Object.fromEntries(builds.map(([name]) => [name, { node: 0, pg: 0, n: 0, ms: 0, body: '' }])));
try {
  for (let r = 0; r < rounds; r++) {
    for (const [name, main] of r % 2 ? [...builds].reverse() : builds) {
      const running = await startBuild(name, main);
      try {
        const app = `trasa-cpu-${name}`;
        for (const [i, c] of cases.entries()) {
          const s = sums[i][name];
          s.body = await load(running, name, c, 20); // warm: connections, prepared statements
          const pids = await backends(app);
          const before = new Map(pids.map((p) => [p, ticks(p)]));
          const node0 = ticks(running.server.pid);
          const t0 = performance.now();
          await load(running, name, c, perRound);
          s.ms += performance.now() - t0;
          const after = await backends(app);
          s.pg += after.reduce((t, p) => t + ticks(p) - (before.get(p) ?? 0), 0) * 10;
          s.node += (ticks(running.server.pid) - node0) * 10;
          s.n += perRound;
        }
      } finally {
        await running.server.stop();
      }
    }
  }
  for (const [i, c] of cases.entries()) {
    const same = new Set(Object.values(sums[i]).map((s) => s.body)).size === 1;
    const shown = builds
      .map(([name]) => {
        const s = sums[i][name];
        return `${name} node ${(s.node / s.n).toFixed(2)} + pg ${(s.pg / s.n).toFixed(2)} ms, ${Math.round((s.n * 1000) / s.ms)} req/s`;
      })
      .join(' | ');
    console.log(`${c.role.padEnd(8)} ${c.url.slice(0, 60).padEnd(60)} ${shown} | answers ${same ? 'equal' : 'DIFFER'}`);
  }
  console.log(
    `load at the end ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(' / ')}`,
  );
} finally {
  await admin.end();
}
