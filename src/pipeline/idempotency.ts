/**
 * `Idempotency-Key` on paid POSTs: within 24 hours the same key with the same request (endpoint and body) from the
 * same API key replays the stored response and charges nothing; the same key with another request is refused; a
 * duplicate that arrives while the first runs waits for it. Entries live in the store, so every instance sees them.
 *
 * What is kept: successes and final refusals (a 4xx that a retry cannot change). Retryable failures (source
 * errors, rate limits, storage outages) and `insufficientCredits` are forgotten, so a retry runs again: the whole
 * point of retrying them.
 */
import { createHash } from 'node:crypto';
import { QuarryError } from '../errors.js';
import type { StoredResponse, Store } from '../store/types.js';
import { canonicalJson } from './cache-key.js';

export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;
const PRINTABLE = /^[\x20-\x7e]{1,255}$/;

export interface IdempotencyTicket {
  scope: string;
  key: string;
}

export type IdempotencyStart = { replay: StoredResponse } | { ticket: IdempotencyTicket };

export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined || !PRINTABLE.test(key)) {
    throw new QuarryError('invalidRequest', 'Idempotency-Key: must be 1-255 printable ASCII characters.');
  }
  return key;
}

export function requestFingerprint(endpointId: string, body: unknown): string {
  return createHash('sha256').update(endpointId).update('\n').update(canonicalJson(body ?? null)).digest('base64url');
}

/**
 * Claims the key, or waits for the attempt holding it (polling the store, so it works across instances) and
 * answers its stored response. `leaseMs` bounds how long a silent holder is waited for before this one takes over.
 */
export async function beginIdempotent(
  store: Store,
  r: { scope: string; key: string; fingerprint: string; leaseMs: number; signal?: AbortSignal },
): Promise<IdempotencyStart> {
  for (let wait = 20; ; wait = Math.min(wait * 2, 250)) {
    const now = Date.now();
    const claim = await store.claimIdempotency({
      scope: r.scope,
      key: r.key,
      fingerprint: r.fingerprint,
      nowMs: now,
      leaseUntil: now + r.leaseMs,
      expiresAt: now + IDEMPOTENCY_WINDOW_MS,
    });
    if (claim.state === 'claimed') return { ticket: { scope: r.scope, key: r.key } };
    if (claim.state === 'done') return { replay: claim.response };
    if (claim.state === 'mismatch') {
      throw new QuarryError(
        'invalidRequest',
        'Idempotency-Key: this key was used with a different request (endpoint or body) in the last 24 hours; send a new key for a new request.',
      );
    }
    if (r.signal?.aborted) throw new QuarryError('invalidRequest', 'The request was cancelled while waiting for the first attempt.');
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** Whether a response is final for its key: retrying cannot change it. */
export function isFinal(status: number, code?: string): boolean {
  if (status < 400) return true;
  return status < 500 && status !== 429 && code !== 'insufficientCredits';
}
