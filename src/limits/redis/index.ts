/** Builds the shared cache, limits and coalescing on one Redis connection (QUARRY_REDIS_URL). */
import type { Redis } from 'ioredis';
import type { Coalescer, InFlightLimiter, RateLimiter, ResultCache } from '../types.js';
import { RedisResultCache } from './cache.js';
import { connectRedis, throttledReporter, waitConnected } from './client.js';
import { RedisCoalescer } from './coalescer.js';
import { RedisInFlight } from './in-flight.js';
import { RedisRateLimiter } from './rate-limiter.js';
import { RedisSourceStats } from '../../health/redis.js';
import type { SourceStats } from '../../health/types.js';

export interface RedisLimits {
  redis: Redis;
  cache: ResultCache;
  rateLimiter: RateLimiter;
  inFlight: InFlightLimiter;
  coalescer: Coalescer;
  health: SourceStats;
  close(): Promise<void>;
}

export async function openRedisLimits(o: {
  url: string;
  prefix: string;
  l1MaxBytes: number;
  /** How long a coalescing follower waits for the winner, and an in-flight lease lives unrenewed. */
  waitMs: number;
  onError: (e: unknown, what: string) => void;
}): Promise<RedisLimits> {
  const redis = connectRedis(o.url);
  const report = throttledReporter(o.onError);
  await waitConnected(redis);
  const cache = new RedisResultCache(redis, o.prefix, o.l1MaxBytes, report);
  return {
    redis,
    cache,
    rateLimiter: new RedisRateLimiter(redis, o.prefix, Date.now, report),
    inFlight: new RedisInFlight(redis, o.prefix, 30_000, report),
    coalescer: new RedisCoalescer(redis, o.prefix, cache, o.waitMs, report),
    health: new RedisSourceStats(redis, o.prefix, report),
    async close() {
      redis.disconnect();
    },
  };
}
