import type { Config } from '../config.js';
import { openSqliteStore } from './sqlite/store.js';
import type { Store } from './types.js';

/** Picks the storage implementation from config; the server (`background`) and the operator CLI share it. */
export function openStore(config: Config, options: { background?: boolean } = {}): Store {
  if (config.env.QUARRY_DATABASE_URL) {
    throw new Error('QUARRY_DATABASE_URL is set, but the PostgreSQL store is not part of this build yet');
  }
  return openSqliteStore(config.dataDir, options);
}
