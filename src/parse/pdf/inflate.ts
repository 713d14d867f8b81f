/**
 * A synchronous `DecompressionStream("deflate")` for the conversion worker.
 *
 * pdf.js 5 inflates every Flate stream (each page's content, fonts, CMaps) through `DecompressionStream` when the
 * global exists. On Node that is a web-streams pipeline over zlib's asynchronous binding: each stream costs several
 * promise turns and a hop through the libuv thread pool, which competes with the worker for the same core. This
 * class keeps the interface pdf.js uses (`writable.getWriter()` with `ready`/`write`/`close`, an async-iterable
 * `readable`) and inflates the whole buffer at once with `zlib.inflateSync`, capped by `maxOutputLength` (the
 * smaller of the per-stream cap and what the document's decode budget has left, `decode-budget.ts`) so that a
 * Flate bomb inside a PDF fails fast instead of filling the worker's memory; what it produces is charged to that
 * budget. Any failure (a corrupt or truncated stream, a format other than "deflate") surfaces as an error, and
 * pdf.js then falls back to its own lenient JavaScript decoder, exactly as it does when the native stream fails.
 * A stream that hits the cap spends the document's budget first, so that fallback (itself charged, through
 * `DecodeStream.ensureBuffer`) fails on its first block instead of inflating the bomb without a cap. Installed only
 * inside the worker (`worker.ts`): the host process's own global is never replaced.
 */
import { inflateSync } from 'node:zlib';
import { MAX_STREAM_BYTES, chargeDecoded, decodeBytesLeft, spendDecodeBudget } from './decode-budget.js';

/** Largest inflated size of one PDF stream (a page's content stream is rarely above a few MB). */
export const MAX_INFLATED_STREAM_BYTES = MAX_STREAM_BYTES;

export class SyncDecompressionStream {
  readonly writable: { getWriter(): { ready: Promise<void>; write(chunk: Uint8Array): Promise<void>; close(): Promise<void> } };
  readonly readable: AsyncIterable<Uint8Array>;

  constructor(format: string) {
    // Only what zlib inflates in one call; pdf.js catches this and uses its own decoder (brotli, raw deflate).
    if (format !== 'deflate') throw new TypeError(`Unsupported compression format: ${format}`);
    const chunks: Uint8Array[] = [];
    let closed!: () => void;
    const whenClosed = new Promise<void>((resolve) => (closed = resolve));
    const ready = Promise.resolve();
    this.writable = {
      getWriter: () => ({
        ready,
        write(chunk: Uint8Array) {
          chunks.push(chunk);
          return ready;
        },
        close() {
          closed();
          return ready;
        },
      }),
    };
    this.readable = {
      async *[Symbol.asyncIterator]() {
        await whenClosed;
        const input = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
        let out: Buffer;
        try {
          out = inflateSync(input, { maxOutputLength: Math.max(1, Math.min(MAX_INFLATED_STREAM_BYTES, decodeBytesLeft())) });
        } catch (e) {
          // Past the cap: a bomb, whatever else the document holds. Corrupt data is left to pdf.js's own decoder.
          if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') spendDecodeBudget();
          throw e;
        }
        chargeDecoded(out.byteLength);
        yield out;
      },
    };
  }
}

/** Replaces this thread's `DecompressionStream` (call once, in the conversion worker, before pdf.js runs). */
export function installSyncInflate(): void {
  (globalThis as { DecompressionStream?: unknown }).DecompressionStream = SyncDecompressionStream;
}
