/**
 * Budget periods are calendar periods in UTC: a day budget resets at midnight UTC, a month budget on the first.
 * The period key names the counter row a call's spend goes to.
 */
import type { BudgetPeriod } from './types.js';

export interface PeriodWindow {
  /** `2026-11-21` for a day, `2026-11` for a month. */
  key: string;
  startMs: number;
  resetsAtMs: number;
}

export function periodWindow(period: BudgetPeriod, nowMs: number): PeriodWindow {
  const d = new Date(nowMs);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  if (period === 'day') {
    const startMs = Date.UTC(y, m, d.getUTCDate());
    return { key: new Date(startMs).toISOString().slice(0, 10), startMs, resetsAtMs: startMs + 86_400_000 };
  }
  const startMs = Date.UTC(y, m, 1);
  return { key: new Date(startMs).toISOString().slice(0, 7), startMs, resetsAtMs: Date.UTC(y, m + 1, 1) };
}

/** Whether a budget applies to a call made with `keyId` and carrying `tags`. */
export function budgetApplies(b: { scope: string; target: string }, keyId: string, tags: readonly string[]): boolean {
  return b.scope === 'key' ? b.target === keyId : tags.includes(b.target);
}
