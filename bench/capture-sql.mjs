// Preloaded into the bench server (NODE_OPTIONS=--import …, bench/suite.mjs): records the statements the
// server sends through `pg` (text and bound values, in order) while recording is on, one JSON line each,
// to BENCH_SQL_LOG. SIGUSR2 switches recording on and off, so the measured requests pay nothing. The
// suite replays what one request sent on a bare pg pool: the same SQL, without the server.
import { appendFileSync } from 'node:fs';
import pg from 'pg';

const file = process.env.BENCH_SQL_LOG;
if (file) {
  let on = false;
  process.on('SIGUSR2', () => {
    on = !on;
  });
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function query(config, values, callback) {
    if (on) {
      const text = typeof config === 'string' ? config : config?.text;
      const params = Array.isArray(values) ? values : config?.values;
      // A named (prepared) statement's name too: the bench also explains the generic plan it may run on.
      const name = typeof config === 'object' ? config?.name : undefined;
      if (typeof text === 'string') appendFileSync(file, `${JSON.stringify({ text, values: params ?? [], ...(name && { name }) })}\n`);
    }
    return original.call(this, config, values, callback);
  };
}
