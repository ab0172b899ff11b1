// Requests as a browser sends them, and what one case costs the server (bench/suite.mjs, bench/suite/ab.mjs):
// the answer as it comes over the wire, a load with its CPU time per request, and the machine's calibration.
import http from 'node:http';
import zlib from 'node:zlib';
import autocannon from 'autocannon';
import { cpuMeter } from '../support.mjs';
import { connections } from './run.mjs';

/**
 * What a browser sends with every request (Chromium and Firefox ask for at least these), so every case
 * pays the compression a browser's request costs. BENCH_ACCEPT_ENCODING overrides it ('' sends none:
 * the answers as they are, to see what compressing costs).
 */
export const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING ?? 'gzip, deflate, br';

/** The headers of every request of `token`'s user: the bearer token and the browser's Accept-Encoding. */
export const headersFor = (token) => ({ authorization: `Bearer ${token}`, ...(ACCEPT_ENCODING && { 'accept-encoding': ACCEPT_ENCODING }) });

const decoders = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync, deflate: zlib.inflateSync };

/**
 * One GET as it comes over the wire (node:http, which decodes nothing): the status, the Content-Encoding
 * the server chose ('' for none), the body's bytes on the wire and its decoded text.
 */
export function wireGet(base, url, headers) {
  return new Promise((resolve, reject) => {
    const req = http.get(base + url, { headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const encoding = String(res.headers['content-encoding'] ?? '');
        try {
          const decode = decoders[encoding];
          if (encoding && !decode) throw new Error(`unknown content-encoding ${encoding}`);
          const text = (decode ? decode(raw) : raw).toString('utf8');
          resolve({ status: res.statusCode, encoding, wireBytes: raw.length, text });
        } catch (e) {
          reject(e);
        }
      });
    });
    req.on('error', reject);
  });
}

/** Answers at least this big are compressed by the server when asked (app.ts, @fastify/compress's threshold). */
export const COMPRESS_THRESHOLD = 1024;

/**
 * The answer's size for the table: the bytes on the wire with their encoding and the decoded size beside
 * them ("10.2 br (148.7)"), or the size alone when it went as it is; `uncompressed` when the browser's
 * request asked for an encoding and an answer over the threshold came without one.
 */
export function answerSize(answer) {
  const decoded = Buffer.byteLength(answer.text);
  const kb = (n) => (n / 1024).toFixed(1);
  const uncompressed = Boolean(ACCEPT_ENCODING) && !answer.encoding && decoded >= COMPRESS_THRESHOLD;
  return {
    uncompressed,
    shown: answer.encoding
      ? `${kb(answer.wireBytes)} ${answer.encoding} (${kb(decoded)})`
      : `${kb(decoded)}${uncompressed ? ' NOT COMPRESSED' : ''}`,
  };
}

/** A load of `url` with autocannon, 10 connections, `seconds`: its latencies and requests/s, as autocannon gives them. */
export function loadUrl(base, url, headers, seconds) {
  return autocannon({ url: base + url, headers, connections, duration: seconds });
}

/**
 * The machine's calibration: my-profile (the call every screen makes, one indexed read) as the Admin,
 * 10 connections, `seconds`, on the server at `base`. Its requests/s, printed beside every table, say how
 * fast this machine was then: compare tables by it, not by their absolute figures.
 */
export async function calibrate(base, token, seconds = Number(process.env.BENCH_CALIBRATE_SECONDS ?? 3)) {
  const r = await loadUrl(base, '/api/user/my-profile', headersFor(token), seconds);
  return { rps: Math.round(r.requests.average), p99: r.latency.p99, seconds };
}

export const calibrationText = (c) => `my-profile ${c.rps} req/s (p99 ${c.p99} ms; Admin, ${connections} connections, ${c.seconds} s)`;

/**
 * A load of `url` (loadUrl) with the CPU time it cost: the server process's and its PostgreSQL connections'
 * (support.mjs cpuMeter, /proc), per request. `db` is a pg pool or client on the server's database; its
 * backends are the server's: those of `applicationName` (its PGAPPNAME) when given, else every other one.
 */
export async function loadWithCpu(server, db, url, headers, seconds, applicationName) {
  const meter = await cpuMeter(db, server.pid, applicationName);
  const r = await loadUrl(server.base, url, headers, seconds);
  const cpu = await meter(r.requests.total);
  return {
    p50: r.latency.p50,
    p99: r.latency.p99,
    rps: r.requests.average,
    requests: r.requests.total,
    bytes: r.throughput.total,
    non2xx: r.non2xx,
    timeouts: r.timeouts,
    errors: r.errors,
    cpuNode: cpu.node,
    cpuPg: cpu.postgres,
  };
}

/** The p99 target of a call: a report hub call 300 ms, a deep page 100 ms, any other list or search page 50 ms. */
export const p99TargetOf = (url, deep) => (url.startsWith('/api/report/') ? 300 : deep ? 100 : 50);

export const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  if (!s.length) return Number.NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
