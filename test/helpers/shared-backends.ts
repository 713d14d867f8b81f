/**
 * PostgreSQL and Redis for tests: QUARRY_TEST_DATABASE_URL and QUARRY_TEST_REDIS_URL. Each call of
 * `sharedBackends()` makes a fresh schema and key prefix; two gateways given the same env share them.
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';
import { SqliteDatabase as Database } from '../../src/store/sqlite/driver.js';
import pg from 'pg';
import { SCHEMA } from '../../src/store/sqlite/schema.js';
import type { PostgresStore } from '../../src/store/postgres/store.js';

export const TEST_DATABASE_URL = process.env.QUARRY_TEST_DATABASE_URL || '';
export const TEST_REDIS_URL = process.env.QUARRY_TEST_REDIS_URL || '';
export const SHARED_SKIP_REASON =
  TEST_DATABASE_URL && TEST_REDIS_URL ? '' : ' (skipped: set QUARRY_TEST_DATABASE_URL and QUARRY_TEST_REDIS_URL to run against PostgreSQL + Redis)';

let counter = 0;

const int8AsNumber = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    (oid === 20 || oid === 1700) && format !== 'binary' ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** Runs one statement on the test database (outside any gateway). */
export async function adminQuery(sql: string, args: unknown[] = [], schema?: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, types: int8AsNumber, ...(schema ? { options: `-c search_path=${schema}` } : {}) });
  await client.connect();
  try {
    return await client.query(sql, args);
  } finally {
    await client.end();
  }
}

export interface Backends {
  env: Record<string, string>;
  schema?: string;
  drop(): Promise<void>;
}

/** A fresh schema (and Redis key prefix) when the test variables are set; empty env otherwise. */
export async function sharedBackends(): Promise<Backends> {
  const id = `t${process.pid}_${++counter}_${randomBytes(3).toString('hex')}`;
  const env: Record<string, string> = {};
  let schema: string | undefined;
  if (TEST_DATABASE_URL) {
    schema = `q_${id}`;
    const u = new URL(TEST_DATABASE_URL);
    u.searchParams.set('schema', schema);
    env.QUARRY_DATABASE_URL = u.toString();
  }
  if (TEST_REDIS_URL) {
    env.QUARRY_REDIS_URL = TEST_REDIS_URL;
    env.QUARRY_REDIS_PREFIX = `test:${id}:`;
  }
  return {
    env,
    schema,
    async drop() {
      if (schema) await adminQuery(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
    },
  };
}

/** `?` placeholders of SQLite SQL, filled in as PostgreSQL literals. */
function inline(sql: string, args: unknown[]): string {
  let i = 0;
  return sql.replace(/\?/g, () => {
    const v = args[i++];
    if (v === null || v === undefined) return 'NULL';
    if (typeof v === 'number' || typeof v === 'bigint') return String(v);
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (Buffer.isBuffer(v)) return `'\\x${v.toString('hex')}'::bytea`;
    return `'${String(v).replace(/'/g, "''")}'`;
  });
}

const SYNC_WORKER = `
const { workerData } = require('node:worker_threads');
const pg = require(workerData.driver);
const flag = new Int32Array(workerData.flag);
const client = new pg.Client({ connectionString: workerData.url, options: '-c search_path=' + workerData.schema });
const ready = client.connect();
workerData.port.on('message', async ({ sql }) => {
  let reply;
  try {
    await ready;
    reply = { rows: (await client.query("SELECT coalesce(json_agg(t), '[]') AS j FROM (" + sql + ") t")).rows[0].j };
  } catch (e) {
    reply = { error: String(e && e.message || e) };
  }
  workerData.port.postMessage(reply);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
`;

/**
 * `store.db.prepare(sql).get/all(...)` as on the embedded store, answered synchronously from the gateway's schema
 * (a worker thread holds the connection; the caller blocks for one round trip, well under a millisecond), so the
 * gateway tests that look into the tables run unchanged on PostgreSQL.
 */
export function attachSqliteView(store: PostgresStore): void {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const driver = createRequire(import.meta.url).resolve('pg');
  const worker = new Worker(SYNC_WORKER, {
    eval: true,
    workerData: { driver, url: TEST_DATABASE_URL, schema: store.schema, flag: flag.buffer, port: port2 },
    transferList: [port2],
  });
  worker.unref();
  port1.unref();
  const run = (sql: string, args: unknown[]): Record<string, unknown>[] => {
    Atomics.store(flag, 0, 0);
    port1.postMessage({ sql: inline(sql, args) });
    if (Atomics.wait(flag, 0, 0, 10_000) === 'timed-out') throw new Error('test SQL view: no answer in 10 s');
    const reply = receiveMessageOnPort(port1)?.message as { rows?: Record<string, unknown>[]; error?: string };
    if (reply.error) throw new Error(reply.error);
    return reply.rows!;
  };
  const close = store.close.bind(store);
  store.close = async () => {
    await close();
    await worker.terminate();
  };
  Object.defineProperty(store, 'db', {
    configurable: true,
    value: {
      prepare: (sql: string) => ({
        get: (...args: unknown[]) => run(sql, args)[0],
        all: (...args: unknown[]) => run(sql, args),
      }),
    },
  });
}

const TABLES: Record<string, string[]> = {
  accounts: ['id', 'email', 'balance', 'created_at'],
  api_keys: ['id', 'account_id', 'name', 'hash', 'prefix', 'sealed', 'test', 'revoked_at', 'created_at'],
  reservations: ['id', 'account_id', 'key_id', 'amount', 'state', 'expires_at', 'created_at'],
  ledger: ['ref', 'account_id', 'delta', 'kind', 'note', 'created_at'],
  calls: ['account_id', 'id', 'key_id', 'key_name', 'endpoint', 'credits', 'cache', 'test', 'tags', 'channel', 'created_at'],
};

/** Copies the gateway's PostgreSQL tables into an embedded-format quarry.db, for tests that read it after close. */
export async function snapshotToSqlite(store: PostgresStore, file: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, types: int8AsNumber, options: `-c search_path=${store.schema}` });
  await client.connect();
  const db = new Database(file);
  try {
    db.exec(SCHEMA);
    for (const [table, cols] of Object.entries(TABLES)) {
      const rows = (await client.query(`SELECT ${cols.join(', ')} FROM ${table}`)).rows as Record<string, unknown>[];
      const insert = db.prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
      db.transaction(() => {
        for (const r of rows) {
          insert.run(...cols.map((c) => (typeof r[c] === 'boolean' ? (r[c] ? 1 : 0) : Array.isArray(r[c]) ? JSON.stringify(r[c]) : r[c])));
        }
      })();
    }
  } finally {
    db.close();
    await client.end();
  }
}
