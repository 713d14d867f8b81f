/**
 * A conversion worker: a process of its own, started by the pool (`pool.ts`) with its heap capped
 * (`--max-old-space-size`). It receives `ConvertRequest`s and answers each with a `ConvertAnswer`, with `retire` set
 * once it holds more parsed number formats than the pool allows, or more memory outside its heap than half its
 * allowance (the pool then replaces it, which frees that memory at once).
 *
 * A process, not a thread: a thread that fails one allocation larger than the margin Node gives it to stop takes
 * the whole process down with it (nodejs/node#47224), which on Node.js 24 a document of a few MB reaches in a few
 * tries. Here the worker alone ends, and the pool answers its file with 400.
 *
 * Memory outside the heap (ArrayBuffers, PDFium's WebAssembly heap), which the heap cap does not see, is checked
 * every few milliseconds that the worker is free to run timers and each time PDFium's heap grows (PDFium runs
 * without yielding); past the allowance the worker exits with `EXIT_OUT_OF_MEMORY`. What a PDF's streams decode to
 * is bounded on its own too (`pdf/stream-budget.ts`), and PDFium's heap has a maximum (`pdf/pdfium.ts`).
 */
import { getHeapStatistics } from 'node:v8';
import { convertFile } from './index.js';
import { numberFormatsCached } from './number-format.js';
import { observeHeapGrowth } from './pdf/pdfium.js';
import { ParseError } from './types.js';
import { EXIT_OUT_OF_MEMORY, type ConvertAnswer, type ConvertRequest, type WorkerSettings } from './worker-protocol.js';

// A rejection nothing awaits must not end this worker, since it would surface after the answer went out and fail
// the next file, someone else's. Each conversion awaits all it starts, so such a rejection carries nothing a
// result depends on.
process.on('unhandledRejection', () => {});
// The pool is gone (its process ended or killed this one's channel): nothing will ask again.
process.on('disconnect', () => process.exit(0));

const settings = JSON.parse(process.argv[2] ?? '{}') as Partial<WorkerSettings>;
const formatCacheLimit = settings.formatCacheLimit ?? Infinity;
const externalLimit = settings.externalLimitBytes ?? Infinity;
const externalMemory = () => getHeapStatistics().external_memory;
const guard = () => {
  if (externalMemory() > externalLimit) process.exit(EXIT_OUT_OF_MEMORY);
};
// PDFium is loaded by the first PDF (about 0.3 s), not at start: a worker's first files are often other formats,
// and a fresh worker busy loading it would make them wait (a replaced worker's queue ran past its budget so).
observeHeapGrowth(guard);

const answer = (a: ConvertAnswer) => process.send!(a);

process.on('message', async (msg: ConvertRequest) => {
  const retire = () => numberFormatsCached() > formatCacheLimit || externalMemory() > externalLimit / 2;
  const watch = setInterval(guard, 10);
  try {
    const result = await convertFile(msg.bytes, { maxPages: msg.maxPages, maxDecodedBytes: settings.maxDecodedBytes });
    answer({ id: msg.id, result, retire: retire() });
  } catch (e) {
    const err = e instanceof ParseError ? { kind: e.kind, message: e.message } : { kind: 'corrupt' as const, message: `The file could not be read (${(e as Error)?.message?.slice(0, 120)}).` };
    if (e instanceof RangeError) Object.assign(err, { kind: 'limit', message: 'The document exceeds the safety limits (nesting or size).' });
    answer({ id: msg.id, error: err, retire: retire() });
  } finally {
    clearInterval(watch);
  }
});
