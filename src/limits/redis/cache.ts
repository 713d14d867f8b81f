import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { CachedResult, ResultCache } from '../types.js';

/** How long an entry read from (or written to) Redis is also kept in this process. */
const L1_TTL_MS = 5000;

/**
 * Shared result cache: `SET key value PX ttl` in Redis, plus a small in-process L1 (a few seconds) so hot keys cost
 * no round trip. When Redis fails, reads miss and writes are skipped: calls are served (and billed once) without
 * the shared cache.
 */
export class RedisResultCache implements ResultCache {
  private readonly l1: LRUCache<string, CachedResult>;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    l1MaxBytes: number,
    private readonly onError: (e: unknown, what: string) => void = () => {},
  ) {
    this.l1 = new LRUCache<string, CachedResult>({
      maxSize: Math.max(1, l1MaxBytes),
      sizeCalculation: (v) => Math.max(1, v.json.length * 5),
      maxEntrySize: Math.max(1, Math.floor(l1MaxBytes / 4)),
    });
  }

  async get(key: string): Promise<CachedResult | undefined> {
    return this.l1.get(key) ?? this.getShared(key);
  }

  /** Reads Redis only (the coalescer waits for another instance's write, which no L1 entry can show). */
  async getShared(key: string): Promise<CachedResult | undefined> {
    let raw: string | null;
    try {
      raw = await this.redis.get(this.prefix + 'c:' + key);
    } catch (e) {
      this.onError(e, 'cache read');
      return undefined;
    }
    if (!raw) return undefined;
    const stored = JSON.parse(raw) as { json: string; items: number | undefined; free?: boolean; storedAt: number };
    const value: CachedResult = { data: JSON.parse(stored.json) as Record<string, unknown>, json: stored.json, items: stored.items, storedAt: stored.storedAt };
    if (stored.free) value.free = true;
    this.l1.set(key, value, { ttl: L1_TTL_MS });
    return value;
  }

  async set(key: string, value: CachedResult, ttlSeconds: number): Promise<void> {
    if (ttlSeconds <= 0) return;
    this.l1.set(key, value, { ttl: Math.min(L1_TTL_MS, ttlSeconds * 1000) });
    const stored = JSON.stringify({ json: value.json, items: value.items, free: value.free, storedAt: value.storedAt });
    try {
      await this.redis.set(this.prefix + 'c:' + key, stored, 'PX', ttlSeconds * 1000);
    } catch (e) {
      this.onError(e, 'cache write');
    }
  }
}
