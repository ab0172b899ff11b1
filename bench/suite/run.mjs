// Measuring a case's statements on a bare pg pool (bench/suite.mjs): replayed under load, alone, explained.
import os from 'node:os';

/** Connections of the load and clients of the bare pool. */
export const connections = 10;

export const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] : 0);
export const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' / ');
export const totalOf = (body) => body?.totalResults ?? body?.totalLogs ?? body?.total ?? body?.count ?? null;

/**
 * One request's statements on `client`, in order: a named statement as the server sent it (prepared once
 * per connection, its plan kept), so both sides pay the same planning.
 */
async function runRequest(client, statements) {
  for (const s of statements)
    await client.query(s.name ? { name: s.name, text: s.text, values: s.values } : { text: s.text, values: s.values });
}

/** Runs `statements` (as one request sent them, named ones by their names) on the pool, 10 at a time, for `seconds`. */
export async function replay(pool, statements, seconds) {
  const latencies = [];
  const until = Date.now() + seconds * 1000;
  let errors = 0;
  const worker = async () => {
    while (Date.now() < until) {
      const t = performance.now();
      const client = await pool.connect();
      try {
        await runRequest(client, statements);
      } catch {
        errors++;
        await client.query('ROLLBACK').catch(() => undefined);
      } finally {
        client.release();
      }
      latencies.push(performance.now() - t);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), rps: latencies.length / elapsed, errors };
}

/**
 * The recorded statements of one request run by themselves: one client, one request after another, for
 * up to a second (at least 3 and at most 50 requests); the p50 of those. This is "the SQL itself" of
 * issue 15's "wherever the SQL itself takes over 5 ms" (docs/decisions.md "What 'the SQL itself takes'
 * means"): the bare p50 at 10 connections on 2 cores is about five times it, most of that waiting for a
 * core, so the ratio rule would apply to almost every list there.
 */
export async function alone(pool, statements) {
  const latencies = [];
  const until = Date.now() + 1000;
  const client = await pool.connect();
  try {
    while (latencies.length < 3 || (latencies.length < 50 && Date.now() < until)) {
      const t = performance.now();
      try {
        await runRequest(client, statements);
      } catch {
        await client.query('ROLLBACK').catch(() => undefined);
      }
      latencies.push(performance.now() - t);
    }
  } finally {
    client.release();
  }
  latencies.sort((a, b) => a - b);
  return percentile(latencies, 50);
}

/**
 * BENCH_EXPLAIN=1: each recorded SELECT once under EXPLAIN ANALYZE, its time (and its planning's) and, past
 * BENCH_PLAN_MS (2 ms), its plan and its whole text.
 */
const planPast = Number(process.env.BENCH_PLAN_MS ?? 2);
export async function explain(pool, statements) {
  for (const s of statements) {
    if (!/^\s*(select|with)\b/i.test(s.text)) continue;
    const plan = (await pool.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT TEXT) ${s.text}`, s.values)).rows.map((r) => r['QUERY PLAN']);
    const ms = Number(plan.at(-1).match(/([\d.]+) ms/)?.[1] ?? 0);
    // Planning is paid again by every unnamed statement (the bare replay's); a named one plans once or keeps a generic plan.
    const planning = Number(plan.find((l) => l.startsWith('Planning Time'))?.match(/([\d.]+) ms/)?.[1] ?? 0);
    const named = s.name ? ` [named ${s.name}]` : '';
    console.log(
      `    ${ms.toFixed(1).padStart(7)} ms (+${planning.toFixed(1)} planning)${named}  ${s.text.replace(/\s+/g, ' ').slice(0, 150)}`,
    );
    if (ms > planPast) {
      console.log(`              ${s.text.replace(/\s+/g, ' ')}\n              values: ${JSON.stringify(s.values).slice(0, 300)}`);
      console.log(plan.map((l) => `              ${l.slice(0, 200)}`).join('\n'));
    }
  }
}
