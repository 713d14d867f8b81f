/**
 * `Idempotency-Key` on paid POSTs: within 24 hours the same key with the same request (endpoint and body) from the
 * same API key replays the stored response and charges nothing; the same key with another request is refused; a
 * duplicate that arrives while the first runs waits for it a moment, then is told to retry (409
 * `idempotencyKeyInUse`, retryable, with Retry-After) rather than held open. Entries live in the store, so every
 * instance sees them.
 *
 * A running claim has a short lease that its holder renews while the call runs (`holdClaim`): a holder that died
 * stops renewing, and its claim is taken over once the lease runs out. At start an embedded server releases every
 * running claim, as it releases credit holds (one process owns its database); instances sharing PostgreSQL release
 * the claims whose lease ran out (`Store.releaseExpired`).
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
/** A running claim's lease; its holder renews it every third of it. */
export const IDEMPOTENCY_LEASE_MS = 15_000;
/** How long a duplicate waits for the attempt holding its key before it is answered 409 (retry later). */
export const IDEMPOTENCY_WAIT_MS = 2_000;
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
 * answers its stored response. Waits `waitMs` at most: past it the duplicate fails with the retryable 409
 * `idempotencyKeyInUse`, so no connection is held open on a claim (a holder that died is taken over once its lease
 * of `leaseMs` ran out).
 */
export async function beginIdempotent(
  store: Store,
  r: { scope: string; key: string; fingerprint: string; leaseMs?: number; waitMs?: number; signal?: AbortSignal },
): Promise<IdempotencyStart> {
  const leaseMs = r.leaseMs ?? IDEMPOTENCY_LEASE_MS;
  const giveUpAt = Date.now() + (r.waitMs ?? IDEMPOTENCY_WAIT_MS);
  for (let wait = 20; ; wait = Math.min(wait * 2, 250)) {
    const now = Date.now();
    const claim = await store.claimIdempotency({
      scope: r.scope,
      key: r.key,
      fingerprint: r.fingerprint,
      nowMs: now,
      leaseUntil: now + leaseMs,
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
    const left = giveUpAt - Date.now();
    if (left <= 0) {
      throw new QuarryError(
        'idempotencyKeyInUse',
        'Idempotency-Key: the first request with this key is still running; retry shortly and you will get its answer.',
        { retryAfterSeconds: 1 },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(wait, left)));
  }
}

/**
 * Keeps a claimed key's lease alive while its call runs (renewed every third of the lease, so a store hiccup does
 * not lose it); the returned function stops renewing. Failures are reported, not thrown: the call goes on. `onLost`
 * hears of a renewal that found the claim gone (taken over or swept after a stall longer than the lease). Instance
 * leases (`instance-lease.ts`) are claims kept the same way.
 */
export function holdClaim(
  store: Store,
  ticket: IdempotencyTicket,
  onError: (e: unknown) => void,
  leaseMs = IDEMPOTENCY_LEASE_MS,
  onLost?: () => void,
): () => void {
  const timer = setInterval(() => {
    store.renewIdempotency(ticket.scope, ticket.key, Date.now() + leaseMs).then((renewed) => {
      if (!renewed) onLost?.();
    }, onError);
  }, Math.max(1, Math.floor(leaseMs / 3)));
  timer.unref();
  return () => clearInterval(timer);
}

/** Whether a response is final for its key: retrying cannot change it. */
export function isFinal(status: number, code?: string): boolean {
  if (status < 400) return true;
  return status < 500 && status !== 429 && code !== 'insufficientCredits';
}
