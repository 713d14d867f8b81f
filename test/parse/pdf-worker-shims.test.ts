/**
 * What the conversion worker installs before pdf.js runs. The synchronous Flate stream (src/parse/pdf/inflate.ts):
 * same bytes as zlib, a capped output so a Flate bomb inside a PDF fails instead of filling the heap, and an error
 * (pdf.js's cue to use its own decoder) for corrupt input or a format it does not handle. The inert FontFace
 * (src/parse/pdf/font-face.ts): pdf.js gets font faces instead of compiling glyph outlines, and reads the same
 * markdown (ruled tables, right-to-left text and the corpus PDFs when ../shared is beside the checkout).
 */
import fs from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertFile } from '../../src/parse/index.js';
import { fontFaceOptions, installInertFontFace } from '../../src/parse/pdf/font-face.js';
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

describe('pdf conversion with the inert FontFace installed', () => {
  const CORPUS = path.resolve(__dirname, '../../../shared/corpus/parse/pdf');
  const files = fs.existsSync(CORPUS) ? ['docling-normal_4pages.pdf', 'docling-right_to_left_01.pdf', 'docling-2305.03393v1-pg9.pdf'] : [];
  const rules = ['70 700 m 460 700 l S', '70 680 m 460 680 l S', '70 640 m 460 640 l S', ...[70, 200, 330, 460].map((x) => `${x} 640 m ${x} 700 l S`)].join('\n');
  const cell = (text: string, x: number, y: number) => ({ text, x, y, size: 10 });
  const ruled = pdf([{ lines: [cell('Name', 75, 686), cell('Kind', 205, 686), cell('Notes', 335, 686), cell('Alpha', 75, 660), cell('First', 205, 660), cell('short', 335, 660)], ops: rules }]);
  const convertAll = async () => Promise.all([ruled, ...files.map((f) => new Uint8Array(fs.readFileSync(path.join(CORPUS, f))))].map(async (b) => (await convertFile(b, { maxPages: 100 })).markdown));
  const original = (globalThis as { FontFace?: unknown }).FontFace;
  let before: string[] = [];
  beforeAll(async () => {
    before = await convertAll();
    installInertFontFace();
  });
  afterAll(() => {
    (globalThis as { FontFace?: unknown }).FontFace = original;
  });

  it('turns font faces on only where it is installed', () => {
    expect(fontFaceOptions()).toMatchObject({ disableFontFace: false, ownerDocument: { fonts: expect.any(Object) } });
    (globalThis as { FontFace?: unknown }).FontFace = original;
    expect(fontFaceOptions()).toEqual({ disableFontFace: true });
    installInertFontFace();
  });

  it(`reads the same markdown: a ruled table${files.length ? ', corpus PDFs with embedded TrueType/CID fonts and right-to-left text' : ' (corpus PDFs skipped: ../shared/corpus/parse is absent)'}`, async () => {
    const after = await convertAll();
    expect(after[0]).toContain('| Name | Kind | Notes |\n| --- | --- | --- |\n| Alpha | First | short |');
    expect(after).toEqual(before);
  });
});
