/**
 * WAL checkpoints off the event loop. A checkpoint copies the log into the database file and waits for the disk
 * (fsync); run inside a commit on the main thread it stalled every request behind it (seen in the bench as p99
 * jumps to ~800 ms with the server half idle). Here a worker thread with its own connection checkpoints passively,
 * which never blocks the writer, and the main connection's automatic checkpoints are switched off.
 *
 * SQLite rewinds the log only when a write begins after a checkpoint has copied all of it. Under steady group
 * commits a new write always comes first, and the log grew without bound (536 MB after 500,000 charges in one run).
 * So each checkpoint reports the log's length, and past `catchUpFrames` the writer holds its next group commit (not
 * the event loop) while the worker checkpoints once more; the write after that rewinds the log.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { SQLITE_DRIVER } from './driver.js';

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
const checkpoint = (mode, requested) => {
  try {
    const [r] = db.pragma('wal_checkpoint(' + mode + ')');
    parentPort.postMessage({ log: r.log, checkpointed: r.checkpointed, requested });
  } catch {
    parentPort.postMessage({ log: -1, checkpointed: -1, requested });
  }
};
const timer = setInterval(() => checkpoint('PASSIVE', false), workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'now') return checkpoint('PASSIVE', true);
  if (message !== 'stop') return;
  clearInterval(timer);
  checkpoint('PASSIVE', false);
  db.close();
  parentPort.postMessage('stopped');
});
`;

/** A catch-up that gets no answer (a stuck disk) stops holding the writer after this long. */
const CATCH_UP_TIMEOUT_MS = 2000;

export interface CheckpointerOptions {
  intervalMs?: number;
  /** Log length, in frames (pages), past which the writer waits for a checkpoint: 4,000 frames of 4 KB are 16 MB. */
  catchUpFrames?: number;
}

export interface Checkpointer {
  /**
   * A wait for the writer when the log has grown past its bound: resolves once the worker has checkpointed with no
   * write in between (or failed, or taken too long). Undefined when there is nothing to wait for.
   */
  catchUp(): Promise<void> | undefined;
  stop(): Promise<void>;
}

interface Report {
  log: number;
  checkpointed: number;
  requested: boolean;
}

export function startCheckpointer(file: string, options: CheckpointerOptions = {}): Checkpointer {
  const { intervalMs = 1000, catchUpFrames = 4000 } = options;
  const driver = createRequire(import.meta.url).resolve(SQLITE_DRIVER);
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file, intervalMs } });
  worker.unref();
  let logFrames = 0;
  let waiting: (() => void) | undefined;
  const release = () => {
    const done = waiting;
    waiting = undefined;
    done?.();
  };
  worker.on('message', (m: Report | string) => {
    if (typeof m !== 'object') return;
    // After a requested checkpoint the held write comes next: it rewinds the log if the checkpoint copied all of it,
    // and if not (a reader was in the way), the next periodic report says so again.
    if (m.requested) release();
    else logFrames = m.log;
  });
  worker.once('exit', release);
  let pending: Promise<void> | undefined;
  return {
    catchUp() {
      if (pending) return pending;
      if (logFrames <= catchUpFrames) return undefined;
      pending = new Promise<void>((resolve) => {
        const timer = setTimeout(release, CATCH_UP_TIMEOUT_MS);
        timer.unref();
        waiting = () => {
          clearTimeout(timer);
          logFrames = 0;
          pending = undefined;
          resolve();
        };
        worker.postMessage('now');
      });
      return pending;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          release();
          void worker.terminate();
          resolve();
        };
        worker.on('message', (m) => m === 'stopped' && done());
        worker.once('error', done);
        worker.once('exit', () => resolve());
        worker.postMessage('stop');
      }),
  };
}
