/**
 * What every PostgreSQL module shares about the connection: how values come back, which errors mean "the database
 * is not reachable right now", and how a statement or a transaction turns those into the retryable storage error.
 */
import pg from 'pg';
import { QuarryError } from '../../errors.js';

/** bigint (int8) and numeric sums come back as numbers: every value here is far below 2^53. */
const NUMERIC_OIDS = new Set([20, 1700]);
export const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    NUMERIC_OIDS.has(oid) && format !== 'binary'
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** One statement, run after the migrations: what the store hands its concern modules. */
export type Query = <R extends pg.QueryResultRow>(sql: string, args?: unknown[]) => Promise<pg.QueryResult<R>>;

/** SQLSTATE classes and driver errors that mean "the database is not reachable right now". */
export function isConnectionError(e: unknown): boolean {
  const err = e as { code?: string; message?: string } | null;
  if (!err) return false;
  const code = err.code ?? '';
  if (/^(08|57P0[1-4]|53300)/.test(code)) return true; // connection exception, admin/crash shutdown, too many connections
  if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN'].includes(code)) return true;
  const m = err.message ?? '';
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout|not queryable/i.test(m);
}

export function storageUnavailable(): QuarryError {
  return new QuarryError(
    'internalError',
    'Storage is unavailable right now (the database cannot be reached); no credits were taken for this call. Try again shortly.',
    { retryable: true, retryAfterSeconds: 2 },
  );
}

/** Runs `fn`; a lost connection becomes the retryable storage error. */
export async function orUnavailable<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isConnectionError(e)) throw storageUnavailable();
    throw e;
  }
}

/**
 * One transaction on one pooled connection: committed when `fn` returns, rolled back when it throws; a lost
 * connection becomes the retryable storage error.
 */
export async function inTransaction<T>(connect: () => Promise<pg.PoolClient>, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await orUnavailable(connect);
  try {
    await client.query('BEGIN');
    const out = await fn(client);
    await client.query('COMMIT');
    return out;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    if (isConnectionError(e)) throw storageUnavailable();
    throw e;
  } finally {
    client.release();
  }
}

/** What the modules with migrations of their own (account side, request log) need of the store they live beside. */
export interface StoreDatabase {
  readonly pool: pg.Pool;
  /** The store's migrations, run once per process; theirs come after. */
  migrate(): Promise<void>;
}
