/**
 * A budget as an account sets it (a key's or a tag's spend per calendar day or month) and as it stands in the
 * current period. Declared here, with the rules (./periods.ts, ./budgets.ts), so that the store, which enforces them
 * with every debit, depends on budgets and never the other way round.
 */

export type BudgetScope = 'key' | 'tag';
export type BudgetPeriod = 'day' | 'month';

export interface BudgetSpec {
  scope: BudgetScope;
  /** A key id (scope `key`) or a tag (scope `tag`). */
  target: string;
  period: BudgetPeriod;
  limitCredits: number;
}

export interface Budget extends BudgetSpec {
  id: string;
  accountId: string;
  createdAt: string;
}

export interface BudgetStatus extends Budget {
  /** Charged in the current period. */
  spentCredits: number;
  /** Held by calls running now (counted against the budget until they settle). */
  heldCredits: number;
  remainingCredits: number;
  periodStart: string;
  resetsAt: string;
}
