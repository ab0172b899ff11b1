// Sign-in under a flood of wrong passwords (issue 12, finding 1). Against the built server on a fresh
// database (TRUST_PROXY=true, so X-Forwarded-For names the caller), for BENCH_SECONDS:
// - an attacker sends ATTACK_RATE wrong sign-ins a second, each from a new address: 80 % at the
//   accounts of TARGETS real employees, 20 % at unknown addresses;
// - ordinary traffic: PROFILE_RATE GET /api/user/my-profile a second (a signed-in user's screens);
// - a real user (not attacked) signs in every 2 s from their own address, and so does the owner of
//   an attacked account, from the address they signed in from before the attack.
// Then, on the same server, a one-address flood (issue 12 follow-up): ATTACK_RATE wrong sign-ins a
// second from ONE address (at the attacked accounts and unknown addresses) for BENCH_SECONDS, while a
// real sign-in every REAL_EVERY_MS (2 s) comes from a new address, each of another (unattacked) account.
// Requests are sent open-loop (at their rate, whatever the answers), so a slow server cannot slow the
// load down. Passes when my-profile stays under 100 ms p99 and every real sign-in succeeds within 2 s,
// in both cases. CASES=spread or CASES=one runs one case alone.
//   npm run build && node bench/login-stall.mjs
import { randomBytes, scryptSync } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { BENCH_ADMIN, startBenchServer } from './support.mjs';

const seconds = Number(process.env.BENCH_SECONDS || 20);
const attackRate = Number(process.env.ATTACK_RATE || 100);
const profileRate = Number(process.env.PROFILE_RATE || 20);
const targets = Number(process.env.TARGETS || 40);
const realEveryMs = Number(process.env.REAL_EVERY_MS || 2000);
const cases = (process.env.CASES || 'spread,one').split(',');
const TARGET_PASSWORD = 'Meta-Lozinka-7';
const LIMITS = { profileP99Ms: 100, signInMs: 2000 };

const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });

/** One request; resolves with its status and its time in ms (never rejects: a failure is status 0). */
function call(base, method, path, { body, headers = {} } = {}) {
  const started = performance.now();
  return new Promise((resolve) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      `${base}${path}`,
      {
        method,
        agent,
        headers: { ...headers, ...(data && { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) }) },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started, body: '' }));
    if (data) req.write(data);
    req.end();
  });
}

/** Fires `send` `rate` times a second for `ms`, not waiting for answers; resolves with all results. */
async function openLoop(rate, ms, send) {
  const pending = [];
  const start = performance.now();
  for (let i = 0; ; i++) {
    const due = start + (i * 1000) / rate;
    if (due - start >= ms) break;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(send(i));
  }
  return Promise.all(pending);
}

const pct = (values, p) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const ms = (v) => `${Math.round(v)} ms`;
const histogram = (results) => {
  const counts = new Map();
  for (const r of results) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  return [...counts].map(([s, n]) => `${s}: ${n}`).join(', ');
};

/** The stored form of the server's scrypt hashes (platform/passwords.ts), made once for all targets. */
function hash(password) {
  const salt = randomBytes(16);
  const N = 2 ** 17;
  const key = scryptSync(password.normalize('NFKC'), salt, 32, { N, r: 8, p: 1, maxmem: 256 * N * 8 + 16 * 1024 * 1024 });
  return `scrypt$17$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
}

const server = await startBenchServer({ TRUST_PROXY: 'true' });
let failed = false;
try {
  const base = server.base;
  const db = new pg.Client({ connectionString: server.dbUrl });
  await db.connect();
  await db.query(
    `insert into users (ime, prezime, email, email_potvrdjen, role_id, status, password_hash)
     select 'Meta', 'Broj ' || i, 'meta' || i || '@bench.test', true,
            (select id from roles where base_role = 'Zaposleni' and builtin limit 1), 'aktivan', $1
     from generate_series(1, $2::int) i`,
    [hash(TARGET_PASSWORD), targets],
  );
  // Accounts nobody attacks, for the one-address flood's real sign-ins (the same password's hash).
  await db.query(
    `insert into users (ime, prezime, email, email_potvrdjen, role_id, status, password_hash)
     select 'Stvarni', 'Broj ' || i, 'stvarni' || i || '@bench.test', true,
            (select id from roles where base_role = 'Zaposleni' and builtin limit 1), 'aktivan',
            (select password_hash from users where email = 'meta1@bench.test')
     from generate_series(1, 200) i`,
  );
  await db.end();

  const signIn = (email, lozinka, ip) =>
    call(base, 'POST', '/api/user/login', { body: { email, lozinka }, headers: { 'x-forwarded-for': ip } });
  const USER_IP = '192.0.2.10';
  const VICTIM_IP = '192.0.2.20';
  const victim = 'meta1@bench.test';
  const admin = await signIn(BENCH_ADMIN.email, BENCH_ADMIN.password, USER_IP);
  const token = JSON.parse(admin.body).token;
  // The attacked account's owner signed in before, from their usual address.
  const before = await signIn(victim, TARGET_PASSWORD, VICTIM_IP);
  if (admin.status !== 200 || before.status !== 200) throw new Error(`setup sign-in failed: ${admin.status} ${before.status}`);
  const profile = () =>
    call(base, 'GET', '/api/user/my-profile', { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': USER_IP } });

  const report = (label, rs) => {
    const worst = Math.max(...rs.map((r) => r.ms));
    console.log(`${label}: ${rs.map((r) => `${r.status}/${Math.round(r.ms)}ms`).join(' ')} — worst ${ms(worst)}`);
    return rs.every((r) => r.status === 200 && r.ms < LIMITS.signInMs);
  };
  let spreadOk = true;
  if (cases.includes('spread')) {
    console.log(
      `\nlogin stall: ${seconds} s, ${attackRate} wrong sign-ins/s (${targets} attacked accounts + unknown addresses, a new address each),` +
        ` ${profileRate} my-profile/s, server on ${server.onEmbedded ? 'embedded PostgreSQL' : 'DATABASE_URL'}`,
    );
    const quiet = await openLoop(profileRate, 5000, profile);
    const q = quiet.map((r) => r.ms);
    console.log(
      `baseline my-profile (no attack): p50 ${ms(pct(q, 50))}, p99 ${ms(pct(q, 99))}, max ${ms(Math.max(...q))} [${histogram(quiet)}]`,
    );

    let seq = 0;
    const attackerIp = () => {
      seq++;
      return `10.${(seq >> 16) & 255}.${(seq >> 8) & 255}.${seq & 255}`;
    };
    const attack = openLoop(attackRate, seconds * 1000, (i) =>
      i % 5 === 4
        ? signIn(`niko${i}@bench.test`, 'Pogresna-123', attackerIp())
        : signIn(`meta${1 + (i % targets)}@bench.test`, `Pogresna-${i}`, attackerIp()),
    );
    const ordinary = openLoop(profileRate, seconds * 1000, profile);
    const users = openLoop(0.5, seconds * 1000, () => signIn(BENCH_ADMIN.email, BENCH_ADMIN.password, USER_IP));
    const victims = openLoop(0.5, seconds * 1000, () => signIn(victim, TARGET_PASSWORD, VICTIM_IP));
    const [a, o, u, v] = await Promise.all([attack, ordinary, users, victims]);

    const om = o.map((r) => r.ms);
    const p99 = pct(om, 99);
    console.log(
      `attack: ${a.length} sign-ins sent [${histogram(a)}], answered p50 ${ms(
        pct(
          a.map((r) => r.ms),
          50,
        ),
      )}, p99 ${ms(
        pct(
          a.map((r) => r.ms),
          99,
        ),
      )}`,
    );
    console.log(`my-profile under attack: p50 ${ms(pct(om, 50))}, p99 ${ms(p99)}, max ${ms(Math.max(...om))} [${histogram(o)}]`);
    const userOk = report('real user sign-ins (account not attacked)', u);
    const victimOk = report('attacked account, owner from a known address', v);
    console.log(`server RSS ${server.rssMb()} MB, peak ${server.peakMb()} MB`);
    const profileOk = p99 < LIMITS.profileP99Ms && o.every((r) => r.status === 200);
    console.log(
      `verdict: my-profile p99 < ${LIMITS.profileP99Ms} ms ${profileOk ? 'PASS' : 'FAIL'}; real sign-in < ${LIMITS.signInMs} ms ${userOk ? 'PASS' : 'FAIL'}; attacked owner ${victimOk ? 'PASS' : 'FAIL'}`,
    );
    spreadOk = profileOk && userOk;
  }

  let oneOk = true;
  if (cases.includes('one')) {
    // One address floods; real sign-ins come from addresses the server has not seen.
    const FLOOD_IP = '198.51.100.66';
    console.log(
      `\none-address flood: ${seconds} s, ${attackRate} wrong sign-ins/s from ${FLOOD_IP} (${targets} accounts + unknown addresses),` +
        ` a real sign-in every ${realEveryMs} ms, each from a new address`,
    );
    const flood = openLoop(attackRate, seconds * 1000, (i) =>
      i % 5 === 4
        ? signIn(`niko.jedan${i}@bench.test`, 'Pogresna-123', FLOOD_IP)
        : signIn(`meta${1 + (i % targets)}@bench.test`, `Pogresna-jedan-${i}`, FLOOD_IP),
    );
    // Each a person of their own (an account nobody attacks) from an address the server has not seen.
    const real = openLoop(1000 / realEveryMs, seconds * 1000, (i) =>
      signIn(`stvarni${1 + (i % 200)}@bench.test`, TARGET_PASSWORD, `203.0.113.${1 + (i % 200)}`),
    );
    const [f, r] = await Promise.all([flood, real]);
    console.log(
      `flood: ${f.length} sign-ins sent [${histogram(f)}], answered p50 ${ms(
        pct(
          f.map((x) => x.ms),
          50,
        ),
      )}, p99 ${ms(
        pct(
          f.map((x) => x.ms),
          99,
        ),
      )}`,
    );
    const realMs = r.map((x) => x.ms);
    oneOk = report('real sign-ins, each from a new address', r);
    console.log(
      `real sign-ins: ${r.filter((x) => x.status === 200).length} of ${r.length} succeeded [${histogram(r)}], p50 ${ms(pct(realMs, 50))}, worst ${ms(Math.max(...realMs))}`,
    );
    console.log(`server RSS ${server.rssMb()} MB, peak ${server.peakMb()} MB`);
    console.log(`verdict: one-address flood, every real sign-in from a new address < ${LIMITS.signInMs} ms ${oneOk ? 'PASS' : 'FAIL'}`);
  }
  failed = !(spreadOk && oneOk);
} finally {
  agent.destroy();
  await server.stop();
}
process.exitCode = failed ? 1 : 0;
