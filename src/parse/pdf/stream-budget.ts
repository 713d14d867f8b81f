/**
 * One budget of decoded bytes per PDF, checked before the engine opens it.
 *
 * A Flate stream of a few hundred kilobytes can inflate to gigabytes. PDFium inflates inside its WebAssembly heap,
 * whose maximum (`pdfium.ts`) bounds the memory but not the time spent inflating up to it, nor the total over many
 * streams each under it; and nothing inside PDFium can be charged from outside. So the file's own streams are
 * inflated first, with native zlib, each capped, through as many Flate layers as they hold, and charged to the
 * document's budget. Image streams are not charged: text extraction never decodes them (a blank scanned page
 * compresses a thousand times over, legitimately). A document past its budget is refused at once, in milliseconds
 * (a bomb behind a first stretch of ordinary data included); an ordinary one costs one native inflate of its text,
 * font and metadata streams (about 2 ms for the corpus's 43 pages).
 *
 * The budget: 100 times the file, at least 32 MB, at most 128 MB (or the pool's `maxDecodedBytes`), and 64 MB for
 * one stream.
 */
import { constants, inflateSync } from 'node:zlib';
import { ParseError } from '../types.js';

/** Largest output of one stream (a page's content stream is rarely above a few MB). */
export const MAX_STREAM_BYTES = 64 * 1024 * 1024;
/** Decoded bytes one document may produce at most, counted over all its streams (default; the pool passes its own). */
export const DEFAULT_MAX_DECODED_BYTES = 128 * 1024 * 1024;
/** Every document may decode this much, however small the file. */
export const MIN_DECODED_BYTES = 32 * 1024 * 1024;
/** Beyond the floor, a document decodes at most this many times its own size. */
export const DECODED_PER_FILE_BYTE = 100;

/** The budget of a file of `fileBytes` under a ceiling of `maxBytes`. */
export function decodeBudgetFor(fileBytes: number, maxBytes = DEFAULT_MAX_DECODED_BYTES): number {
  return Math.min(maxBytes, Math.max(MIN_DECODED_BYTES, fileBytes * DECODED_PER_FILE_BYTE));
}

const STREAM = Buffer.from('stream', 'latin1');
const IMAGE = /\/Subtype\s*\/Image\b/;

/** What `data` (zlib) inflates to, at most `cap` bytes; undefined when it is no zlib data at all. */
function inflated(data: Uint8Array, cap: number): { bytes: Buffer; capped: boolean } | undefined {
  try {
    // A sync flush reads what the data holds without demanding its end (a prefix, a truncated stream).
    return { bytes: inflateSync(data, { maxOutputLength: Math.max(1, cap), finishFlush: constants.Z_SYNC_FLUSH }), capped: false };
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return { bytes: Buffer.alloc(0), capped: true };
    return undefined;
  }
}

const zlibHeader = (b: Uint8Array, at = 0) => b.length >= at + 2 && b[at] === 0x78 && ((b[at]! << 8) | b[at + 1]!) % 31 === 0;

/**
 * Throws a 'limit' ParseError when the file's streams inflate past `limit` bytes in all (or one past 64 MB).
 * Streams are found by their `stream` keyword and their data's zlib header; a stream's end is its `endstream`
 * (or the next `stream`, whichever comes first).
 */
export function checkStreamBudget(bytes: Uint8Array, limit: number): void {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let used = 0;
  const refuse = () => new ParseError('limit', `The PDF exceeds the safety limits: its compressed streams inflate to more than ${Math.round(limit / (1024 * 1024))} MB.`);
  /** Charges the whole of `data` (zlib), and of what it holds, layer by layer. */
  const charge = (data: Uint8Array, depth: number): void => {
    const out = inflated(data, Math.min(MAX_STREAM_BYTES, limit - used));
    if (!out) return;
    if (out.capped) throw refuse();
    used += out.bytes.length;
    if (used > limit) throw refuse();
    if (depth < 4 && zlibHeader(out.bytes)) charge(out.bytes, depth + 1);
  };
  let at = 0;
  for (let n = 0; n < 200_000; n++) {
    const k = file.indexOf(STREAM, at);
    if (k < 0) break;
    at = k + STREAM.length;
    // "endstream" is no stream's start.
    if (k >= 3 && file.toString('latin1', k - 3, k) === 'end') continue;
    let start = at;
    if (file[start] === 0x0d) start++;
    if (file[start] === 0x0a) start++;
    if (!zlibHeader(file, start)) continue;
    const endAt = file.indexOf('endstream', start, 'latin1');
    const stop = endAt < 0 ? file.length : endAt;
    // An image is never decoded for text.
    const dict = file.toString('latin1', Math.max(0, k - 1024), k);
    if (IMAGE.test(dict.slice(dict.lastIndexOf('obj')))) continue;
    charge(file.subarray(start, stop), 0);
    at = Math.max(at, stop);
  }
}
