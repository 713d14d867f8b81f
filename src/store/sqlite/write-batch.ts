import type { Database } from 'better-sqlite3';

interface Pending {
  run: () => unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/**
 * Group commit: writes queued in the same event-loop turn run in one transaction (flushed by setImmediate, after
 * the turn's I/O), and each caller is answered only after that transaction committed. Billing stays exact (every
 * write is its own statement group, checked against the row it changes) while a burst of paid calls costs one
 * commit instead of one each. Measured against a 1 ms timer window: 33 against 43 µs of CPU per paid call at 50
 * concurrent calls, and 0.14 against 1.4 ms for a lone call, so no added wait.
 */
const MAX_BATCH = 256;

export class WriteBatch {
  private queue: Pending[] = [];
  private scheduled: NodeJS.Immediate | undefined;

  /** `onRollback`: a group was rolled back; what callers remembered of its writes must be forgotten. */
  constructor(
    private readonly db: Database,
    private readonly onRollback: () => void = () => {},
  ) {}

  submit<T>(run: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run, resolve: resolve as (v: unknown) => void, reject });
      if (this.queue.length >= MAX_BATCH) this.flush();
      else this.scheduled ??= setImmediate(() => this.flush());
    });
  }

  /** Runs everything queued now: the scheduled flush, a full batch, and close. */
  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
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
      this.onRollback();
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
