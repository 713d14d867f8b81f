/**
 * A synchronous `DecompressionStream("deflate")` for the conversion worker.
 *
 * pdf.js 5 inflates every Flate stream (each page's content, fonts, CMaps) through `DecompressionStream` when the
 * global exists. On Node that is a web-streams pipeline over zlib's asynchronous binding: each stream costs several
 * promise turns and a hop through the libuv thread pool, which competes with the worker for the same core. This
 * class keeps the interface pdf.js uses (`writable.getWriter()` with `ready`/`write`/`close`, an async-iterable
 * `readable`) and inflates the whole buffer at once with `zlib.inflateSync`, capped by `maxOutputLength` so that a
 * Flate bomb inside a PDF fails fast instead of filling the worker's heap. Any failure (a corrupt or truncated
 * stream, the cap, a format other than "deflate") surfaces as an error, and pdf.js then falls back to its own
 * lenient JavaScript decoder, exactly as it does when the native stream fails. Installed only inside the worker
 * (`worker.ts`): the host process's own global is never replaced.
 */
import { inflateSync } from 'node:zlib';

/** Largest inflated size of one PDF stream (a page's content stream is rarely above a few MB). */
export const MAX_INFLATED_STREAM_BYTES = 64 * 1024 * 1024;

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
        yield inflateSync(input, { maxOutputLength: MAX_INFLATED_STREAM_BYTES });
      },
    };
  }
}

/** Replaces this thread's `DecompressionStream` (call once, in the conversion worker, before pdf.js runs). */
export function installSyncInflate(): void {
  (globalThis as { DecompressionStream?: unknown }).DecompressionStream = SyncDecompressionStream;
}
