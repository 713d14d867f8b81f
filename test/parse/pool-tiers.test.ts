/**
 * Issue 30.1, the pool's side: free files (keyless and test-mode calls) get fewer workers, a shorter budget and a
 * shorter queue than paid ones, and never go ahead of a waiting paid file; a worker whose memory outside the heap
 * passes its allowance is stopped, even inside a decoder that never yields. (The HTTP side, with the server's
 * memory measured, is `bomb.test.ts`.)
 */
import { describe, expect, it } from 'vitest';
import { QuarryError } from '../../src/errors.js';
import { ParsePool, withConversionTier } from '../../src/parse/pool.js';
import { deflatedZeros, pdf, pdfOf } from './files.js';

const html = (s: string) => new TextEncoder().encode(`<p>${s}</p>`);
const settle = <T>(p: Promise<T>) => p.then(
  (v) => ({ ok: true as const, v }),
  (e: unknown) => ({ ok: false as const, e }),
);

describe('parse pool tiers', () => {
  it('free files hold at most their slots (half the pool); a paid file starts at once on another worker', async () => {
    const pool = new ParsePool({ size: 2 });
    try {
      expect(pool.freeSlots).toBe(1);
      const free = [pool.convert(html('free one'), 1, 'free'), pool.convert(html('free two'), 1, 'free')];
      expect(pool.running()).toEqual({ paid: 0, free: 1 }); // the second free file waits though a worker is idle
      const paid = pool.convert(html('paid'), 1, 'paid');
      expect(pool.running()).toEqual({ paid: 1, free: 1 });
      await expect(paid).resolves.toMatchObject({ markdown: 'paid\n' });
      await expect(Promise.all(free)).resolves.toMatchObject([{ markdown: 'free one\n' }, { markdown: 'free two\n' }]);
    } finally {
      await pool.close();
    }
  });

  it('a waiting paid file is handed the next worker before free files that waited longer', async () => {
    const pool = new ParsePool({ size: 1 });
    try {
      const order: string[] = [];
      const run = (name: string, tier: 'paid' | 'free') => pool.convert(html(name), 1, tier).then(() => order.push(name));
      await Promise.all([run('free 1', 'free'), run('free 2', 'free'), run('free 3', 'free'), run('paid', 'paid')]);
      expect(order).toEqual(['free 1', 'paid', 'free 2', 'free 3']);
    } finally {
      await pool.close();
    }
  });

  it("a conversion's tier is its caller's (withConversionTier), else the pool's default", async () => {
    const pool = new ParsePool({ size: 2 });
    const shared = new ParsePool({ size: 1, defaultTier: 'free' });
    try {
      const a = withConversionTier('free', () => pool.convert(html('a'), 1));
      expect(pool.running()).toEqual({ paid: 0, free: 1 });
      const b = withConversionTier('free', () => withConversionTier('paid', () => pool.convert(html('b'), 1)));
      expect(pool.running()).toEqual({ paid: 1, free: 1 });
      const c = withConversionTier('free', () => pool.convert(html('c'), 1)); // waits: the free slot is taken
      const d = shared.convert(html('d'), 1); // the server's pool: a conversion no tier reached counts as free
      expect(shared.running()).toEqual({ paid: 0, free: 1 });
      await Promise.all([a, b, c, d]);
    } finally {
      await Promise.all([pool.close(), shared.close()]);
    }
  });

  it('a free file has a shorter budget: stopped where the same file converts for a paying caller', async () => {
    const pages = Array.from({ length: 60 }, () => ({ lines: Array.from({ length: 40 }, () => ({ text: 'slow slow slow slow slow slow slow' })) }));
    const pool = new ParsePool({ size: 1, timeoutMs: 60_000, freeTimeoutMs: 30 });
    try {
      await expect(pool.convert(pdf(pages), 100, 'free')).rejects.toThrow(/30 ms conversion budget/);
      await expect(pool.convert(pdf(pages), 100, 'paid')).resolves.toMatchObject({ metadata: { numPages: 60 } });
    } finally {
      await pool.close();
    }
  });

  it("free files have a queue of their own, half as long: a full one refuses free files, never paid ones", async () => {
    const pool = new ParsePool({ size: 1, maxQueue: 2 });
    try {
      expect(pool.freeMaxQueue).toBe(1);
      const running = pool.convert(html('one'), 1, 'free');
      const waiting = pool.convert(html('two'), 1, 'free');
      const refused = await settle(pool.convert(html('three'), 1, 'free'));
      expect(refused.ok).toBe(false);
      expect((refused as { e: unknown }).e).toBeInstanceOf(QuarryError);
      expect((refused as { e: unknown }).e).toMatchObject({ code: 'tooManyInFlight', status: 429, retryable: true });
      const paid = pool.convert(html('paid'), 1, 'paid');
      await expect(Promise.all([running, waiting, paid])).resolves.toHaveLength(3);
    } finally {
      await pool.close();
    }
  });

  it('a worker past its external memory allowance is stopped inside PDFium, which never yields, and replaced', async () => {
    // A content stream of 60 MB of zeros, under one stream's cap: with a decode budget raised past it, the stream
    // budget lets it through and PDFium inflates it inside its WebAssembly heap, synchronously. The memory watch
    // (16 MB here) sees the heap grow (each growth is published) and stops the worker long before the heap's maximum.
    const file = pdfOf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
      { dict: '/Filter /FlateDecode', data: deflatedZeros(60) },
      // A filler making the file large enough that its decode budget (100 times its size) is not what stops it.
      { dict: '', data: Buffer.alloc(1536 * 1024, 0x20) },
    ]);

    const pool = new ParsePool({ size: 1, externalMemoryMb: 16, maxDecodedMb: 1024 });
    try {
      await expect(pool.convert(file, 1)).rejects.toMatchObject({ kind: 'limit', message: expect.stringMatching(/needs more memory than the safety limit/) });
      expect(pool.replaced).toBe(1);
      await expect(pool.convert(html('still here'), 1)).resolves.toMatchObject({ markdown: 'still here\n' });
    } finally {
      await pool.close();
    }
  });
});
