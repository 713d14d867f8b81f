/**
 * SPEC.md "What the service does" 5-6, Common conventions 7 and 10, Errors rule 3 and 5; CONTRACT.md "Billing".
 * Live calls to reddit.subforum go to a loopback server answering from the real recordings.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { post, startGateway, type TestGateway } from '../helpers/gateway.js';
import { FORUM_SKIP_REASON, HAVE_FORUM_RECORDINGS, startRedditUpstream, type RedditUpstream } from '../helpers/reddit-upstream.js';

let gw: TestGateway;
let upstream: RedditUpstream;
let n = 0;
/** A fresh subforum-like input per test, so the shared cache never answers across tests. */
const fresh = (over: Record<string, unknown> = {}) => ({ subforum: 'golang', limit: 50 + (n++ % 50), ...over });
const listingCalls = () => upstream.seen.filter((s) => /\/(hot|new|top|rising|controversial)\.json$/.test(s.path)).length;
const balanceOf = async (id: string) => (await gw.gateway.deps.store.getAccount(id))!.balance;

describe.skipIf(!HAVE_FORUM_RECORDINGS)(`billing and the result cache${FORUM_SKIP_REASON}`, () => {
  beforeAll(async () => {
    upstream = await startRedditUpstream();
    gw = await startGateway({
      QUARRY_REDDIT_PUBLIC_URL: upstream.url,
      QUARRY_RATE_LIMIT_PER_MINUTE: '10000',
      QUARRY_MAX_IN_FLIGHT: '100',
      QUARRY_UPSTREAM_RETRIES: '0',
      QUARRY_BILLING_URL: 'https://billing.example/top-up',
    });
  });
  afterAll(async () => {
    await gw.close();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.delayMs = 0;
  });

  it('a successful live call is billed its price and logged once', async () => {
    const acct = await gw.accounts.createAccount({ credits: 10 });
    const r = await post(gw.url, '/v1/reddit/subforum', fresh({ tags: ['billing'] }), { key: acct.apiKey });
    expect(r.status).toBe(200);
    expect(r.json.creditsUsed).toBe(2);
    expect(r.headers.get('x-cache')).toBe('miss');
    expect(r.headers.get('x-cache-age')).toBe('0');
    expect(await balanceOf(acct.accountId)).toBe(8);
    const logs = await gw.gateway.deps.store.listCalls(acct.accountId, { sinceMs: 0, page: 0, pageSize: 50 });
    expect(logs.rows).toMatchObject([{ id: r.json.requestId, endpoint: 'reddit.subforum', credits: 2, cache: 'miss', test: false, tags: ['billing'] }]);
  });

  it('rule 5: failed calls are not billed (upstream 503, unknown subforum)', async () => {
    const acct = await gw.accounts.createAccount({ credits: 10 });
    const down = await post(gw.url, '/v1/reddit/subforum', fresh({ subforum: 'downsub' }), { key: acct.apiKey });
    expect(down.status).toBe(503);
    expect(down.json.error).toMatchObject({ code: 'sourceUnavailable', retryable: true });
    const missing = await post(gw.url, '/v1/reddit/subforum', fresh({ subforum: 'nosuchsub' }), { key: acct.apiKey });
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('notFound');
    expect(await balanceOf(acct.accountId)).toBe(10);
    expect((await gw.gateway.deps.store.listCalls(acct.accountId, { sinceMs: 0, page: 0, pageSize: 50 })).total).toBe(0);
  });

  it('rule 3: insufficientCredits carries requiredCredits, availableCredits and billingUrl', async () => {
    const acct = await gw.accounts.createAccount({ credits: 1 });
    const r = await post(gw.url, '/v1/reddit/subforum', fresh(), { key: acct.apiKey });
    expect(r.status).toBe(402);
    expect(r.json.error).toMatchObject({
      code: 'insufficientCredits',
      retryable: false,
      requiredCredits: 2,
      availableCredits: 1,
      billingUrl: 'https://billing.example/top-up',
    });
    expect(await balanceOf(acct.accountId)).toBe(1);
  });

  it('concurrent calls can never overdraw an account', async () => {
    const acct = await gw.accounts.createAccount({ credits: 11 });
    upstream.delayMs = 30;
    const results = await Promise.all(
      Array.from({ length: 12 }, () => post(gw.url, '/v1/reddit/subforum', fresh(), { key: acct.apiKey })),
    );
    const ok = results.filter((r) => r.status === 200).length;
    const refused = results.filter((r) => r.status === 402).length;
    expect(ok).toBe(5);
    expect(refused).toBe(7);
    expect(await balanceOf(acct.accountId)).toBe(1);
  });

  it('convention 7 / Billing: a cache hit is billed like a live call and reports its age', async () => {
    const acct = await gw.accounts.createAccount({ credits: 20 });
    const input = fresh();
    const first = await post(gw.url, '/v1/reddit/subforum', input, { key: acct.apiKey });
    const before = listingCalls();
    const second = await post(gw.url, '/v1/reddit/subforum', { ...input, tags: ['other'] }, { key: acct.apiKey });
    expect(second.headers.get('x-cache')).toBe('hit');
    expect(Number(second.headers.get('x-cache-age'))).toBeGreaterThanOrEqual(0);
    expect(second.json.creditsUsed).toBe(2);
    expect(second.json.data).toEqual(first.json.data);
    expect(listingCalls()).toBe(before);
    expect(await balanceOf(acct.accountId)).toBe(16);
  });

  it('the cache is shared by all accounts and keyed by canonical input (case, defaults, field order)', async () => {
    const a = await gw.accounts.createAccount({ credits: 20 });
    const b = await gw.accounts.createAccount({ credits: 20 });
    await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 33, sort: 'hot' }, { key: a.apiKey });
    const r = await post(gw.url, '/v1/reddit/subforum', { sort: 'hot', limit: 33, subforum: 'golang', within: 'day' }, { key: b.apiKey });
    expect(r.headers.get('x-cache')).toBe('hit');
  });

  it('convention 7: maxAge 0 skips the cache read but the fresh result is still cached', async () => {
    const acct = await gw.accounts.createAccount({ credits: 20 });
    const input = fresh();
    await post(gw.url, '/v1/reddit/subforum', input, { key: acct.apiKey });
    const before = listingCalls();
    const live = await post(gw.url, '/v1/reddit/subforum', { ...input, maxAge: 0 }, { key: acct.apiKey });
    expect(live.headers.get('x-cache')).toBe('miss');
    expect(listingCalls()).toBe(before + 1);
    const after = await post(gw.url, '/v1/reddit/subforum', input, { key: acct.apiKey });
    expect(after.headers.get('x-cache')).toBe('hit');
    expect(listingCalls()).toBe(before + 1);
  });

  it('convention 7: a cached result up to maxAge old is used, an older one is not', async () => {
    const acct = await gw.accounts.createAccount({ credits: 20 });
    const input = fresh();
    await post(gw.url, '/v1/reddit/subforum', input, { key: acct.apiKey });
    const deps = gw.gateway.deps;
    const realNow = deps.now;
    deps.now = () => realNow() + 120_000; // two minutes later
    try {
      const before = listingCalls();
      const loose = await post(gw.url, '/v1/reddit/subforum', { ...input, maxAge: 300 }, { key: acct.apiKey });
      expect(loose.headers.get('x-cache')).toBe('hit');
      expect(Number(loose.headers.get('x-cache-age'))).toBe(120);
      expect(listingCalls()).toBe(before);
      const strict = await post(gw.url, '/v1/reddit/subforum', { ...input, maxAge: 60 }, { key: acct.apiKey });
      expect(strict.headers.get('x-cache')).toBe('miss');
      expect(listingCalls()).toBe(before + 1);
    } finally {
      deps.now = realNow;
    }
  });

  it('identical concurrent misses are coalesced into one upstream fetch, each call billed once', async () => {
    const acct = await gw.accounts.createAccount({ credits: 100 });
    upstream.delayMs = 100;
    const input = fresh();
    const before = listingCalls();
    const results = await Promise.all(Array.from({ length: 6 }, () => post(gw.url, '/v1/reddit/subforum', input, { key: acct.apiKey })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(listingCalls()).toBe(before + 1);
    expect(await balanceOf(acct.accountId)).toBe(100 - 6 * 2);
  });

  it('test-mode keys use their own cache namespace: a sample never answers a live call', async () => {
    const acct = await gw.accounts.createAccount({ credits: 20 });
    const test = await gw.accounts.createKey({ accountId: acct.accountId, test: true });
    const input = fresh();
    const t = await post(gw.url, '/v1/reddit/subforum', input, { key: test.apiKey });
    expect(t.status).toBe(200);
    const live = await post(gw.url, '/v1/reddit/subforum', input, { key: acct.apiKey });
    expect(live.headers.get('x-cache')).toBe('miss');
    expect(await balanceOf(acct.accountId)).toBe(18);
    const logs = await gw.gateway.deps.store.listCalls(acct.accountId, { sinceMs: 0, page: 0, pageSize: 50 });
    expect(logs.rows.map((r) => r.test).sort()).toEqual([false, true]);
  });
});
