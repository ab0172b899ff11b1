import path from 'node:path';

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
  trustProxy: boolean;
  logLevel: string;
  webDist: string | undefined;
};

function int(name: string, value: string | undefined, fallback: number | undefined): number | undefined {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name} must be a port number, got "${value}"`);
  return n;
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
    trustProxy: env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1',
    logLevel: env.LOG_LEVEL || 'info',
    webDist: env.WEB_DIST || undefined,
  };
}
