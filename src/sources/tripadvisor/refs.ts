/** A Tripadvisor place as callers name it: its location id, or any tripadvisor address carrying it (`…-d264936-…`). */
import { QuarryError } from '../../errors.js';

export function locationIdOf(input: string): string {
  const v = input.trim();
  if (/^\d{1,12}$/.test(v)) return v;
  if (/^(?:https?:\/\/)?(?:[a-z0-9-]+\.)*tripadvisor\.[a-z.]{2,10}\//i.test(v)) {
    const m = /-d(\d{1,12})(?:-|\.html|$)/.exec(v);
    if (m) return m[1];
  }
  throw new QuarryError('invalidRequest', 'place: a Tripadvisor location id (digits) or a tripadvisor.com address (…-d<id>-…)', { retryable: false });
}
