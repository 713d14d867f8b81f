/**
 * Source health (issue 8): GET /v1/sources lists every source with what it needs and its last hour and day; a
 * recorded upstream answer with a field removed fails as sourceChanged (unbilled), counted as drift and logged with
 * the offending path; the operator's canary feeds the same figures.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { get, post, startGateway, type TestGateway } from '../helpers/gateway.js';
import { FORUM_SKIP_REASON, HAVE_FORUM_RECORDINGS, startRedditUpstream, type RedditUpstream } from '../helpers/reddit-upstream.js';

let upstream: RedditUpstream;
const reddit = async (gw: TestGateway) => (await get(gw.url, '/v1/sources')).json.data.sources.find((s: any) => s.id === 'reddit');

describe.skipIf(!HAVE_FORUM_RECORDINGS)(`source health${FORUM_SKIP_REASON}`, () => {
  let gw: TestGateway;
  let n = 0;
  const fresh = () => ({ subforum: `health${n++}`, limit: 10 });

  beforeAll(async () => {
    upstream = await startRedditUpstream();
    gw = await startGateway({ QUARRY_REDDIT_PUBLIC_URL: upstream.url, QUARRY_UPSTREAM_RETRIES: '0', QUARRY_RATE_LIMIT_PER_MINUTE: '10000' });
  });
  afterAll(async () => {
    await gw?.close();
    await upstream?.close();
  });
  beforeEach(() => {
    upstream.failWith = undefined;
    upstream.mutate = undefined;
  });

  it('lists every source of the catalogue, with what it needs and whether it is served; no key needed', async () => {
    const r = await get(gw.url, '/v1/sources');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-ratelimit-limit')).not.toBeNull();
    const ids = r.json.data.sources.map((s: any) => s.id);
    expect(ids).toEqual([...new Set(gw.gateway.deps.catalogue.endpoints.map((e) => e.source))]);
    const src = r.json.data.sources.find((s: any) => s.id === 'reddit');
    expect(src).toMatchObject({ enabled: true, needs: { proxy: 'advised' } });
    expect(src.needs.settings).toContainEqual(expect.objectContaining({ name: 'QUARRY_REDDIT_CLIENT_ID', required: false, set: false }));
    // A source none of whose endpoints is served says why.
    for (const s of r.json.data.sources.filter((x: any) => !x.enabled)) expect(s.reason, s.id).toBeTruthy();
    expect(r.json.data.sources.find((s: any) => s.id === 'youtube')).toMatchObject({ enabled: true });
    expect(r.json.data.canary).toEqual({ enabled: false, intervalSeconds: 0 });
  });

  it('counts calls, successes, error codes and upstream latency of live fetches', async () => {
    const before = (await reddit(gw)).lastHour;
    const acct = await gw.accounts.createAccount({ credits: 100 });
    expect((await post(gw.url, '/v1/reddit/subforum', fresh(), { key: acct.apiKey })).status).toBe(200);
    upstream.failWith = 503;
    expect((await post(gw.url, '/v1/reddit/subforum', fresh(), { key: acct.apiKey })).status).toBe(503);
    const after = (await reddit(gw)).lastHour;
    expect(after.calls - before.calls).toBe(2);
    expect(after.successes - before.successes).toBe(1);
    expect((after.errors.sourceUnavailable ?? 0) - (before.errors.sourceUnavailable ?? 0)).toBe(1);
    expect(after.latencyMs.p95).toBeGreaterThanOrEqual(after.latencyMs.p50);
    expect((await reddit(gw)).lastDay.calls).toBeGreaterThanOrEqual(after.calls);
  });

  it('an answer with a normally present field removed fails as sourceChanged, unbilled, counted and logged as drift', async () => {
    const acct = await gw.accounts.createAccount({ credits: 100 });
    const before = (await reddit(gw)).lastHour;
    upstream.mutate = (name, body) => {
      if (name !== 'listing-popular-hot.json') return body;
      for (const child of body.data.children) delete child.data.title;
      return body;
    };
    const r = await post(gw.url, '/v1/reddit/subforum', fresh(), { key: acct.apiKey });
    expect(r.status).toBe(502);
    expect(r.json.error.code).toBe('sourceChanged');
    expect((await gw.gateway.deps.store.getAccount(acct.accountId))!.balance).toBe(100);
    const after = (await reddit(gw)).lastHour;
    expect(after.drift - before.drift).toBe(1);
    expect((after.errors.sourceChanged ?? 0) - (before.errors.sourceChanged ?? 0)).toBe(1);
    const line = gw.logLines.find((l) => l.includes('source format drift'));
    expect(line).toBeDefined();
    expect(JSON.parse(line!).drift).toMatch(/post \w+ without a title/);
  });

  it('an answer the normaliser trips over is drift too', async () => {
    const acct = await gw.accounts.createAccount({ credits: 100 });
    const before = (await reddit(gw)).lastHour;
    upstream.mutate = (name, body) => (name === 'listing-popular-hot.json' ? { kind: 'Listing', data: { children: 'not a list' } } : body);
    const r = await post(gw.url, '/v1/reddit/subforum', fresh(), { key: acct.apiKey });
    expect(r.json.error.code).toBe('sourceChanged');
    expect((await reddit(gw)).lastHour.drift - before.drift).toBe(1);
  });
});

describe.skipIf(!HAVE_FORUM_RECORDINGS)(`the canary${FORUM_SKIP_REASON}`, () => {
  let gw: TestGateway;
  beforeAll(async () => {
    upstream = await startRedditUpstream();
    gw = await startGateway({
      QUARRY_REDDIT_PUBLIC_URL: upstream.url,
      QUARRY_UPSTREAM_RETRIES: '0',
      QUARRY_SOURCES: 'reddit',
      QUARRY_CANARY_INTERVAL_SECONDS: '1',
    });
  });
  afterAll(async () => {
    await gw?.close();
    await upstream?.close();
  });

  it("fetches each served endpoint's example on its schedule, unbilled, into the same figures", async () => {
    const deadline = Date.now() + 8000;
    // Wait for a success and the subforum's fetch, not merely for a first counted call: the canary's calls run in
    // turn, and the first one counted may be another endpoint's.
    const fetchedSubforum = () => upstream.seen.some((s) => s.path === '/r/golang/hot.json');
    let src = await reddit(gw);
    while ((src.lastHour.successes === 0 || !fetchedSubforum()) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      src = await reddit(gw);
    }
    expect(src.lastHour.calls).toBeGreaterThan(0);
    expect(src.lastHour.successes).toBeGreaterThan(0);
    expect(fetchedSubforum()).toBe(true);
    expect((await get(gw.url, '/v1/sources')).json.data.canary).toEqual({ enabled: true, intervalSeconds: 1 });
  });
});
