/**
 * The result cache, rate limits and in-flight caps: small interfaces with an in-process implementation
 * (./memory) and a shared one for several instances. Chosen once in the composition root.
 */

/** A cached result: the pruned `data`, its pre-serialised JSON, the result count and when it was stored. */
export interface CachedResult {
  data: Record<string, unknown>;
  json: string;
  items: number | undefined;
  /** The call answered but returned nothing worth paying for (e.g. a parse that found no text): not billed. */
  free?: boolean;
  storedAt: number;
  /** SHA-256 of `json`, computed on first use (the archive keeps answers by it). */
  hash?: string;
  /** `json` encoded as UTF-8, made on first use: every hit of this result writes these bytes as they are. */
  bytes?: Buffer;
}

export interface ResultCache {
  get(key: string): Promise<CachedResult | undefined>;
  set(key: string, value: CachedResult, ttlSeconds: number): Promise<void>;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  resetUnix: number;
}

export interface RateLimiter {
  /** Counts one request against `id`'s window of `windowSeconds`. */
  hit(id: string, limit: number, windowSeconds: number): Promise<RateDecision>;
}

export interface InFlightLimiter {
  /** Takes a slot; returns a release function, or null when `id` already has `max` calls running. */
  acquire(id: string, max: number): Promise<(() => void) | null>;
}

/**
 * Identical concurrent cache misses share one fetch. In-process (memory) or across instances (Redis: a lock per
 * key, the others wait for the winner's cached result, with a timeout after which they fetch themselves).
 */
export interface Coalescer {
  /** Runs `fetch` for `key` unless an identical one is running; `ttlSeconds` is how long its result is cached. */
  run(key: string, ttlSeconds: number, fetch: () => Promise<CachedResult>): Promise<CachedResult>;
}
