// Throughput of the authenticated calls every screen makes, against the built server on a fresh
// database: `npm run build && npm run bench`. Prints requests/s and latency percentiles per call, and
// the server's resident memory.
import autocannon from 'autocannon';
import { adminToken, startBenchServer } from './support.mjs';

const duration = Number(process.env.BENCH_SECONDS || 10);
const server = await startBenchServer();
try {
  const token = await adminToken(server.base);
  const cases = [
    {
      title: 'GET /api/user/my-profile (authenticate + load the actor)',
      url: '/api/user/my-profile',
      headers: { authorization: `Bearer ${token}` },
    },
    { title: 'GET /api/health (baseline: one query)', url: '/api/health' },
  ];
  console.log(`\n${duration} s per case, 20 connections, server on ${server.onEmbedded ? 'embedded PostgreSQL' : 'DATABASE_URL'}`);
  for (const c of cases) {
    const r = await autocannon({ url: server.base + c.url, headers: c.headers, connections: 20, duration });
    console.log(
      `${c.title}: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}, server RSS ${server.rssMb()} MB`,
    );
  }
} finally {
  await server.stop();
}
