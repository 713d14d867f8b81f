/**
 * A warm pool of conversion workers, each a process of its own (`worker.ts` says why not a thread). Each worker has
 * a heap cap (`--max-old-space-size`) and each file a wall-clock budget; a worker that overruns, runs out of memory
 * or crashes is killed and replaced, and the caller gets a ParseError. Memory outside the heap (ArrayBuffers: decoded
 * streams, inflated parts, PDFium's heap), which the heap cap does not see, is bounded too: a worker past
 * `externalMemoryMb` stops itself, and its file is answered the same way. The event loop only moves bytes. Files waiting for a worker are bounded by their bytes
 * (`maxQueueMb`) and by the wait they can expect (the conversion time queued ahead of them, learnt from the files
 * converted so far, against their own conversion budget), not by a count: two hundred small pages wait a second or
 * two, while a few large PDFs fill the queue. Past either bound a call fails at once with the retryable
 * `tooManyInFlight` (429) instead of piling up memory and latency. A count (`maxQueue`) can still be set.
 *
 * Two tiers: files of paying callers (`paid`) and free ones (`free`: keyless and test-mode calls, see
 * `withConversionTier`). Free files get fewer workers at once (`freeSlots`, default half the pool, at least one), a
 * shorter budget (`freeTimeoutMs`, default half) and a queue of their own, half as long (half the bytes, and a wait
 * bounded by their shorter budget); a waiting paid file is always handed the next free worker before any waiting
 * free file, so free traffic cannot queue paid files out.
 *
 * Starts `dist/parse/worker.js` when it exists next to this file (built runs), else the TypeScript source through
 * tsx (tests, `tsx` scripts).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism, setPriority } from 'node:os';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { QuarryError } from '../errors.js';
import { ParseError, type ParseResult } from './types.js';
import { EXIT_OUT_OF_MEMORY, type ConvertAnswer, type ConvertRequest, type WorkerSettings } from './worker-protocol.js';
import type { ParseSettings } from '../config.js';

export interface PoolOptions {
  size?: number;
  memoryMb?: number;
  timeoutMs?: number;
  /** Files that may wait for a free worker (default: no count; the bytes and the expected wait bound the queue). */
  maxQueue?: number;
  /** Bytes of paid files that may wait, in MB (default 64); free files get half. */
  maxQueueMb?: number;
  /**
   * Distinct number format codes a worker may hold parsed (the formatter keeps each for the thread's life, see
   * `number-format.ts`) before it is replaced by a fresh one after its file (default 20,000, about 100 MB at most).
   */
  formatCacheLimit?: number;
  /** Memory outside the heap (ArrayBuffers and other external memory) one worker may hold, in MB (default 256). */
  externalMemoryMb?: number;
  /** Bytes a PDF's streams may decode to in all, in MB (default 128, see `pdf/stream-budget.ts`). */
  maxDecodedMb?: number;
  /** Workers free files may hold at once (default half the pool, at least one). */
  freeSlots?: number;
  /** Wall-clock budget of a free file (default half of `timeoutMs`). */
  freeTimeoutMs?: number;
  /** The tier of a conversion started outside `withConversionTier` (default paid; the server's shared pool: free). */
  defaultTier?: ConversionTier;
}

/** Who a conversion is for: a paying caller, or a free one (keyless, or a test-mode key). */
export type ConversionTier = 'paid' | 'free';

let callerTier: ConversionTier | undefined;

/**
 * Runs `fn` with the conversions it starts queued as `tier`: the pipeline calls each operation this way, so a
 * source converting a document needs to know nothing of who asked. Only conversions started before `fn`'s first
 * `await` see the tier (web.parse starts its conversion at once); no AsyncLocalStorage, whose promise hooks cost
 * every request of the process on Node 20. A conversion outside any tier gets the pool's `defaultTier`.
 */
export function withConversionTier<T>(tier: ConversionTier, fn: () => T): T {
  const outer = callerTier;
  callerTier = tier;
  try {
    return fn();
  } finally {
    callerTier = outer;
  }
}

interface Job {
  id: number;
  bytes: Uint8Array;
  maxPages: number;
  tier: ConversionTier;
  resolve(r: ParseResult): void;
  reject(e: Error): void;
}

interface Slot {
  worker: ChildProcess;
  /** The end of what the worker wrote to stderr (V8 names a heap out of memory there before it aborts). */
  stderr: string;
  dead?: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
  startedAt?: number;
}

/** A file's expected conversion cost is counted in units of one file plus one per 64 KB of it. */
const UNIT_BYTES = 64 * 1024;
const units = (bytes: number) => 1 + bytes / UNIT_BYTES;

/** Built JS when it exists; else the TypeScript source, with tsx's loader. */
function workerEntry(): { entry: string; execArgv: string[] } {
  const js = fileURLToPath(new URL('./worker.js', import.meta.url));
  if (existsSync(js)) return { entry: js, execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json').replace(/package\.json$/, 'dist/loader.mjs')).href;
  return { entry: fileURLToPath(new URL('./worker.ts', import.meta.url)), execArgv: ['--import', tsx] };
}

/** The niceness of a worker process (0 is the server's; 19 the lowest priority). */
export const WORKER_NICENESS = 10;

/** What a worker keeps of its stderr: enough for V8's last words. */
const STDERR_TAIL = 4096;

export class ParsePool {
  private readonly slots: Slot[] = [];
  /** Waiting files, by tier: paid ones are always served first. */
  private readonly queues: Record<ConversionTier, Job[]> = { paid: [], free: [] };
  private nextId = 1;
  private closed = false;
  readonly size: number;
  readonly memoryMb: number;
  readonly timeoutMs: number;
  readonly maxQueue: number;
  readonly formatCacheLimit: number;
  readonly externalMemoryMb: number;
  readonly maxDecodedMb: number;
  readonly freeSlots: number;
  readonly freeTimeoutMs: number;
  readonly freeMaxQueue: number;
  /** Bytes that may wait, per tier. */
  readonly maxQueueBytes: Record<ConversionTier, number>;
  readonly defaultTier: ConversionTier;
  private readonly queuedBytes: Record<ConversionTier, number> = { paid: 0, free: 0 };
  /** Milliseconds a unit of conversion took lately (moving average; a small HTML page is about one unit). */
  private msPerUnit = 25;
  /** Workers replaced after an overrun or crash (for tests and logs). */
  replaced = 0;
  /** Workers replaced, their file answered, because they held too much (`formatCacheLimit`, or half their external memory). */
  retired = 0;

  constructor(o: PoolOptions = {}) {
    this.size = o.size ?? Math.max(1, Math.min(4, availableParallelism() - 1));
    this.memoryMb = o.memoryMb ?? 512;
    this.timeoutMs = o.timeoutMs ?? 20_000;
    this.maxQueue = o.maxQueue ?? Infinity;
    this.formatCacheLimit = o.formatCacheLimit ?? 20_000;
    this.externalMemoryMb = o.externalMemoryMb ?? 256;
    this.maxDecodedMb = o.maxDecodedMb ?? 128;
    this.freeSlots = Math.min(this.size, o.freeSlots ?? Math.max(1, Math.floor(this.size / 2)));
    this.freeTimeoutMs = Math.min(this.timeoutMs, o.freeTimeoutMs ?? Math.round(this.timeoutMs / 2));
    this.freeMaxQueue = Math.max(1, Math.floor(this.maxQueue / 2));
    const queueBytes = (o.maxQueueMb ?? 64) * 1024 * 1024;
    this.maxQueueBytes = { paid: queueBytes, free: Math.floor(queueBytes / 2) };
    this.defaultTier = o.defaultTier ?? 'paid';
    for (let i = 0; i < this.size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const { entry, execArgv } = workerEntry();
    const settings: WorkerSettings = {
      formatCacheLimit: this.formatCacheLimit,
      maxDecodedBytes: this.maxDecodedMb * 1024 * 1024,
      externalLimitBytes: this.externalMemoryMb * 1024 * 1024,
    };
    // A V8 stack of about 4 MB (the default is under 1 MB), half the 8 MB a process's main thread gets by default:
    // the parsers bound nesting themselves, this keeps the margin the 8 MB threads this replaced had.
    const worker = fork(entry, [JSON.stringify(settings)], {
      execArgv: [...execArgv, `--max-old-space-size=${this.memoryMb}`, '--max-semi-space-size=16', '--stack-size=4000'],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const slot: Slot = { worker, stderr: '' };
    // Conversions yield the CPU to the server's event loop: where both want a core, requests go first.
    if (worker.pid !== undefined) {
      try {
        setPriority(worker.pid, WORKER_NICENESS);
      } catch {
        // Not permitted here: the worker runs at the server's priority.
      }
    }
    // Workers never keep the process alive: the budget timer does while a file is converting.
    worker.unref();
    worker.channel?.unref();
    worker.stderr?.setEncoding('utf8');
    worker.stderr?.on('data', (chunk: string) => (slot.stderr = (slot.stderr + chunk).slice(-STDERR_TAIL)));
    (worker.stderr as { unref?: () => void } | null)?.unref?.();
    worker.on('message', (msg: ConvertAnswer) => {
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      this.learn(slot, job);
      this.finish(slot);
      if (msg.error) job.reject(new ParseError(msg.error.kind, msg.error.message));
      else job.resolve(msg.result!);
      if (msg.retire) this.replace(slot, false, true);
      this.pump();
    });
    const onDeath = (outOfMemory: boolean) => {
      if (slot.dead) return;
      const job = slot.job;
      this.finish(slot);
      this.replace(slot, !job);
      if (job) job.reject(new ParseError('limit', outOfMemory ? OUT_OF_MEMORY : 'The converter stopped on this file; it may be corrupt.'));
      this.pump();
    };
    worker.on('error', () => onDeath(false));
    // 'close', not 'exit': by then stderr has been read to its end.
    worker.on('close', (code) => onDeath(code === EXIT_OUT_OF_MEMORY || /heap out of memory|Allocation failed/i.test(slot.stderr)));
    return slot;
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
    slot.startedAt = undefined;
  }

  private replace(slot: Slot, idle = false, retiring = false): void {
    slot.dead = true;
    slot.worker.kill('SIGKILL');
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

  /** `tier` defaults to the caller's (`withConversionTier`), else the pool's `defaultTier`. */
  convert(bytes: Uint8Array, maxPages: number, tier: ConversionTier = callerTier ?? this.defaultTier): Promise<ParseResult> {
    if (this.closed) return Promise.reject(new ParseError('timeout', 'The converter is shutting down.'));
    const queue = this.queues[tier];
    if (!this.canStart(tier)) {
      const busy = this.refusal(tier, bytes.length);
      if (busy) return Promise.reject(busy);
    }
    return new Promise((resolve, reject) => {
      queue.push({ id: this.nextId++, bytes, maxPages, tier, resolve, reject });
      this.queuedBytes[tier] += bytes.length;
      this.pump();
    });
  }

  /** Why a file of `size` bytes may not wait in `tier`'s queue (its bytes, its expected wait, or a set count), if so. */
  private refusal(tier: ConversionTier, size: number): QuarryError | undefined {
    const queue = this.queues[tier];
    const workers = `${this.size} worker${this.size === 1 ? '' : 's'}`;
    const busy = (why: string, retryAfterSeconds = 1) =>
      new QuarryError('tooManyInFlight', `The document converter is busy (${why}); retry shortly.`, { retryAfterSeconds });
    if (queue.length >= (tier === 'paid' ? this.maxQueue : this.freeMaxQueue)) return busy(`${queue.length} files waiting for ${workers}`);
    if (queue.length && this.queuedBytes[tier] + size > this.maxQueueBytes[tier]) {
      return busy(`${(this.queuedBytes[tier] / 1048576).toFixed(1)} MB of files waiting for ${workers}`);
    }
    const budgetMs = tier === 'paid' ? this.timeoutMs : this.freeTimeoutMs;
    const waitMs = this.expectedWaitMs(tier);
    if (queue.length && waitMs > budgetMs) {
      return busy(`about ${Math.ceil(waitMs / 1000)} s of conversions waiting for ${workers}`, Math.min(60, Math.max(1, Math.ceil((waitMs - budgetMs) / 1000))));
    }
    return undefined;
  }

  /**
   * How long a file queued now in `tier` would wait for a worker: what the running files have left and the paid
   * files waiting (all workers take those first), then for a free file the free files ahead of it on the free slots.
   */
  expectedWaitMs(tier: ConversionTier): number {
    const now = Date.now();
    let ahead = 0;
    for (const slot of this.slots) if (slot.job) ahead += Math.max(0, this.estimateMs(slot.job) - (now - (slot.startedAt ?? now)));
    for (const job of this.queues.paid) ahead += this.estimateMs(job);
    let wait = ahead / this.size;
    if (tier === 'free') for (const job of this.queues.free) wait += this.estimateMs(job) / this.freeSlots;
    return wait;
  }

  private estimateMs(job: Job): number {
    return units(job.bytes.length) * this.msPerUnit;
  }

  /** A finished conversion teaches the estimate (moving average over about the last ten files). */
  private learn(slot: Slot, job: Job): void {
    if (slot.startedAt === undefined) return;
    const perUnit = (Date.now() - slot.startedAt) / units(job.bytes.length);
    this.msPerUnit += (perUnit - this.msPerUnit) * 0.1;
  }

  /** Files of each tier converting now. */
  running(): Record<ConversionTier, number> {
    const n = { paid: 0, free: 0 };
    for (const slot of this.slots) if (slot.job) n[slot.job.tier]++;
    return n;
  }

  private idleSlot(): Slot | undefined {
    return this.slots.find((slot) => !slot.job && !slot.dead);
  }

  private canStart(tier: ConversionTier): boolean {
    return this.idleSlot() !== undefined && (tier === 'paid' || this.running().free < this.freeSlots);
  }

  /** The next file to start: any waiting paid file first, then a free one while free files hold fewer than their slots. */
  private nextJob(): Job | undefined {
    if (this.queues.paid.length) return this.queues.paid.shift();
    if (this.queues.free.length && this.running().free < this.freeSlots) return this.queues.free.shift();
    return undefined;
  }

  private pump(): void {
    for (let slot = this.idleSlot(); slot; slot = this.idleSlot()) {
      const job = this.nextJob();
      if (!job) return;
      this.start(slot, job);
    }
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.startedAt = Date.now();
    this.queuedBytes[job.tier] -= job.bytes.length;
    const budgetMs = job.tier === 'paid' ? this.timeoutMs : this.freeTimeoutMs;
    slot.timer = setTimeout(() => {
      this.finish(slot);
      this.replace(slot);
      job.reject(new ParseError('timeout', `The file took longer than the ${budgetMs >= 1000 ? `${Math.round(budgetMs / 1000)} s` : `${budgetMs} ms`} conversion budget.`));
      this.pump();
    }, budgetMs);
    const request: ConvertRequest = { id: job.id, bytes: job.bytes, maxPages: job.maxPages };
    // A worker that died meanwhile is seen by its 'close' handler, which answers the file.
    slot.worker.send(request, (err) => void err);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const q of Object.values(this.queues)) for (const j of q.splice(0)) j.reject(new ParseError('timeout', 'The converter is shutting down.'));
    this.queuedBytes.paid = this.queuedBytes.free = 0;
    await Promise.all(
      this.slots.map((slot) => {
        slot.dead = true;
        const w = slot.worker;
        if (w.exitCode !== null || w.signalCode !== null) return undefined;
        return new Promise<void>((resolve) => {
          w.once('exit', () => resolve());
          // Held by the loop until it has exited: an unreferenced worker's exit could come after the loop emptied,
          // leaving this promise (a script's top-level await, say) unsettled.
          w.ref();
          w.kill('SIGKILL');
        });
      }),
    );
  }
}

const OUT_OF_MEMORY = 'The file needs more memory than the safety limit allows.';

let shared: ParsePool | undefined;
let sharedSettings: ParseSettings = {};

/**
 * The pool's settings from the configuration (src/config.ts: QUARRY_PARSE_WORKERS, _MEMORY_MB, _TIMEOUT_MS, _QUEUE,
 * _QUEUE_MB), given by the composition root at start-up; a pool already started keeps the settings it started with.
 */
export function configureSharedPool(settings: ParseSettings): void {
  sharedSettings = settings;
}

/**
 * The process-wide pool, started on first use with the configured settings (each unset one the pool's default). A
 * conversion whose caller's tier did not reach it counts as free: a mistake there costs a paying caller a shorter
 * budget, never a keyless one a paid slot.
 */
export function sharedPool(): ParsePool {
  const s = sharedSettings;
  shared ??= new ParsePool({
    size: s.workers,
    memoryMb: s.memoryMb,
    timeoutMs: s.timeoutMs,
    maxQueue: s.queue,
    maxQueueMb: s.queueMb,
    defaultTier: 'free',
  });
  return shared;
}
