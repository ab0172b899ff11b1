import { isIP } from 'node:net';
import path from 'node:path';
import { KIND_NAMES, type KindName } from './platform/kept/kinds.js';
import type { KeptSettings } from './platform/kept/store.js';

/** Configuration from the environment; every variable is documented in README.md and .env.example. */
export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  appUrl: string;
  appSecret: string | undefined;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  embeddedPgPort: number | undefined;
  /**
   * Which peers' X-Forwarded-For is believed (TRUST_PROXY): false, none; a number, that many proxy hops
   * in front of the server; a list, the proxies' addresses, CIDR ranges or proxy-addr's names
   * ('loopback', 'linklocal', 'uniquelocal'). The client is the right-most address not trusted.
   */
  trustProxy: false | number | string[];
  logLevel: string;
  webDist: string | undefined;
  /**
   * The values kept in memory (platform/kept): TRASA_KEPT_VERIFY=1 computes every hit afresh and fails the
   * request (500, a log line naming the kind and the key) when it differs from the kept value — a mode for
   * development and CI; TRASA_KEPT_OFF=kind,kind or `all` keeps nothing of those kinds (for measurements).
   */
  kept: KeptSettings;
};

function int(name: string, value: string | undefined, fallback: number | undefined): number | undefined {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name} must be a port number, got "${value}"`);
  return n;
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, an address/prefix (CIDR) or one of proxy-addr's names. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: unset, '' or 'false' trust no proxy; 'true' is one hop; a whole number that many hops;
 * otherwise a comma-separated list of the proxies' addresses or CIDRs. Anything else stops the start.
 */
export function parseTrustProxy(value: string | undefined): false | number | string[] {
  const v = (value ?? '').trim();
  if (v === '' || v === 'false') return false;
  if (v === 'true') return 1;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops > 100) throw new Error(`TRUST_PROXY: ${hops} proxy hops is not a plausible count`);
    return hops === 0 ? false : hops;
  }
  const entries = v.split(',').map((e) => e.trim());
  const bad = entries.filter((e) => !isProxyEntry(e));
  if (bad.length > 0) {
    throw new Error(
      `TRUST_PROXY must be true, false, a number of proxy hops, or a comma-separated list of the proxies' addresses or CIDRs (or loopback, linklocal, uniquelocal); not understood: "${bad.join('", "')}"`,
    );
  }
  return entries;
}

/** TRASA_KEPT_VERIFY: unset, '', '0' or 'false' off; '1' or 'true' on; anything else stops the start. */
export function parseKeptVerify(value: string | undefined): boolean {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '' || v === '0' || v === 'false') return false;
  if (v === '1' || v === 'true') return true;
  throw new Error(`TRASA_KEPT_VERIFY must be 1 or 0 (true or false), got "${value}"`);
}

/** TRASA_KEPT_OFF: a comma-separated list of kept kinds (platform/kept/kinds.ts), or `all`; an unknown name stops the start. */
export function parseKeptOff(value: string | undefined): ReadonlySet<KindName> | 'all' {
  const names = (value ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  if (names.includes('all')) return 'all';
  const unknown = names.filter((n) => !(KIND_NAMES as string[]).includes(n));
  if (unknown.length > 0) {
    throw new Error(`TRASA_KEPT_OFF names no kept kind: "${unknown.join('", "')}"; the kinds are all, ${KIND_NAMES.join(', ')}`);
  }
  return new Set(names as KindName[]);
}

/** The environment's settings of the kept values alone (the tests' applications read them as the server does). */
export function keptEnvOf(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { TRASA_KEPT_VERIFY: env.TRASA_KEPT_VERIFY, TRASA_KEPT_OFF: env.TRASA_KEPT_OFF };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int('PORT', env.PORT, 3000) ?? 3000;
  return {
    port,
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    appUrl: (env.APP_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    appSecret: env.APP_SECRET || undefined,
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    embeddedPgPort: int('EMBEDDED_PG_PORT', env.EMBEDDED_PG_PORT, undefined),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    logLevel: env.LOG_LEVEL || 'info',
    webDist: env.WEB_DIST || undefined,
    kept: { verify: parseKeptVerify(env.TRASA_KEPT_VERIFY), off: parseKeptOff(env.TRASA_KEPT_OFF) },
  };
}
