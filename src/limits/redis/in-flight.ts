import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { MemoryInFlight } from '../memory/in-flight.js';
import type { InFlightLimiter } from '../types.js';

/**
 * Atomic check-and-take of a slot: drop expired leases, count, add ours. Scores are lease deadlines in Redis's own
 * clock (TIME), so instance clocks do not matter.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
return 1
`;
/** Extends a lease that is still ours. */
const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = redis.call('ZADD', KEYS[1], 'XX', 'CH', now + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]) * 2)
return n
`;

/**
 * Live calls running per id across instances: a ZSET of leases per id. A running call renews its lease every
 * third of the lease time; a crashed instance stops renewing, so its slots come back after at most `leaseMs`.
 * When Redis fails, slots are counted per instance (the memory limiter): fail open to local caps.
 */
export class RedisInFlight implements InFlightLimiter {
  private readonly fallback = new MemoryInFlight();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly leaseMs = 30_000,
    private readonly onError: (e: unknown, what: string) => void = () => {},
  ) {}

  async acquire(id: string, max: number): Promise<(() => void) | null> {
    const key = `${this.prefix}if:${id}`;
    const member = randomBytes(9).toString('base64url');
    let got: number;
    try {
      got = (await this.redis.eval(ACQUIRE, 1, key, String(max), String(this.leaseMs), member)) as number;
    } catch (e) {
      this.onError(e, 'in-flight');
      return this.fallback.acquire(id, max);
    }
    if (got !== 1) return null;
    const renew = setInterval(() => {
      this.redis.eval(RENEW, 1, key, String(this.leaseMs), member).catch(() => {});
    }, Math.max(100, Math.floor(this.leaseMs / 3)));
    renew.unref();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      clearInterval(renew);
      // If this fails the lease runs out by itself.
      this.redis.zrem(key, member).catch((e: unknown) => this.onError(e, 'in-flight release'));
    };
  }
}
