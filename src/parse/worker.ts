/**
 * The conversion worker: receives { id, bytes, maxPages }, answers { id, result } or { id, error: { kind, message } },
 * with `retire` set once it holds more parsed number formats than the pool allows, or more memory outside its heap
 * than half its allowance (the pool then replaces it, which frees that memory at once).
 *
 * While it converts, it publishes its external memory (ArrayBuffers and PDFium's WebAssembly heap included) in the
 * shared cell the pool watches, every few milliseconds that it is free to run timers and each time PDFium's heap
 * grows (PDFium runs without yielding); what a PDF's streams decode to is bounded on its own too
 * (`pdf/stream-budget.ts`), and PDFium's heap has a maximum (`pdf/pdfium.ts`).
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { convertFile } from './index.js';
import { numberFormatsCached } from './number-format.js';
import { observeHeapGrowth } from './pdf/pdfium.js';
import { ParseError } from './types.js';

// A rejection nothing awaits must not end this thread, since it would surface after the answer went out and fail
// the next file, someone else's. Each conversion awaits all it starts, so such a rejection carries nothing a
// result depends on.
process.on('unhandledRejection', () => {});

const data = (workerData ?? {}) as { formatCacheLimit?: number; maxDecodedBytes?: number; memory?: SharedArrayBuffer; externalLimitBytes?: number };
const formatCacheLimit = data.formatCacheLimit ?? Infinity;
const memory = data.memory ? new Float64Array(data.memory) : undefined;
const externalMemory = () => getHeapStatistics().external_memory;
const publish = () => {
  if (memory) memory[0] = externalMemory();
};
// PDFium is loaded by the first PDF (about 0.3 s), not at start: a worker's first files are often other formats,
// and a fresh worker busy loading it would make them wait (a replaced worker's queue ran past its budget so).
observeHeapGrowth(publish);

parentPort!.on('message', async (msg: { id: number; bytes: Uint8Array; maxPages: number }) => {
  const retire = () => numberFormatsCached() > formatCacheLimit || (data.externalLimitBytes !== undefined && externalMemory() > data.externalLimitBytes / 2);
  const watch = setInterval(publish, 10);
  publish();
  try {
    const result = await convertFile(msg.bytes, { maxPages: msg.maxPages, maxDecodedBytes: data.maxDecodedBytes });
    parentPort!.postMessage({ id: msg.id, result, retire: retire() });
  } catch (e) {
    const err = e instanceof ParseError ? { kind: e.kind, message: e.message } : { kind: 'corrupt', message: `The file could not be read (${(e as Error)?.message?.slice(0, 120)}).` };
    if (e instanceof RangeError) Object.assign(err, { kind: 'limit', message: 'The document exceeds the safety limits (nesting or size).' });
    parentPort!.postMessage({ id: msg.id, error: err, retire: retire() });
  } finally {
    clearInterval(watch);
  }
});
