/** A Zillow home as callers name it: its zpid, or any zillow.com address that carries one (`…/15192198_zpid/`). */
import { QuarryError } from '../../errors.js';

export function zpidOf(input: string): string {
  const v = input.trim();
  if (/^\d{1,12}$/.test(v)) return v;
  if (/^(?:https?:\/\/)?(?:www\.)?zillow\.com\//i.test(v)) {
    const m = /\/(\d{1,12})_zpid\b/.exec(v);
    if (m) return m[1];
  }
  throw new QuarryError('invalidRequest', 'property: a zpid (digits) or a zillow.com address ending in …/<zpid>_zpid/', { retryable: false });
}
