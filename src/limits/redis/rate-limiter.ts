import type { Redis } from 'ioredis';
import { MemoryRateLimiter } from '../memory/rate-limiter.js';
import type { RateDecision, RateLimiter } from '../types.js';

type RateHit = { quarryRateHit(key: string, expireMs: string): Promise<unknown> };

/** One round trip: count the hit, start the window's expiry on its first hit. */
const HIT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
`;

/**
 * Shared fixed windows aligned to the clock (same semantics and `resetUnix` as the memory limiter): the key is
 * `rl:<id>:<windowStart>`, so every instance counts into the same window. When Redis fails the limiter fails
 * open to per-instance limits (the memory limiter): requests keep being served, each instance still caps a key at
 * the limit, so an outage can admit at most N× the limit across N instances, never unlimited traffic.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly fallback: MemoryRateLimiter;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly now: () => number = Date.now,
    private readonly onError: (e: unknown, what: string) => void = () => {},
  ) {
    this.fallback = new MemoryRateLimiter(now);
    // Sent as EVALSHA (ioredis loads the script on a NOSCRIPT answer): Redis then neither receives nor hashes the
    // script's text at every request.
    if (!('quarryRateHit' in redis)) redis.defineCommand('quarryRateHit', { numberOfKeys: 1, lua: HIT });
  }

  async hit(id: string, limit: number, windowSeconds: number): Promise<RateDecision> {
    const nowMs = this.now();
    const windowMs = windowSeconds * 1000;
    const start = Math.floor(nowMs / windowMs) * windowMs;
    const resetUnix = Math.ceil((start + windowMs) / 1000);
    let n: number;
    try {
      // Expire a little after the window ends, so clock skew between instances cannot resurrect a window.
      n = (await (this.redis as unknown as RateHit).quarryRateHit(`${this.prefix}rl:${id}:${start}`, String(windowMs + 5000))) as number;
    } catch (e) {
      this.onError(e, 'rate limit');
      return this.fallback.hit(id, limit, windowSeconds);
    }
    if (n > limit) return { allowed: false, limit, remaining: 0, resetUnix };
    return { allowed: true, limit, remaining: limit - n, resetUnix };
  }
}
