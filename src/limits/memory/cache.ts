import { LRUCache } from 'lru-cache';
import type { CachedResult, ResultCache } from '../types.js';

/** In-process result cache, bounded by the bytes of the serialised results. */
export class MemoryResultCache implements ResultCache {
  private readonly lru: LRUCache<string, CachedResult>;

  constructor(maxBytes: number) {
    this.lru = new LRUCache<string, CachedResult>({
      maxSize: maxBytes,
      // Strings are UTF-16 in memory; the parsed copy costs about as much again, and the UTF-8 bytes a hit writes
      // (made on the first hit) one more.
      sizeCalculation: (v) => Math.max(1, v.json.length * 5),
      maxEntrySize: Math.max(1, Math.floor(maxBytes / 4)),
    });
  }

  async get(key: string): Promise<CachedResult | undefined> {
    return this.lru.get(key);
  }

  async set(key: string, value: CachedResult, ttlSeconds: number): Promise<void> {
    if (ttlSeconds <= 0) return;
    this.lru.set(key, value, { ttl: ttlSeconds * 1000 });
  }
}
