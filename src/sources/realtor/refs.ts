/**
 * A Realtor.com home as callers name it: its property id, or its detail address, whose last segment ends in the id
 * split by a hyphen (`…/880-Blue-Ridge-Ln_Alpine_UT_84004_M16220-21779` is property 1622021779).
 */
import { QuarryError } from '../../errors.js';

export function propertyIdOf(input: string): string {
  const v = input.trim();
  if (/^\d{5,15}$/.test(v)) return v;
  if (/^(?:https?:\/\/)?(?:www\.)?realtor\.com\/realestateandhomes-detail\//i.test(v)) {
    const m = /_M(\d{1,10})-(\d{1,10})(?:[/?#]|$)/.exec(v);
    if (m) return `${m[1]}${m[2]}`;
  }
  throw new QuarryError('invalidRequest', 'property: a property id (digits) or a realtor.com/realestateandhomes-detail/… address', { retryable: false });
}
