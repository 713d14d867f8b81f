import { randomBytes } from 'node:crypto';

/** Random, URL-safe identifiers with a readable prefix: `acct_…`, `key_…`. */
export function newId(prefix: string, bytes = 12): string {
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`;
}

const PROCESS_TAG = randomBytes(6).toString('base64url'); // 48 random bits, drawn once per process
let sequence = 0;

/**
 * Request ids: `req_` + milliseconds (base 36, fixed width) + this process's random tag + a counter. Time-ordered,
 * so the tables they key (calls, ledger, reservations) grow at one end instead of touching a random index page per
 * insert; unique across processes by the tag, within one by the counter; no entropy drawn per request.
 */
export function newRequestId(): string {
  sequence = (sequence + 1) % 0x1000000;
  return `req_${Date.now().toString(36).padStart(9, '0')}${PROCESS_TAG}${sequence.toString(36).padStart(5, '0')}`;
}
