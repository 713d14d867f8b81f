/**
 * reddit.subforum end to end through the gateway (issue 2, item 12): app-only OAuth when the operator configures
 * client credentials, cursor paging, and test-mode samples that are the same recordings through the same normaliser.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseListing, normaliseSubforum } from '../../src/sources/reddit/normalise.js';
import { pruneData } from '../../src/render/prune.js';
import { post, startGateway, type TestGateway } from '../helpers/gateway.js';
import { FORUM_SKIP_REASON, HAVE_FORUM_RECORDINGS, recording, startRedditUpstream, type RedditUpstream } from '../helpers/reddit-upstream.js';

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
      QUARRY_REDDIT_AUTH_URL: upstream.url,
      QUARRY_REDDIT_OAUTH_URL: upstream.url,
      QUARRY_REDDIT_PUBLIC_URL: 'http://public-host-must-not-be-used.invalid',
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
    expect(upstream.seen.some((s) => s.path === '/api/v1/access_token')).toBe(true);
    expect(api.map((s) => s.path).sort()).toEqual(['/r/golang/about', '/r/golang/about/rules', '/r/golang/hot']);
    expect(api.every((s) => s.auth?.startsWith('bearer '))).toBe(true);
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
