/**
 * The PostgreSQL store, for several instances sharing one database (QUARRY_DATABASE_URL). Same contract and the
 * same credit rules as the embedded store: a reserve or a cache-hit charge is one conditional
 * `UPDATE … WHERE balance >= $n RETURNING` (the row lock serialises concurrent debits across instances, so no
 * overdraft); settle and release are guarded transitions `WHERE state = 'held'` (a retry never bills twice); the
 * ledger's primary key is the ref (one charge per call id). Every write is one statement (data-modifying CTEs), so
 * it commits or not as a whole and costs one round trip.
 *
 * Losing the database (refused connection, restart, terminated backend) surfaces as a retryable `internalError`
 * saying storage is unavailable; the pool drops broken connections and opens new ones on the next call, so the
 * server recovers by itself.
 */
import pg from 'pg';
import { QuarryError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { budgetApplies, periodWindow } from '../../budgets/periods.js';
import type { AccountSideStore } from '../account-side.js';
import { BUDGET_COLS, budgetStatus, toBudget, type BudgetRow } from '../budget-rows.js';
import type { RequestLogStore } from '../request-log.js';
import { PostgresAccountSide } from './account-side.js';
import { inTransaction, orUnavailable, types } from './connection.js';
import { PostgresRequestLog } from './request-log.js';
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
import { INSTANCE_LEASE_SCOPE } from '../types.js';
import { ChargeBatch } from './charge-batch.js';
import { onceUntilDone, runMigrations } from './migrate.js';
import { MIGRATIONS } from './schema.js';

/** Advisory lock key of the migrations (any constant; shared by every instance). */
const MIGRATION_LOCK = 0x5175_6172; // "Quar"
/**
 * Key changes reach other instances by NOTIFY (sent in the same statement as the write, delivered at commit, so
 * within milliseconds); the key counter is also polled this often, as a backstop while the listening connection is
 * being re-established.
 */
const EPOCH_POLL_MS = 1000;

interface CallRow extends CallRowBase {
  test: boolean;
  tags: string[];
}

const toCall = (r: CallRow): CallRecord => callFromRow(r, r.test, r.tags);

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A call's values in the order every statement recording it numbers them: $1 account, $2 credits, $3 id (the
 * ledger ref), $4 endpoint (the ledger note), $5 created_at, $6 key id, $7 key name, $8 cache, $9 test, $10 tags,
 * $11 channel, $12 archived result hash, $13 its JSON.
 */
const callArgs = (call: CallRecord): unknown[] => [
  call.accountId,
  call.credits,
  call.id,
  call.endpoint,
  call.createdAt,
  call.keyId,
  call.keyName,
  call.cache,
  call.test,
  call.tags,
  call.channel,
  call.result?.hash ?? null,
  call.result?.json ?? null,
];

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

export class PostgresStore implements Store {
  readonly sharedByInstances = true;
  readonly pool: pg.Pool;
  readonly schema: string;
  private localKeyWrites = 0;
  private epoch = 0;
  private epochReadAt = 0;
  private epochReading = false;
  private notified = 0;
  private listener: pg.Client | undefined;
  private listening = false;
  private closed = false;
  private readonly connectionString: string;
  private side: PostgresAccountSide | undefined;
  private log: PostgresRequestLog | undefined;

  constructor(connectionString: string, options: PostgresStoreOptions = {}) {
    this.connectionString = connectionString;
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
  }

  /** The NOTIFY channel of key changes (one per schema, so deployments sharing a database stay apart). */
  private get keysChannel(): string {
    return `quarry_keys_${this.schema}`;
  }

  /** Listens for key changes made anywhere; reconnects after a second when the connection is lost. */
  private listen(): void {
    if (this.listening || this.closed) return;
    this.listening = true;
    const client = new pg.Client({ connectionString: this.connectionString, connectionTimeoutMillis: 3000, application_name: 'quarry-keys' });
    this.listener = client;
    let retried = false;
    const retry = () => {
      if (retried) return;
      retried = true;
      this.listener = undefined;
      client.end().catch(() => {});
      this.notified++; // changes may have been missed meanwhile
      setTimeout(() => {
        this.listening = false;
        this.listen();
      }, 1000).unref();
    };
    client.on('error', retry);
    client.on('end', retry);
    client.on('notification', () => {
      this.notified++;
    });
    client
      .connect()
      .then(() => client.query(`LISTEN ${this.keysChannel}`))
      .catch(retry);
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

  /** The account side in this database, with migrations of its own. */
  accountSide(): AccountSideStore {
    return (this.side ??= new PostgresAccountSide(this));
  }

  /** The request log in this database, with migrations of its own. */
  requestLog(): RequestLogStore {
    return (this.log ??= new PostgresRequestLog(this));
  }

  /** One statement; connection failures become the retryable storage error. */
  private q<R extends pg.QueryResultRow>(sql: string, args: unknown[] = []): Promise<pg.QueryResult<R>> {
    return orUnavailable(async () => {
      await this.migrate();
      return this.pool.query<R>(sql, args);
    });
  }

  async createAccount(a: { id: string; email: string | null; credits: number }): Promise<void> {
    const now = Date.now();
    await this.q(
      `WITH a AS (INSERT INTO accounts (id, email, balance, created_at) VALUES ($1, $2, $3, $4) RETURNING id)
       INSERT INTO ledger (ref, account_id, delta, kind, note, created_at)
       SELECT $5, a.id, $3, 'grant', 'account created', $4 FROM a WHERE $3::bigint > 0`,
      [a.id, a.email, a.credits, now, newId('grant')],
    );
  }

  async getAccount(id: string): Promise<AccountView | null> {
    const a = (await this.q<{ id: string; email: string | null; balance: number; created_at: number }>(
      'SELECT id, email, balance, created_at FROM accounts WHERE id = $1',
      [id],
    )).rows[0];
    if (!a) return null;
    const keys = (
      await this.q<{ id: string; name: string; prefix: string; test: boolean; revoked_at: number | null; created_at: number }>(
        'SELECT id, name, prefix, test, revoked_at, created_at FROM api_keys WHERE account_id = $1 ORDER BY created_at, id COLLATE "C"',
        [id],
      )
    ).rows.map((k) => ({ id: k.id, name: k.name, prefix: k.prefix, test: k.test, revoked: k.revoked_at !== null, createdAt: iso(k.created_at) }));
    return { id: a.id, email: a.email, balance: a.balance, createdAt: iso(a.created_at), keys };
  }

  async listAccounts(): Promise<AccountSummary[]> {
    const rows = (
      await this.q<{ id: string; email: string | null; balance: number; created_at: number; keys: number; revoked: number }>(
        `SELECT a.id, a.email, a.balance, a.created_at,
                (SELECT count(*) FROM api_keys k WHERE k.account_id = a.id AND k.revoked_at IS NULL) AS keys,
                (SELECT count(*) FROM api_keys k WHERE k.account_id = a.id AND k.revoked_at IS NOT NULL) AS revoked
         FROM accounts a ORDER BY a.created_at, a.id COLLATE "C"`,
      )
    ).rows;
    return rows.map((r) => ({ id: r.id, email: r.email, balance: r.balance, createdAt: iso(r.created_at), keys: r.keys, revokedKeys: r.revoked }));
  }

  async addCredits(accountId: string, amount: number, reason: string): Promise<number | null> {
    const r = await this.q<{ balance: number }>(
      `WITH u AS (UPDATE accounts SET balance = balance + $2 WHERE id = $1 RETURNING balance),
            l AS (INSERT INTO ledger (ref, account_id, delta, kind, note, created_at) SELECT $3, $1, $2, 'grant', $4, $5 FROM u)
       SELECT balance FROM u`,
      [accountId, amount, newId('grant'), reason, Date.now()],
    );
    return r.rows[0]?.balance ?? null;
  }

  async createKey(k: NewKey): Promise<void> {
    await this.q(
      `WITH k AS (INSERT INTO api_keys (id, account_id, name, hash, prefix, sealed, test, created_at)
                  VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING 1),
            e AS (UPDATE key_epoch SET v = v + 1 WHERE EXISTS (SELECT 1 FROM k) RETURNING v)
       SELECT pg_notify($9, v::text) FROM e`,
      [k.id, k.accountId, k.name, k.hash, k.prefix, k.sealed, k.test, Date.now(), this.keysChannel],
    );
    this.localKeyWrites++;
  }

  /**
   * Key writes through this process count at once; other processes' writes (instances, the operator CLI) arrive as
   * NOTIFY on a listening connection, and bump `key_epoch`, which is also re-read in the background every second.
   * Nothing here waits on the database.
   */
  keysEpoch(): string {
    if (!this.listening) this.listen();
    const now = Date.now();
    if (now - this.epochReadAt >= EPOCH_POLL_MS && !this.epochReading) {
      this.epochReading = true;
      this.epochReadAt = now;
      this.q<{ v: number }>('SELECT v FROM key_epoch')
        .then((r) => {
          if (r.rows[0]) this.epoch = r.rows[0].v;
        })
        .catch(() => {})
        .finally(() => {
          this.epochReading = false;
        });
    }
    return `${this.epoch}:${this.notified}:${this.localKeyWrites}`;
  }

  async findKeyByHash(hash: Buffer): Promise<KeyRecord | null> {
    const r = (
      await this.q<{ id: string; account_id: string; name: string; hash: Buffer; test: boolean; revoked_at: number | null }>(
        'SELECT id, account_id, name, hash, test, revoked_at FROM api_keys WHERE hash = $1',
        [hash],
      )
    ).rows[0];
    if (!r) return null;
    return { id: r.id, accountId: r.account_id, name: r.name, hash: r.hash, test: r.test, revoked: r.revoked_at !== null };
  }

  async sealedKey(keyId: string): Promise<{ accountId: string; sealed: string } | null> {
    const r = (await this.q<{ account_id: string; sealed: string }>('SELECT account_id, sealed FROM api_keys WHERE id = $1', [keyId])).rows[0];
    return r ? { accountId: r.account_id, sealed: r.sealed } : null;
  }

  async revokeKey(keyId: string): Promise<boolean> {
    const r = await this.q<{ found: boolean }>(
      `WITH r AS (UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING 1),
            e AS (UPDATE key_epoch SET v = v + 1 WHERE EXISTS (SELECT 1 FROM r) RETURNING v)
       SELECT EXISTS (SELECT 1 FROM api_keys WHERE id = $1) AS found, (SELECT pg_notify($3, v::text) FROM e) AS notified`,
      [keyId, Date.now(), this.keysChannel],
    );
    this.localKeyWrites++;
    return r.rows[0]?.found === true;
  }

  async reserve(r: ReserveRequest): Promise<DebitOutcome> {
    // Accounts without budgets (the usual case) take one statement; the others a transaction that locks their
    // budget counters, so concurrent calls can never overspend a budget.
    const res = await this.q<{ balance: number }>(
      `WITH d AS (UPDATE accounts SET balance = balance - $2 WHERE id = $1 AND balance >= $2
                  AND NOT EXISTS (SELECT 1 FROM budgets WHERE account_id = $1) RETURNING balance),
            h AS (INSERT INTO reservations (id, account_id, key_id, amount, state, expires_at, created_at, instance_id)
                  SELECT $3, $1, $4, $2, 'held', $5, $6, $7 FROM d)
       SELECT balance FROM d`,
      [r.accountId, r.amount, r.id, r.keyId, r.expiresAt, Date.now(), r.instance ?? null],
    );
    if (res.rows[0]) return { ok: true, balance: res.rows[0].balance };
    if (!(await this.hasBudgets(r.accountId))) return { ok: false, balance: await this.currentBalance(r.accountId) };
    return this.budgetedDebit(r.accountId, r.keyId, r.tags, r.amount, async (client, refs) => {
      await client.query(
        `INSERT INTO reservations (id, account_id, key_id, amount, state, expires_at, created_at, budgets, instance_id)
         VALUES ($1, $2, $3, $4, 'held', $5, $6, $7, $8)`,
        [r.id, r.accountId, r.keyId, r.amount, r.expiresAt, Date.now(), refs.length ? JSON.stringify(refs) : null, r.instance ?? null],
      );
      return { spent: 0, held: r.amount };
    });
  }

  async settle(reservationId: string, call: CallRecord): Promise<void> {
    // The guarded transition picks the hold exactly once; refund, ledger charge and call row follow from it.
    const res = await this.q<HeldRow>(
      `WITH s AS (UPDATE reservations SET state = 'settled' WHERE id = $14 AND state = 'held' RETURNING account_id, amount, budgets),
            c AS (SELECT account_id, amount, budgets, LEAST($2::bigint, amount) AS credits FROM s),
            f AS (UPDATE accounts a SET balance = a.balance + (c.amount - c.credits) FROM c
                  WHERE a.id = c.account_id AND c.amount > c.credits),
            l AS (INSERT INTO ledger (ref, account_id, delta, kind, note, created_at)
                  SELECT $3, c.account_id, -c.credits, 'charge', $4, $5 FROM c),
            b AS (INSERT INTO result_bodies (day, hash, data)
                  SELECT to_timestamp($5 / 1000.0)::date, $12, $13 FROM c WHERE $12::text IS NOT NULL ON CONFLICT DO NOTHING),
            k AS (INSERT INTO calls (account_id, id, key_id, key_name, endpoint, credits, cache, test, tags, channel, created_at, result_hash)
                  SELECT $1, $3, $6, $7, $4, c.credits, $8, $9, $10, $11, $5, $12 FROM c)
       SELECT amount, credits, budgets FROM c`,
      [...callArgs(call), reservationId],
    );
    await this.moveBudgetHolds(res.rows);
  }

  async release(reservationId: string): Promise<void> {
    const res = await this.q<HeldRow>(
      `WITH r AS (UPDATE reservations SET state = 'released' WHERE id = $1 AND state = 'held' RETURNING account_id, amount, budgets),
            u AS (UPDATE accounts a SET balance = a.balance + r.amount FROM r WHERE a.id = r.account_id)
       SELECT amount, 0 AS credits, budgets FROM r`,
      [reservationId],
    );
    await this.moveBudgetHolds(res.rows);
  }

  /**
   * A closed hold leaves its budget counters in a statement of its own, after the one that closed it: taking the
   * counters' locks while holding the account's could deadlock with a budgeted reserve (counters, then account).
   * A crash in between leaves a counter's hold too high until the period ends: stricter, never overspent.
   */
  private async moveBudgetHolds(rows: HeldRow[]): Promise<void> {
    const refs = rows.flatMap((r) => (r.budgets ?? []).map((b) => ({ ...b, held: r.amount, spent: r.credits })));
    if (!refs.length) return;
    await this.q(
      `UPDATE budget_usage u SET held = u.held - x.held, spent = u.spent + x.spent
       FROM jsonb_to_recordset($1::jsonb) AS x(id text, period text, held bigint, spent bigint)
       WHERE u.budget_id = x.id AND u.period = x.period`,
      [JSON.stringify(refs)],
    );
  }

  /** Cache hits' charges and test-mode records of this process, committed in groups (`charge-batch.ts`). */
  private readonly batch = new ChargeBatch(
    (sql, args) => this.q(sql, args),
    (e) => e instanceof QuarryError,
  );

  async charge(call: CallRecord): Promise<DebitOutcome> {
    const r = await this.batch.submit(call, false);
    return r.kind === 'done' ? r.outcome : this.chargeAlone(call);
  }

  /** One charge in its own statement (an account with budgets, or a batch that failed as a whole). */
  private async chargeAlone(call: CallRecord): Promise<DebitOutcome> {
    const res = await this.q<{ balance: number }>(
      `WITH d AS (UPDATE accounts SET balance = balance - $2 WHERE id = $1 AND balance >= $2
                  AND NOT EXISTS (SELECT 1 FROM budgets WHERE account_id = $1) RETURNING balance),
            l AS (INSERT INTO ledger (ref, account_id, delta, kind, note, created_at)
                  SELECT $3, $1, -$2::bigint, 'charge', $4, $5 FROM d),
            b AS (INSERT INTO result_bodies (day, hash, data)
                  SELECT to_timestamp($5 / 1000.0)::date, $12, $13 FROM d WHERE $12::text IS NOT NULL ON CONFLICT DO NOTHING),
            c AS (INSERT INTO calls (account_id, id, key_id, key_name, endpoint, credits, cache, test, tags, channel, created_at, result_hash)
                  SELECT $1, $3, $6, $7, $4, $2, $8, $9, $10, $11, $5, $12 FROM d)
       SELECT balance FROM d`,
      callArgs(call),
    );
    if (res.rows[0]) return { ok: true, balance: res.rows[0].balance };
    if (!(await this.hasBudgets(call.accountId))) return { ok: false, balance: await this.currentBalance(call.accountId) };
    return this.budgetedDebit(call.accountId, call.keyId, call.tags, call.credits, async (client) => {
      await client.query(
        `INSERT INTO ledger (ref, account_id, delta, kind, note, created_at) VALUES ($1, $2, $3, 'charge', $4, $5)`,
        [call.id, call.accountId, -call.credits, call.endpoint, call.createdAt],
      );
      await this.insertCall(call, client);
      return { spent: call.credits, held: 0 };
    });
  }

  private async hasBudgets(accountId: string): Promise<boolean> {
    return (await this.q<{ x: boolean }>('SELECT EXISTS (SELECT 1 FROM budgets WHERE account_id = $1) AS x', [accountId])).rows[0]!.x;
  }

  /**
   * A debit of an account with budgets, in one transaction: account row locked first, then the applicable budget
   * counters of the current periods (in id order); refused when a budget or the balance is short; `write` records
   * the hold or the charge and says how the counters move.
   */
  private async budgetedDebit(
    accountId: string,
    keyId: string,
    tags: readonly string[],
    amount: number,
    write: (client: pg.PoolClient, refs: { id: string; period: string }[]) => Promise<{ spent: number; held: number }>,
  ): Promise<DebitOutcome> {
    // A refusal commits too: it changed nothing but the (empty) counter rows of this period.
    return inTransaction(() => this.pool.connect(), async (client): Promise<DebitOutcome> => {
      const acct = await client.query<{ balance: number }>('SELECT balance FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
      const balance = acct.rows[0]?.balance ?? 0;
      const now = Date.now();
      const all = (await client.query<BudgetRow>(`SELECT ${BUDGET_COLS} FROM budgets WHERE account_id = $1 ORDER BY id`, [accountId])).rows;
      const applicable = all.filter((b) => budgetApplies(b, keyId, tags));
      const refs = applicable.map((b) => ({ id: b.id, period: periodWindow(b.period, now).key }));
      const refsJson = JSON.stringify(refs);
      if (refs.length) {
        await client.query(
          `INSERT INTO budget_usage (budget_id, period) SELECT x.id, x.period FROM jsonb_to_recordset($1::jsonb) AS x(id text, period text)
           ON CONFLICT DO NOTHING`,
          [refsJson],
        );
      }
      const usage = new Map(
        (
          await client.query<{ budget_id: string; spent: number; held: number }>(
            `SELECT u.budget_id, u.spent, u.held FROM budget_usage u JOIN jsonb_to_recordset($1::jsonb) AS x(id text, period text)
               ON u.budget_id = x.id AND u.period = x.period ORDER BY u.budget_id FOR UPDATE OF u`,
            [refsJson],
          )
        ).rows.map((u) => [u.budget_id, u]),
      );
      const statuses = applicable.map((b) => budgetStatus(b, usage.get(b.id), now));
      const over = statuses.find((b) => b.remainingCredits < amount);
      if (over || balance < amount) return { ok: false, balance, ...(over ? { budget: over } : {}) };
      const debited = await client.query<{ balance: number }>('UPDATE accounts SET balance = balance - $2 WHERE id = $1 RETURNING balance', [
        accountId,
        amount,
      ]);
      const move = await write(client, refs);
      if (refs.length) {
        await client.query(
          `UPDATE budget_usage u SET spent = u.spent + $2, held = u.held + $3 FROM jsonb_to_recordset($1::jsonb) AS x(id text, period text)
           WHERE u.budget_id = x.id AND u.period = x.period`,
          [refsJson, move.spent, move.held],
        );
      }
      return { ok: true, balance: debited.rows[0]!.balance };
    });
  }

  async recordTestCall(call: CallRecord): Promise<void> {
    const r = await this.batch.submit({ ...call, test: true }, true);
    if (r.kind === 'alone') await this.insertCall({ ...call, test: true });
  }

  /**
   * Releases expired holds in batches, and the holds of instances whose lease ran out (a SIGKILLed instance's, about
   * 15 s after it died rather than at their `expires_at`): a hold whose instance has no running lease in the
   * instance scope of the claims table. `FOR UPDATE SKIP LOCKED`: several instances sweeping at once split the rows
   * instead of queueing, and a hold being settled right now (row locked) is left to its settle. `all` releases every
   * hold: only right when one process owns the database, which is never assumed here (see `sharedByInstances`).
   */
  async releaseExpired(nowMs: number, all = false): Promise<number> {
    let total = 0;
    for (;;) {
      const r = await this.q<{ n: number; held: unknown }>(
        `WITH e AS (SELECT id FROM reservations x WHERE state = 'held' AND ($2 OR expires_at <= $1 OR (instance_id IS NOT NULL AND NOT EXISTS (
                      SELECT 1 FROM idempotency i WHERE i.scope = $3 AND i.key = x.instance_id AND i.state = 'running' AND i.lease_until > $1)))
                    ORDER BY expires_at LIMIT 500 FOR UPDATE SKIP LOCKED),
              r AS (UPDATE reservations x SET state = 'released' FROM e WHERE x.id = e.id AND x.state = 'held'
                    RETURNING x.account_id, x.amount, x.budgets),
              s AS (SELECT account_id, sum(amount) AS amount FROM r GROUP BY account_id),
              u AS (UPDATE accounts a SET balance = a.balance + s.amount FROM s WHERE a.id = s.account_id)
         SELECT (SELECT count(*) FROM r) AS n,
                (SELECT coalesce(jsonb_agg(jsonb_build_object('amount', amount, 'credits', 0, 'budgets', budgets)), '[]'::jsonb)
                   FROM r WHERE budgets IS NOT NULL) AS held`,
        [nowMs, all, INSTANCE_LEASE_SCOPE],
      );
      await this.moveBudgetHolds((r.rows[0]?.held ?? []) as HeldRow[]);
      const n = r.rows[0]?.n ?? 0;
      total += n;
      if (n < 500) break;
    }
    // Running Idempotency-Key claims whose holder stopped renewing them (a dead instance's), or all with `all`.
    await this.q(`DELETE FROM idempotency WHERE state = 'running' AND ($2 OR lease_until <= $1)`, [nowMs, all]);
    return total;
  }

  async listCalls(accountId: string, q: LogQuery): Promise<{ rows: CallRecord[]; total: number }> {
    const args: unknown[] = [accountId, q.sinceMs];
    const where: string[] = ['c.account_id = $1', 'c.created_at >= $2'];
    const arg = (v: unknown) => {
      args.push(v);
      return `$${args.length}`;
    };
    if (q.endpoint) where.push(`c.endpoint = ${arg(q.endpoint)}`);
    if (q.endpointPrefix) {
      const p = q.endpointPrefix.replace(/[\\%_]/g, (m) => `\\${m}`);
      where.push(`(c.endpoint = ${arg(q.endpointPrefix)} OR c.endpoint LIKE ${arg(`${p}.%`)} ESCAPE '\\')`);
    }
    if (q.keyId) where.push(`c.key_id = ${arg(q.keyId)}`);
    if (q.tag) where.push(`c.tags @> ARRAY[${arg(q.tag)}]::text[]`);
    const cond = where.join(' AND ');
    const total = (await this.q<{ n: number }>(`SELECT count(*) AS n FROM calls c WHERE ${cond}`, args)).rows[0]!.n;
    const rows = (
      await this.q<CallRow>(
        `SELECT c.* FROM calls c WHERE ${cond} ORDER BY c.created_at DESC, c.id COLLATE "C" DESC LIMIT ${arg(q.pageSize)} OFFSET ${arg(q.page * q.pageSize)}`,
        args,
      )
    ).rows;
    return { rows: rows.map(toCall), total };
  }

  async usage(accountId: string, q: UsageQuery): Promise<UsageTotals> {
    const args: unknown[] = q.tag ? [accountId, q.sinceMs, q.tag] : [accountId, q.sinceMs];
    const mode = q.mode ? ` AND ${q.mode === 'test' ? '' : 'NOT '}c.test` : '';
    const cond = `c.account_id = $1 AND c.created_at >= $2${mode}${q.tag ? ' AND c.tags @> ARRAY[$3]::text[]' : ''}`;
    const [totals, byEndpoint, byDay, byTag] = await Promise.all([
      this.q<{ calls: number; credits: number }>(
        `SELECT count(*) AS calls, coalesce(sum(c.credits), 0) AS credits FROM calls c WHERE ${cond}`,
        args,
      ),
      this.q<{ endpoint: string; calls: number; credits: number }>(
        `SELECT c.endpoint AS endpoint, count(*) AS calls, sum(c.credits) AS credits FROM calls c WHERE ${cond}
         GROUP BY c.endpoint ORDER BY credits DESC, endpoint COLLATE "C"`,
        args,
      ),
      this.q<{ day: string; calls: number; credits: number }>(
        `SELECT to_char(to_timestamp(c.created_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*) AS calls,
                sum(c.credits) AS credits FROM calls c WHERE ${cond} GROUP BY day ORDER BY day`,
        args,
      ),
      this.q<{ tag: string; calls: number; credits: number }>(
        `SELECT t.tag AS tag, count(*) AS calls, sum(c.credits) AS credits FROM calls c, unnest(c.tags) AS t(tag)
         WHERE ${cond}${q.tag ? ' AND t.tag = $3' : ''} GROUP BY t.tag ORDER BY credits DESC, tag COLLATE "C"`,
        args,
      ),
    ]);
    return {
      calls: totals.rows[0]!.calls,
      credits: totals.rows[0]!.credits,
      byEndpoint: byEndpoint.rows,
      byDay: byDay.rows,
      byTag: byTag.rows,
    };
  }

  async ping(): Promise<void> {
    await this.q('SELECT 1');
  }

  async close(): Promise<void> {
    this.closed = true;
    const listener = this.listener;
    this.listener = undefined;
    if (listener) {
      listener.removeAllListeners('end');
      listener.removeAllListeners('error');
      listener.on('error', () => {});
      await listener.end().catch(() => {});
    }
    await this.pool.end();
  }

  private async currentBalance(accountId: string): Promise<number> {
    return (await this.q<{ balance: number }>('SELECT balance FROM accounts WHERE id = $1', [accountId])).rows[0]?.balance ?? 0;
  }

  private async insertCall(call: CallRecord, client?: pg.PoolClient): Promise<void> {
    const sql = `WITH b AS (INSERT INTO result_bodies (day, hash, data)
                   SELECT to_timestamp($5 / 1000.0)::date, $12, $13 WHERE $12::text IS NOT NULL ON CONFLICT DO NOTHING)
                 INSERT INTO calls (account_id, id, key_id, key_name, endpoint, credits, cache, test, tags, channel, created_at, result_hash)
                 VALUES ($1, $3, $6, $7, $4, $2, $8, $9, $10, $11, $5, $12)`;
    if (client) await client.query(sql, callArgs(call));
    else await this.q(sql, callArgs(call));
  }

  // ------------------------------------------------------------ idempotency, archive, budgets

  async claimIdempotency(r: IdempotencyRequest): Promise<IdempotencyClaim> {
    // Insert, or take over an entry whose holder's lease ran out; either way the row comes back with `claimed`.
    const res = await this.q<{ fingerprint: string; state: string; response: string | null; claimed: boolean }>(
      `WITH ins AS (
         INSERT INTO idempotency (scope, key, fingerprint, state, lease_until, expires_at) VALUES ($1, $2, $3, 'running', $4, $5)
         ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'running', response = NULL,
           lease_until = excluded.lease_until, expires_at = excluded.expires_at
         WHERE idempotency.state = 'running' AND idempotency.lease_until <= $6 AND idempotency.fingerprint = excluded.fingerprint
         RETURNING fingerprint, state, response, true AS claimed)
       SELECT * FROM ins
       UNION ALL
       SELECT fingerprint, state, response, false AS claimed FROM idempotency
       WHERE scope = $1 AND key = $2 AND NOT EXISTS (SELECT 1 FROM ins)`,
      [r.scope, r.key, r.fingerprint, r.leaseUntil, r.expiresAt, r.nowMs],
    );
    const row = res.rows[0];
    if (!row) return this.claimIdempotency(r); // deleted between the two halves: try again
    if (row.claimed) return { state: 'claimed' };
    if (row.fingerprint !== r.fingerprint) return { state: 'mismatch' };
    if (row.state === 'done') return { state: 'done', response: JSON.parse(row.response!) as StoredResponse };
    return { state: 'running' };
  }

  async finishIdempotency(scope: string, key: string, response: StoredResponse | null): Promise<void> {
    if (response) {
      await this.q(`UPDATE idempotency SET state = 'done', response = $3 WHERE scope = $1 AND key = $2 AND state = 'running'`, [
        scope,
        key,
        JSON.stringify(response),
      ]);
    } else {
      await this.q(`DELETE FROM idempotency WHERE scope = $1 AND key = $2 AND state = 'running'`, [scope, key]);
    }
  }

  async renewIdempotency(scope: string, key: string, leaseUntil: number): Promise<boolean> {
    const r = await this.q(`UPDATE idempotency SET lease_until = $3 WHERE scope = $1 AND key = $2 AND state = 'running'`, [scope, key, leaseUntil]);
    return (r.rowCount ?? 0) > 0;
  }

  async archivedCall(accountId: string, requestId: string, sinceMs: number): Promise<{ call: CallRecord; dataJson: string } | null> {
    const r = await this.q<CallRow & { data: string }>(
      `SELECT c.*, b.data FROM calls c JOIN result_bodies b ON b.hash = c.result_hash AND b.day = to_timestamp(c.created_at / 1000.0)::date
       WHERE c.account_id = $1 AND c.id = $2 AND c.created_at >= $3`,
      [accountId, requestId, sinceMs],
    );
    const row = r.rows[0];
    return row ? { call: toCall(row), dataJson: row.data } : null;
  }

  async pruneExpired(r: { archiveBeforeMs: number; nowMs: number }): Promise<void> {
    await this.q('DELETE FROM result_bodies WHERE day < to_timestamp($1 / 1000.0)::date', [r.archiveBeforeMs]);
    await this.q('DELETE FROM idempotency WHERE expires_at <= $1', [r.nowMs]);
  }

  async setBudget(accountId: string, spec: BudgetSpec): Promise<Budget> {
    const r = await this.q<BudgetRow>(
      `INSERT INTO budgets (id, account_id, scope, target, period, limit_credits, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (account_id, scope, target, period) DO UPDATE SET limit_credits = excluded.limit_credits
       RETURNING ${BUDGET_COLS}`,
      [newId('bdg'), accountId, spec.scope, spec.target, spec.period, spec.limitCredits, Date.now()],
    );
    return toBudget(r.rows[0]!);
  }

  async deleteBudget(accountId: string, budgetId: string): Promise<boolean> {
    const r = await this.q(
      `WITH d AS (DELETE FROM budgets WHERE id = $1 AND account_id = $2 RETURNING id),
            u AS (DELETE FROM budget_usage WHERE budget_id IN (SELECT id FROM d))
       SELECT id FROM d`,
      [budgetId, accountId],
    );
    return r.rows.length > 0;
  }

  async budgets(accountId: string, nowMs: number): Promise<BudgetStatus[]> {
    const rows = (await this.q<BudgetRow>(`SELECT ${BUDGET_COLS} FROM budgets WHERE account_id = $1 ORDER BY created_at, id`, [accountId])).rows;
    if (!rows.length) return [];
    const refs = rows.map((b) => ({ id: b.id, period: periodWindow(b.period, nowMs).key }));
    const usage = await this.q<{ budget_id: string; spent: number; held: number }>(
      `SELECT u.budget_id, u.spent, u.held FROM budget_usage u JOIN jsonb_to_recordset($1::jsonb) AS x(id text, period text)
         ON u.budget_id = x.id AND u.period = x.period`,
      [JSON.stringify(refs)],
    );
    const byId = new Map(usage.rows.map((u) => [u.budget_id, u]));
    return rows.map((b) => budgetStatus(b, byId.get(b.id), nowMs));
  }
}

interface HeldRow {
  amount: number;
  credits: number;
  budgets: { id: string; period: string }[] | null;
}
