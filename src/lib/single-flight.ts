/** Identical concurrent calls of one key share one promise (the in-process coalescing of cache misses). */
export class SingleFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  run(key: string, fetch: () => Promise<T>): { promise: Promise<T>; shared: boolean } {
    const existing = this.running.get(key);
    if (existing) return { promise: existing, shared: true };
    const promise = fetch().finally(() => this.running.delete(key));
    this.running.set(key, promise);
    return { promise, shared: false };
  }
}
