/**
 * The worker's synchronous Flate stream (src/parse/pdf/inflate.ts): same bytes as zlib, a capped output so a Flate
 * bomb inside a PDF fails instead of filling the heap, and an error (pdf.js's cue to use its own decoder) for
 * corrupt input or a format it does not handle. A PDF converted with the shim installed reads the same.
 */
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertFile } from '../../src/parse/index.js';
import { installSyncInflate, MAX_INFLATED_STREAM_BYTES, SyncDecompressionStream } from '../../src/parse/pdf/inflate.js';
import { pdf } from './files.js';

async function inflate(chunks: Uint8Array[]): Promise<Buffer> {
  const stream = new SyncDecompressionStream('deflate');
  const writer = stream.writable.getWriter();
  for (const chunk of chunks) {
    await writer.ready;
    await writer.write(chunk);
  }
  await writer.close();
  const out: Uint8Array[] = [];
  for await (const chunk of stream.readable) out.push(chunk);
  return Buffer.concat(out);
}

describe('synchronous deflate stream', () => {
  it('inflates data written in several chunks', async () => {
    const plain = Buffer.from('BT /F1 12 Tf (Hello) Tj ET\n'.repeat(500));
    const packed = deflateSync(plain);
    const cut = Math.floor(packed.length / 2);
    expect((await inflate([packed.subarray(0, cut), packed.subarray(cut)])).equals(plain)).toBe(true);
  });

  it('refuses a stream that inflates beyond the cap', async () => {
    const bomb = deflateSync(Buffer.alloc(MAX_INFLATED_STREAM_BYTES + 1024));
    await expect(inflate([bomb])).rejects.toThrow(/buffer|length|size/i);
  });

  it('rejects corrupt data and formats it does not handle', async () => {
    await expect(inflate([Buffer.from('not deflate at all')])).rejects.toThrow();
    expect(() => new SyncDecompressionStream('gzip')).toThrow(/Unsupported/);
  });
});

describe('pdf conversion with the shim installed', () => {
  const original = (globalThis as { DecompressionStream?: unknown }).DecompressionStream;
  beforeAll(() => installSyncInflate());
  afterAll(() => {
    (globalThis as { DecompressionStream?: unknown }).DecompressionStream = original;
  });

  it('reads compressed page content', async () => {
    const out = await convertFile(pdf([{ lines: [{ text: 'Compressed page text reads back' }] }], { compress: true }), { maxPages: 10 });
    expect(out.markdown).toContain('Compressed page text reads back');
  });
});
