import pino from 'pino';
import { ensureFirstAdmin, ensureReferenceData } from '../bootstrap.js';
import { loadConfig } from '../config.js';
import { connect, runMigrations } from '../platform/database.js';
import { startEmbeddedPostgres } from '../platform/embeddedPostgres.js';
import { ensureDatabase } from '../platform/ensureDatabase.js';
import { seedDemo } from './demo.js';
import { DEFAULT_PASSWORD } from './factories.js';

async function main() {
  const config = loadConfig();
  const log = pino({ level: 'info' });
  let url = config.databaseUrl;
  const embedded = url ? undefined : await startEmbeddedPostgres({ dir: config.dataDir, log: (m) => log.warn(m), attach: true });
  if (embedded) url = await ensureDatabase(embedded.url, 'trasa');
  const db = connect(url as string, 2);
  try {
    await runMigrations(db);
    // On a fresh database the operator's Admin comes first, as `npm start` would make it.
    if (config.adminEmail && config.adminPassword) {
      await ensureReferenceData(db);
      await ensureFirstAdmin(db, { email: config.adminEmail, password: config.adminPassword });
    }
    const added = await seedDemo(db);
    log.info(`demo data: ${added.groups} groups and ${added.users} users added (password for every demo account: ${DEFAULT_PASSWORD})`);
  } finally {
    await db.$client.end();
    await embedded?.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
