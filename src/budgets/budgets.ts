/**
 * Budgets as the operator CLI and the dashboard set them: the rules a spec must meet, checked once here, so both
 * refuse the same things with the same words. Enforcement lives in the store (atomic with every debit).
 */
import { TAG_PATTERN } from '../lib/tags.js';
import { QuarryError } from '../errors.js';
import type { Budget, BudgetSpec } from './types.js';

/** What setting a budget needs of the store (the Store is one): the account's keys, and where budgets are kept. */
export interface BudgetKeeper {
  getAccount(id: string): Promise<{ keys: readonly { id: string }[] } | null>;
  setBudget(accountId: string, spec: BudgetSpec): Promise<Budget>;
}

const TAG = new RegExp(TAG_PATTERN);
export const MAX_BUDGET_CREDITS = 1_000_000_000;

/** Checks a spec from outside (untyped) and that its target belongs to the account; throws invalidRequest. */
export async function checkBudgetSpec(store: BudgetKeeper, accountId: string, raw: Record<string, unknown>): Promise<BudgetSpec> {
  const { scope, target, period, limitCredits } = raw;
  if (scope !== 'key' && scope !== 'tag') throw new QuarryError('invalidRequest', 'scope: must be "key" or "tag".');
  if (period !== 'day' && period !== 'month') throw new QuarryError('invalidRequest', 'period: must be "day" or "month".');
  if (typeof limitCredits !== 'number' || !Number.isInteger(limitCredits) || limitCredits < 0 || limitCredits > MAX_BUDGET_CREDITS) {
    throw new QuarryError('invalidRequest', `limitCredits: must be a whole number from 0 to ${MAX_BUDGET_CREDITS}.`);
  }
  if (typeof target !== 'string' || !target) throw new QuarryError('invalidRequest', 'target: required, a key id or a tag.');
  if (scope === 'tag' && !TAG.test(target)) throw new QuarryError('invalidRequest', 'target: a tag is 1-50 letters, digits, -, _, . or :.');
  if (scope === 'key') {
    const account = await store.getAccount(accountId);
    if (!account?.keys.some((k) => k.id === target)) throw new QuarryError('invalidRequest', `target: no key ${target} in this account.`);
  }
  return { scope, target, period, limitCredits };
}

export async function setBudget(store: BudgetKeeper, accountId: string, raw: Record<string, unknown>): Promise<Budget> {
  return store.setBudget(accountId, await checkBudgetSpec(store, accountId, raw));
}
