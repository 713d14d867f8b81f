import type { InFlightLimiter } from '../types.js';

/** Counts calls running per id in this process. */
export class MemoryInFlight implements InFlightLimiter {
  private readonly running = new Map<string, number>();

  async acquire(id: string, max: number): Promise<(() => void) | null> {
    const n = this.running.get(id) ?? 0;
    if (n >= max) return null;
    this.running.set(id, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.running.get(id) ?? 1) - 1;
      if (left <= 0) this.running.delete(id);
      else this.running.set(id, left);
    };
  }
}
