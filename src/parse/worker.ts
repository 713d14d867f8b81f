/** The conversion worker: receives { id, bytes, maxPages }, answers { id, result } or { id, error: { kind, message } }. */
import { parentPort } from 'node:worker_threads';
import { convertFile } from './index.js';
import { installInertFontFace } from './pdf/font-face.js';
import { installSyncInflate } from './pdf/inflate.js';
import { ParseError } from './types.js';

installSyncInflate();
installInertFontFace();

parentPort!.on('message', async (msg: { id: number; bytes: Uint8Array; maxPages: number }) => {
  try {
    const result = await convertFile(msg.bytes, { maxPages: msg.maxPages });
    parentPort!.postMessage({ id: msg.id, result });
  } catch (e) {
    const err = e instanceof ParseError ? { kind: e.kind, message: e.message } : { kind: 'corrupt', message: `The file could not be read (${(e as Error)?.message?.slice(0, 120)}).` };
    if (e instanceof RangeError) Object.assign(err, { kind: 'limit', message: 'The document exceeds the safety limits (nesting or size).' });
    parentPort!.postMessage({ id: msg.id, error: err });
  }
});
