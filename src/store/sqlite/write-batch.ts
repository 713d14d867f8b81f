import type { Database } from 'better-sqlite3';

interface Pending {
  run: () => unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/**
 * Group commit: writes queued within one short window run in one transaction, and each caller is answered only
 * after that transaction committed. Billing stays exact (every write is its own statement group, checked against
 * the row it changes) while a burst of paid calls costs one commit instead of one each. The window (1 ms) is the
 * latency a write pays for that; a full batch flushes at once.
 */
const WINDOW_MS = 1;
const MAX_BATCH = 256;

export class WriteBatch {
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly db: Database) {}

  submit<T>(run: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run, resolve: resolve as (v: unknown) => void, reject });
      if (this.queue.length >= MAX_BATCH) {
        if (this.timer) clearTimeout(this.timer);
        this.timer = undefined;
        setImmediate(() => this.flush());
      } else if (!this.timer) {
        this.timer = setTimeout(() => this.flush(), WINDOW_MS);
      }
    });
  }

  /** Runs everything queued now; used by the timer and on close. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    const results: unknown[] = [];
    try {
      this.db.transaction(() => {
        for (const p of batch) results.push(p.run());
      })();
    } catch {
      // One write failed and rolled the group back: retry each alone so only the faulty one fails.
      for (const p of batch) {
        try {
          p.resolve(this.db.transaction(p.run)());
        } catch (e) {
          p.reject(e);
        }
      }
      return;
    }
    batch.forEach((p, i) => p.resolve(results[i]));
  }
}
