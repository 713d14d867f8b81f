/**
 * reddit through the gateway over HTTP on loopback, Reddit's hosts sent to test doubles by QUARRY_UPSTREAM_OVERRIDES:
 * - reddit.subforum against the stateful double (app-only OAuth when the operator configures client credentials,
 *   cursor paging, test-mode samples that are the same recordings through the same normaliser);
 * - reddit.search and reddit.post against the replay double (live price, test mode, paging, drift, refusal).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseListing, normaliseSubforum } from '../../src/sources/reddit/normalise.js';
import { pruneData } from '../../src/render/prune.js';
import { post, startGateway, type TestGateway } from '../helpers/gateway.js';
import {
  FORUM_SKIP_REASON,
  HAVE_FORUM_RECORDINGS,
  overrides,
  recording,
  redditReplay,
  startRedditUpstream,
  type RedditUpstream,
} from '../helpers/reddit-upstream.js';
import { startReplay, type Replay } from '../helpers/replay.js';

describe.skipIf(!HAVE_FORUM_RECORDINGS)(`reddit.subforum through the gateway${FORUM_SKIP_REASON}`, () => {
  let gw: TestGateway;
  let upstream: RedditUpstream;
  let key: string;
  let testKey: string;

  beforeAll(async () => {
    upstream = await startRedditUpstream();
    gw = await startGateway({
      QUARRY_REDDIT_CLIENT_ID: 'app1',
      QUARRY_REDDIT_CLIENT_SECRET: 'secret1',
      QUARRY_UPSTREAM_OVERRIDES: overrides(upstream.url),
      QUARRY_OUTBOUND_ALLOW: '127.0.0.1',
    });
    const acct = await gw.accounts.createAccount({ credits: 100 });
    key = acct.apiKey;
    testKey = (await gw.accounts.createKey({ accountId: acct.accountId, test: true })).apiKey;
  });
  afterAll(async () => {
    await gw.close();
    await upstream.close();
  });

  it('uses app-only OAuth when the operator configured client credentials, and answers the SPEC records', async () => {
    const r = await post(gw.url, '/v1/reddit/subforum', { subforum: 'r/golang', limit: 10 }, { key });
    expect(r.status).toBe(200);
    const api = upstream.seen.filter((s) => s.path !== '/api/v1/access_token');
    expect(upstream.seen.find((s) => s.path === '/api/v1/access_token')?.host).toBe('www.reddit.com');
    expect(api.map((s) => s.path).sort()).toEqual(['/r/golang/about', '/r/golang/about/rules', '/r/golang/hot']);
    expect(api.every((s) => s.auth?.startsWith('bearer ') && s.host === 'oauth.reddit.com')).toBe(true);
    const expected = normaliseListing(recording('listing-popular-hot.json')).posts.slice(0, 10);
    expect(r.json.data.posts).toEqual(pruneData({ posts: expected }).posts);
    expect(r.json.data.subforum).toEqual(
      pruneData(normaliseSubforum(recording('subreddit-about-golang.json').data, recording('subreddit-rules-fitness.json')) as never),
    );
    expect(r.json.data.cursor).toBe(`t3_${expected[9].id}`);
  });

  it('paging: the cursor goes back upstream as `after`', async () => {
    upstream.seen.length = 0;
    const r = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 10, cursor: 't3_1sk99af' }, { key });
    expect(r.status).toBe(200);
    const listing = upstream.seen.find((s) => s.path === '/r/golang/hot');
    expect(listing?.query).toContain('after=t3_1sk99af');
  });

  it('test mode answers from the committed samples: the same recordings through the same normaliser', async () => {
    upstream.seen.length = 0;
    const r = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang' }, { key: testKey });
    expect(r.status).toBe(200);
    const expected = pruneData({ posts: normaliseListing(recording('listing-popular-hot.json')).posts }).posts as Array<{ id: string }>;
    expect(r.json.data.posts).toEqual(expected.slice(0, 25));
    expect(r.json.data.cursor).toBe(`t3_${expected[24].id}`);
    // The cursor pages on through the recorded listing, as Reddit's `after` does.
    const next = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', cursor: r.json.data.cursor }, { key: testKey });
    expect(next.status).toBe(200);
    expect(next.json.data.posts).toEqual(expected.slice(25, 50));
    expect(upstream.seen).toHaveLength(0); // never upstream
  });
});

describe.skipIf(!HAVE_FORUM_RECORDINGS)(`reddit.search and reddit.post through the gateway${FORUM_SKIP_REASON}`, () => {
  let gw: TestGateway;
  let replay: Replay;
  let key: string;
  let testKey: string;
  let accountId: string;
  const balance = async () => (await gw.gateway.deps.store.getAccount(accountId))!.balance;

  beforeAll(async () => {
    replay = await startReplay(redditReplay({
      routes: [
        { host: 'oauth.reddit.com', path: '/search', query: { q: 'walled' }, status: 403, text: '<html><body>You have been blocked by network security.</body></html>', headers: { 'content-type': 'text/html' } },
      ],
    }));
    gw = await startGateway({
      QUARRY_REDDIT_CLIENT_ID: 'gateway-app',
      QUARRY_REDDIT_CLIENT_SECRET: 'gateway-secret',
      QUARRY_UPSTREAM_OVERRIDES: replay.overrides(),
      QUARRY_OUTBOUND_ALLOW: '127.0.0.1',
      QUARRY_UPSTREAM_RETRIES: '0',
    });
    const acct = await gw.accounts.createAccount({ credits: 100 });
    accountId = acct.accountId;
    key = acct.apiKey;
    testKey = (await gw.accounts.createKey({ accountId, test: true })).apiKey;
  });
  afterAll(async () => {
    await gw?.close();
    await replay?.close();
  });

  it('live search and post: 2 credits each (a fixed price), the records of the recordings', async () => {
    const before = await balance();
    const search = await post(gw.url, '/v1/reddit/search', { query: 'test', maxAge: 0 }, { key });
    expect(search.status).toBe(200);
    expect(search.json.creditsUsed).toBe(2);
    expect(search.json.data.posts.map((p: { id: string }) => p.id)).toEqual(['hybow9', 'hmwhd7']);
    const thread = await post(gw.url, '/v1/reddit/post', { post: 'https://www.reddit.com/r/WouldYouRather/comments/g9zfex/', maxAge: 0 }, { key });
    expect(thread.status).toBe(200);
    expect(thread.json.creditsUsed).toBe(2);
    expect(thread.json.data.post).toMatchObject({ id: 'g9zfex', poll: { totalVotes: 54 } });
    expect(thread.json.data.comments).toHaveLength(3);
    expect(await balance()).toBe(before - 4);
  });

  it('paging: a search cursor goes upstream as `after`', async () => {
    replay.seen.length = 0;
    const r = await post(gw.url, '/v1/reddit/search', { query: 'test', limit: 1 }, { key });
    expect(r.json.data.cursor).toBe('t3_hybow9');
    const next = await post(gw.url, '/v1/reddit/search', { query: 'test', limit: 1, cursor: r.json.data.cursor }, { key });
    expect(next.status).toBe(200);
    expect(replay.seen.filter((s) => s.path === '/search').map((s) => s.query.get('after'))).toEqual([null, 't3_hybow9']);
  });

  it('test mode: the catalogue examples answer from the samples, unbilled, never upstream', async () => {
    const before = await balance();
    replay.seen.length = 0;
    const search = await post(gw.url, '/v1/reddit/search', { query: 'mechanical keyboard', type: 'posts', sort: 'top', within: 'month', limit: 25 }, { key: testKey });
    expect(search.status).toBe(200);
    expect(search.json.creditsUsed).toBe(2);
    expect(search.json.data.posts.length).toBeGreaterThan(0);
    const users = await post(gw.url, '/v1/reddit/search', { query: 'x', type: 'users' }, { key: testKey });
    expect(users.json.data.users[0]).toMatchObject({ type: 'user' });
    const thread = await post(gw.url, '/v1/reddit/post', { post: 'https://www.reddit.com/r/golang/comments/1abcde/some_title/', sort: 'top', depth: 3 }, { key: testKey });
    expect(thread.status).toBe(200);
    expect(thread.json.data.post.type).toBe('post');
    const past = await post(gw.url, '/v1/reddit/search', { query: 'mechanical keyboard', cursor: search.json.data.cursor }, { key: testKey });
    expect(past.json.creditsUsed).toBe(0);
    expect(replay.seen).toHaveLength(0);
    expect(await balance()).toBe(before);
  });

  it('drift: a post without its score → 502 sourceChanged, unbilled', async () => {
    const before = await balance();
    replay.mutate = (name, body) => (name === 'forum/post-video.json' ? body.replace(/"score": \d+,/g, '') : body);
    try {
      const r = await post(gw.url, '/v1/reddit/post', { post: '1khufen', maxAge: 0 }, { key });
      expect(r.status).toBe(502);
      expect(r.json.error.code).toBe('sourceChanged');
    } finally {
      replay.mutate = undefined;
    }
    expect(await balance()).toBe(before);
  });

  it('a block page → 502 sourceRefused, unbilled; bad input → 400 naming the field', async () => {
    const before = await balance();
    const walled = await post(gw.url, '/v1/reddit/search', { query: 'walled' }, { key });
    expect(walled.status).toBe(502);
    expect(walled.json.error.code).toBe('sourceRefused');
    const bad = await post(gw.url, '/v1/reddit/post', { post: 'https://example.com/x' }, { key });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/^post: /);
    expect(await balance()).toBe(before);
  });
});
