/**
 * The shared Redis connection (QUARRY_REDIS_URL). Built to fail fast: no offline queue and a short command
 * timeout, so when Redis is down every command errors at once and the callers fall back (cache: skipped; limits:
 * per-instance memory limits; coalescing: in-process only) instead of hanging requests. ioredis keeps reconnecting
 * in the background and the shared path resumes by itself.
 */
import { Redis } from 'ioredis';

export interface RedisLimitsOptions {
  url: string;
  /** Prefix of every key (tests give each gateway its own). */
  prefix: string;
  onError?: (e: unknown, what: string) => void;
}

export function connectRedis(url: string): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 1000,
    connectTimeout: 1000,
    enableAutoPipelining: true,
    lazyConnect: true,
    retryStrategy: (times) => Math.min(50 * times, 1000),
  });
  redis.on('error', () => {}); // reported by the callers that hit it; without a listener ioredis logs to stderr
  return redis;
}

/** Waits (at most `ms`) for the first connection; a Redis that is down at start only means starting degraded. */
export async function waitConnected(redis: Redis, ms = 2000): Promise<boolean> {
  if (redis.status === 'ready') return true;
  const connecting = redis.status === 'wait' ? redis.connect().catch(() => {}) : Promise.resolve();
  await Promise.race([connecting, new Promise((r) => setTimeout(r, ms).unref())]);
  return (redis.status as string) === 'ready';
}

/** Logs a Redis failure at most once per 10 s per kind, so an outage does not flood the log. */
export function throttledReporter(report: (e: unknown, what: string) => void): (e: unknown, what: string) => void {
  const last = new Map<string, number>();
  return (e, what) => {
    const now = Date.now();
    if ((last.get(what) ?? 0) + 10_000 > now) return;
    last.set(what, now);
    report(e, what);
  };
}
