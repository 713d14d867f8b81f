/**
 * SPEC.md "Limits" and "Authentication" 2, Errors rule 4; CONTRACT.md "Running it" (QUARRY_RATE_LIMIT_PER_MINUTE,
 * QUARRY_KEYLESS_RATE_LIMIT_PER_MINUTE, QUARRY_MAX_IN_FLIGHT), over real HTTP on loopback.
 *
 * Windows are fixed and aligned to the clock minute. So that no test can straddle a window boundary, each gateway's
 * rate limiter runs on a clock pinned to the moment the gateway started (same implementation, only the clock is
 * fixed); nothing here waits for a window to roll over.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryRateLimiter } from '../../src/limits/memory/rate-limiter.js';
import type { SqliteStore } from '../../src/store/sqlite/store.js';
import { post, startGateway, type CallResponse, type TestGateway } from '../helpers/gateway.js';
import { FORUM_SKIP_REASON, HAVE_FORUM_RECORDINGS, startRedditUpstream, type RedditUpstream } from '../helpers/reddit-upstream.js';

/** Starts a gateway whose rate windows cannot roll over during the test; returns it with the pinned instant. */
async function pinnedGateway(env: Record<string, string>): Promise<{ gw: TestGateway; pinnedMs: number }> {
  const gw = await startGateway(env);
  const pinnedMs = Date.now();
  gw.gateway.deps.rateLimiter = new MemoryRateLimiter(() => pinnedMs);
  return { gw, pinnedMs };
}

/** X-RateLimit-* are present, integers, and Reset is a Unix time in seconds within the 60 s after `sinceMs`. */
function expectRateHeaders(r: CallResponse, limit: number, remaining: number | undefined, sinceMs: number): number {
  const l = r.headers.get('x-ratelimit-limit');
  const rem = r.headers.get('x-ratelimit-remaining');
  const reset = r.headers.get('x-ratelimit-reset');
  expect(l, 'X-RateLimit-Limit').toBe(String(limit));
  expect(rem, 'X-RateLimit-Remaining').toMatch(/^\d+$/);
  if (remaining !== undefined) expect(Number(rem)).toBe(remaining);
  expect(reset, 'X-RateLimit-Reset').toMatch(/^\d+$/);
  const resetUnix = Number(reset);
  // Unix seconds, not milliseconds and not seconds-remaining.
  expect(resetUnix).toBeGreaterThan(sinceMs / 1000);
  expect(resetUnix).toBeLessThanOrEqual(sinceMs / 1000 + 60);
  return resetUnix;
}

function expectRateLimited(r: CallResponse): void {
  expect(r.status).toBe(429);
  expect(r.json.success).toBe(false);
  expect(r.json.error.code).toBe('rateLimited');
  expect(r.json.error.retryable).toBe(true);
  expect(r.json.error.requestId).toBe(r.headers.get('x-request-id'));
  const wait = r.json.error.retryAfterSeconds;
  expect(Number.isInteger(wait)).toBe(true);
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(wait).toBeLessThanOrEqual(60);
  expect(r.headers.get('retry-after')).toBe(String(wait));
}

const heldReservations = (gw: TestGateway): number =>
  ((gw.gateway.deps.store as SqliteStore).db.prepare("SELECT count(*) AS n FROM reservations WHERE state = 'held'").get() as { n: number }).n;

const SUBFORUM = { subforum: 'golang', limit: 5 };

describe('per-key rate limit (QUARRY_RATE_LIMIT_PER_MINUTE=3)', () => {
  let gw: TestGateway;
  let pinnedMs: number;
  let accountId: string;

  beforeAll(async () => {
    // web.search is served now: QUARRY_SOURCES leaves it out, so it stands for a source this server does not serve.
    ({ gw, pinnedMs } = await pinnedGateway({ QUARRY_RATE_LIMIT_PER_MINUTE: '3', QUARRY_SOURCES: 'reddit' }));
    accountId = (await gw.accounts.createAccount({ credits: 100 })).accountId;
  });
  afterAll(() => gw.close());

  const testKey = async () => (await gw.accounts.createKey({ accountId, test: true })).apiKey;

  it('every success carries X-RateLimit-Limit 3, a counting-down Remaining and a Reset in Unix seconds; the 4th call is 429 rateLimited with Retry-After = retryAfterSeconds', async () => {
    const key = await testKey();
    const resets = new Set<number>();
    for (const remaining of [2, 1, 0]) {
      const r = await post(gw.url, '/v1/reddit/subforum', SUBFORUM, { key });
      expect(r.status).toBe(200);
      resets.add(expectRateHeaders(r, 3, remaining, pinnedMs));
    }
    expect(resets.size).toBe(1); // one fixed window: the same reset second for every call in it
    const fourth = await post(gw.url, '/v1/reddit/subforum', SUBFORUM, { key });
    expectRateLimited(fourth);
    expect(expectRateHeaders(fourth, 3, 0, pinnedMs)).toBe([...resets][0]);
    // Still limited: a rejected call does not reset or extend anything.
    expectRateLimited(await post(gw.url, '/v1/reddit/subforum', SUBFORUM, { key }));
  });

  it('a second key has its own window', async () => {
    const first = await testKey();
    for (let i = 0; i < 3; i++) expect((await post(gw.url, '/v1/reddit/subforum', SUBFORUM, { key: first })).status).toBe(200);
    expectRateLimited(await post(gw.url, '/v1/reddit/subforum', SUBFORUM, { key: first }));
    const second = await testKey();
    const r = await post(gw.url, '/v1/reddit/subforum', SUBFORUM, { key: second });
    expect(r.status).toBe(200);
    expectRateHeaders(r, 3, 2, pinnedMs);
  });

  it('an error after the limit step (503 sourceUnavailable) carries X-RateLimit-* and counts', async () => {
    const key = await testKey();
    const r = await post(gw.url, '/v1/web/search', { query: 'coffee' }, { key });
    expect(r.status).toBe(503);
    expect(r.json.error.code).toBe('sourceUnavailable');
    expectRateHeaders(r, 3, 2, pinnedMs);
  });

  it('a 400 invalidRequest carries X-RateLimit-* too', async () => {
    const key = await testKey();
    const ok = await post(gw.url, '/v1/reddit/subforum', SUBFORUM, { key });
    expectRateHeaders(ok, 3, 2, pinnedMs);
    const bad = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', colour: 'red' }, { key });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('invalidRequest');
    // Whether an invalid request spends a slot is the server's choice; it must report the window either way.
    const remaining = Number(bad.headers.get('x-ratelimit-remaining'));
    expectRateHeaders(bad, 3, undefined, pinnedMs);
    expect([1, 2]).toContain(remaining);
  });
});

describe('keyless limits per client address (QUARRY_KEYLESS_RATE_LIMIT_PER_MINUTE=2)', () => {
  // web.search is keyless and not built: it answers 503 sourceUnavailable, but only after the limit step.
  const search = (gw: TestGateway, xff?: string) =>
    post(gw.url, '/v1/web/search', { query: 'coffee' }, xff ? { headers: { 'x-forwarded-for': xff } } : {});

  describe('X-Forwarded-For ignored by default', () => {
    let gw: TestGateway;
    let pinnedMs: number;
    beforeAll(async () => {
      ({ gw, pinnedMs } = await pinnedGateway({ QUARRY_KEYLESS_RATE_LIMIT_PER_MINUTE: '2' }));
    });
    afterAll(() => gw.close());

    it('the third keyless call from one address is 429 rateLimited, and spoofed X-Forwarded-For values share that one window', async () => {
      const a = await search(gw, '203.0.113.1');
      expect(a.status).toBe(503);
      expect(a.json.error.code).toBe('sourceUnavailable');
      expectRateHeaders(a, 2, 1, pinnedMs);
      const b = await search(gw, '203.0.113.2');
      expect(b.status).toBe(503);
      expectRateHeaders(b, 2, 0, pinnedMs);
      const c = await search(gw, '198.51.100.7');
      expectRateLimited(c);
      expectRateHeaders(c, 2, 0, pinnedMs);
      expectRateLimited(await search(gw));
    });
  });

  describe('paging needs a key', () => {
    let gw: TestGateway;
    beforeAll(async () => {
      gw = await startGateway({ QUARRY_KEYLESS_RATE_LIMIT_PER_MINUTE: '2' });
    });
    afterAll(() => gw.close());

    it('a keyless endpoint called with a cursor and no key is 401 unauthorized naming paging (youtube.search)', async () => {
      const r = await post(gw.url, '/v1/youtube/search', { query: 'coffee', cursor: 'abc' });
      expect(r.status).toBe(401);
      expect(r.json.error.code).toBe('unauthorized');
      expect(r.json.error.retryable).toBe(false);
      expect(r.json.error.message).toMatch(/paging/i);
      expect(r.json.error.message).toMatch(/cursor/);
      expect(r.headers.get('retry-after')).toBe('0');
    });
  });

  describe('X-Forwarded-For honoured from a trusted proxy (QUARRY_TRUST_PROXY=127.0.0.1)', () => {
    let gw: TestGateway;
    let pinnedMs: number;
    beforeAll(async () => {
      ({ gw, pinnedMs } = await pinnedGateway({ QUARRY_KEYLESS_RATE_LIMIT_PER_MINUTE: '2', QUARRY_TRUST_PROXY: '127.0.0.1' }));
    });
    afterAll(() => gw.close());

    it('different forwarded client addresses get separate windows', async () => {
      expectRateHeaders(await search(gw, '203.0.113.1'), 2, 1, pinnedMs);
      expectRateHeaders(await search(gw, '203.0.113.1'), 2, 0, pinnedMs);
      expectRateLimited(await search(gw, '203.0.113.1'));
      const other = await search(gw, '203.0.113.2');
      expect(other.status).toBe(503);
      expectRateHeaders(other, 2, 1, pinnedMs);
      // The client is the right-most address the trusted proxy added, not whatever the client claimed before it.
      const viaChain = await search(gw, '192.0.2.99, 203.0.113.2');
      expect(viaChain.status).toBe(503);
      expectRateHeaders(viaChain, 2, 0, pinnedMs);
    });

    it('IPv6 clients count per /64', async () => {
      expectRateHeaders(await search(gw, '2001:db8:1:2::1'), 2, 1, pinnedMs);
      expectRateHeaders(await search(gw, '2001:db8:1:2:ffff::9'), 2, 0, pinnedMs);
      expectRateLimited(await search(gw, '2001:db8:1:2::abcd'));
      expectRateHeaders(await search(gw, '2001:db8:1:3::1'), 2, 1, pinnedMs);
    });
  });
});

describe.skipIf(!HAVE_FORUM_RECORDINGS)(`in-flight cap on live calls (QUARRY_MAX_IN_FLIGHT=2)${FORUM_SKIP_REASON}`, () => {
  let gw: TestGateway;
  let upstream: RedditUpstream;

  beforeAll(async () => {
    upstream = await startRedditUpstream();
    gw = await startGateway({ QUARRY_REDDIT_PUBLIC_URL: upstream.url, QUARRY_MAX_IN_FLIGHT: '2', QUARRY_UPSTREAM_RETRIES: '0' });
  });
  afterAll(async () => {
    await gw.close();
    await upstream.close();
  });

  it('with 2 live calls running, 2 more get 429 tooManyInFlight (retryable); only the 2 successes are billed', async () => {
    upstream.delayMs = 300;
    const { accountId, apiKey } = await gw.accounts.createAccount({ credits: 100 });
    // Distinct bodies, so neither the cache nor single-flight can merge the calls.
    const call = (limit: number) => post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', limit }, { key: apiKey });
    const running = [call(11), call(12)];
    // A call holds its in-flight slot before it reserves credits, and keeps both until the upstream answers (300 ms).
    await vi.waitFor(() => expect(heldReservations(gw)).toBe(2), { timeout: 250, interval: 2 });
    const late = await Promise.all([call(13), call(14)]);
    const done = await Promise.all(running);

    for (const r of done) {
      expect(r.status).toBe(200);
      expect(r.json.creditsUsed).toBe(2);
    }
    for (const r of late) {
      expect(r.status).toBe(429);
      expect(r.json.error.code).toBe('tooManyInFlight');
      expect(r.json.error.retryable).toBe(true);
      expect(r.json.error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(r.headers.get('retry-after')).toBe(String(r.json.error.retryAfterSeconds));
    }
    expect(heldReservations(gw)).toBe(0);
    expect((await gw.gateway.deps.store.getAccount(accountId))!.balance).toBe(100 - 2 * 2);

    // The slots are given back: the next call runs.
    upstream.delayMs = 0;
    expect((await call(15)).status).toBe(200);
    expect((await gw.gateway.deps.store.getAccount(accountId))!.balance).toBe(100 - 3 * 2);
  });
});
