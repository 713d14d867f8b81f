/**
 * The PostgreSQL store, for several instances sharing one database (QUARRY_DATABASE_URL). Same contract and the
 * same credit rules as the embedded store, one module per concern (accounts, keys, ledger, calls, idempotency,
 * budgets, archive), all on one pool, each statement run after the migrations.
 *
 * Losing the database (refused connection, restart, terminated backend) surfaces as a retryable `internalError`
 * saying storage is unavailable; the pool drops broken connections and opens new ones on the next call, so the
 * server recovers by itself.
 */
import pg from 'pg';
import type { AccountSideStore } from '../account-side.js';
import type { RequestLogStore } from '../request-log.js';
import type { Store } from '../types.js';
import { StoreByConcern } from '../by-concern.js';
import { PostgresAccountSide } from './account-side.js';
import { PostgresAccounts } from './accounts.js';
import { PostgresArchive } from './archive.js';
import { PostgresBudgets } from './budgets.js';
import { PostgresCalls } from './calls.js';
import { orUnavailable, types, type Query } from './connection.js';
import { PostgresIdempotency } from './idempotency.js';
import { PostgresKeys } from './keys.js';
import { PostgresLedger } from './ledger.js';
import { onceUntilDone, runMigrations } from './migrate.js';
import { PostgresRequestLog } from './request-log.js';
import { MIGRATIONS } from './schema.js';

/** Advisory lock key of the migrations (any constant; shared by every instance). */
const MIGRATION_LOCK = 0x5175_6172; // "Quar"

export interface PostgresStoreOptions {
  /** Schema the tables live in (created by the migrations); `public` when absent. */
  schema?: string;
  poolSize?: number;
}

/**
 * `QUARRY_DATABASE_URL` is a libpq-style URL; an extra `schema=<name>` query parameter (ours, removed before
 * connecting) puts the tables in that schema, which is how the tests isolate each gateway.
 */
export function openPostgresStore(url: string, options: PostgresStoreOptions = {}): PostgresStore {
  const u = new URL(url);
  const schema = u.searchParams.get('schema') ?? options.schema;
  u.searchParams.delete('schema');
  return new PostgresStore(u.toString(), { ...options, schema: schema ?? undefined });
}

export class PostgresStore extends StoreByConcern implements Store {
  readonly sharedByInstances = true;
  readonly pool: pg.Pool;
  readonly schema: string;

  private readonly accounts: PostgresAccounts;
  private readonly keys: PostgresKeys;
  private readonly ledger: PostgresLedger;
  private readonly calls: PostgresCalls;
  private readonly idempotency: PostgresIdempotency;
  private readonly budgetStore: PostgresBudgets;
  private readonly archive: PostgresArchive;
  private side: PostgresAccountSide | undefined;
  private log: PostgresRequestLog | undefined;

  constructor(connectionString: string, options: PostgresStoreOptions = {}) {
    super();
    this.schema = options.schema ?? 'public';
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(this.schema)) throw new Error(`invalid PostgreSQL schema name "${this.schema}"`);
    this.pool = new pg.Pool({
      connectionString,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 3000,
      idleTimeoutMillis: 30_000,
      query_timeout: 15_000,
      types,
      options: `-c search_path=${this.schema}`,
      application_name: 'quarry',
    });
    // An idle connection that dies (database restart, pg_terminate_backend) is dropped by the pool; without a
    // listener the 'error' event would crash the process.
    this.pool.on('error', () => {});
    // A checked-out client (a transaction, a migration) has no listener of the pool's while it is out: a connection
    // reset between two of its statements would be an uncaught exception. Its next statement fails instead, as the
    // retryable storage error, and the pool drops the client when it is released.
    this.pool.on('connect', (client) => client.on('error', () => {}));

    const q: Query = (sql, args = []) => this.q(sql, args);
    this.accounts = new PostgresAccounts(q);
    this.keys = new PostgresKeys(q, connectionString, this.schema);
    this.calls = new PostgresCalls(q);
    this.budgetStore = new PostgresBudgets(q, () => this.pool.connect());
    this.ledger = new PostgresLedger(q, this.budgetStore, this.calls);
    this.idempotency = new PostgresIdempotency(q);
    this.archive = new PostgresArchive(q);
    this.concerns = { accounts: this.accounts, keys: this.keys, ledger: this.ledger, calls: this.calls, idempotency: this.idempotency, budgets: this.budgetStore, archive: this.archive };
  }

  /** Runs the pending migrations once per process (retried on the next call if the database was down). */
  readonly migrate = onceUntilDone(async () => {
    await runMigrations(this.pool, {
      lock: MIGRATION_LOCK,
      table: 'quarry_migrations',
      migrations: MIGRATIONS,
      before: (client) => client.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`),
    });
    // Open a few connections now rather than on the first requests (each costs a SCRAM handshake).
    await Promise.all(Array.from({ length: 3 }, () => this.pool.query('SELECT 1'))).catch(() => {});
  });

  /** One statement; connection failures become the retryable storage error. */
  private q<R extends pg.QueryResultRow>(sql: string, args: unknown[] = []): Promise<pg.QueryResult<R>> {
    return orUnavailable(async () => {
      await this.migrate();
      return this.pool.query<R>(sql, args);
    });
  }

  /** The account side in this database, with migrations of its own. */
  accountSide(): AccountSideStore {
    return (this.side ??= new PostgresAccountSide(this));
  }

  /** The request log in this database, with migrations of its own. */
  requestLog(): RequestLogStore {
    return (this.log ??= new PostgresRequestLog(this));
  }

  // housekeeping across concerns

  /** Holds first (a dead instance's lease must still be there to be noticed), then the running claims. */
  async releaseExpired(nowMs: number, all = false): Promise<number> {
    const released = await this.ledger.releaseHeld(nowMs, all);
    await this.idempotency.releaseRunning(nowMs, all);
    return released;
  }

  async pruneExpired(r: { archiveBeforeMs: number; nowMs: number }): Promise<void> {
    await this.archive.prune(r.archiveBeforeMs);
    await this.idempotency.prune(r.nowMs);
  }

  async ping(): Promise<void> {
    await this.q('SELECT 1');
  }

  async close(): Promise<void> {
    await this.keys.close();
    await this.pool.end();
  }
}
