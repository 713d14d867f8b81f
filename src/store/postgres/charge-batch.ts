/**
 * Group commit of paid cache hits on PostgreSQL (issue 35.2). Every cache hit used to commit its own conditional
 * `UPDATE accounts …` on the account row, so one hot account serialised every instance's hits on that row lock (and
 * one WAL flush each): 809 requests/s with one worker, fewer with more. Now the charges (and test-mode call records)
 * queued in one event-loop turn go to the database as one statement, with at most one such statement in flight per
 * process: while it runs, the next turns' charges queue and go together after it. A hot account's row is then taken
 * once per batch, not once per call.
 *
 * The rules stay those of a single charge:
 * - No overdraft: the statement locks the batch's account rows (`FOR UPDATE`, in id order, so two instances' batches
 *   never deadlock), reads their current balance, and accepts an account's charges in arrival order while their
 *   running sum fits; the rest of that account's charges in the batch are refused as short (402). The CHECK
 *   (balance >= 0) stays the last line of defence.
 * - Nothing lost: a caller is answered only after the statement committed (synchronous_commit as configured, `on`
 *   by default), so an answered charge is durable; a crash before the commit loses only unanswered calls.
 * - Charged once: the ledger's primary key is the call id, as before.
 * - Accounts with budgets are not batched (their debit locks budget counters too): those charges come back as
 *   `alone` and take the single-charge path. So does every charge of a batch that failed for another reason than a
 *   lost connection, so that one faulty charge cannot fail the others.
 *
 * Archived answers (`result_bodies`) are sent once per answer and quarter hour, not with every hit: the 26 KB of a
 * reddit listing went to the database with each charge. A day boundary, in any time zone the database may use, falls
 * on a quarter hour, so each (day, answer) pair is still written.
 */
import type { CallRecord, DebitOutcome } from '../types.js';

/** Charges (or test-call records) handed over in one statement at most. */
const MAX_BATCH = 1000;
/** An answer's body is sent again when it was last sent in another quarter hour (see above). */
const BODY_SLOT_MS = 15 * 60 * 1000;

export type BatchOutcome = { kind: 'done'; outcome: DebitOutcome } | { kind: 'alone' };

interface Pending {
  call: CallRecord;
  test: boolean;
  resolve: (o: BatchOutcome) => void;
  reject: (e: unknown) => void;
}

interface Row {
  i: number;
  ok: boolean;
  balance: number | null;
  alone: boolean;
}

/**
 * $1: the calls, in arrival order (`i`); $2: the answers' bodies to archive. `test` rows are records only. An
 * account charged here has no budgets (checked under its row lock); an unknown account is refused with balance 0.
 */
const BATCH_SQL = `
WITH x AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(i int, test boolean, account_id text, credits bigint, id text, endpoint text,
    created_at bigint, key_id text, key_name text, cache text, tags text[], channel text, result_hash text)),
a AS (
  SELECT id, balance, EXISTS (SELECT 1 FROM budgets b WHERE b.account_id = accounts.id) AS budgeted FROM accounts
  WHERE id IN (SELECT account_id FROM x WHERE NOT test) ORDER BY id FOR UPDATE),
r AS (
  SELECT x.i, a.balance, sum(x.credits) OVER (PARTITION BY x.account_id ORDER BY x.i) AS cum
  FROM x JOIN a ON a.id = x.account_id AND NOT a.budgeted WHERE NOT x.test),
ok AS (
  SELECT x.* FROM x LEFT JOIN r ON r.i = x.i WHERE x.test OR r.cum <= r.balance),
s AS (
  SELECT account_id, sum(credits) AS total FROM ok WHERE NOT test GROUP BY account_id),
d AS (
  UPDATE accounts SET balance = accounts.balance - s.total FROM s WHERE accounts.id = s.account_id),
l AS (
  INSERT INTO ledger (ref, account_id, delta, kind, note, created_at)
  SELECT id, account_id, -credits, 'charge', endpoint, created_at FROM ok WHERE NOT test),
b AS (
  INSERT INTO result_bodies (day, hash, data)
  SELECT DISTINCT ON (1, 2) to_timestamp(y.created_at / 1000.0)::date, y.hash, y.data
  FROM jsonb_to_recordset($2::jsonb) AS y(hash text, data text, created_at bigint)
  WHERE EXISTS (SELECT 1 FROM ok WHERE ok.result_hash = y.hash)
  ON CONFLICT DO NOTHING),
c AS (
  INSERT INTO calls (account_id, id, key_id, key_name, endpoint, credits, cache, test, tags, channel, created_at, result_hash)
  SELECT account_id, id, key_id, key_name, endpoint, credits, cache, test, tags, channel, created_at, result_hash FROM ok)
SELECT x.i, ok.i IS NOT NULL AS ok, coalesce(a.budgeted, false) AS alone,
       CASE WHEN ok.i IS NOT NULL THEN r.balance - r.cum ELSE coalesce(a.balance - s.total, a.balance, 0) END AS balance
FROM x LEFT JOIN ok ON ok.i = x.i LEFT JOIN r ON r.i = x.i LEFT JOIN a ON a.id = x.account_id
  LEFT JOIN s ON s.account_id = x.account_id
ORDER BY x.i`;

export class ChargeBatch {
  private queue: Pending[] = [];
  private scheduled: NodeJS.Immediate | undefined;
  private running = false;
  /** answer hash → the quarter hour its body was last written in by this process. */
  private readonly bodiesSent = new Map<string, number>();

  constructor(
    private readonly run: (sql: string, args: unknown[]) => Promise<{ rows: Row[] }>,
    private readonly isConnectionLoss: (e: unknown) => boolean,
  ) {}

  /** Queues a charge (or with `test`, a test-mode call record); answered once its batch committed. */
  submit(call: CallRecord, test: boolean): Promise<BatchOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ call, test, resolve, reject });
      if (!this.running) this.scheduled ??= setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = undefined;
    if (this.running || this.queue.length === 0) return;
    this.running = true;
    const batch = this.queue.splice(0, MAX_BATCH);
    try {
      await this.write(batch);
    } finally {
      this.running = false;
      // What queued meanwhile goes at once, as one batch (it waited a whole statement already).
      if (this.queue.length) void this.flush();
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    const calls = batch.map((p, i) => {
      const c = p.call;
      return {
        i,
        test: p.test,
        account_id: c.accountId,
        credits: c.credits,
        id: c.id,
        endpoint: c.endpoint,
        created_at: c.createdAt,
        key_id: c.keyId,
        key_name: c.keyName,
        cache: c.cache,
        tags: c.tags,
        channel: c.channel,
        result_hash: c.result?.hash ?? null,
      };
    });
    const bodies: { hash: string; data: string; created_at: number }[] = [];
    const slots: { hash: string; slot: number }[] = [];
    const inBatch = new Set<string>();
    for (const { call } of batch) {
      if (!call.result) continue;
      const slot = Math.floor(call.createdAt / BODY_SLOT_MS);
      const key = `${call.result.hash}@${slot}`;
      if (this.bodiesSent.get(call.result.hash) === slot || inBatch.has(key)) continue;
      inBatch.add(key);
      bodies.push({ hash: call.result.hash, data: call.result.json, created_at: call.createdAt });
      slots.push({ hash: call.result.hash, slot });
    }
    let rows: Row[];
    try {
      rows = (await this.run(BATCH_SQL, [JSON.stringify(calls), JSON.stringify(bodies)])).rows;
    } catch (e) {
      // A lost database fails every call alike (retryable); anything else is retried one by one by the caller.
      for (const p of batch) {
        if (this.isConnectionLoss(e)) p.reject(e);
        else p.resolve({ kind: 'alone' });
      }
      return;
    }
    // A body counts as written once a charge that names it went through (only then was it inserted).
    const written = new Set(rows.filter((r) => r.ok).map((r) => batch[r.i]!.call.result?.hash));
    for (const s of slots) {
      if (!written.has(s.hash)) continue;
      if (this.bodiesSent.size >= 10_000) this.bodiesSent.clear();
      this.bodiesSent.set(s.hash, s.slot);
    }
    for (const row of rows) {
      const p = batch[row.i]!;
      if (row.alone && !p.test) p.resolve({ kind: 'alone' });
      else p.resolve({ kind: 'done', outcome: row.ok ? { ok: true, balance: row.balance ?? 0 } : { ok: false, balance: row.balance ?? 0 } });
    }
  }
}
