import type { Config } from '../config.js';
import { openPostgresStore } from './postgres/store.js';
import { openSqliteStore } from './sqlite/store.js';
import type { Store } from './types.js';

/**
 * Picks the storage implementation from config; the server (`background`) and the operator CLI share it.
 * `QUARRY_DATABASE_URL=postgres://…` selects PostgreSQL (migrations run on first use); otherwise the embedded
 * SQLite file in QUARRY_DATA_DIR.
 */
export function openStore(config: Config, options: { background?: boolean } = {}): Store {
  const url = config.databaseUrl;
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url)) throw new Error('QUARRY_DATABASE_URL must be a postgres:// or postgresql:// URL');
    return openPostgresStore(url);
  }
  return openSqliteStore(config.dataDir, options);
}
