/**
 * truthsocial against answers written from the documented interface (no Truth Social answer is recorded anywhere with
 * a licence: test/fixtures/documented/truthsocial/, served by test/sources/truthsocial-doubles.ts): every endpoint
 * through the live client, the operator's token, refusals (Cloudflare, geoblock, a signed-in-only answer), drift,
 * test mode and the gateway.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postIdOf, usernameOf } from '../../src/sources/truthsocial/client.js';
import { failure } from '../helpers/failure.js';
import { documented } from '../../scripts/samples/documented.js';
import { startReplay, type Replay, type ReplayRoute } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';
import { ACCOUNT_ID, FIRST_PAGE_LAST, TRUTH_HOST, truthsocialReplay } from './truthsocial-doubles.js';

const POST = 'https://truthsocial.com/@ExampleTruther/114500000000000005';
const TOKEN = { ACCESS_TOKEN: 'operator-token' };

/** A Cloudflare challenge page, as truthbrush meets it ("Just a moment", /cdn-cgi/challenge-platform). */
const CLOUDFLARE = '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1"></script></body></html>';
const WALLS: ReplayRoute[] = [
  { host: TRUTH_HOST, path: '/api/v1/accounts/lookup', query: { acct: 'challenged' }, status: 403, text: CLOUDFLARE, headers: { 'content-type': 'text/html' } },
  { host: TRUTH_HOST, path: '/api/v1/accounts/lookup', query: { acct: 'geoblocked' }, status: 403, text: '<html><body>Truth Social is unavailable in your area.</body></html>', headers: { 'content-type': 'text/html' } },
  { host: TRUTH_HOST, path: '/api/v2/search', match: (s) => !s.headers.authorization, status: 401, text: '{"error":"This method requires an authenticated user"}', headers: { 'content-type': 'application/json' }, name: 'documented: truthsocial/error.unauthorized.json' },
];

/** The documented answers with a required count removed (a drifted upstream): routes ahead of the documented ones. */
const DRIFT: ReplayRoute[] = [
  { host: TRUTH_HOST, path: '/api/v1/statuses/114500000000000005', text: documented('truthsocial', 'status.json').replace(/"favourites_count": ?\d+,/g, ''), headers: { 'content-type': 'application/json' } },
  { host: TRUTH_HOST, path: '/api/v1/accounts/lookup', query: { acct: 'ExampleTruther' }, text: documented('truthsocial', 'account.json').replace(/"followers_count": ?\d+,/g, ''), headers: { 'content-type': 'application/json' } },
];

describe('truthsocial references (no answers needed)', () => {
  it.each([
    ['realDonaldTrump', 'realDonaldTrump'],
    ['@realDonaldTrump', 'realDonaldTrump'],
    ['https://truthsocial.com/@realDonaldTrump', 'realDonaldTrump'],
    ['truthsocial.com/users/realDonaldTrump', 'realDonaldTrump'],
  ])('profile %s → %s', (input, name) => expect(usernameOf(input)).toBe(name));

  it('posts by id or address; anything else is a 400 naming the field', async () => {
    expect(postIdOf('114578366045537612')).toBe('114578366045537612');
    expect(postIdOf('https://truthsocial.com/@realDonaldTrump/114578366045537612')).toBe('114578366045537612');
    expect(postIdOf('https://truthsocial.com/@realDonaldTrump/posts/114578366045537612')).toBe('114578366045537612');
    for (const [field, f] of [['post', () => postIdOf('https://truthsocial.com/@x')], ['post', () => postIdOf('https://example.com/@x/1')], ['profile', () => usernameOf('https://example.com/@x')]] as const) {
      const e = await failure(f);
      expect([e.code, e.message.startsWith(`${field}: `)]).toEqual(['invalidRequest', true]);
    }
  });
});

describe('truthsocial test mode (committed samples, written from the documented interface)', () => {
  it('every example answers; posts and search page through the samples', async () => {
    expect((await runSample('truthsocial.profile', { profile: 'realDonaldTrump' })).data.profile.username).toBe('ExampleTruther');
    const first = await runSample('truthsocial.posts', { profile: 'realDonaldTrump' });
    expect((await runSample('truthsocial.posts', { profile: 'realDonaldTrump', cursor: first.data.cursor })).data.posts).toHaveLength(2);
    expect((await runSample('truthsocial.post', { post: POST })).data.replies).toHaveLength(1);
    expect((await runSample('truthsocial.search', { query: 'x', type: 'users' })).data.users).toHaveLength(2);
    expect((await runSample('truthsocial.search', { query: 'x', type: 'hashtags' })).data.hashtags[0].posts).toBe(47);
  });
});

describe('truthsocial against documented answers (not recordings)', () => {
  let replay: Replay;
  let live: LiveContext;
  let signed: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(truthsocialReplay(WALLS));
    live = liveContext('truthsocial', replay, {}, [TRUTH_HOST]);
    signed = liveContext('truthsocial', replay, TOKEN, [TRUTH_HOST]);
  });
  afterAll(async () => {
    await live.close();
    await signed.close();
    await replay.close();
  });
  beforeEach(() => {
    replay.mutate = undefined;
    replay.seen.length = 0;
  });

  it('profile: the account, its HTML bio as text, its field links; anonymous unless a token is set', async () => {
    const out = await runLive('truthsocial.profile', { profile: '@ExampleTruther' }, live.ctx);
    expect(out.data.profile).toEqual({
      type: 'profile', id: ACCOUNT_ID, username: 'ExampleTruther', url: 'https://truthsocial.com/@ExampleTruther', followers: 12345, following: 67, posts: 890,
      name: 'Example Account (illustrative)', bio: 'An illustrative account, written from the documented shape.',
      avatar: expect.stringMatching(/avatars/), banner: expect.stringMatching(/headers/), isVerified: true, createdAt: '2022-02-11T00:00:00.000Z',
      location: 'Example City', website: 'https://example.com', links: [{ url: 'https://example.com', title: 'Site' }], lastPostOn: '2025-05-20',
    });
    expect(replay.seen[0].headers.authorization).toBeUndefined();
    await runLive('truthsocial.profile', { profile: 'ExampleTruther' }, signed.ctx);
    expect(replay.seen[1].headers.authorization).toBe('Bearer operator-token');
  });

  it('posts: newest first, a ReTruth as the reposted post, the next page below the oldest status answered', async () => {
    const first = await runLive('truthsocial.posts', { profile: 'ExampleTruther', limit: 20 }, live.ctx);
    const asked = replay.seen[1].query;
    expect([replay.seen[1].path, asked.get('exclude_replies'), asked.get('limit'), asked.get('max_id')]).toEqual([`/api/v1/accounts/${ACCOUNT_ID}/statuses`, 'true', '20', null]);
    expect(first.data.posts.map((p: any) => p.id)).toEqual(['114500000000000005', '114500000000000004', '114400000000000001']);
    expect(first.data.posts[2]).toMatchObject({ author: { username: 'AnotherExample' }, repostedBy: { username: 'ExampleTruther' }, repostedAt: '2025-05-19T08:00:00.000Z' });
    expect(first.data.cursor).toBe(`${ACCOUNT_ID}:${FIRST_PAGE_LAST}`);
    replay.seen.length = 0;
    const next = await runLive('truthsocial.posts', { profile: 'ExampleTruther', cursor: first.data.cursor, includeReplies: true }, live.ctx);
    expect(replay.seen.map((s) => [s.path, s.query.get('max_id'), s.query.get('exclude_replies')])).toEqual([[`/api/v1/accounts/${ACCOUNT_ID}/statuses`, FIRST_PAGE_LAST, null]]);
    expect(next.data.posts[0]).toMatchObject({ quoteOf: { id: '114000000000000010', text: 'The post being quoted (illustrative).', author: { username: 'AnotherExample' } } });
    expect(next.data.posts[1]).toMatchObject({
      isVideo: true, video: { durationSeconds: 43, width: 1280, height: 720 },
      poll: { options: [{ text: 'Yes', votes: 60 }, { text: 'No', votes: 40 }], totalVotes: 100, isClosed: true },
    });
    const end = await runLive('truthsocial.posts', { profile: 'ExampleTruther', cursor: next.data.cursor }, live.ctx);
    expect([end.data.posts, end.data.cursor, end.free]).toEqual([[], undefined, true]);
  });

  it('post: the post and its replies, oldest first', async () => {
    const out = await runLive('truthsocial.post', { post: POST, limit: 10 }, live.ctx);
    expect(out.data.post).toMatchObject({ id: '114500000000000005', hashtags: ['example'], isPinned: true, link: { url: 'https://example.com/story' } });
    expect(out.data.replies).toEqual([
      expect.objectContaining({ id: '114600000000000001', text: '@ExampleTruther An illustrative reply.', mentions: ['ExampleTruther'], replyTo: { id: '114500000000000005' } }),
    ]);
    expect(replay.seen.find((s) => s.path.endsWith('/descendants'))!.query.get('sort')).toBe('oldest');
    const alone = await runLive('truthsocial.post', { post: POST, includeReplies: false }, live.ctx);
    expect(alone.data.replies).toBeUndefined();
  });

  it('search: posts, accounts and hashtags by offset; without a token Truth Social refuses it, naming the setting', async () => {
    const posts = await runLive('truthsocial.search', { query: 'example' }, signed.ctx);
    expect([replay.seen[0].query.get('type'), replay.seen[0].query.get('resolve'), posts.data.posts.length, posts.data.cursor]).toEqual(['statuses', 'true', 2, '2']);
    expect((await runLive('truthsocial.search', { query: 'example', cursor: '2' }, signed.ctx)).data.posts).toHaveLength(1);
    expect((await runLive('truthsocial.search', { query: 'example', type: 'users' }, signed.ctx)).data.users.map((u: any) => u.username)).toEqual(['ExampleTruther', 'AnotherExample']);
    expect((await runLive('truthsocial.search', { query: 'example', type: 'hashtags' }, signed.ctx)).data.hashtags).toEqual([{ type: 'hashtag', name: 'example', url: 'https://truthsocial.com/tags/example', posts: 47, accounts: 20 }]);
    const e = await failure(runLive('truthsocial.search', { query: 'example' }, live.ctx));
    expect([e.code, e.retryable, e.message]).toEqual(['sourceUnavailable', false, expect.stringContaining('QUARRY_TRUTHSOCIAL_ACCESS_TOKEN')]);
  });

  it('unknown accounts and posts are notFound; a Cloudflare challenge or a geoblock is sourceRefused', async () => {
    expect((await failure(runLive('truthsocial.profile', { profile: 'nobody' }, live.ctx))).message).toBe('profile: not found on Truth Social (Record not found)');
    expect((await failure(runLive('truthsocial.post', { post: '1' }, live.ctx))).code).toBe('notFound');
    expect((await failure(runLive('truthsocial.profile', { profile: 'challenged' }, live.ctx))).code).toBe('sourceRefused');
    expect((await failure(runLive('truthsocial.profile', { profile: 'geoblocked' }, live.ctx))).code).toBe('sourceRefused');
  });

  it('drift: a status without its counts, an account without its followers → sourceChanged', async () => {
    const drifted = await startReplay(truthsocialReplay(DRIFT));
    const ctx = liveContext('truthsocial', drifted, {}, [TRUTH_HOST]);
    try {
      expect((await failure(runLive('truthsocial.post', { post: POST }, ctx.ctx))).code).toBe('sourceChanged');
      expect((await failure(runLive('truthsocial.profile', { profile: 'ExampleTruther' }, ctx.ctx))).code).toBe('sourceChanged');
    } finally {
      await ctx.close();
      await drifted.close();
    }
  });
});

describe('truthsocial through the gateway (documented answers)', () => {
  const g = useSourceGateway(() => ({
    replay: truthsocialReplay([...WALLS, { ...DRIFT[1], query: { acct: 'drifted' } }]),
    hosts: [TRUTH_HOST],
    env: { QUARRY_UPSTREAM_RETRIES: '0' },
  }));

  it('live: priced per 20 posts that came back, paging by the cursor; a key is needed', async () => {
    const before = await g.balance();
    const first = await g.post('/v1/truthsocial/posts', { profile: 'ExampleTruther', limit: 40 });
    expect([first.status, first.json.creditsUsed, first.json.data.posts.length]).toEqual([200, 1, 3]);
    const next = await g.post('/v1/truthsocial/posts', { profile: 'ExampleTruther', limit: 40, cursor: first.json.data.cursor });
    expect(next.json.data.posts).toHaveLength(2);
    expect(await g.balance()).toBe(before - 2);
    expect((await g.post('/v1/truthsocial/profile', { profile: 'ExampleTruther' }, 'anonymous')).status).toBe(401);
  });

  it('test mode answers every example from the samples, never upstream, no credits spent', async () => {
    await g.expectTestMode(() => g.expectExamples('truthsocial'));
  });

  it('drift → 502 sourceChanged; Cloudflare → 502 sourceRefused; no token for search → 503; unknown → 404; all unbilled', async () => {
    await g.expectDrift('/v1/truthsocial/profile', { profile: 'drifted' });
    await g.expectRefused('/v1/truthsocial/profile', { profile: 'challenged' });
    await g.expectFailure('/v1/truthsocial/search', { query: 'example' }, { status: 503, code: 'sourceUnavailable' });
    await g.expectFailure('/v1/truthsocial/profile', { profile: 'nobody' }, { status: 404, code: 'notFound' });
  });
});
