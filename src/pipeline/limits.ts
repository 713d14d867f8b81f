/**
 * Step: limit. Per-key rate limits, keyless calls per client address, and an in-flight cap on live fetches.
 * The decision is kept on the call state so every response, errors included, carries X-RateLimit-*.
 */
import type { CatalogueEndpoint } from '../catalogue/catalogue.js';
import { QuarryError } from '../errors.js';
import type { RateDecision } from '../limits/types.js';
import type { ConversionTier } from '../parse/pool.js';
import type { GatewayDeps } from './deps.js';
import type { Principal } from '../identity/principal.js';

const WINDOW_SECONDS = 60;

/**
 * Endpoints whose test mode does the live work (CONTRACT.md "Keys": parse is real in both modes). Anyone signed in
 * can mint a test key, so on these a test key gets no more than no key: its calls are limited like keyless ones.
 */
const REAL_IN_TEST_MODE = new Set(['web.parse']);

/** `clientAddress` is only worked out for keyless calls, which are the only ones counted by address. */
export async function checkRate(deps: GatewayDeps, principal: Principal | null, clientAddress: () => string): Promise<RateDecision> {
  const decision = principal
    ? await deps.rateLimiter.hit(`key:${principal.keyId}`, deps.config.rateLimitPerMinute, WINDOW_SECONDS)
    : await deps.rateLimiter.hit(`addr:${clientAddress()}`, deps.config.keylessRateLimitPerMinute, WINDOW_SECONDS);
  return decision;
}

/**
 * A test-mode call of an endpoint that does real work in test mode, counted like a keyless call: against a window
 * of its own per key and against its client address's keyless window, both at the keyless limit (after the key's
 * own window, counted by `checkRate`). The tighter window becomes the call's `X-RateLimit-*`.
 */
export async function limitTestModeWork(
  deps: GatewayDeps,
  endpoint: CatalogueEndpoint,
  state: { principal?: Principal | null; rate?: RateDecision },
  clientAddress: () => string,
): Promise<void> {
  const principal = state.principal;
  if (!principal?.test || !REAL_IN_TEST_MODE.has(endpoint.def.id)) return;
  const limit = deps.config.keylessRateLimitPerMinute;
  const [byKey, byAddress] = await Promise.all([
    deps.rateLimiter.hit(`test-work:${principal.keyId}`, limit, WINDOW_SECONDS),
    deps.rateLimiter.hit(`addr:${clientAddress()}`, limit, WINDOW_SECONDS),
  ]);
  const tightest = [byKey, byAddress].find((d) => !d.allowed) ?? (byKey.remaining <= byAddress.remaining ? byKey : byAddress);
  if (!state.rate || !tightest.allowed || tightest.remaining < state.rate.remaining) state.rate = tightest;
  if (!tightest.allowed) throw rateLimitedError(tightest);
}

/** Whose conversion a call's document is (`src/parse/pool.ts`): paying keys', or free (keyless and test-mode). */
export function conversionTier(principal: Principal | null | undefined): ConversionTier {
  return principal && !principal.test ? 'paid' : 'free';
}

export function rateLimitedError(decision: RateDecision, nowMs = Date.now()): QuarryError {
  const wait = Math.max(1, decision.resetUnix - Math.floor(nowMs / 1000));
  return new QuarryError(
    'rateLimited',
    `Rate limit of ${decision.limit} requests per minute reached; try again in ${wait} s.`,
    { retryAfterSeconds: wait },
  );
}

export async function acquireInFlight(
  deps: GatewayDeps,
  principal: Principal | null,
  clientAddress: () => string,
): Promise<() => void> {
  const id = principal ? `key:${principal.keyId}` : `addr:${clientAddress()}`;
  const release = await deps.inFlight.acquire(id, deps.config.maxInFlight);
  if (!release) {
    throw new QuarryError(
      'tooManyInFlight',
      `At most ${deps.config.maxInFlight} live calls may run at once ${principal ? 'for one key' : 'from one address'}; wait for one to finish.`,
      { retryAfterSeconds: 1 },
    );
  }
  return release;
}
