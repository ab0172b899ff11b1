// The time one captured statement takes as the server sends it (extended protocol, its values bound):
// one connection, 50 runs to warm up, then BENCH_RUNS (1,000) timed; prints the mean in ms. The lines come
// from bench/capture-sql.mjs (BENCH_SQL_LOG: one JSON line per statement, `text` and `values`).
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/trasa_b29 node bench/replay-sql.mjs /tmp/sql.jsonl 2 [3 …]
//
// Prefer this to pgbench with the values written into the text: literals cost the planner more than
// parameters (a LIKE pattern's selectivity is estimated from the statistics), which misstates a change.
import { readFileSync } from 'node:fs';
import pg from 'pg';

const [file, ...lines] = process.argv.slice(2);
if (!file || !process.env.DATABASE_URL) {
  console.error('usage: DATABASE_URL=… node bench/replay-sql.mjs <captured.jsonl> <line> [line …]');
  process.exit(2);
}
const runs = Number(process.env.BENCH_RUNS ?? 1000);
const captured = readFileSync(file, 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
await client.connect();
try {
  for (const line of lines.length ? lines : captured.map((_, i) => String(i))) {
    const statement = captured[Number(line)];
    if (!statement) throw new Error(`no line ${line} in ${file}`);
    // A named statement is prepared once on the connection, as the server's is (its plan may turn generic).
    const query = { text: statement.text, values: statement.values, ...(statement.name && { name: statement.name }) };
    for (let i = 0; i < 50; i++) await client.query(query);
    const start = process.hrtime.bigint();
    for (let i = 0; i < runs; i++) await client.query(query);
    const ms = Number(process.hrtime.bigint() - start) / 1e6 / runs;
    console.log(`line ${line}: ${ms.toFixed(3)} ms (${runs} runs) ${statement.text.replace(/\s+/g, ' ').slice(0, 100)}`);
  }
} finally {
  await client.end();
}
