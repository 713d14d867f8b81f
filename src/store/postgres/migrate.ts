/**
 * The versioned-migration runner of the PostgreSQL tables (the store's and the account side's: each its own list,
 * tracking table and lock, so both grow independently). Each pending migration runs once, in order, in its own
 * transaction, under a session advisory lock, so instances starting at the same moment apply it exactly once.
 */
import type pg from 'pg';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export interface MigrationList {
  /** Advisory lock key (any constant; shared by every instance). */
  lock: number;
  /** Tracking table of the versions applied (a constant name, never user input). */
  table: string;
  migrations: readonly Migration[];
  /** Runs first, under the lock (creating the schema the tables live in). */
  before?: (client: pg.PoolClient) => Promise<unknown>;
}

export async function runMigrations(pool: pg.Pool, list: MigrationList): Promise<void> {
  const client = await pool.connect();
  try {
    // Session lock: instances starting together wait here, then find the work done.
    await client.query('SELECT pg_advisory_lock($1)', [list.lock]);
    try {
      await list.before?.(client);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${list.table} (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      const done = new Set((await client.query<{ version: number }>(`SELECT version FROM ${list.table}`)).rows.map((r) => r.version));
      for (const m of list.migrations) {
        if (done.has(m.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(m.sql);
          await client.query(`INSERT INTO ${list.table} (version, name) VALUES ($1, $2)`, [m.version, m.name]);
          await client.query('COMMIT');
        } catch (e) {
          await client.query('ROLLBACK').catch(() => {});
          throw e;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [list.lock]).catch(() => {});
    }
  } finally {
    client.release();
  }
}

/** `run` once per process; a failure is forgotten, so the next call tries again (the database may be back). */
export function onceUntilDone(run: () => Promise<void>): () => Promise<void> {
  let ready: Promise<void> | undefined;
  return () =>
    (ready ??= run().catch((e) => {
      ready = undefined;
      throw e;
    }));
}
