/**
 * Budgets on PostgreSQL: their specs, and the counters of each period. A debit of an account with budgets goes
 * through `debit`, one transaction that locks the account row and then the counters that apply, so concurrent calls
 * on any instance can never overspend a budget; closed holds leave the counters through `moveHolds`.
 */
import type pg from 'pg';
import { newId } from '../../lib/ids.js';
import { budgetApplies, periodWindow } from '../../budgets/periods.js';
import { BUDGET_COLS, budgetStatus, toBudget, type BudgetRow } from '../budget-rows.js';
import type { Budget, BudgetSpec, BudgetStatus } from '../../budgets/types.js';
import type { BudgetStore, DebitOutcome } from '../types.js';
import { inTransaction, type Query } from './connection.js';

/** A hold as the statement closing it returns it: its amount, what was charged of it, and its budget counters. */
export interface HeldRow {
  amount: number;
  credits: number;
  budgets: { id: string; period: string }[] | null;
}

export class PostgresBudgets implements BudgetStore {
  constructor(
    private readonly q: Query,
    private readonly connect: () => Promise<pg.PoolClient>,
  ) {}

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

  async hasBudgets(accountId: string): Promise<boolean> {
    return (await this.q<{ x: boolean }>('SELECT EXISTS (SELECT 1 FROM budgets WHERE account_id = $1) AS x', [accountId])).rows[0]!.x;
  }

  /**
   * A debit of an account with budgets, in one transaction: account row locked first, then the applicable budget
   * counters of the current periods (in id order); refused when a budget or the balance is short; `write` records
   * the hold or the charge and says how the counters move.
   */
  async debit(
    accountId: string,
    keyId: string,
    tags: readonly string[],
    amount: number,
    write: (client: pg.PoolClient, refs: { id: string; period: string }[]) => Promise<{ spent: number; held: number }>,
  ): Promise<DebitOutcome> {
    // A refusal commits too: it changed nothing but the (empty) counter rows of this period.
    return inTransaction(this.connect, async (client): Promise<DebitOutcome> => {
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

  /**
   * A closed hold leaves its budget counters in a statement of its own, after the one that closed it: taking the
   * counters' locks while holding the account's could deadlock with a budgeted reserve (counters, then account).
   * A crash in between leaves a counter's hold too high until the period ends: stricter, never overspent.
   */
  async moveHolds(rows: HeldRow[]): Promise<void> {
    const refs = rows.flatMap((r) => (r.budgets ?? []).map((b) => ({ ...b, held: r.amount, spent: r.credits })));
    if (!refs.length) return;
    await this.q(
      `UPDATE budget_usage u SET held = u.held - x.held, spent = u.spent + x.spent
       FROM jsonb_to_recordset($1::jsonb) AS x(id text, period text, held bigint, spent bigint)
       WHERE u.budget_id = x.id AND u.period = x.period`,
      [JSON.stringify(refs)],
    );
  }
}
