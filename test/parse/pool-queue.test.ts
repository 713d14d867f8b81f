/**
 * The conversion pool's waiting queue is bounded: past `maxQueue` waiting files a call fails at once with the
 * retryable 429 `tooManyInFlight` (the code the pipeline already renders), and the files already accepted finish.
 */
import { describe, expect, it } from 'vitest';
import { QuarryError } from '../../src/errors.js';
import { ParsePool } from '../../src/parse/pool.js';

const html = (s: string) => new TextEncoder().encode(`<p>${s}</p>`);

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

  it('defaults to eight waiting files per worker', async () => {
    const pool = new ParsePool({ size: 2 });
    try {
      expect(pool.maxQueue).toBe(16);
    } finally {
      await pool.close();
    }
  });
});
