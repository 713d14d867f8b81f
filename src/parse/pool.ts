/**
 * A warm pool of conversion workers. Each worker has a heap cap (`resourceLimits`) and each file a wall-clock
 * budget; a worker that overruns, runs out of memory or crashes is terminated and replaced, and the caller gets a
 * ParseError. The event loop only moves bytes. Files waiting for a worker are capped (`maxQueue`): past it a call fails
 * at once with the retryable `tooManyInFlight` (429, retry after a second) instead of piling up memory and latency. Loads `dist/parse/worker.js` when it exists next to this file (built
 * runs), else the TypeScript source through tsx (tests, `tsx` scripts).
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { QuarryError } from '../errors.js';
import { ParseError, type ParseErrorKind, type ParseResult } from './types.js';

export interface PoolOptions {
  size?: number;
  memoryMb?: number;
  timeoutMs?: number;
  /** Files that may wait for a free worker (default 8 per worker). */
  maxQueue?: number;
  /**
   * Distinct number format codes a worker may hold parsed (the formatter keeps each for the thread's life, see
   * `number-format.ts`) before it is replaced by a fresh one after its file (default 20,000, about 100 MB at most).
   */
  formatCacheLimit?: number;
}

interface Job {
  id: number;
  bytes: Uint8Array;
  maxPages: number;
  resolve(r: ParseResult): void;
  reject(e: Error): void;
}

interface Slot {
  worker: Worker;
  job?: Job;
  timer?: NodeJS.Timeout;
}

/**
 * Built JS when it exists; else the TypeScript source, loaded after registering tsx's loader inside the worker
 * (on Node 20, `execArgv: ['--import', 'tsx']` registers its hooks too late for the worker's own entry).
 */
function workerEntry(): { entry: string | URL; eval: boolean } {
  const js = new URL('./worker.js', import.meta.url);
  if (existsSync(fileURLToPath(js))) return { entry: js, eval: false };
  const api = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/index\.cjs$/, 'index.mjs')).href;
  const ts = new URL('./worker.ts', import.meta.url).href;
  return { entry: `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(ts)}); });`, eval: true };
}

export class ParsePool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  readonly size: number;
  readonly memoryMb: number;
  readonly timeoutMs: number;
  readonly maxQueue: number;
  readonly formatCacheLimit: number;
  /** Workers replaced after an overrun or crash (for tests and logs). */
  replaced = 0;
  /** Workers replaced, their file answered, because they held too much (see `formatCacheLimit`). */
  retired = 0;

  constructor(o: PoolOptions = {}) {
    this.size = o.size ?? Math.max(1, Math.min(4, availableParallelism() - 1));
    this.memoryMb = o.memoryMb ?? 512;
    this.timeoutMs = o.timeoutMs ?? 20_000;
    this.maxQueue = o.maxQueue ?? this.size * 8;
    this.formatCacheLimit = o.formatCacheLimit ?? 20_000;
    for (let i = 0; i < this.size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const { entry, eval: isEval } = workerEntry();
    const worker = new Worker(entry, {
      eval: isEval,
      workerData: { formatCacheLimit: this.formatCacheLimit },
      resourceLimits: { maxOldGenerationSizeMb: this.memoryMb, maxYoungGenerationSizeMb: 64, stackSizeMb: 8 },
    });
    worker.unref();
    const slot: Slot = { worker };
    worker.on('message', (msg: { id: number; result?: ParseResult; error?: { kind: ParseErrorKind; message: string }; retire?: boolean }) => {
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      this.finish(slot);
      if (msg.error) job.reject(new ParseError(msg.error.kind, msg.error.message));
      else job.resolve(msg.result!);
      if (msg.retire) this.replace(slot, false, true);
      this.pump();
    });
    const onDeath = (err?: Error) => {
      if ((slot as { dead?: boolean }).dead) return;
      const job = slot.job;
      this.finish(slot);
      this.replace(slot, !job);
      if (job) {
        const oom = err && /memory|ERR_WORKER_OUT_OF_MEMORY/i.test(`${err.message} ${(err as { code?: string }).code ?? ''}`);
        job.reject(new ParseError('limit', oom ? 'The file needs more memory than the safety limit allows.' : 'The converter stopped on this file; it may be corrupt.'));
      }
      this.pump();
    };
    worker.on('error', onDeath);
    worker.on('exit', (code) => {
      if (!(slot as { dead?: boolean }).dead) onDeath(code ? new Error(`exit ${code}`) : undefined);
    });
    return slot;
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
  }

  private replace(slot: Slot, idle = false, retiring = false): void {
    (slot as { dead?: boolean }).dead = true;
    void slot.worker.terminate();
    if (this.closed) return;
    const respawn = () => {
      const i = this.slots.indexOf(slot);
      if (i < 0 || this.closed) return;
      if (retiring) this.retired++;
      else this.replaced++;
      this.slots[i] = this.spawn();
      this.pump();
    };
    // A worker that died with no file in hand (e.g. it cannot even start) is respawned after a pause, never in a loop.
    if (idle) setTimeout(respawn, 1000).unref();
    else respawn();
  }

  convert(bytes: Uint8Array, maxPages: number): Promise<ParseResult> {
    if (this.closed) return Promise.reject(new ParseError('timeout', 'The converter is shutting down.'));
    const idle = this.slots.some((slot) => !slot.job && !(slot as { dead?: boolean }).dead);
    if (!idle && this.queue.length >= this.maxQueue) {
      return Promise.reject(
        new QuarryError('tooManyInFlight', `The document converter is busy (${this.queue.length} files waiting for ${this.size} worker${this.size === 1 ? '' : 's'}); retry shortly.`, { retryAfterSeconds: 1 }),
      );
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, bytes, maxPages, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (!this.queue.length) return;
      if (slot.job || (slot as { dead?: boolean }).dead) continue;
      const job = this.queue.shift()!;
      slot.job = job;
      slot.timer = setTimeout(() => {
        this.finish(slot);
        this.replace(slot);
        job.reject(new ParseError('timeout', `The file took longer than the ${Math.round(this.timeoutMs / 1000)} s conversion budget.`));
        this.pump();
      }, this.timeoutMs);
      // Workers stay unref'd: the budget timer keeps the process alive while a file is converting.
      slot.worker.postMessage({ id: job.id, bytes: job.bytes, maxPages: job.maxPages });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const j of this.queue.splice(0)) j.reject(new ParseError('timeout', 'The converter is shutting down.'));
    await Promise.all(this.slots.map((s) => ((s as { dead?: boolean }).dead = true, s.worker.terminate())));
  }
}

let shared: ParsePool | undefined;

/** The process-wide pool, started on first use. Settings: QUARRY_PARSE_WORKERS, _MEMORY_MB, _TIMEOUT_MS, _QUEUE. */
export function sharedPool(): ParsePool {
  shared ??= new ParsePool({
    size: num(process.env.QUARRY_PARSE_WORKERS),
    memoryMb: num(process.env.QUARRY_PARSE_MEMORY_MB),
    timeoutMs: num(process.env.QUARRY_PARSE_TIMEOUT_MS),
    maxQueue: num(process.env.QUARRY_PARSE_QUEUE),
  });
  return shared;
}

function num(v: string | undefined): number | undefined {
  const n = Number(v);
  return v && Number.isFinite(n) && n > 0 ? n : undefined;
}
