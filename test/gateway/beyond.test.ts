/**
 * Issue 8 over real HTTP: Idempotency-Key replays, budgets under concurrency, quotes, Cache-Control only-if-cached
 * and stale-if-error, and the result archive. Live calls go to the loopback double answering from the recordings.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { get, post, startGateway, type TestGateway } from '../helpers/gateway.js';
import { FORUM_SKIP_REASON, HAVE_FORUM_RECORDINGS, startRedditUpstream, type RedditUpstream } from '../helpers/reddit-upstream.js';

let gw: TestGateway;
let upstream: RedditUpstream;
let n = 0;
/** A fresh input per call, so the shared cache never answers across tests unless a test wants it to. */
const fresh = (over: Record<string, unknown> = {}) => ({ subforum: `beyond${n++}`, limit: 10, ...over });
const listingCalls = () => upstream.seen.filter((s) => /\/(hot|new|top|rising|controversial)\.json$/.test(s.path)).length;
const balanceOf = async (id: string) => (await gw.gateway.deps.store.getAccount(id))!.balance;
const logged = async (id: string) => (await gw.gateway.deps.store.listCalls(id, { sinceMs: 0, page: 0, pageSize: 50 })).rows;
const PATH = '/v1/reddit/subforum';

describe.skipIf(!HAVE_FORUM_RECORDINGS)(`beyond the peers (issue 8)${FORUM_SKIP_REASON}`, () => {
  beforeAll(async () => {
    upstream = await startRedditUpstream();
    gw = await startGateway({
      QUARRY_REDDIT_PUBLIC_URL: upstream.url,
      QUARRY_RATE_LIMIT_PER_MINUTE: '10000',
      QUARRY_MAX_IN_FLIGHT: '100',
      QUARRY_UPSTREAM_RETRIES: '0',
    });
  });
  afterAll(async () => {
    await gw?.close();
    await upstream?.close();
  });
  beforeEach(() => {
    upstream.delayMs = 0;
    upstream.failWith = undefined;
  });

  describe('Idempotency-Key', () => {
    it('replays the stored response (status, body, headers) without a second charge or log entry', async () => {
      const acct = await gw.accounts.createAccount({ credits: 10 });
      const body = fresh();
      const headers = { 'idempotency-key': 'order-1' };
      const first = await post(gw.url, PATH, body, { key: acct.apiKey, headers });
      expect(first.status).toBe(200);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const before = listingCalls();
      const again = await post(gw.url, PATH, body, { key: acct.apiKey, headers });
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.text).toBe(first.text);
      expect(again.headers.get('x-cache')).toBe(first.headers.get('x-cache'));
      expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
      expect(listingCalls()).toBe(before);
      expect(await balanceOf(acct.accountId)).toBe(10 - first.json.creditsUsed);
      expect(await logged(acct.accountId)).toHaveLength(1);
    });

    it('the same key with a different body is a 400 that says so; other API keys have their own keys', async () => {
      const acct = await gw.accounts.createAccount({ credits: 10 });
      const headers = { 'idempotency-key': 'order-2' };
      expect((await post(gw.url, PATH, fresh(), { key: acct.apiKey, headers })).status).toBe(200);
      const other = await post(gw.url, PATH, fresh(), { key: acct.apiKey, headers });
      expect(other.status).toBe(400);
      expect(other.json.error.code).toBe('invalidRequest');
      expect(other.json.error.message).toMatch(/Idempotency-Key.*different request/);
      const second = await gw.accounts.createKey({ accountId: acct.accountId });
      expect((await post(gw.url, PATH, fresh(), { key: second.apiKey, headers })).status).toBe(200);
    });

    it('a duplicate arriving while the first runs waits for it and is charged nothing', async () => {
      const acct = await gw.accounts.createAccount({ credits: 10 });
      upstream.delayMs = 300;
      const body = fresh();
      const headers = { 'idempotency-key': 'order-3' };
      const before = listingCalls();
      const [a, b, c] = await Promise.all([
        post(gw.url, PATH, body, { key: acct.apiKey, headers }),
        post(gw.url, PATH, body, { key: acct.apiKey, headers }),
        post(gw.url, PATH, body, { key: acct.apiKey, headers }),
      ]);
      expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
      expect(new Set([a.text, b.text, c.text]).size).toBe(1);
      expect([a, b, c].filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(2);
      expect(listingCalls() - before).toBe(1);
      expect(await balanceOf(acct.accountId)).toBe(10 - a.json.creditsUsed);
      expect(await logged(acct.accountId)).toHaveLength(1);
    });

    it('a retryable failure is not kept: the retry runs again and succeeds', async () => {
      const acct = await gw.accounts.createAccount({ credits: 10 });
      const body = fresh();
      const headers = { 'idempotency-key': 'order-4' };
      upstream.failWith = 503;
      const failed = await post(gw.url, PATH, body, { key: acct.apiKey, headers });
      expect(failed.status).toBe(503);
      upstream.failWith = undefined;
      const retried = await post(gw.url, PATH, body, { key: acct.apiKey, headers });
      expect(retried.status).toBe(200);
      expect(retried.headers.get('idempotent-replayed')).toBeNull();
      expect(await balanceOf(acct.accountId)).toBe(10 - retried.json.creditsUsed);
    });

    it('a final refusal is kept and replayed; a malformed key is refused naming the header', async () => {
      const acct = await gw.accounts.createAccount({ credits: 10 });
      const headers = { 'idempotency-key': 'order-5' };
      const bad = await post(gw.url, PATH, { subforum: 'golang', limit: 0 }, { key: acct.apiKey, headers });
      expect(bad.status).toBe(400);
      const again = await post(gw.url, PATH, { subforum: 'golang', limit: 0 }, { key: acct.apiKey, headers });
      expect(again.status).toBe(400);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.text).toBe(bad.text);
      const long = await post(gw.url, PATH, fresh(), { key: acct.apiKey, headers: { 'idempotency-key': 'x'.repeat(256) } });
      expect(long.status).toBe(400);
      expect(long.json.error.message).toMatch(/Idempotency-Key: must be 1-255 printable/);
    });
  });

  describe('budgets', () => {
    it('a daily key budget hit mid-burst by concurrent calls is never overspent, and names the budget', async () => {
      const acct = await gw.accounts.createAccount({ credits: 1000 });
      const keyId = (await gw.gateway.deps.store.getAccount(acct.accountId))!.keys[0]!.id;
      await gw.gateway.deps.store.setBudget(acct.accountId, { scope: 'key', target: keyId, period: 'day', limitCredits: 9 });
      upstream.delayMs = 50;
      // Each call costs 2 (reddit.subforum's flat price): 9 credits pay for 4 of them at most.
      const results = await Promise.all(Array.from({ length: 12 }, () => post(gw.url, PATH, fresh({ limit: 25 }), { key: acct.apiKey })));
      const ok = results.filter((r) => r.status === 200);
      const refused = results.filter((r) => r.status === 402);
      expect(ok.length + refused.length).toBe(12);
      const spent = ok.reduce((sum, r) => sum + r.json.creditsUsed, 0);
      expect(spent).toBeLessThanOrEqual(9);
      expect(ok.length).toBe(4);
      expect(refused[0]!.json.error).toMatchObject({ code: 'insufficientCredits', requiredCredits: 2 });
      expect(refused[0]!.json.error.availableCredits).toBeLessThan(2);
      expect(refused[0]!.json.error.message).toMatch(/daily budget of key/);
      expect(await balanceOf(acct.accountId)).toBe(1000 - spent);
      const [status] = await gw.gateway.deps.store.budgets(acct.accountId, Date.now());
      expect(status).toMatchObject({ spentCredits: spent, heldCredits: 0, remainingCredits: 9 - spent });
      const usage = await get(gw.url, '/v1/usage', { key: acct.apiKey });
      expect(usage.json.data.budgets).toMatchObject([{ scope: 'key', target: keyId, period: 'day', limitCredits: 9, spentCredits: spent }]);
    });

    it('a tag budget applies only to calls carrying the tag; cache hits count too', async () => {
      const acct = await gw.accounts.createAccount({ credits: 1000 });
      await gw.gateway.deps.store.setBudget(acct.accountId, { scope: 'tag', target: 'crawler', period: 'month', limitCredits: 3 });
      const body = fresh({ limit: 25, tags: ['crawler'] });
      expect((await post(gw.url, PATH, body, { key: acct.apiKey })).status).toBe(200); // 2 spent
      const hit = await post(gw.url, PATH, body, { key: acct.apiKey }); // a hit also costs 2: over the budget
      expect(hit.status).toBe(402);
      expect(hit.json.error.message).toMatch(/monthly budget of tag "crawler"/);
      expect(hit.json.error.availableCredits).toBe(1);
      const untagged = await post(gw.url, PATH, { ...body, tags: ['other'] }, { key: acct.apiKey });
      expect(untagged.status).toBe(200);
    });

    it('a failed call gives its hold back to the budget', async () => {
      const acct = await gw.accounts.createAccount({ credits: 1000 });
      await gw.gateway.deps.store.setBudget(acct.accountId, { scope: 'tag', target: 'b3', period: 'day', limitCredits: 2 });
      upstream.failWith = 503;
      expect((await post(gw.url, PATH, fresh({ limit: 25, tags: ['b3'] }), { key: acct.apiKey })).status).toBe(503);
      upstream.failWith = undefined;
      expect((await post(gw.url, PATH, fresh({ limit: 25, tags: ['b3'] }), { key: acct.apiKey })).status).toBe(200);
      const [b] = await gw.gateway.deps.store.budgets(acct.accountId, Date.now());
      expect(b).toMatchObject({ spentCredits: 2, heldCredits: 0, remainingCredits: 0 });
    });
  });

  describe('quotes', () => {
    it('quotes the price range, then the call is charged within it; a cached result is quoted exactly', async () => {
      const acct = await gw.accounts.createAccount({ credits: 50 });
      const input = fresh();
      const q = await post(gw.url, '/v1/quote', { endpoint: 'reddit.subforum', input }, { key: acct.apiKey });
      expect(q.status).toBe(200);
      expect(q.json.creditsUsed).toBe(0);
      // Free, but counted against the key's window like every keyed request (SPEC: X-RateLimit-* headers).
      expect(q.headers.get('x-ratelimit-limit')).toBe('10000');
      expect(q.json.data).toMatchObject({ endpoint: 'reddit.subforum', minCredits: 2, maxCredits: 2, canPay: true, balance: 50 });
      expect(q.json.data.cache).toMatchObject({ wouldAnswer: false });
      const call = await post(gw.url, PATH, input, { key: acct.apiKey });
      expect(call.json.creditsUsed).toBeGreaterThanOrEqual(q.json.data.minCredits);
      expect(call.json.creditsUsed).toBeLessThanOrEqual(q.json.data.maxCredits);
      const cached = await post(gw.url, '/v1/quote', { endpoint: 'reddit.subforum', input }, { key: acct.apiKey });
      expect(cached.json.data.cache).toMatchObject({ wouldAnswer: true, credits: call.json.creditsUsed });
      expect(cached.json.data.minCredits).toBe(call.json.creditsUsed);
      const hit = await post(gw.url, PATH, input, { key: acct.apiKey });
      expect(hit.json.creditsUsed).toBe(cached.json.data.maxCredits);
      expect(await balanceOf(acct.accountId)).toBe(50 - call.json.creditsUsed - hit.json.creditsUsed);
    });

    it('says when the balance or a budget cannot pay; bad quotes name the field', async () => {
      const acct = await gw.accounts.createAccount({ credits: 1 });
      const q = await post(gw.url, '/v1/quote', { endpoint: 'reddit.subforum', input: fresh() }, { key: acct.apiKey });
      expect(q.json.data.canPay).toBe(false);
      const rich = await gw.accounts.createAccount({ credits: 100 });
      await gw.gateway.deps.store.setBudget(rich.accountId, { scope: 'tag', target: 'q', period: 'day', limitCredits: 1 });
      const b = await post(gw.url, '/v1/quote', { endpoint: 'reddit.subforum', input: fresh({ tags: ['q'] }) }, { key: rich.apiKey });
      expect(b.json.data).toMatchObject({ canPay: false, budgets: [{ scope: 'tag', target: 'q', remainingCredits: 1 }] });
      const unknown = await post(gw.url, '/v1/quote', { endpoint: 'nope.nothing', input: {} }, { key: rich.apiKey });
      expect(unknown.status).toBe(400);
      expect(unknown.json.error.message).toMatch(/^endpoint:/);
      const invalid = await post(gw.url, '/v1/quote', { endpoint: 'reddit.subforum', input: { limit: 5 } }, { key: rich.apiKey });
      expect(invalid.status).toBe(400);
      expect((await post(gw.url, '/v1/quote', { endpoint: 'reddit.subforum', input: {} })).status).toBe(401);
    });
  });

  describe('Cache-Control', () => {
    it('only-if-cached answers from the cache, or fails without calling the source and without billing', async () => {
      const acct = await gw.accounts.createAccount({ credits: 10 });
      const body = fresh();
      const before = listingCalls();
      const miss = await post(gw.url, PATH, body, { key: acct.apiKey, headers: { 'cache-control': 'only-if-cached' } });
      expect(miss.status).toBe(503);
      expect(miss.json.error).toMatchObject({ code: 'sourceUnavailable', retryable: false });
      expect(listingCalls()).toBe(before);
      expect(await balanceOf(acct.accountId)).toBe(10);
      await post(gw.url, PATH, body, { key: acct.apiKey });
      const hit = await post(gw.url, PATH, body, { key: acct.apiKey, headers: { 'cache-control': 'only-if-cached' } });
      expect(hit.status).toBe(200);
      expect(hit.headers.get('x-cache')).toBe('hit');
    });

    it('stale-if-error answers a result older than maxAge when the source fails, marked stale', async () => {
      const acct = await gw.accounts.createAccount({ credits: 20 });
      const body = fresh();
      const first = await post(gw.url, PATH, body, { key: acct.apiKey });
      expect(first.status).toBe(200);
      upstream.failWith = 503;
      const clock = gw.gateway.deps as { now: () => number };
      const realNow = clock.now;
      clock.now = () => realNow() + 120_000; // the cached result is two minutes old
      try {
        const noStale = await post(gw.url, PATH, { ...body, maxAge: 60 }, { key: acct.apiKey });
        expect(noStale.status).toBe(503);
        const tooOld = await post(gw.url, PATH, { ...body, maxAge: 60 }, { key: acct.apiKey, headers: { 'cache-control': 'stale-if-error=60' } });
        expect(tooOld.status).toBe(503);
        const stale = await post(gw.url, PATH, { ...body, maxAge: 60 }, { key: acct.apiKey, headers: { 'cache-control': 'stale-if-error=600' } });
        expect(stale.status).toBe(200);
        expect(stale.headers.get('x-cache')).toBe('stale');
        expect(Number(stale.headers.get('x-cache-age'))).toBeGreaterThanOrEqual(120);
        expect(stale.json.data).toEqual(first.json.data);
        expect(stale.json.creditsUsed).toBe(first.json.creditsUsed);
        const bad = await post(gw.url, PATH, body, { key: acct.apiKey, headers: { 'cache-control': 'stale-if-error=soon' } });
        expect(bad.status).toBe(400);
        expect(bad.json.error.message).toMatch(/stale-if-error/);
      } finally {
        clock.now = realNow;
      }
      expect(await balanceOf(acct.accountId)).toBe(20 - 2 * first.json.creditsUsed);
    });
  });

  describe('result archive', () => {
    it('GET /v1/requests/{id} returns exactly what the call returned, free, to the same account only', async () => {
      const acct = await gw.accounts.createAccount({ credits: 20 });
      const body = fresh();
      const call = await post(gw.url, PATH, body, { key: acct.apiKey });
      const cut = await post(gw.url, PATH, body, { key: acct.apiKey, query: 'maxTextLength=20' });
      for (const r of [call, cut]) {
        const archived = await get(gw.url, `/v1/requests/${r.json.requestId}`, { key: acct.apiKey });
        expect(archived.status).toBe(200);
        expect(archived.text).toBe(r.text);
      }
      expect(cut.text).not.toBe(call.text);
      const balance = await balanceOf(acct.accountId);
      await get(gw.url, `/v1/requests/${call.json.requestId}`, { key: acct.apiKey });
      expect(await balanceOf(acct.accountId)).toBe(balance);
      const stranger = await gw.accounts.createAccount({ credits: 1 });
      const denied = await get(gw.url, `/v1/requests/${call.json.requestId}`, { key: stranger.apiKey });
      expect(denied.status).toBe(404);
      expect((await get(gw.url, `/v1/requests/${call.json.requestId}`)).status).toBe(401);
    });
  });
});
