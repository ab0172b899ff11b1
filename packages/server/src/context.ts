import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Auth } from './platform/auth.js';
import type { Db } from './platform/database.js';
import type { FileStore } from './platform/files.js';
import type { Mailer } from './platform/mail.js';
import type { TokenService } from './platform/tokens.js';

/** What features receive: the dependencies they use, nothing global. */
export type AppContext = {
  db: Db;
  config: Config;
  secret: string;
  log: Logger;
  tokens: TokenService;
  mailer: Mailer;
  auth: Auth;
  /** Stored files under DATA_DIR/files. */
  files: FileStore;
};
