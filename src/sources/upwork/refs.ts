/** An Upwork job as callers name it: its ciphertext (`~01…`, the tilde optional) or an address carrying it. */
import { QuarryError } from '../../errors.js';

const CIPHER = /~?(0[0-9a-f]{15,30})(?:[/?#]|$)/i;

export function cipherOf(input: string): string {
  const v = input.trim();
  const isAddress = /^(?:https?:\/\/)?(?:www\.)?upwork\.com\//i.test(v);
  if (isAddress || /^~?0[0-9a-f]{15,30}$/i.test(v)) {
    const m = CIPHER.exec(isAddress ? new URL(/^https?:/i.test(v) ? v : `https://${v}`).pathname : v);
    if (m) return `~${m[1].toLowerCase()}`;
  }
  throw new QuarryError('invalidRequest', 'job: an Upwork job id (~01…) or an upwork.com/jobs/~01… address', { retryable: false });
}
