// Two servers on the same database, measured in turns on the same machine in one run (bench/suite.mjs
// --compare <ref>, --with-and-without / --kept-off): a "before" and an "after" build, or one build without
// and with an environment variable. Both servers run side by side on the generated database (the second on
// the first's embedded PostgreSQL when there is no DATABASE_URL), each with its own application_name
// (PGAPPNAME), so the CPU time of each one's PostgreSQL connections is read apart (/proc, as
// bench/lists-cpu.mjs does). For every case and round the two are loaded one after the other (the order
// reversed case by case and round by round, so that the machine's drift falls on both alike): a short warm
// load, then autocannon (10 connections, BENCH_SECONDS) with the CPU time of the server process and of its
// connections. Printed: the medians over the rounds of CPU ms per request and of p99, each side's target
// (p99 only: the ratio rule needs the bare-pool replay of the plain suite), and whether the two answered alike.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { benchTokens } from '../generate.mjs';
import { startBenchServer } from '../support.mjs';
import { extrasOf, pagesOf } from './discover.mjs';
import { ACCEPT_ENCODING, calibrate, calibrationText, headersFor, loadWithCpu, median, p99TargetOf, wireGet } from './measure.mjs';
import { connections, load } from './run.mjs';

/** The server process's environment as the kernel holds it (/proc/<pid>/environ). */
export function environOf(pid) {
  return new Map(
    readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
}

/**
 * Starts a side's server (`{ label, main?, env }`) on `target`, and checks that each variable of its
 * environment reached the process (and that a variable the other side sets is absent here).
 */
export async function startSide(side, target, others = []) {
  const server = await startBenchServer(side.env, { ...target, main: side.main, quiet: true });
  const environ = environOf(server.pid);
  for (const [k, v] of Object.entries(side.env)) {
    if (environ.get(k) !== v) {
      await server.stop();
      throw new Error(`${side.label}: the server's environment has ${k}=${environ.get(k) ?? '(unset)'}, not ${v}`);
    }
  }
  for (const other of others)
    for (const k of Object.keys(other.env))
      if (!(k in side.env) && environ.has(k)) {
        await server.stop();
        throw new Error(`${side.label}: the server's environment has ${k}=${environ.get(k)}, which only ${other.label} should have`);
      }
  return server;
}

const fmt = (n, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '–');

/**
 * Runs the chosen cases (`list`, bench/suite/discover.mjs chosen()) on each of `sides` in turns.
 * `sides`: `[{ label, main?, env }]` (main: the server's entry, else the current build).
 */
export async function runSides({ sides, list, target, seconds, rounds }) {
  const pages = []; // { c, role, label, url, deep, page }
  const results = new Map(); // key → side label → [{ cpuNode, cpuPg, p99, p50, rps, non2xx, answer }]
  const calibrations = [];
  const keyOf = (p) => `${p.c.name}|${p.role}|${p.label}`;
  const named = sides.map((side, i) => ({ ...side, env: { ...side.env, PGAPPNAME: `trasa-bench-${'ab'[i]}` } }));
  console.log(
    `${named
      .map(
        (s) =>
          `${s.label}: ${s.main ?? 'packages/server/dist/main.js'}${
            Object.keys(s.env).length > 1
              ? ` with ${Object.entries(s.env)
                  .filter(([k]) => k !== 'PGAPPNAME')
                  .map(([k, v]) => `${k}=${v}`)
                  .join(' ')}`
              : ''
          }`,
      )
      .join('; ')}\n` +
      `${rounds} rounds, ${seconds} s per load, ${connections} connections, Accept-Encoding: ${ACCEPT_ENCODING || '(none)'}; ` +
      `${os.cpus().length} cores, load average at the start ${load()}`,
  );
  const running = [];
  let db;
  try {
    for (const side of named) {
      // The second server on the first one's database: the same one at DATABASE_URL, or the first's embedded PostgreSQL.
      const on = running.length ? { databaseUrl: running[0].server.dbUrl } : target;
      const server = await startSide(
        side,
        on,
        named.filter((s) => s !== side),
      );
      running.push({ side, server, tokens: await benchTokens(server.base) });
      console.log(`${side.label}: pid ${server.pid}, its environment checked (/proc/${server.pid}/environ)`);
    }
    db = new pg.Pool({ connectionString: running[0].server.dbUrl, max: 1 });
    const first = running[0];
    calibrations.push({ when: 'start', side: first.side.label, ...(await calibrate(first.server.base, first.tokens.admin)) });
    console.log(`calibration at the start (${first.side.label}): ${calibrationText(calibrations[0])}`);
    // The pages (deep page numbers, the values in the URLs) from the first server; both share the database.
    const extra = await extrasOf(first.server.base, db, first.tokens, list);
    for (const { c, role } of list)
      for (const p of (await pagesOf(first.server.base, c, role, extra, first.tokens)) ?? []) pages.push({ c, role, ...p });
    if (!pages.length) throw new Error('no chosen case answered 200');

    let last = running.at(-1);
    for (let round = 0; round < rounds; round++) {
      for (const [i, p] of pages.entries()) {
        for (const run of (round + i) % 2 ? [...running].reverse() : running) {
          const { side, server, tokens } = run;
          last = run;
          const headers = headersFor(tokens[p.role]);
          // Warm: what the server keeps between requests is kept, its connections and prepared statements made,
          // and the other server's load has passed.
          await autocannon({ url: server.base + p.url, headers, connections: 2, amount: 30 });
          const r = await loadWithCpu(server, db, p.url, headers, seconds, side.env.PGAPPNAME);
          const answer = await wireGet(server.base, p.url, headers);
          const bySide = results.get(keyOf(p)) ?? new Map();
          results.set(keyOf(p), bySide);
          bySide.set(side.label, [
            ...(bySide.get(side.label) ?? []),
            { ...r, encoding: answer.encoding, answer: createHash('sha1').update(answer.text).digest('hex') },
          ]);
          console.log(
            `round ${round + 1} ${side.label.padEnd(14)} ${p.c.name.padEnd(28)} ${p.role.padEnd(8)} ${p.label === 'deep' ? `deep (${p.page})` : '1'}: ` +
              `CPU ${fmt(r.cpuNode + r.cpuPg)} ms/request (node ${fmt(r.cpuNode)} + pg ${fmt(r.cpuPg)}), p99 ${r.p99} ms, ${Math.round(r.rps)} req/s` +
              `${r.non2xx ? `, ${r.non2xx} non-2xx` : ''}${r.timeouts ? `, ${r.timeouts} timed out` : ''}${answer.encoding ? `, ${answer.encoding}` : ''} | load ${load()}`,
          );
        }
      }
    }
    calibrations.push({ when: 'end', side: last.side.label, ...(await calibrate(last.server.base, last.tokens.admin)) });
  } finally {
    await db?.end().catch(() => undefined);
    // The second first: the first may hold the embedded PostgreSQL.
    for (const { server } of running.reverse()) await server.stop();
  }

  // The table: medians over the rounds.
  const [a, b] = sides.map((s) => s.label);
  const lines = [
    `| case | role | page | ${a}: CPU ms/req (node + pg) | ${a}: p99 ms | ${a}: target | ${b}: CPU ms/req (node + pg) | ${b}: p99 ms | ${b}: target | CPU ${b} ÷ ${a} | answers |`,
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const met = { [a]: 0, [b]: 0 };
  let more = 0;
  for (const p of pages) {
    const bySide = results.get(keyOf(p));
    const target = p99TargetOf(p.url, p.deep);
    const cells = [];
    const cpu = {};
    for (const label of [a, b]) {
      const runs = bySide.get(label);
      cpu[label] = median(runs.map((r) => r.cpuNode + r.cpuPg));
      const p99 = median(runs.map((r) => r.p99));
      const failed = runs.reduce((n, r) => n + r.non2xx + r.timeouts, 0);
      const ok = p99 <= target && !failed;
      if (ok) met[label]++;
      cells.push(
        `${fmt(cpu[label])} (${fmt(median(runs.map((r) => r.cpuNode)))} + ${fmt(median(runs.map((r) => r.cpuPg)))})`,
        `${p99}${failed ? ` (${failed} failed)` : ''}`,
        ok ? 'met' : `not met (p99 ≤ ${target})`,
      );
    }
    if (cpu[b] > cpu[a]) more++;
    const answers = new Set([...bySide.values()].flat().map((r) => r.answer));
    lines.push(
      `| ${p.c.name} | ${p.role} | ${p.label === 'deep' ? `deep (${p.page})` : '1'} | ${cells.join(' | ')} | ${fmt(cpu[b] / cpu[a])} | ${answers.size === 1 ? 'equal' : 'DIFFER'} |`,
    );
  }
  console.log(
    `\nMedians of ${rounds} rounds (${seconds} s, ${connections} connections each; CPU of the server process and its PostgreSQL connections per request). ` +
      `Calibration: ${calibrations.map((c) => `${c.when} (${c.side}) ${calibrationText(c)}`).join('; ')}. Load average at the end ${load()}.\n` +
      `Target met: ${a} ${met[a]} of ${pages.length}, ${b} ${met[b]} of ${pages.length}. ${b} costs more CPU per request than ${a} in ${more} of ${pages.length} cases.\n`,
  );
  console.log(lines.join('\n'));
  return { pages, results, calibrations };
}
