/**
 * WAL checkpoints off the event loop. A checkpoint copies the log into the database file and waits for the disk
 * (fsync); run inside a commit on the main thread it stalled every request behind it (seen in the bench as p99
 * jumps to ~800 ms with the server half idle). Here a worker thread with its own connection checkpoints passively,
 * which never blocks the writer, and the main connection's automatic checkpoints are switched off.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
const checkpoint = (mode) => { try { db.pragma('wal_checkpoint(' + mode + ')'); } catch {} };
const timer = setInterval(() => checkpoint('PASSIVE'), workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  checkpoint('PASSIVE');
  db.close();
  parentPort.postMessage('stopped');
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(file: string, intervalMs = 1000): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file, intervalMs } });
  worker.unref();
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          void worker.terminate();
          resolve();
        };
        worker.once('message', done);
        worker.once('error', done);
        worker.once('exit', () => resolve());
        worker.postMessage('stop');
      }),
  };
}
