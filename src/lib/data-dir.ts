/**
 * Which data directory the operator CLI works on (issue 38.7). `npm start` runs in the package folder, so the server's
 * default is `<package>/data`; the CLI used to take `./data` of wherever it was run and silently made a new, empty
 * database there. Now, in order:
 *
 * 1. QUARRY_DATA_DIR, when set (as for the server);
 * 2. the data directory of the server last started by this user (`server.json` in the config directory, written by
 *    `npm start` / `quarry serve`), while its database is there;
 * 3. `<package>/data`, or `./data` of the current directory, whichever holds a database;
 * 4. otherwise a new database in `<package>/data`.
 *
 * Anything but 1, and 3 from the package folder itself, is said on stderr, so nobody works on a database by surprise.
 */
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

export interface ServerRecord {
  dataDir: string;
  baseUrl: string;
  pid: number;
  startedAt: string;
  /** `postgres` when the server ran on QUARRY_DATABASE_URL (its data directory then holds the secret only). */
  storage: 'sqlite' | 'postgres';
}

/** Where `quarry login` keeps credentials.json and the server its server.json. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.QUARRY_CONFIG_DIR) return path.resolve(env.QUARRY_CONFIG_DIR);
  if (env.XDG_CONFIG_HOME) return path.join(env.XDG_CONFIG_HOME, 'quarry');
  return path.join(os.homedir(), '.config', 'quarry');
}

/** The package folder (where `npm start` runs): src/lib or dist/lib, two levels up. */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const serverFile = (env: NodeJS.ProcessEnv) => path.join(configDir(env), 'server.json');

/** Written by the server once it listens; never holds a secret. Failures are ignored (a read-only home). */
export function recordServer(record: ServerRecord, env: NodeJS.ProcessEnv = process.env): void {
  try {
    const file = serverFile(env);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(record, null, 2) + '\n', { mode: 0o600 });
    fs.renameSync(`${file}.tmp`, file);
  } catch {
    // best effort
  }
}

export function lastServer(env: NodeJS.ProcessEnv = process.env): ServerRecord | null {
  try {
    const r = JSON.parse(fs.readFileSync(serverFile(env), 'utf8')) as ServerRecord;
    return typeof r.dataDir === 'string' && path.isAbsolute(r.dataDir) ? r : null;
  } catch {
    return null;
  }
}

export interface DataDirChoice {
  dir: string;
  /** What to say on stderr, or null when the choice is the obvious one. */
  note: string | null;
}

const hasDb = (dir: string) => fs.existsSync(path.join(dir, 'quarry.db'));

export function chooseDataDir(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): DataDirChoice {
  if (env.QUARRY_DATA_DIR) return { dir: path.resolve(cwd, env.QUARRY_DATA_DIR), note: null };
  const server = lastServer(env);
  const packageData = path.join(PACKAGE_ROOT, 'data');
  const here = path.resolve(cwd, 'data');
  if (server && (hasDb(server.dataDir) || server.storage === 'postgres')) {
    const quiet = server.dataDir === here;
    return { dir: server.dataDir, note: quiet ? null : `using ${server.dataDir}, the data directory of the server started at ${server.startedAt} (set QUARRY_DATA_DIR to choose another)` };
  }
  if (hasDb(packageData)) return { dir: packageData, note: packageData === here ? null : `using ${packageData}, the data directory of npm start in ${PACKAGE_ROOT} (set QUARRY_DATA_DIR to choose another)` };
  if (hasDb(here)) return { dir: here, note: null };
  return {
    dir: packageData,
    note: `no database yet: creating one in ${packageData}, where npm start keeps it (set QUARRY_DATA_DIR to choose another)`,
  };
}
