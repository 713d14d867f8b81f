/**
 * The ledger on PostgreSQL, for several instances sharing one database. A reserve or a cache-hit charge is one
 * conditional `UPDATE … WHERE balance >= $n RETURNING` (the row lock serialises concurrent debits across instances,
 * so no overdraft); settle and release are guarded transitions `WHERE state = 'held'` (a retry never bills twice);
 * the ledger's primary key is the ref (one charge per call id). Every write is one statement (data-modifying CTEs),
 * so it commits or not as a whole and costs one round trip. Accounts with budgets debit through the budgets'
 * transaction instead; cache hits' charges go in groups (`charge-batch.ts`).
 */
import { QuarryError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import type { CallRecord, DebitOutcome, LedgerStore, ReserveRequest } from '../types.js';
import { INSTANCE_LEASE_SCOPE } from '../types.js';
import type { HeldRow, PostgresBudgets } from './budgets.js';
import { callArgs, type PostgresCalls } from './calls.js';
import { ChargeBatch } from './charge-batch.js';
import type { Query } from './connection.js';

export class PostgresLedger implements LedgerStore {
  /** Cache hits' charges and test-mode records of this process, committed in groups (`charge-batch.ts`). */
  private readonly batch: ChargeBatch;

  constructor(
    private readonly q: Query,
    private readonly budgets: PostgresBudgets,
    private readonly calls: PostgresCalls,
  ) {
    this.batch = new ChargeBatch(
      (sql, args) => this.q(sql, args),
      (e) => e instanceof QuarryError,
    );
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
    if (!(await this.budgets.hasBudgets(r.accountId))) return { ok: false, balance: await this.currentBalance(r.accountId) };
    return this.budgets.debit(r.accountId, r.keyId, r.tags, r.amount, async (client, refs) => {
      await client.query(
        `INSERT INTO reservations (id, account_id, key_id, amount, state, expires_at, created_at, budgets, instance_id)
         VALUES ($1, $2, $3, $4, 'held', $5, $6, $7, $8)`,
        [r.id, r.accountId, r.keyId, r.amount, r.expiresAt, Date.now(), refs.length ? JSON.stringify(refs) : null, r.instance ?? null],
      );
      return { spent: 0, held: r.amount };
    });
  }

  async settle(reservationId: string, call: CallRecord): Promise<void> {
    // The guarded transition picks the hold exactly once; refund, ledger charge and call row follow from it. The
    // refund takes the account's row before the answer is archived (`b` reads `f`; sub-statements nothing reads run
    // last to first), the order a grouped charge takes them in (charge-batch.ts): archiving first, a settle could
    // hold the answer a batch waits for while waiting for that batch's account, a deadlock.
    const res = await this.q<HeldRow>(
      `WITH s AS (UPDATE reservations SET state = 'settled' WHERE id = $14 AND state = 'held' RETURNING account_id, amount, budgets),
            c AS (SELECT account_id, amount, budgets, LEAST($2::bigint, amount) AS credits FROM s),
            f AS (UPDATE accounts a SET balance = a.balance + (c.amount - c.credits) FROM c
                  WHERE a.id = c.account_id AND c.amount > c.credits RETURNING a.id),
            l AS (INSERT INTO ledger (ref, account_id, delta, kind, note, created_at)
                  SELECT $3, c.account_id, -c.credits, 'charge', $4, $5 FROM c),
            b AS (INSERT INTO result_bodies (day, hash, data)
                  SELECT to_timestamp($5 / 1000.0)::date, $12, $13 FROM c
                  WHERE $12::text IS NOT NULL AND (SELECT count(*) FROM f) >= 0 ON CONFLICT DO NOTHING),
            k AS (INSERT INTO calls (account_id, id, key_id, key_name, endpoint, credits, cache, test, tags, channel, created_at, result_hash)
                  SELECT $1, $3, $6, $7, $4, c.credits, $8, $9, $10, $11, $5, $12 FROM c)
       SELECT amount, credits, budgets FROM c`,
      [...callArgs(call), reservationId],
    );
    await this.budgets.moveHolds(res.rows);
  }

  async release(reservationId: string): Promise<void> {
    const res = await this.q<HeldRow>(
      `WITH r AS (UPDATE reservations SET state = 'released' WHERE id = $1 AND state = 'held' RETURNING account_id, amount, budgets),
            u AS (UPDATE accounts a SET balance = a.balance + r.amount FROM r WHERE a.id = r.account_id)
       SELECT amount, 0 AS credits, budgets FROM r`,
      [reservationId],
    );
    await this.budgets.moveHolds(res.rows);
  }

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
    if (!(await this.budgets.hasBudgets(call.accountId))) return { ok: false, balance: await this.currentBalance(call.accountId) };
    return this.budgets.debit(call.accountId, call.keyId, call.tags, call.credits, async (client) => {
      await client.query(
        `INSERT INTO ledger (ref, account_id, delta, kind, note, created_at) VALUES ($1, $2, $3, 'charge', $4, $5)`,
        [call.id, call.accountId, -call.credits, call.endpoint, call.createdAt],
      );
      await this.calls.record(call, client);
      return { spent: call.credits, held: 0 };
    });
  }

  async recordTestCall(call: CallRecord): Promise<void> {
    const r = await this.batch.submit({ ...call, test: true }, true);
    if (r.kind === 'alone') await this.calls.record({ ...call, test: true });
  }

  /**
   * Releases expired holds in batches, and the holds of instances whose lease ran out (a SIGKILLed instance's, about
   * 15 s after it died rather than at their `expires_at`): a hold whose instance has no running lease in the
   * instance scope of the claims table. `FOR UPDATE SKIP LOCKED`: several instances sweeping at once split the rows
   * instead of queueing, and a hold being settled right now (row locked) is left to its settle. `all` releases every
   * hold: only right when one process owns the database, which is never assumed here (see `sharedByInstances`).
   */
  async releaseHeld(nowMs: number, all: boolean): Promise<number> {
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
      await this.budgets.moveHolds((r.rows[0]?.held ?? []) as HeldRow[]);
      const n = r.rows[0]?.n ?? 0;
      total += n;
      if (n < 500) break;
    }
    return total;
  }

  private async currentBalance(accountId: string): Promise<number> {
    return (await this.q<{ balance: number }>('SELECT balance FROM accounts WHERE id = $1', [accountId])).rows[0]?.balance ?? 0;
  }
}
