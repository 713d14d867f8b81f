/**
 * The ledger on the embedded database: grants, holds for running calls, charges and refunds. Balance changes are
 * conditional UPDATEs inside the write batch's transactions, so concurrent calls can never overdraw (SQLite has one
 * writer; the CHECK constraint is the last line of defence); a debit checks and moves the budgets that apply in the
 * same transaction.
 */
import type { Database, Statement } from 'better-sqlite3';
import { newId } from '../../lib/ids.js';
import { periodWindow } from '../../budgets/periods.js';
import type { CallRecord, DebitOutcome, LedgerStore, ReserveRequest } from '../types.js';
import type { SqliteBudgets } from './budgets.js';
import type { SqliteCalls } from './calls.js';
import type { WriteBatch } from './write-batch.js';

interface HeldRow {
  account_id: string;
  amount: number;
  budgets: string | null;
}

export class SqliteLedger implements LedgerStore {
  private readonly s: Record<string, Statement>;

  constructor(
    db: Database,
    private readonly batch: WriteBatch,
    private readonly budgets: SqliteBudgets,
    private readonly calls: SqliteCalls,
  ) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      credit: p('UPDATE accounts SET balance = balance + ? WHERE id = ?'),
      debit: p('UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ? RETURNING balance'),
      balance: p('SELECT balance FROM accounts WHERE id = ?'),
      ledger: p('INSERT INTO ledger (ref, account_id, delta, kind, note, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
      insertReservation: p(
        "INSERT INTO reservations (id, account_id, key_id, amount, state, expires_at, created_at, budgets) VALUES (?, ?, ?, ?, 'held', ?, ?, ?)",
      ),
      closeReservation: p(
        "UPDATE reservations SET state = ? WHERE id = ? AND state = 'held' RETURNING account_id, amount, budgets",
      ),
      expired: p("SELECT id FROM reservations WHERE state = 'held' AND expires_at <= ?"),
      allHeld: p("SELECT id FROM reservations WHERE state = 'held'"),
    };
  }

  addCredits(accountId: string, amount: number, reason: string): Promise<number | null> {
    return this.batch.submit(() => {
      const changed = this.s.credit.run(amount, accountId).changes;
      if (changed === 0) return null;
      this.s.ledger.run(newId('grant'), accountId, amount, 'grant', reason, Date.now());
      return (this.s.balance.get(accountId) as { balance: number }).balance;
    });
  }

  reserve(r: ReserveRequest): Promise<DebitOutcome> {
    return this.batch.submit((): DebitOutcome => {
      const now = Date.now();
      const budgets = this.budgets.applicableNow(r.accountId, r.keyId, r.tags, now);
      const over = budgets.find((b) => b.remainingCredits < r.amount);
      if (over) return { ok: false, balance: this.currentBalance(r.accountId), budget: over };
      const row = this.s.debit.get(r.amount, r.accountId, r.amount) as { balance: number } | undefined;
      if (!row) return { ok: false, balance: this.currentBalance(r.accountId) };
      const refs = budgets.map((b) => ({ id: b.id, period: periodWindow(b.period, now).key }));
      for (const ref of refs) this.budgets.addUsageNow(ref.id, ref.period, 0, r.amount);
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
      this.calls.recordNow({ ...call, credits });
    });
  }

  async release(reservationId: string): Promise<void> {
    await this.batch.submit(() => this.releaseNow(reservationId));
  }

  charge(call: CallRecord): Promise<DebitOutcome> {
    return this.batch.submit((): DebitOutcome => {
      const now = Date.now();
      const budgets = this.budgets.applicableNow(call.accountId, call.keyId, call.tags, now);
      const over = budgets.find((b) => b.remainingCredits < call.credits);
      if (over) return { ok: false, balance: this.currentBalance(call.accountId), budget: over };
      for (const b of budgets) this.budgets.addUsageNow(b.id, periodWindow(b.period, now).key, call.credits, 0);
      const row = this.s.debit.get(call.credits, call.accountId, call.credits) as { balance: number } | undefined;
      if (!row) return { ok: false, balance: this.currentBalance(call.accountId) };
      this.s.ledger.run(call.id, call.accountId, -call.credits, 'charge', call.endpoint, call.createdAt);
      this.calls.recordNow(call);
      return { ok: true, balance: row.balance };
    });
  }

  async recordTestCall(call: CallRecord): Promise<void> {
    await this.batch.submit(() => this.calls.recordNow({ ...call, test: true }));
  }

  /** Releases expired holds, or every hold with `all`; returns how many (inside the write batch's transaction). */
  releaseHeldNow(nowMs: number, all: boolean): number {
    const rows = (all ? this.s.allHeld.all() : this.s.expired.all(nowMs)) as { id: string }[];
    for (const r of rows) this.releaseNow(r.id);
    return rows.length;
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
      this.budgets.addUsageNow(ref.id, ref.period, charged, -held.amount);
    }
  }
}
