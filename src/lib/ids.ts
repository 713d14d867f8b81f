import { randomBytes } from 'node:crypto';

/** Random, URL-safe identifiers with a readable prefix: `req_…`, `acct_…`, `key_…`. */
export function newId(prefix: string, bytes = 12): string {
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`;
}
