/**
 * A budget as both stores keep it (the same columns in SQLite and PostgreSQL) and how a row and its counters of the
 * current period become the Budget and the BudgetStatus of the contract.
 */
import type { Budget, BudgetStatus } from '../budgets/types.js';
import { periodWindow } from '../budgets/periods.js';

export interface BudgetRow {
  id: string;
  account_id: string;
  scope: 'key' | 'tag';
  target: string;
  period: 'day' | 'month';
  limit_credits: number;
  created_at: number;
}

export const BUDGET_COLS = 'id, account_id, scope, target, period, limit_credits, created_at';

const iso = (ms: number) => new Date(ms).toISOString();

export const toBudget = (b: BudgetRow): Budget => ({
  id: b.id,
  accountId: b.account_id,
  scope: b.scope,
  target: b.target,
  period: b.period,
  limitCredits: b.limit_credits,
  createdAt: iso(b.created_at),
});

/** `usage`: the budget's counters of the period `nowMs` falls in; none yet means nothing spent or held. */
export function budgetStatus(b: BudgetRow, usage: { spent: number; held: number } | undefined, nowMs: number): BudgetStatus {
  const w = periodWindow(b.period, nowMs);
  const spent = usage?.spent ?? 0;
  const held = usage?.held ?? 0;
  return {
    ...toBudget(b),
    spentCredits: spent,
    heldCredits: held,
    remainingCredits: Math.max(0, b.limit_credits - spent - held),
    periodStart: iso(w.startMs),
    resetsAt: iso(w.resetsAtMs),
  };
}
