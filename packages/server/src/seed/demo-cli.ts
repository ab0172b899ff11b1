import pino from 'pino';
import { ensureFirstAdmin, ensureReferenceData } from '../bootstrap.js';
import { loadConfig } from '../config.js';
import { connect, runMigrations } from '../platform/database.js';
import { startEmbeddedPostgres } from '../platform/embeddedPostgres.js';
import { ensureDatabase } from '../platform/ensureDatabase.js';
import { fileStore } from '../platform/files.js';
import { activityFileStore } from '../shared/activityFileStore.js';
import { seedDemo } from './demo.js';
import { seedDemoActivities } from './demoActivities.js';
import { seedDemoClusters } from './demoClusters.js';
import { seedDemoContracts } from './demoContracts.js';
import { seedDemoInventory } from './demoInventory.js';
import { linkDemoClusters } from './demoLinks.js';
import { seedDemoTopics } from './demoTopics.js';
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
    const people = await seedDemo(db);
    const places = await seedDemoClusters(db);
    const deals = await seedDemoContracts(db, fileStore(config.dataDir));
    const links = await linkDemoClusters(db);
    const issues = await seedDemoTopics(db);
    // Activity documents go to the DATA_DIR the server reads them from (GET /api/files/activity/…).
    const progress = await seedDemoActivities(db, activityFileStore(config.dataDir));
    // Inventory (issue 11): contracts with schools, the codebook, items, stocktaking lists sent and confirmed.
    const inventory = await seedDemoInventory(db);
    log.info(
      `demo data added: ${people.groups} groups, ${people.users} users (password for every demo account: ${DEFAULT_PASSWORD}), ` +
        `${places.settlements} settlements, ${places.priorities} priorities, ${places.clusters} clusters, ${deals.contracts} contracts, ${links.links} links, ` +
        `${issues.topics} topics with ${issues.comments} comments, ${progress.clusters} more clusters, ${progress.activities} activities under way or done, ` +
        `${inventory.types} inventory types, ${inventory.contracts} inventory contracts, ${inventory.items} inventory items`,
    );
  } finally {
    await db.$client.end();
    await embedded?.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
