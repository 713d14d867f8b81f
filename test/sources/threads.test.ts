/**
 * threads on the official Threads API. No recording of it exists: every answer served here is the documentation's own
 * example (test/fixtures/documented/threads/, written from developers.facebook.com/docs/threads), named as such.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documented } from '../../scripts/samples/documented.js';
import { ROUTES, THREADS_REPLAY, TOKEN } from '../../scripts/samples/threads.js';
import { postOf, usernameOf } from '../../src/sources/threads/refs.js';
import { failure } from '../helpers/failure.js';
import { post } from '../helpers/gateway.js';
import { startReplay, type Replay, type ReplayRoute } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';

const G = 'graph.threads.net';
const json = { 'content-type': 'application/json' };
const errors = JSON.parse(documented('threads', 'errors.json'));
/** The documented Graph error answers, each on a name of its own. */
const ERRORS: ReplayRoute[] = [
  { host: G, path: '/v1.0/profile_lookup', query: { username: 'expired' }, status: 400, text: JSON.stringify(errors.expired_token), headers: json },
  { host: G, path: '/v1.0/profile_lookup', query: { username: 'noperm' }, status: 403, text: JSON.stringify(errors.missing_permission), headers: json },
  { host: G, path: '/v1.0/profile_lookup', query: { username: 'throttled' }, status: 400, text: JSON.stringify(errors.rate_limited), headers: json },
  { host: G, path: '/v1.0/999', status: 400, text: JSON.stringify(errors.not_found), headers: json },
  { host: G, path: '/v1.0/profile_lookup', query: { username: 'drifted' }, text: documented('threads', 'profile_lookup.json').replace('"follower_count"', '"followers"'), headers: json },
];

describe('threads references', () => {
  it('accounts and posts; the bad field named', async () => {
    expect(usernameOf('https://www.threads.com/@meta')).toBe('meta');
    expect(usernameOf('@meta')).toBe('meta');
    expect(postOf('1234567')).toEqual({ id: '1234567' });
    expect(postOf('https://www.threads.net/@meta/post/abcdefg')).toEqual({ username: 'meta', shortcode: 'abcdefg' });
    expect((await failure(() => postOf('https://www.threads.com/@meta'))).message).toMatch(/^post: /);
  });
});

describe('threads against the documented (not recorded) Threads API', () => {
  let replay: Replay;
  let live: LiveContext;
  let untokened: LiveContext;
  beforeAll(async () => {
    replay = await startReplay({ folders: [], routes: [...ERRORS, ...ROUTES] });
    live = liveContext('threads', replay, TOKEN, [G]);
    untokened = liveContext('threads', replay, {}, [G]);
  });
  afterAll(async () => {
    await Promise.all([live.close(), untokened.close()]);
    await replay.close();
  });

  it('profile_lookup: the profile, the week’s counts apart from all-time ones; the token never in the address', async () => {
    const out = await runLive('threads.profile', { profile: '@meta' }, live.ctx);
    expect(out.data.profile).toEqual({
      type: 'profile', username: 'meta', url: 'https://www.threads.com/@meta', followers: 1234567, name: 'Meta',
      bio: 'Connect with what you love to make things happen. It’s Your World.', avatar: expect.any(String), isVerified: true,
      lastWeek: { likes: 1234567, quotes: 1234567, replies: 1234567, reposts: 1234567, views: 1234567 },
    });
    expect(replay.seen.at(-1)!.query.has('access_token')).toBe(false);
  });

  it('profile_posts: documented fields, the topic tag as hashtag, quotes, media; a full page gives a cursor', async () => {
    const first = await runLive('threads.posts', { profile: 'meta', limit: 2, from: '2023-10-01', to: '2023-10-31' }, live.ctx);
    expect(first.data.posts[0]).toEqual({
      type: 'post', id: '1234567', createdAt: '2023-10-17T05:42:03.000Z', url: 'https://www.threads.net/@meta/post/abcdefg', text: 'Today Is Monday',
      author: { username: 'meta', url: 'https://www.threads.com/@meta' }, isVideo: false, hashtags: ['Mondays'], quoteOf: { id: '7654321' }, mediaType: 'TEXT_POST',
    });
    expect(first.data.posts[1]).toMatchObject({ images: [{ url: 'https://scontent.cdninstagram.com/link/to/image.jpg', alt: 'A sunrise' }], mentions: ['threads'] });
    expect(first.data.cursor).toBe('AFTER_CURSOR');
    const asked = replay.seen.at(-1)!.query;
    expect([asked.get('limit'), asked.get('since'), asked.get('until')]).toEqual(['2', '1696118400', '1698796799']);
    expect(asked.get('fields')).toContain('children{id,media_type,media_url,thumbnail_url,alt_text}');
    const next = await runLive('threads.posts', { profile: 'meta', limit: 2, cursor: first.data.cursor }, live.ctx);
    expect(next.data.posts[0]).toMatchObject({ id: '1234569', isVideo: true, video: { url: expect.stringContaining('video.mp4') }, link: { url: 'https://about.meta.com/' } });
    expect(next.data.cursor).toBeUndefined(); // a short page is the last
  });

  it('one post by id, or by address among its author’s latest posts', async () => {
    expect((await runLive('threads.post', { post: '1234567' }, live.ctx)).data.post).toMatchObject({ id: '1234567', createdAt: '2023-10-09T23:18:27.000Z' });
    expect((await runLive('threads.post', { post: 'https://www.threads.com/@meta/post/abcdefh' }, live.ctx)).data.post.id).toBe('1234568');
    const e = await failure(runLive('threads.post', { post: 'https://www.threads.com/@meta/post/zzzzzzz' }, live.ctx));
    expect(e.code).toBe('notFound');
    expect(e.message).toMatch(/give the post's id/);
  });

  it('keyword_search: sort, mode, media type and dates become the documented parameters', async () => {
    const out = await runLive('threads.search', { query: 'Mondays', mode: 'tag', sort: 'recent', mediaType: 'image', from: '2020-01-01' }, live.ctx);
    expect(out.data.posts).toEqual([expect.objectContaining({ id: '1234567890', text: 'first thread', hasReplies: false, mediaType: 'TEXT' })]);
    const q = replay.seen.at(-1)!.query;
    expect(Object.fromEntries(['q', 'search_type', 'search_mode', 'media_type', 'since'].map((k) => [k, q.get(k)]))).toEqual({
      q: 'Mondays', search_type: 'RECENT', search_mode: 'TAG', media_type: 'IMAGE', since: '1688540400', // the API's earliest date
    });
  });

  it('without a token: sourceUnavailable naming QUARRY_THREADS_ACCESS_TOKEN', async () => {
    const e = await failure(runLive('threads.profile', { profile: 'meta' }, untokened.ctx));
    expect([e.code, e.retryable]).toEqual(['sourceUnavailable', false]);
    expect(e.message).toContain('QUARRY_THREADS_ACCESS_TOKEN');
  });

  it('the documented Graph errors: token, permission, rate limit, missing object, drift', async () => {
    const expired = await failure(runLive('threads.profile', { profile: 'expired' }, live.ctx));
    expect([expired.code, expired.retryable]).toEqual(['sourceUnavailable', false]);
    expect((await failure(runLive('threads.profile', { profile: 'noperm' }, live.ctx))).message).toMatch(/threads_profile_discovery/);
    expect((await failure(runLive('threads.profile', { profile: 'throttled' }, live.ctx))).code).toBe('sourceRefused');
    expect((await failure(runLive('threads.post', { post: '999' }, live.ctx))).code).toBe('notFound');
    expect((await failure(runLive('threads.profile', { profile: 'drifted' }, live.ctx))).code).toBe('sourceChanged');
  });
});

describe('threads test mode', () => {
  it('answers the examples, and walks the documented pages', async () => {
    expect((await runSample('threads.profile', { profile: 'x' })).data.profile.username).toBe('meta');
    const first = await runSample('threads.posts', { profile: 'x' });
    const next = await runSample('threads.posts', { profile: 'x', cursor: first.data.cursor });
    expect(next.data.posts.map((p: any) => p.id)).toEqual(['1234569']);
  });
});

describe('threads through the gateway', () => {
  const g = useSourceGateway(() => ({ replay: { ...THREADS_REPLAY, routes: [...ERRORS, ...ROUTES] }, hosts: [G], env: { QUARRY_THREADS_ACCESS_TOKEN: TOKEN.ACCESS_TOKEN } }));

  it('live: priced per 25 posts, paged by the API’s after cursor', async () => {
    const before = await g.balance();
    const r = await g.post('/v1/threads/posts', { profile: 'meta', limit: 2 });
    expect(r.status).toBe(200);
    expect(r.json.creditsUsed).toBe(1);
    const next = await g.post('/v1/threads/posts', { profile: 'meta', limit: 2, cursor: r.json.data.cursor });
    expect(next.json.data.posts).toHaveLength(1);
    expect(await g.balance()).toBe(before - 2);
  });

  it('test mode: the samples, never upstream, no credits spent', async () => {
    await g.expectTestMode(async () => {
      const r = await g.post('/v1/threads/search', { query: 'anything' }, 'test');
      expect(r.status).toBe(200);
    });
  });

  it('drift → 502 sourceChanged and Meta throttling → 502 sourceRefused, both unbilled', async () => {
    await g.expectDrift('/v1/threads/profile', { profile: 'drifted' });
    await g.expectRefused('/v1/threads/profile', { profile: 'throttled' });
  });
});
