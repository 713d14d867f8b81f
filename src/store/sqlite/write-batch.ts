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
  /** A gate's wait is running: writes queue until it ends. */
  private holding = false;

  /**
   * `onRollback`: a group was rolled back; what callers remembered of its writes must be forgotten. `gate`: a wait
   * the next group must sit out, if any (the checkpointer catching up with a long log).
   */
  constructor(
    private readonly db: Database,
    private readonly onRollback: () => void = () => {},
    private readonly gate: () => Promise<void> | undefined = () => undefined,
  ) {}

  submit<T>(run: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run, resolve: resolve as (v: unknown) => void, reject });
      if (this.queue.length >= MAX_BATCH) this.flush();
      else this.scheduled ??= setImmediate(() => this.flush());
    });
  }

  /** Runs everything queued: the scheduled flush, a full batch, and close (`force`: now, past any gate). */
  flush(force = false): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    if (!force) {
      if (this.holding) return; // the gate's wait ends in a flush
      const wait = this.queue.length ? this.gate() : undefined;
      if (wait) {
        this.holding = true;
        const resume = () => {
          this.holding = false;
          this.flush();
        };
        wait.then(resume, resume);
        return;
      }
    }
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
