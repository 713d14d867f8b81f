import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { MemoryCoalescer } from '../memory/coalescer.js';
import type { CachedResult, Coalescer } from '../types.js';
import type { RedisResultCache } from './cache.js';

/** Deletes the lock only if it is still ours. */
const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;
const POLL_MS = 25;

/**
 * Identical misses across instances share one fetch. Within a process the memory coalescer joins them first; then
 * one process takes `SET lock NX PX` and fetches (its result lands in the shared cache); the others poll the shared
 * cache for a result stored after they started waiting. They fetch themselves when the lock disappears without a
 * result (the winner failed: errors are not shared across instances), when `waitMs` passes, or when Redis fails.
 * Each caller bills its own reservation either way, so coalescing can never double-bill.
 */
export class RedisCoalescer implements Coalescer {
  private readonly local = new MemoryCoalescer();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly cache: RedisResultCache,
    /** How long a lock lives and a follower waits: about one upstream call with its retries. */
    private readonly waitMs: number,
    private readonly onError: (e: unknown, what: string) => void = () => {},
  ) {}

  run(key: string, ttlSeconds: number, fetch: () => Promise<CachedResult>): Promise<CachedResult> {
    // Results that are not cached cannot be handed over: coalesce them in-process only.
    if (ttlSeconds <= 0) return this.local.run(key, ttlSeconds, fetch);
    return this.local.run(key, ttlSeconds, () => this.shared(key, fetch));
  }

  private async shared(key: string, fetch: () => Promise<CachedResult>): Promise<CachedResult> {
    const lock = `${this.prefix}lk:${key}`;
    const token = randomBytes(9).toString('base64url');
    const started = Date.now();
    let won: string | null;
    try {
      won = await this.redis.set(lock, token, 'PX', this.waitMs, 'NX');
    } catch (e) {
      this.onError(e, 'coalescing lock');
      return fetch();
    }
    if (won === 'OK') {
      try {
        return await fetch();
      } finally {
        this.redis.eval(UNLOCK, 1, lock, token).catch(() => {});
      }
    }
    // Someone else is fetching: wait for their result in the shared cache.
    const deadline = started + this.waitMs;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, POLL_MS));
      const hit = await this.cache.getShared(key);
      // Stored after we began waiting (1 s of clock skew between instances allowed): the winner's result.
      if (hit && hit.storedAt >= started - 1000) return hit;
      let held: number;
      try {
        held = await this.redis.exists(lock);
      } catch (e) {
        this.onError(e, 'coalescing wait');
        break;
      }
      if (held === 0) {
        const last = await this.cache.getShared(key);
        if (last && last.storedAt >= started - 1000) return last;
        break;
      }
    }
    return fetch();
  }
}
