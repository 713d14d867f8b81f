/**
 * Source health shared by every instance: one Redis hash per source and minute (kept 2 hours) and per source and hour
 * (kept 2 days), counted with HINCRBY; a summary reads 60 + 24 hashes per source in one pipeline.
 */
import type { Redis } from 'ioredis';
import { HOUR_MS, LATENCY_BUCKETS, MINUTE_MS, addCounts, bucketOf, emptyCounts, toWindow, type Counts, type SourceEvent, type SourceStats } from './types.js';

export class RedisSourceStats implements SourceStats {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly report: (e: unknown, what: string) => void,
  ) {}

  private key(source: string, unit: 'm' | 'h', start: number): string {
    return `${this.prefix}health:${source}:${unit}:${start}`;
  }

  record(e: SourceEvent): void {
    const t = Date.now();
    const m = this.key(e.source, 'm', Math.floor(t / MINUTE_MS) * MINUTE_MS);
    const h = this.key(e.source, 'h', Math.floor(t / HOUR_MS) * HOUR_MS);
    const fields = ['calls', e.outcome === 'ok' ? 'ok' : `err:${e.outcome}`, `h:${bucketOf(e.latencyMs)}`, ...(e.drift ? ['drift'] : [])];
    const multi = this.redis.multi();
    for (const key of [m, h]) for (const f of fields) multi.hincrby(key, f, 1);
    multi.pexpire(m, 2 * HOUR_MS).pexpire(h, 48 * HOUR_MS);
    multi.exec().catch((err: unknown) => this.report(err, 'source health'));
  }

  async summary(sources: readonly string[], nowMs: number) {
    const pipe = this.redis.pipeline();
    const minute0 = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;
    const hour0 = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
    for (const s of sources) {
      for (let i = 0; i < 60; i++) pipe.hgetall(this.key(s, 'm', minute0 - i * MINUTE_MS));
      for (let i = 0; i < 24; i++) pipe.hgetall(this.key(s, 'h', hour0 - i * HOUR_MS));
    }
    const replies = (await pipe.exec()) ?? [];
    const out: Awaited<ReturnType<SourceStats['summary']>> = {};
    sources.forEach((s, si) => {
      const hour = emptyCounts();
      const day = emptyCounts();
      for (let i = 0; i < 84; i++) {
        const [err, hash] = replies[si * 84 + i] ?? [];
        if (!err && hash) addCounts(i < 60 ? hour : day, fromHash(hash as Record<string, string>));
      }
      out[s] = { lastHour: toWindow(hour), lastDay: toWindow(day) };
    });
    return out;
  }
}

function fromHash(hash: Record<string, string>): Counts {
  const c = emptyCounts();
  for (const [f, v] of Object.entries(hash)) {
    const n = Number(v);
    if (f === 'calls') c.calls = n;
    else if (f === 'ok') c.ok = n;
    else if (f === 'drift') c.drift = n;
    else if (f.startsWith('err:')) c.errors[f.slice(4)] = n;
    else if (f.startsWith('h:')) {
      const i = Number(f.slice(2));
      if (i >= 0 && i < LATENCY_BUCKETS) c.hist[i] = n;
    }
  }
  return c;
}
