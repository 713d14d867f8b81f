/**
 * The embedded store: one SQLite file in QUARRY_DATA_DIR, WAL mode so the operator CLI can write while the
 * server runs. Balance changes are conditional UPDATEs inside short transactions, so concurrent calls can never
 * overdraw (SQLite has one writer; the CHECK constraint is the last line of defence).
 */
import fs from 'node:fs';
import path from 'node:path';
import { SqliteDatabase, type Database, type Statement } from './driver.js';
import { callFromRow, type CallRowBase } from '../call-rows.js';
import type {
  AccountSummary,
  AccountView,
  Budget,
  BudgetSpec,
  BudgetStatus,
  CallRecord,
  DebitOutcome,
  IdempotencyClaim,
  IdempotencyRequest,
  ReserveRequest,
  StoredResponse,
  KeyRecord,
  LogQuery,
  NewKey,
  Store,
  UsageQuery,
  UsageTotals,
} from '../types.js';
import { MIGRATIONS, SCHEMA } from './schema.js';
import { budgetApplies, periodWindow } from '../../budgets/periods.js';
import { BUDGET_COLS, budgetStatus, toBudget, type BudgetRow } from '../budget-rows.js';
import type { AccountSideStore } from '../account-side.js';
import type { RequestLogStore } from '../request-log.js';
import { SqliteAccountSide } from './account-side.js';
import { SqliteRequestLog } from './request-log.js';
import { WriteBatch } from './write-batch.js';
import { startCheckpointer, type Checkpointer, type CheckpointerOptions } from './checkpointer.js';
import { newId } from '../../lib/ids.js';

interface CallRow extends CallRowBase {
  test: number;
  tags: string;
}

const toCall = (r: CallRow): CallRecord => callFromRow(r, r.test === 1, JSON.parse(r.tags) as string[]);

const iso = (ms: number) => new Date(ms).toISOString();

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

export class SqliteStore implements Store {
  /** One process owns the file (`serve --workers` refuses more than one on it). */
  readonly sharedByInstances = false;
  readonly db: Database;
  private readonly batch: WriteBatch;
  private readonly s: Record<string, Statement>;
  /** Key writes through this connection; other connections' commits show in PRAGMA data_version. */
  private localKeyWrites = 0;
  private dataVersion = 0;
  private dataVersionReadAt = 0;

  private readonly checkpointer: Checkpointer | undefined;
  /** Archived answers this process wrote (hash → day): the cache hits of one result skip re-writing its body. */
  private readonly bodiesWritten = new Map<string, string>();
  private side: SqliteAccountSide | undefined;
  private log: SqliteRequestLog | undefined;

  constructor(file: string, options: { background?: boolean; checkpoints?: CheckpointerOptions } = {}) {
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
    this.batch = new WriteBatch(this.db, () => this.bodiesWritten.clear(), () => checkpointer?.catchUp());
    const p = (sql: string) => this.db.prepare(sql);
    this.s = {
      insertAccount: p('INSERT INTO accounts (id, email, balance, created_at) VALUES (?, ?, ?, ?)'),
      account: p('SELECT id, email, balance, created_at FROM accounts WHERE id = ?'),
      accountKeys: p(
        'SELECT id, name, prefix, test, revoked_at, created_at FROM api_keys WHERE account_id = ? ORDER BY created_at, id',
      ),
      credit: p('UPDATE accounts SET balance = balance + ? WHERE id = ?'),
      debit: p('UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ? RETURNING balance'),
      balance: p('SELECT balance FROM accounts WHERE id = ?'),
      ledger: p('INSERT INTO ledger (ref, account_id, delta, kind, note, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
      insertKey: p(
        'INSERT INTO api_keys (id, account_id, name, hash, prefix, sealed, test, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      keyByHash: p('SELECT id, account_id, name, hash, test, revoked_at FROM api_keys WHERE hash = ?'),
      sealed: p('SELECT account_id, sealed FROM api_keys WHERE id = ?'),
      revoke: p('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
      keyExists: p('SELECT 1 FROM api_keys WHERE id = ?'),
      dataVersion: p('PRAGMA data_version').pluck(),
      insertReservation: p(
        "INSERT INTO reservations (id, account_id, key_id, amount, state, expires_at, created_at, budgets) VALUES (?, ?, ?, ?, 'held', ?, ?, ?)",
      ),
      closeReservation: p(
        "UPDATE reservations SET state = ? WHERE id = ? AND state = 'held' RETURNING account_id, amount, budgets",
      ),
      accountBudgets: p(`SELECT ${BUDGET_COLS} FROM budgets WHERE account_id = ? ORDER BY created_at, id`),
      upsertBudget: p(
        `INSERT INTO budgets (id, account_id, scope, target, period, limit_credits, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id, scope, target, period) DO UPDATE SET limit_credits = excluded.limit_credits
         RETURNING ${BUDGET_COLS}`,
      ),
      deleteBudget: p('DELETE FROM budgets WHERE id = ? AND account_id = ?'),
      deleteBudgetUsage: p('DELETE FROM budget_usage WHERE budget_id = ?'),
      budgetUsage: p('SELECT spent, held FROM budget_usage WHERE budget_id = ? AND period = ?'),
      addBudgetUsage: p(
        `INSERT INTO budget_usage (budget_id, period, spent, held) VALUES (?, ?, ?, ?)
         ON CONFLICT (budget_id, period) DO UPDATE SET spent = spent + excluded.spent, held = held + excluded.held`,
      ),
      insertBody: p('INSERT OR IGNORE INTO result_bodies (day, hash, data) VALUES (?, ?, ?)'),
      archived: p(
        `SELECT c.*, b.data AS data FROM calls c JOIN result_bodies b ON b.hash = c.result_hash
           AND b.day = strftime('%Y-%m-%d', c.created_at / 1000, 'unixepoch')
         WHERE c.account_id = ? AND c.id = ? AND c.created_at >= ?`,
      ),
      pruneBodies: p('DELETE FROM result_bodies WHERE day < ?'),
      pruneIdempotency: p('DELETE FROM idempotency WHERE expires_at <= ?'),
      idempotency: p('SELECT fingerprint, state, response, lease_until FROM idempotency WHERE scope = ? AND key = ?'),
      claimIdempotency: p(
        "INSERT INTO idempotency (scope, key, fingerprint, state, lease_until, expires_at) VALUES (?, ?, ?, 'running', ?, ?)",
      ),
      takeOverIdempotency: p(
        "UPDATE idempotency SET fingerprint = ?, state = 'running', response = NULL, lease_until = ?, expires_at = ? WHERE scope = ? AND key = ?",
      ),
      finishIdempotency: p("UPDATE idempotency SET state = 'done', response = ? WHERE scope = ? AND key = ? AND state = 'running'"),
      forgetIdempotency: p("DELETE FROM idempotency WHERE scope = ? AND key = ? AND state = 'running'"),
      renewIdempotency: p("UPDATE idempotency SET lease_until = ? WHERE scope = ? AND key = ? AND state = 'running'"),
      releaseClaims: p("DELETE FROM idempotency WHERE state = 'running' AND (? OR lease_until <= ?)"),
      expired: p("SELECT id FROM reservations WHERE state = 'held' AND expires_at <= ?"),
      allHeld: p("SELECT id FROM reservations WHERE state = 'held'"),
      insertCall: p(
        'INSERT INTO calls (account_id, id, key_id, key_name, endpoint, credits, cache, test, tags, channel, created_at, result_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
    };
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

  async createAccount(a: { id: string; email: string | null; credits: number }): Promise<void> {
    const now = Date.now();
    await this.batch.submit(() => {
      this.s.insertAccount.run(a.id, a.email, a.credits, now);
      if (a.credits > 0) this.s.ledger.run(newId('grant'), a.id, a.credits, 'grant', 'account created', now);
    });
  }

  async getAccount(id: string): Promise<AccountView | null> {
    const a = this.s.account.get(id) as { id: string; email: string | null; balance: number; created_at: number } | undefined;
    if (!a) return null;
    const keys = (this.s.accountKeys.all(id) as { id: string; name: string; prefix: string; test: number; revoked_at: number | null; created_at: number }[]).map(
      (k) => ({ id: k.id, name: k.name, prefix: k.prefix, test: k.test === 1, revoked: k.revoked_at !== null, createdAt: iso(k.created_at) }),
    );
    return { id: a.id, email: a.email, balance: a.balance, createdAt: iso(a.created_at), keys };
  }

  async listAccounts(): Promise<AccountSummary[]> {
    const rows = this.db
      .prepare(
        `SELECT a.id, a.email, a.balance, a.created_at,
                (SELECT count(*) FROM api_keys k WHERE k.account_id = a.id AND k.revoked_at IS NULL) AS keys,
                (SELECT count(*) FROM api_keys k WHERE k.account_id = a.id AND k.revoked_at IS NOT NULL) AS revoked
         FROM accounts a ORDER BY a.created_at, a.id`,
      )
      .all() as { id: string; email: string | null; balance: number; created_at: number; keys: number; revoked: number }[];
    return rows.map((r) => ({ id: r.id, email: r.email, balance: r.balance, createdAt: iso(r.created_at), keys: r.keys, revokedKeys: r.revoked }));
  }

  addCredits(accountId: string, amount: number, reason: string): Promise<number | null> {
    return this.batch.submit(() => {
      const changed = this.s.credit.run(amount, accountId).changes;
      if (changed === 0) return null;
      this.s.ledger.run(newId('grant'), accountId, amount, 'grant', reason, Date.now());
      return (this.s.balance.get(accountId) as { balance: number }).balance;
    });
  }

  async createKey(k: NewKey): Promise<void> {
    await this.batch.submit(() =>
      this.s.insertKey.run(k.id, k.accountId, k.name, k.hash, k.prefix, k.sealed, k.test ? 1 : 0, Date.now()),
    );
    this.localKeyWrites++;
  }

  /**
   * Other processes (the operator CLI) are noticed through PRAGMA data_version, read at most every 50 ms (a read
   * per request costs more than the rest of the key lookup); writes through this connection count at once.
   */
  keysEpoch(): string {
    const now = Date.now();
    if (now - this.dataVersionReadAt >= 50) {
      this.dataVersion = this.s.dataVersion.get() as number;
      this.dataVersionReadAt = now;
    }
    return `${this.dataVersion}:${this.localKeyWrites}`;
  }

  async findKeyByHash(hash: Buffer): Promise<KeyRecord | null> {
    const r = this.s.keyByHash.get(hash) as
      | { id: string; account_id: string; name: string; hash: Buffer; test: number; revoked_at: number | null }
      | undefined;
    if (!r) return null;
    return { id: r.id, accountId: r.account_id, name: r.name, hash: r.hash, test: r.test === 1, revoked: r.revoked_at !== null };
  }

  async sealedKey(keyId: string): Promise<{ accountId: string; sealed: string } | null> {
    const r = this.s.sealed.get(keyId) as { account_id: string; sealed: string } | undefined;
    return r ? { accountId: r.account_id, sealed: r.sealed } : null;
  }

  async revokeKey(keyId: string): Promise<boolean> {
    const found = await this.batch.submit(() => {
      if (!this.s.keyExists.get(keyId)) return false;
      this.s.revoke.run(Date.now(), keyId);
      return true;
    });
    this.localKeyWrites++;
    return found;
  }

  reserve(r: ReserveRequest): Promise<DebitOutcome> {
    return this.batch.submit((): DebitOutcome => {
      const now = Date.now();
      const budgets = this.budgetsFor(r.accountId, r.keyId, r.tags, now);
      const over = budgets.find((b) => b.remainingCredits < r.amount);
      if (over) return { ok: false, balance: this.currentBalance(r.accountId), budget: over };
      const row = this.s.debit.get(r.amount, r.accountId, r.amount) as { balance: number } | undefined;
      if (!row) return { ok: false, balance: this.currentBalance(r.accountId) };
      const refs = budgets.map((b) => ({ id: b.id, period: periodWindow(b.period, now).key }));
      for (const ref of refs) this.s.addBudgetUsage.run(ref.id, ref.period, 0, r.amount);
      this.s.insertReservation.run(r.id, r.accountId, r.keyId, r.amount, r.expiresAt, now, refs.length ? JSON.stringify(refs) : null);
      return { ok: true, balance: row.balance };
    });
  }

  async settle(reservationId: string, call: CallRecord): Promise<void> {
    await this.batch.submit(() => {
      const held = this.s.closeReservation.get('settled', reservationId) as HeldRow | undefined;
      if (!held) return; // already settled or released: never bill twice
      const credits = Math.min(call.credits, held.amount);
      if (held.amount > credits) this.s.credit.run(held.amount - credits, held.account_id);
      this.moveBudgetHolds(held, credits);
      this.s.ledger.run(call.id, held.account_id, -credits, 'charge', call.endpoint, call.createdAt);
      this.insertCall({ ...call, credits });
    });
  }

  async release(reservationId: string): Promise<void> {
    await this.batch.submit(() => this.releaseNow(reservationId));
  }

  charge(call: CallRecord): Promise<DebitOutcome> {
    return this.batch.submit((): DebitOutcome => {
      const now = Date.now();
      const budgets = this.budgetsFor(call.accountId, call.keyId, call.tags, now);
      const over = budgets.find((b) => b.remainingCredits < call.credits);
      if (over) return { ok: false, balance: this.currentBalance(call.accountId), budget: over };
      for (const b of budgets) this.s.addBudgetUsage.run(b.id, periodWindow(b.period, now).key, call.credits, 0);
      const row = this.s.debit.get(call.credits, call.accountId, call.credits) as { balance: number } | undefined;
      if (!row) return { ok: false, balance: this.currentBalance(call.accountId) };
      this.s.ledger.run(call.id, call.accountId, -call.credits, 'charge', call.endpoint, call.createdAt);
      this.insertCall(call);
      return { ok: true, balance: row.balance };
    });
  }

  async recordTestCall(call: CallRecord): Promise<void> {
    await this.batch.submit(() => this.insertCall({ ...call, test: true }));
  }

  releaseExpired(nowMs: number, all = false): Promise<number> {
    return this.batch.submit(() => {
      const rows = (all ? this.s.allHeld.all() : this.s.expired.all(nowMs)) as { id: string }[];
      for (const r of rows) this.releaseNow(r.id);
      this.s.releaseClaims.run(all ? 1 : 0, nowMs);
      return rows.length;
    });
  }

  async listCalls(accountId: string, q: LogQuery): Promise<{ rows: CallRecord[]; total: number }> {
    const where: string[] = ['c.account_id = ?', 'c.created_at >= ?'];
    const args: unknown[] = [accountId, q.sinceMs];
    const from = 'calls c';
    if (q.endpoint) {
      where.push('c.endpoint = ?');
      args.push(q.endpoint);
    }
    if (q.endpointPrefix) {
      where.push("(c.endpoint = ? OR c.endpoint LIKE ? ESCAPE '\\')");
      const p = q.endpointPrefix.replace(/[\\%_]/g, (m) => `\\${m}`);
      args.push(q.endpointPrefix, `${p}.%`);
    }
    if (q.keyId) {
      where.push('c.key_id = ?');
      args.push(q.keyId);
    }
    if (q.tag) {
      where.push('EXISTS (SELECT 1 FROM json_each(c.tags) WHERE value = ?)');
      args.push(q.tag);
    }
    const cond = where.join(' AND ');
    const total = (this.db.prepare(`SELECT count(*) AS n FROM ${from} WHERE ${cond}`).get(...args) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT c.* FROM ${from} WHERE ${cond} ORDER BY c.created_at DESC, c.id DESC LIMIT ? OFFSET ?`)
      .all(...args, q.pageSize, q.page * q.pageSize) as CallRow[];
    return { rows: rows.map(toCall), total };
  }

  async usage(accountId: string, q: UsageQuery): Promise<UsageTotals> {
    const mode = q.mode ? ` AND c.test = ${q.mode === 'test' ? 1 : 0}` : '';
    const cond = `c.account_id = ? AND c.created_at >= ?${mode}${q.tag ? ' AND EXISTS (SELECT 1 FROM json_each(c.tags) WHERE value = ?)' : ''}`;
    const args: unknown[] = q.tag ? [accountId, q.sinceMs, q.tag] : [accountId, q.sinceMs];
    const all = <T>(sql: string) => this.db.prepare(sql).all(...args) as T[];
    const totals = this.db
      .prepare(`SELECT count(*) AS calls, coalesce(sum(c.credits), 0) AS credits FROM calls c WHERE ${cond}`)
      .get(...args) as { calls: number; credits: number };
    const byEndpoint = all<{ endpoint: string; calls: number; credits: number }>(
      `SELECT c.endpoint AS endpoint, count(*) AS calls, sum(c.credits) AS credits FROM calls c WHERE ${cond} GROUP BY c.endpoint ORDER BY credits DESC, endpoint`,
    );
    const byDay = all<{ day: string; calls: number; credits: number }>(
      `SELECT strftime('%Y-%m-%d', c.created_at / 1000, 'unixepoch') AS day, count(*) AS calls, sum(c.credits) AS credits FROM calls c WHERE ${cond} GROUP BY day ORDER BY day`,
    );
    const byTag = this.db
      .prepare(
        `SELECT t.value AS tag, count(*) AS calls, sum(c.credits) AS credits FROM calls c, json_each(c.tags) t WHERE ${cond}${q.tag ? ' AND t.value = ?' : ''} GROUP BY t.value ORDER BY credits DESC, tag`,
      )
      .all(...args, ...(q.tag ? [q.tag] : [])) as { tag: string; calls: number; credits: number }[];
    return { calls: totals.calls, credits: totals.credits, byEndpoint, byDay, byTag };
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    this.batch.flush(true);
    await this.checkpointer?.stop();
    this.db.close();
  }

  private currentBalance(accountId: string): number {
    return (this.s.balance.get(accountId) as { balance: number } | undefined)?.balance ?? 0;
  }

  private releaseNow(reservationId: string): void {
    const held = this.s.closeReservation.get('released', reservationId) as HeldRow | undefined;
    if (!held) return;
    this.s.credit.run(held.amount, held.account_id);
    this.moveBudgetHolds(held, 0);
  }

  /** A hold leaves the budget rows it counted in; what was charged of it becomes spend. */
  private moveBudgetHolds(held: HeldRow, charged: number): void {
    if (!held.budgets) return;
    for (const ref of JSON.parse(held.budgets) as { id: string; period: string }[]) {
      this.s.addBudgetUsage.run(ref.id, ref.period, charged, -held.amount);
    }
  }

  /** The budgets that apply to a call, each with what it has left in its current period. */
  private budgetsFor(accountId: string, keyId: string, tags: readonly string[], nowMs: number): BudgetStatus[] {
    const rows = this.s.accountBudgets.all(accountId) as BudgetRow[];
    if (!rows.length) return [];
    return rows.filter((b) => budgetApplies(b, keyId, tags)).map((b) => this.budgetStatus(b, nowMs));
  }

  private budgetStatus(b: BudgetRow, nowMs: number): BudgetStatus {
    const usage = this.s.budgetUsage.get(b.id, periodWindow(b.period, nowMs).key) as { spent: number; held: number } | undefined;
    return budgetStatus(b, usage, nowMs);
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

  private insertCall(call: CallRecord): void {
    this.s.insertCall.run(
      call.accountId,
      call.id,
      call.keyId,
      call.keyName,
      call.endpoint,
      call.credits,
      call.cache,
      call.test ? 1 : 0,
      JSON.stringify(call.tags),
      call.channel,
      call.createdAt,
      call.result?.hash ?? null,
    );
    if (call.result) {
      const day = iso(call.createdAt).slice(0, 10);
      if (this.bodiesWritten.get(call.result.hash) !== day) {
        this.s.insertBody.run(day, call.result.hash, call.result.json);
        if (this.bodiesWritten.size >= 10_000) this.bodiesWritten.clear();
        this.bodiesWritten.set(call.result.hash, day);
      }
    }
  }

  // ------------------------------------------------------------ idempotency, archive, budgets

  claimIdempotency(r: IdempotencyRequest): Promise<IdempotencyClaim> {
    return this.batch.submit((): IdempotencyClaim => {
      const row = this.s.idempotency.get(r.scope, r.key) as
        | { fingerprint: string; state: string; response: string | null; lease_until: number }
        | undefined;
      if (!row) {
        this.s.claimIdempotency.run(r.scope, r.key, r.fingerprint, r.leaseUntil, r.expiresAt);
        return { state: 'claimed' };
      }
      if (row.fingerprint !== r.fingerprint) return { state: 'mismatch' };
      if (row.state === 'done') return { state: 'done', response: JSON.parse(row.response!) as StoredResponse };
      if (row.lease_until > r.nowMs) return { state: 'running' };
      // The first attempt's process died mid-call: this one takes over.
      this.s.takeOverIdempotency.run(r.fingerprint, r.leaseUntil, r.expiresAt, r.scope, r.key);
      return { state: 'claimed' };
    });
  }

  async finishIdempotency(scope: string, key: string, response: StoredResponse | null): Promise<void> {
    await this.batch.submit(() => {
      if (response) this.s.finishIdempotency.run(JSON.stringify(response), scope, key);
      else this.s.forgetIdempotency.run(scope, key);
    });
  }

  renewIdempotency(scope: string, key: string, leaseUntil: number): Promise<boolean> {
    return this.batch.submit(() => this.s.renewIdempotency.run(leaseUntil, scope, key).changes > 0);
  }

  async archivedCall(accountId: string, requestId: string, sinceMs: number): Promise<{ call: CallRecord; dataJson: string } | null> {
    const r = this.s.archived.get(accountId, requestId, sinceMs) as (CallRow & { data: string }) | undefined;
    return r ? { call: toCall(r), dataJson: r.data } : null;
  }

  async pruneExpired(r: { archiveBeforeMs: number; nowMs: number }): Promise<void> {
    await this.batch.submit(() => {
      this.s.pruneBodies.run(iso(r.archiveBeforeMs).slice(0, 10));
      this.s.pruneIdempotency.run(r.nowMs);
    });
  }

  setBudget(accountId: string, spec: BudgetSpec): Promise<Budget> {
    return this.batch.submit(() =>
      toBudget(
        this.s.upsertBudget.get(newId('bdg'), accountId, spec.scope, spec.target, spec.period, spec.limitCredits, Date.now()) as BudgetRow,
      ),
    );
  }

  deleteBudget(accountId: string, budgetId: string): Promise<boolean> {
    return this.batch.submit(() => {
      const gone = this.s.deleteBudget.run(budgetId, accountId).changes > 0;
      if (gone) this.s.deleteBudgetUsage.run(budgetId);
      return gone;
    });
  }

  async budgets(accountId: string, nowMs: number): Promise<BudgetStatus[]> {
    return (this.s.accountBudgets.all(accountId) as BudgetRow[]).map((b) => this.budgetStatus(b, nowMs));
  }
}

interface HeldRow {
  account_id: string;
  amount: number;
  budgets: string | null;
}

