/** email.verify's per-server limit: at most N probes of one mail server address at once in a process. */
import { describe, expect, it } from 'vitest';
import { withServerSlot } from '../../src/sources/email/server-slots.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('probes per mail server', () => {
  it('runs at most N at once per address; a waiter gets the slot a finished probe frees; other addresses are apart', async () => {
    let running = 0;
    let most = 0;
    const work = async () => {
      running++;
      most = Math.max(most, running);
      await sleep(30);
      running--;
      return 'done';
    };
    const deadline = Date.now() + 5000;
    const results = await Promise.all(Array.from({ length: 5 }, () => withServerSlot('192.0.2.1', deadline, work, 2)));
    expect(results).toEqual(['done', 'done', 'done', 'done', 'done']);
    expect(most).toBe(2);
    most = 0;
    await Promise.all([withServerSlot('192.0.2.1', deadline, work, 1), withServerSlot('192.0.2.2', deadline, work, 1)]);
    expect(most).toBe(2);
  });

  it('a probe that gets no slot before its deadline is not made; the slot stays usable after', async () => {
    const long = withServerSlot('192.0.2.3', Date.now() + 5000, () => sleep(200).then(() => 'first'), 1);
    let made = false;
    const late = await withServerSlot('192.0.2.3', Date.now() + 50, async () => (made = true), 1);
    expect(late).toBeUndefined();
    expect(made).toBe(false);
    expect(await long).toBe('first');
    expect(await withServerSlot('192.0.2.3', Date.now() + 50, async () => 'again', 1)).toBe('again');
  });

  it('a probe that throws still frees its slot', async () => {
    await expect(withServerSlot('192.0.2.4', Date.now() + 1000, () => Promise.reject(new Error('boom')), 1)).rejects.toThrow('boom');
    expect(await withServerSlot('192.0.2.4', Date.now() + 50, async () => 'ok', 1)).toBe('ok');
  });
});
