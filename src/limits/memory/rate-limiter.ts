import type { RateDecision, RateLimiter } from '../types.js';

/** Fixed windows aligned to the clock, so X-RateLimit-Reset is the same Unix second for every caller. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async hit(id: string, limit: number, windowSeconds: number): Promise<RateDecision> {
    const nowMs = this.now();
    const windowMs = windowSeconds * 1000;
    const start = Math.floor(nowMs / windowMs) * windowMs;
    this.sweep(start);
    let w = this.windows.get(id);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      this.windows.set(id, w);
    }
    const resetUnix = Math.ceil((start + windowMs) / 1000);
    if (w.count >= limit) return { allowed: false, limit, remaining: 0, resetUnix };
    w.count += 1;
    return { allowed: true, limit, remaining: limit - w.count, resetUnix };
  }

  /** Drops finished windows once per window so idle ids do not pile up. */
  private sweep(currentStart: number): void {
    if (currentStart === this.lastSweep) return;
    this.lastSweep = currentStart;
    for (const [k, w] of this.windows) if (w.start < currentStart) this.windows.delete(k);
  }
}
