/** An Airbnb listing as callers name it: its id, or an address carrying it (airbnb.com/rooms/<id>, any country site). */
import { QuarryError } from '../../errors.js';

export function listingIdOf(input: string): string {
  const v = input.trim();
  if (/^\d{1,25}$/.test(v)) return v;
  if (/^(?:https?:\/\/)?(?:[a-z0-9-]+\.)*airbnb\.[a-z.]{2,10}\//i.test(v)) {
    const m = /\/rooms\/(?:plus\/)?(\d{1,25})(?:[/?#]|$)/.exec(v);
    if (m) return m[1];
  }
  throw new QuarryError('invalidRequest', 'listing: a listing id (digits) or an airbnb address (…/rooms/<id>)', { retryable: false });
}
