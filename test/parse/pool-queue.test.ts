/**
 * The conversion pool's waiting queue is bounded by bytes and by the expected wait (and by `maxQueue` files when set):
 * past a bound a call fails at once with the retryable 429 `tooManyInFlight` (the code the pipeline already renders),
 * and the files already accepted finish.
 */
import { describe, expect, it } from 'vitest';
import { QuarryError } from '../../src/errors.js';
import { ParsePool } from '../../src/parse/pool.js';

const html = (s: string) => new TextEncoder().encode(`<p>${s}</p>`);
/** An HTML page of about `size` bytes. */
const page = (s: string, size: number) =>
  new TextEncoder().encode(`<html><body><h1>${s}</h1>${'<p>Some words of a paragraph.</p>\n'.repeat(Math.ceil(size / 35))}</body></html>`.slice(0, size));

describe('parse pool queue', () => {
  it('a full queue refuses with tooManyInFlight (429, retryable) and accepted files still finish', async () => {
    const pool = new ParsePool({ size: 1, maxQueue: 1, timeoutMs: 15_000 });
    try {
      // Synchronous calls: the first goes to the only worker, the second waits, the third finds the queue full.
      const running = pool.convert(html('one'), 1);
      const waiting = pool.convert(html('two'), 1);
      const refused = pool.convert(html('three'), 1);
      const err = await refused.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(QuarryError);
      expect(err).toMatchObject({ code: 'tooManyInFlight', status: 429, retryable: true, retryAfterSeconds: 1 });
      expect((err as Error).message).toMatch(/busy.*1 files waiting for 1 worker/);
      await expect(running).resolves.toMatchObject({ markdown: 'one\n' });
      await expect(waiting).resolves.toMatchObject({ markdown: 'two\n' });
      // Room again once the queue drained.
      await expect(pool.convert(html('four'), 1)).resolves.toMatchObject({ markdown: 'four\n' });
    } finally {
      await pool.close();
    }
  });

  it('counts no files by default: two hundred small files wait for one worker and are all converted (issue 35)', async () => {
    const pool = new ParsePool({ size: 1 });
    try {
      expect(pool.maxQueue).toBe(Infinity);
      const all = await Promise.all(Array.from({ length: 200 }, (_, i) => pool.convert(html(`file ${i}`), 1, i % 2 ? 'free' : 'paid')));
      expect(all.map((r) => r.markdown)).toEqual(Array.from({ length: 200 }, (_, i) => `file ${i}\n`));
    } finally {
      await pool.close();
    }
  });

  it('bounds the waiting bytes: past them a file is refused (free files get half), an empty queue takes any one file', async () => {
    const pool = new ParsePool({ size: 1, maxQueueMb: 1 });
    const big = (s: string) => page(s, 400 * 1024);
    try {
      expect(pool.maxQueueBytes).toEqual({ paid: 1048576, free: 524288 });
      const accepted = [pool.convert(big('running'), 1, 'paid'), pool.convert(big('one'), 1, 'paid'), pool.convert(big('two'), 1, 'paid')];
      const refused = await pool.convert(big('three'), 1, 'paid').catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: 'tooManyInFlight', status: 429, retryable: true });
      expect((refused as Error).message).toMatch(/busy \(0\.8 MB of files waiting for 1 worker\)/);
      const freeOne = pool.convert(big('free one'), 1, 'free');
      expect(await pool.convert(big('free two'), 1, 'free').catch((e: unknown) => e)).toMatchObject({ code: 'tooManyInFlight' });
      await expect(Promise.all([...accepted, freeOne])).resolves.toHaveLength(4);
    } finally {
      await pool.close();
    }
  });

  it('bounds the expected wait by the budget of the file: conversions queued ahead past it are refused', async () => {
    // Each 1 MB file is counted 17 units (one, plus one per 64 KB) at the starting estimate of 25 ms: about 0.4 s.
    const pool = new ParsePool({ size: 1, timeoutMs: 2000 });
    const file = (s: string) => page(s, 1024 * 1024);
    try {
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => pool.convert(file(`f${i}`), 1, 'paid').then(() => 'ok', (e: unknown) => e)));
      const refused = results.filter((r) => r !== 'ok');
      expect(results.filter((r) => r === 'ok').length).toBeGreaterThanOrEqual(5);
      expect(refused.length).toBeGreaterThan(0);
      for (const e of refused) {
        expect(e).toMatchObject({ code: 'tooManyInFlight', status: 429 });
        expect((e as Error).message).toMatch(/busy \(about \d+ s of conversions waiting for 1 worker\)/);
      }
      expect(pool.expectedWaitMs('paid')).toBe(0); // all done
    } finally {
      await pool.close();
    }
  });
});
