import { SingleFlight } from '../../lib/single-flight.js';
import type { CachedResult, Coalescer } from '../types.js';

/** Coalesces identical misses inside this process. */
export class MemoryCoalescer implements Coalescer {
  private readonly flights = new SingleFlight<CachedResult>();

  run(key: string, _ttlSeconds: number, fetch: () => Promise<CachedResult>): Promise<CachedResult> {
    return this.flights.run(key, fetch).promise;
  }
}
