/**
 * The embedded store: one SQLite file in QUARRY_DATA_DIR, WAL mode so the operator CLI can write while the server
 * runs. One module per concern (accounts, keys, ledger, calls, idempotency, budgets, archive) on one connection;
 * their writes share one group commit (`write-batch.ts`), and so do the request log's.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AccountSideStore } from '../account-side.js';
import type { RequestLogStore } from '../request-log.js';
import type { Store } from '../types.js';
import { StoreByConcern } from '../by-concern.js';
import { SqliteAccountSide } from './account-side.js';
import { SqliteAccounts } from './accounts.js';
import { SqliteArchive } from './archive.js';
import { SqliteBudgets } from './budgets.js';
import { SqliteCalls } from './calls.js';
import { SqliteDatabase, type Database } from './driver.js';
import { startCheckpointer, type Checkpointer, type CheckpointerOptions } from './checkpointer.js';
import { SqliteIdempotency } from './idempotency.js';
import { SqliteKeys } from './keys.js';
import { SqliteLedger } from './ledger.js';
import { SqliteRequestLog } from './request-log.js';
import { MIGRATIONS, SCHEMA } from './schema.js';
import { WriteBatch } from './write-batch.js';

/** The write-ahead log's file is cut back to this size when it is rewound (SQLite's `journal_size_limit`). */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * `background: true` (the server) moves WAL checkpoints to a worker thread; short-lived users (the CLI, tests)
 * keep SQLite's automatic ones.
 */
export function openSqliteStore(dataDir: string, options: { background?: boolean } = {}): SqliteStore {
  fs.mkdirSync(dataDir, { recursive: true });
  return new SqliteStore(path.join(dataDir, 'quarry.db'), options);
}

export class SqliteStore extends StoreByConcern implements Store {
  /** One process owns the file (`serve --workers` refuses more than one on it). */
  readonly sharedByInstances = false;
  readonly db: Database;
  private readonly batch: WriteBatch;
  private readonly checkpointer: Checkpointer | undefined;

  private readonly accounts: SqliteAccounts;
  private readonly keys: SqliteKeys;
  private readonly ledger: SqliteLedger;
  private readonly calls: SqliteCalls;
  private readonly idempotency: SqliteIdempotency;
  private readonly budgetStore: SqliteBudgets;
  private readonly archive: SqliteArchive;
  private side: SqliteAccountSide | undefined;
  private log: SqliteRequestLog | undefined;

  constructor(file: string, options: { background?: boolean; checkpoints?: CheckpointerOptions } = {}) {
    super();
    this.db = new SqliteDatabase(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    // A log rewound after a burst is cut back to this size rather than keeping the burst's length on disk.
    this.db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    this.db.exec(SCHEMA);
    this.migrate();
    if (options.background) {
      this.db.pragma('wal_autocheckpoint = 0');
      this.checkpointer = startCheckpointer(file, options.checkpoints);
    }
    const checkpointer = this.checkpointer;
    const archive = new SqliteArchive(this.db);
    this.batch = new WriteBatch(this.db, () => archive.forgetWritten(), () => checkpointer?.catchUp());
    this.archive = archive;
    this.accounts = new SqliteAccounts(this.db, this.batch);
    this.keys = new SqliteKeys(this.db, this.batch);
    this.calls = new SqliteCalls(this.db, (call) => archive.keepNow(call));
    this.budgetStore = new SqliteBudgets(this.db, this.batch);
    this.ledger = new SqliteLedger(this.db, this.batch, this.budgetStore, this.calls);
    this.idempotency = new SqliteIdempotency(this.db, this.batch);
    this.concerns = { accounts: this.accounts, keys: this.keys, ledger: this.ledger, calls: this.calls, idempotency: this.idempotency, budgets: this.budgetStore, archive: this.archive };
  }

  /** Runs `run` in the next group commit of this store's writes (the request log shares it: one commit a turn). */
  groupCommit<T>(run: () => T): Promise<T> {
    return this.batch.submit(run);
  }

  /** The account side in this file (its tables are created when first asked for). */
  accountSide(): AccountSideStore {
    return (this.side ??= new SqliteAccountSide(this.db));
  }

  /** The request log in this file, sharing this store's group commit. */
  requestLog(): RequestLogStore {
    return (this.log ??= new SqliteRequestLog(this.db, (run) => this.groupCommit(run)));
  }

  // housekeeping across concerns: each in one transaction

  releaseExpired(nowMs: number, all = false): Promise<number> {
    return this.batch.submit(() => {
      const released = this.ledger.releaseHeldNow(nowMs, all);
      this.idempotency.releaseRunningNow(nowMs, all);
      return released;
    });
  }

  async pruneExpired(r: { archiveBeforeMs: number; nowMs: number }): Promise<void> {
    await this.batch.submit(() => {
      this.archive.pruneNow(r.archiveBeforeMs);
      this.idempotency.pruneNow(r.nowMs);
    });
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    this.batch.flush(true);
    await this.checkpointer?.stop();
    this.db.close();
  }

  private migrate(): void {
    const version = this.db.pragma('user_version', { simple: true }) as number;
    for (const m of MIGRATIONS) {
      if (m.version <= version) continue;
      this.db.transaction(() => {
        if (m.sql) this.db.exec(m.sql);
        this.db.pragma(`user_version = ${m.version}`);
      })();
    }
  }
}
