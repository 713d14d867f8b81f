/**
 * The conversion worker: receives { id, bytes, maxPages }, answers { id, result } or { id, error: { kind, message } },
 * with `retire` set once it holds more parsed number formats than the pool allows (the pool then replaces it).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { convertFile } from './index.js';
import { numberFormatsCached } from './number-format.js';
import { installInertFontFace } from './pdf/font-face.js';
import { installSyncInflate } from './pdf/inflate.js';
import { ParseError } from './types.js';

installSyncInflate();
installInertFontFace();

// Beyond the pdf.js errors dropped while a PDF is read (`pdf/stray-rejections.ts`): a rejection nothing awaits
// must not end this thread, since it would surface after the answer went out and fail the next file, someone
// else's. Each conversion awaits all it starts, so such a rejection carries nothing a result depends on.
process.on('unhandledRejection', () => {});

const formatCacheLimit = (workerData as { formatCacheLimit?: number } | null)?.formatCacheLimit ?? Infinity;

parentPort!.on('message', async (msg: { id: number; bytes: Uint8Array; maxPages: number }) => {
  const retire = () => numberFormatsCached() > formatCacheLimit;
  try {
    const result = await convertFile(msg.bytes, { maxPages: msg.maxPages });
    parentPort!.postMessage({ id: msg.id, result, retire: retire() });
  } catch (e) {
    const err = e instanceof ParseError ? { kind: e.kind, message: e.message } : { kind: 'corrupt', message: `The file could not be read (${(e as Error)?.message?.slice(0, 120)}).` };
    if (e instanceof RangeError) Object.assign(err, { kind: 'limit', message: 'The document exceeds the safety limits (nesting or size).' });
    parentPort!.postMessage({ id: msg.id, error: err, retire: retire() });
  }
});
