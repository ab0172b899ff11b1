import path from 'node:path';
import { loadConfig } from '../config.js';
import { claimDataDir, type EmbeddedDatabase, startEmbeddedPostgres } from '../platform/embeddedPostgres.js';
import { ensureDatabase } from '../platform/ensureDatabase.js';
import { backup, RestoreRefused, restore } from './backup.js';

/**
 * npm run backup [-- FILE]            the database the server uses and DATA_DIR/files, in one archive
 * npm run restore -- FILE [--force] [--while-running]
 *                                     the reverse: the servers must be stopped (refused while other
 *                                     clients are connected to the database, unless --while-running);
 *                                     --force overwrites a database holding data. Every session ends.
 * The database is found as the server finds it (main.ts): DATABASE_URL, or the embedded PostgreSQL
 * under DATA_DIR (a running server's is used as it is; otherwise it is started for the run).
 */
const USAGE = 'usage: npm run backup [-- FILE.tar.gz] | npm run restore -- FILE.tar.gz [--force] [--while-running]';
const FLAGS = ['--force', '--while-running'];

async function main() {
  const [command, ...args] = process.argv.slice(2);
  const config = loadConfig();
  const force = args.includes('--force');
  const whileRunning = args.includes('--while-running');
  const file = args.find((a) => !a.startsWith('--'));
  if (command !== 'backup' && command !== 'restore') throw new RestoreRefused(USAGE);
  if (args.some((a) => a.startsWith('--') && !FLAGS.includes(a))) throw new RestoreRefused(USAGE);
  if (command === 'restore' && !file) throw new RestoreRefused(USAGE);

  let release: (() => Promise<void>) | undefined;
  let embedded: EmbeddedDatabase | undefined;
  try {
    // A restore replaces what a running server uses: it refuses while one runs on this DATA_DIR.
    if (command === 'restore') release = await claimDataDir(config.dataDir);
    let url = config.databaseUrl;
    if (!url) {
      embedded = await startEmbeddedPostgres({ dir: config.dataDir, log: (m) => console.error(m), attach: true });
      url = await ensureDatabase(embedded.url, 'trasa');
    }
    if (command === 'backup') {
      const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
      const out = file ?? path.join(config.dataDir, 'backups', `trasa-${stamp}.tar.gz`);
      const { manifest } = await backup({ databaseUrl: url, dataDir: config.dataDir, out });
      const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
      console.log(`backup written: ${path.resolve(out)} (${manifest.tables.length} tables, ${rows} rows, ${manifest.files.count} files)`);
      if (manifest.files.missing.length > 0) {
        console.warn(
          `warning: ${manifest.files.missing.length} files named by the database were missing in DATA_DIR/files: ${manifest.files.missing.join(', ')}`,
        );
      }
    } else {
      const manifest = await restore({ databaseUrl: url, dataDir: config.dataDir, archive: file as string, force, whileRunning });
      console.log(`restored the backup of ${manifest.createdAt}: ${manifest.tables.length} tables, ${manifest.files.count} files`);
      console.log('every session ended: users sign in again');
    }
  } finally {
    await embedded?.stop();
    await release?.();
  }
}

main().catch((err) => {
  console.error(err instanceof RestoreRefused ? err.message : err);
  process.exit(1);
});
