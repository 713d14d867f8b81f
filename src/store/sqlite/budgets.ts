/**
 * Budgets on the embedded database: their specs, and the counters of each period that every debit of the ledger
 * checks and moves inside its own transaction (one writer, so a check and its move cannot be interleaved).
 */
import type { Database, Statement } from 'better-sqlite3';
import { newId } from '../../lib/ids.js';
import { budgetApplies, periodWindow } from '../../budgets/periods.js';
import { BUDGET_COLS, budgetStatus, toBudget, type BudgetRow } from '../budget-rows.js';
import type { Budget, BudgetSpec, BudgetStatus } from '../../budgets/types.js';
import type { BudgetStore } from '../types.js';
import type { WriteBatch } from './write-batch.js';

export class SqliteBudgets implements BudgetStore {
  private readonly s: Record<string, Statement>;

  constructor(
    db: Database,
    private readonly batch: WriteBatch,
  ) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
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
    };
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
    return (this.s.accountBudgets.all(accountId) as BudgetRow[]).map((b) => this.status(b, nowMs));
  }

  /** The budgets that apply to a call, each with what it has left in its current period. */
  applicableNow(accountId: string, keyId: string, tags: readonly string[], nowMs: number): BudgetStatus[] {
    const rows = this.s.accountBudgets.all(accountId) as BudgetRow[];
    if (!rows.length) return [];
    return rows.filter((b) => budgetApplies(b, keyId, tags)).map((b) => this.status(b, nowMs));
  }

  /** Moves a budget's counters of one period (inside the write batch's transaction). */
  addUsageNow(budgetId: string, period: string, spent: number, held: number): void {
    this.s.addBudgetUsage.run(budgetId, period, spent, held);
  }

  private status(b: BudgetRow, nowMs: number): BudgetStatus {
    const usage = this.s.budgetUsage.get(b.id, periodWindow(b.period, nowMs).key) as { spent: number; held: number } | undefined;
    return budgetStatus(b, usage, nowMs);
  }
}
