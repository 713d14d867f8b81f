/**
 * A Glassdoor employer as callers name it: its id, or any glassdoor address carrying it (`/Overview/Working-at-eBay-
 * EI_IE7853.11,15.htm`, `/Reviews/eBay-Reviews-E7853.htm`, `/Salary/eBay-Salaries-E7853_P2.htm`).
 */
import { QuarryError } from '../../errors.js';

export function employerIdOf(input: string): string {
  const v = input.trim();
  if (/^\d{1,10}$/.test(v)) return v;
  if (/^(?:https?:\/\/)?(?:[a-z0-9-]+\.)*glassdoor\.[a-z.]{2,10}\//i.test(v)) {
    const m = /(?:EI_IE|-E)(\d{1,10})(?:[._]|$)/.exec(v);
    if (m) return m[1];
  }
  throw new QuarryError('invalidRequest', 'company: a Glassdoor employer id (digits) or a glassdoor address carrying it (…-E7853.htm)', { retryable: false });
}
