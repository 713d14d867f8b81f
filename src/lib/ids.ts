import { randomBytes, randomUUID } from 'node:crypto';

/** Random, URL-safe identifiers with a readable prefix: `acct_…`, `key_…`. */
export function newId(prefix: string, bytes = 12): string {
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`;
}

/**
 * Request ids: `req_` + milliseconds (base 36, fixed width) + 80 random bits. Time-ordered, so the tables they key
 * (calls, ledger, reservations) grow at one end instead of touching a random index page per insert; randomUUID
 * draws from a cached entropy pool, so this costs no system call per request.
 */
export function newRequestId(): string {
  const uuid = randomUUID(); // hex digits 0-7 and 24-35 are all random (UUID v4)
  return `req_${Date.now().toString(36).padStart(9, '0')}${uuid.slice(0, 8)}${uuid.slice(24)}`;
}
