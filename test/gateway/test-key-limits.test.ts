/**
 * Issue 30.5: anyone signed in can mint a test key, and parse is real in test mode, so test keys must not convert
 * documents faster than keyless callers: their `web.parse` calls count per key and per address at the keyless
 * limit, over HTTP on loopback.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { post, startGateway, type TestGateway } from '../helpers/gateway.js';
import { b64, pdf } from '../parse/files.js';

describe('test keys convert documents like keyless callers (issue 30.5)', () => {
  let gw: TestGateway;
  let accountId: string;
  let liveKey: string;
  beforeAll(async () => {
    // Rate windows are whole clock minutes: the clock stands still in the middle of one while these tests count.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);
    // Keyless callers: three conversions a minute per address here; keys: the usual 600.
    gw = await startGateway({ QUARRY_KEYLESS_RATE_LIMIT_PER_MINUTE: '3' });
    ({ accountId, apiKey: liveKey } = await gw.accounts.createAccount({ credits: 100 }));
  });
  afterAll(async () => {
    await gw.close();
    vi.useRealTimers();
  });

  const file = (n: number) => b64(pdf([{ lines: [{ text: `Document number ${n}` }] }]));
  const parse = (n: number, key?: string) => post(gw.url, '/v1/web/parse', { file: file(n) }, { key });

  it('per key: a test key gets the keyless limit of conversions, then 429 rateLimited with the limit in its headers', async () => {
    const testKey = (await gw.accounts.createKey({ accountId, test: true })).apiKey;
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) statuses.push((last = await parse(i, testKey)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last!.json.error).toMatchObject({ code: 'rateLimited', retryable: true });
    expect(last!.headers.get('x-ratelimit-limit')).toBe('3');
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
    // A live key of the same account is a paying caller: its own 600 a minute.
    for (let i = 0; i < 4; i++) expect((await parse(10 + i, liveKey)).status).toBe(200);
  });

  it("per address: a second test key from the same address shares the address's window with keyless calls", async () => {
    // The first test's test key used this address's three; a fresh key and a keyless call find it spent.
    const fresh = (await gw.accounts.createKey({ accountId, test: true })).apiKey;
    const r = await parse(20, fresh);
    expect(r.status, r.text).toBe(429);
    expect(r.json.error.code).toBe('rateLimited');
    expect((await parse(21)).status).toBe(429);
  });

  it('test-mode calls of endpoints answered from samples keep the key limit', async () => {
    const testKey = (await gw.accounts.createKey({ accountId, test: true })).apiKey;
    for (let i = 0; i < 5; i++) {
      const r = await post(gw.url, '/v1/shopify/store', { store: `shop${i}.example.com` }, { key: testKey });
      expect(r.status, r.text).toBe(200);
    }
  });
});
