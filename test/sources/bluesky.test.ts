/**
 * bluesky against the replay double (test/sources/bluesky-doubles.ts): every recording of ../shared/upstream/bluesky
 * is read, through the live operations (profiles, author feed, thread, posts, handle resolution, signed-in search,
 * followers and follows, a custom feed) or, for the views no endpoint asks (quotes, reposters, a starter pack,
 * typeahead), through the same readers. The session and account search are written from the lexicon (named so).
 * Then walls, drift, test mode and the gateway (keyless calls, prices, paging).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SEARCH_ACTORS_ROUTE } from '../../scripts/samples/bluesky.js';
import { actorOf, feedRef, postRef } from '../../src/sources/bluesky/client.js';
import { accountOf, postOf, threadOf } from '../../src/sources/bluesky/normalise.js';
import { failure } from '../helpers/failure.js';
import { haveRecordings, skipReason, startReplay, type Replay, type ReplayRoute } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';
import { ACCESS_JWT, APPVIEW, BSKY_HOSTS, ENTRYWAY, SETTINGS, blueskyReplay, recorded, xrpcError } from './bluesky-doubles.js';

const F = 'bluesky';
const POST = 'at://did:plc:ic6zqvuw5ulmfpjiwnhsr2ns/app.bsky.feed.post/3k7qmjev5lr2s';
const FEED = 'at://did:plc:z72i7hdynmk6r22z27h6tvur/app.bsky.feed.generator/bsky-team';
const KENNY = 'did:plc:wpe35pganb6d4pg4ekmfy6u5';
/** The recordings ask for this account by handle. */
const KENNY_HANDLE = 'chriskenny.bsky.social';

/** The error answers of the AppView, written from the lexicon (XRPC errors are `{error, message}` with HTTP 400). */
const ERRORS: ReplayRoute[] = [
  { host: APPVIEW, path: '/xrpc/app.bsky.actor.getProfiles', query: { actors: 'nobody.bsky.social' }, text: '{"profiles":[]}', headers: { 'content-type': 'application/json' } },
  { host: APPVIEW, path: '/xrpc/app.bsky.feed.getAuthorFeed', query: { actor: 'nobody.bsky.social' }, ...xrpcError(400, 'InvalidRequest', 'Profile not found') },
  { host: APPVIEW, path: '/xrpc/app.bsky.feed.getPostThread', query: { uri: `at://${KENNY}/app.bsky.feed.post/3lgone` }, ...xrpcError(400, 'NotFound', `Post not found: at://${KENNY}/app.bsky.feed.post/3lgone`) },
  { host: APPVIEW, path: '/xrpc/app.bsky.actor.getProfiles', query: { actors: 'throttled.bsky.social' }, status: 429, text: '{"error":"RateLimitExceeded","message":"Rate Limit Exceeded"}', headers: { 'content-type': 'application/json', 'retry-after': '30' } },
  { host: APPVIEW, path: '/xrpc/app.bsky.actor.getProfiles', query: { actors: 'walled.bsky.social' }, ...xrpcError(401, 'AuthenticationRequired', 'Authentication Required') },
];

describe('bluesky references (no recordings needed)', () => {
  it.each([
    ['alice.bsky.social', 'alice.bsky.social'],
    ['@Alice.Bsky.Social', 'alice.bsky.social'],
    ['did:plc:wpe35pganb6d4pg4ekmfy6u5', KENNY],
    ['https://bsky.app/profile/chriskenny.bsky.social', 'chriskenny.bsky.social'],
    ['bsky.app/profile/did:plc:wpe35pganb6d4pg4ekmfy6u5/post/3abc', KENNY],
  ])('actor %s → %s', (input, actor) => expect(actorOf(input)).toBe(actor));

  it('posts and feeds by address or AT URI; anything else is a 400 naming the field', async () => {
    expect(postRef(POST)).toEqual({ actor: 'did:plc:ic6zqvuw5ulmfpjiwnhsr2ns', rkey: '3k7qmjev5lr2s' });
    expect(postRef('https://bsky.app/profile/chriskenny.bsky.social/post/3loagm2phgk2t')).toEqual({ actor: 'chriskenny.bsky.social', rkey: '3loagm2phgk2t' });
    expect(feedRef('https://bsky.app/profile/bsky.app/feed/whats-hot')).toEqual({ actor: 'bsky.app', rkey: 'whats-hot' });
    expect(feedRef(FEED)).toEqual({ actor: 'did:plc:z72i7hdynmk6r22z27h6tvur', rkey: 'bsky-team' });
    for (const [f, input] of [['post', FEED], ['post', 'https://bsky.app/profile/x.bsky.social'], ['feed', POST], ['post', 'https://example.com/profile/a.b/post/c']] as const) {
      const e = await failure(() => (f === 'post' ? postRef(input) : feedRef(input)));
      expect([e.code, e.message.startsWith(`${f}: `)]).toEqual(['invalidRequest', true]);
    }
    expect((await failure(() => actorOf('not a handle'))).message).toMatch(/^profile: /);
  });
});

describe.skipIf(!haveRecordings(F))(`bluesky views no endpoint asks, through the same readers${skipReason(F)}`, () => {
  it('getQuotes.json: quote posts, the quoted post named in quoteOf (a record and a record with media)', () => {
    const posts = recorded('getQuotes.json').posts.map((p: unknown) => postOf(p));
    expect(posts.map((p: any) => [p.author.username, p.quoteOf.id])).toEqual([
      ['randvegan.bsky.social', 'at://did:plc:5c2r73erhng4bszmxlfdtscf/app.bsky.feed.post/3lc5c5qv72r2w'],
      ['chriskenny.bsky.social', 'at://did:plc:5c2r73erhng4bszmxlfdtscf/app.bsky.feed.post/3lc5c5qv72r2w'],
    ]);
    expect(posts[0].quoteOf.author.username).toBe('bskyr.bsky.social');
    expect(posts[1].link).toMatchObject({ url: 'https://christophertkenny.com/bskyr/', title: 'Interact with Bluesky Social' });
  });

  it('a thread with replies (recorded post views in the lexicon’s threadViewPost nesting): flat in reading order, cut at limit', () => {
    // The recorded thread has no replies: this one nests recorded post views as app.bsky.feed.defs#threadViewPost does,
    // each given the app.bsky.feed.post#replyRef its place in the thread implies.
    const root = recorded('getPostThread.json').thread.post;
    const [quote1, quote2] = recorded('getQuotes.json').posts;
    const answering = (post: any, parent: any) => ({ ...post, record: { ...post.record, reply: { parent: { uri: parent.uri, cid: parent.cid }, root: { uri: root.uri, cid: root.cid } } } });
    const first = answering(quote1, root);
    const second = answering(quote2, first);
    const third = answering(quote2, root);
    const view = (post: unknown, replies: unknown[] = []) => ({ $type: 'app.bsky.feed.defs#threadViewPost', post, replies });
    const answer = {
      thread: view(root, [
        view(first, [view(second)]),
        { $type: 'app.bsky.feed.defs#notFoundPost', uri: 'at://did:plc:gone/app.bsky.feed.post/x', notFound: true },
        view(third),
      ]),
    };
    const thread = threadOf(answer, 10);
    expect(thread.replies.map((r) => [r.author.username, r.replyTo?.author?.username])).toEqual([
      ['randvegan.bsky.social', 'soubhikbarari.bsky.social'],
      ['chriskenny.bsky.social', 'randvegan.bsky.social'],
      ['chriskenny.bsky.social', 'soubhikbarari.bsky.social'],
    ]);
    expect(threadOf(answer, 2).replies).toHaveLength(2);
  });

  it('getRepostedBy.json, getStarterPack.json and searchActorsTypeahead.json: accounts', () => {
    expect(accountOf(recorded('getRepostedBy.json').repostedBy[0])).toMatchObject({ username: 'jaeyeonkim.bsky.social', name: 'Jae Yeon Kim' });
    const pack = recorded('getStarterPack.json').starterPack;
    expect(accountOf(pack.creator).username).toBe('chriskenny.bsky.social');
    expect(pack.listItemsSample.map((i: any) => accountOf(i.subject).username)).toHaveLength(12);
    expect(recorded('searchActorsTypeahead.json').actors.map((a: unknown) => accountOf(a).username).slice(0, 2)).toEqual(['bjpols.bsky.social', 'pspolisci.bsky.social']);
  });
});

describe('bluesky test mode (committed samples)', () => {
  it('every example answers from the samples; lists page through them', async () => {
    expect((await runSample('bluesky.profile', { profile: 'bsky.app' })).data.profile.username).toBe('chriskenny.bsky.social');
    const first = await runSample('bluesky.posts', { profile: 'bsky.app' });
    expect([first.data.posts.length, first.data.cursor]).toEqual([25, '25~']);
    expect((await runSample('bluesky.posts', { profile: 'bsky.app', cursor: '25~' })).data.posts).toHaveLength(25);
    expect((await runSample('bluesky.post', { post: POST })).data.post.likes).toBe(4);
    expect((await runSample('bluesky.search', { query: 'q' })).data.posts).toHaveLength(12);
    expect((await runSample('bluesky.search', { query: 'q', type: 'users' })).data.users).toHaveLength(2);
    expect((await runSample('bluesky.followers', { profile: 'bsky.app' })).data.users).toHaveLength(24);
    expect((await runSample('bluesky.feed', { feed: FEED })).data.posts).toHaveLength(3);
  });
});

describe.skipIf(!haveRecordings(F))(`bluesky against the recordings${skipReason(F)}`, () => {
  let replay: Replay;
  let live: LiveContext;
  let signed: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(blueskyReplay([SEARCH_ACTORS_ROUTE, ...ERRORS]));
    live = liveContext(F, replay, {}, BSKY_HOSTS);
    signed = liveContext(F, replay, SETTINGS, BSKY_HOSTS);
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

  it('getProfiles.json: the profile, asked of the keyless AppView', async () => {
    const out = await runLive('bluesky.profile', { profile: 'https://bsky.app/profile/chriskenny.bsky.social' }, live.ctx);
    expect(out.data.profile).toMatchObject({
      type: 'profile', id: KENNY, username: 'chriskenny.bsky.social', url: 'https://bsky.app/profile/chriskenny.bsky.social',
      followers: 554, following: 296, posts: 65, name: 'Chris Kenny', createdAt: '2023-09-19T15:47:01.417Z', lists: 1, starterPacks: 1,
    });
    expect(replay.seen.map((s) => [s.host, s.path, s.query.get('actors')])).toEqual([[APPVIEW, '/xrpc/app.bsky.actor.getProfiles', 'chriskenny.bsky.social']]);
    expect(replay.served()).toEqual(['bluesky/getProfiles.json']);
  });

  it('getAuthorFeed.json: posts with replies, reposts, quotes, links and images; a cut page owes the rest', async () => {
    const first = await runLive('bluesky.posts', { profile: 'chriskenny.bsky.social', filter: 'replies', limit: 25 }, live.ctx);
    const asked = replay.seen[0].query;
    expect([asked.get('actor'), asked.get('filter'), asked.get('limit')]).toEqual(['chriskenny.bsky.social', 'posts_with_replies', '25']);
    expect([first.data.posts.length, first.data.cursor, first.items]).toEqual([25, '25~', 25]);
    const all = [...first.data.posts, ...(await runLive('bluesky.posts', { profile: 'chriskenny.bsky.social', filter: 'replies', limit: 25, cursor: '25~' }, live.ctx)).data.posts];
    expect(new Set(all.map((p: any) => p.id)).size).toBe(50);
    const reply = all.find((p: any) => p.replyTo);
    expect(reply.replyTo).toMatchObject({ id: 'at://did:plc:z4cp3uwgxiioi7uaxn2boq47/app.bsky.feed.post/3lobj4swhjo2x', author: { username: 'smachlis.bsky.social' } });
    expect(reply.conversationId).toBe('at://did:plc:z4cp3uwgxiioi7uaxn2boq47/app.bsky.feed.post/3lobj4swhjo2x');
    const reposts = all.filter((p: any) => p.repostedBy);
    expect(reposts).toHaveLength(7);
    expect(reposts[0].repostedBy.username).toBe('chriskenny.bsky.social');
    expect(reposts.every((p: any) => p.repostedAt)).toBe(true);
    expect(all.find((p: any) => p.link)?.link).toMatchObject({ url: expect.stringMatching(/^https:\/\//), title: expect.any(String) });
    const quote = all.find((p: any) => p.id.endsWith('/3loagm2phgk2t'));
    expect(quote).toMatchObject({ hashtags: ['rstats'], quoteOf: { author: { username: 'cranupdates.bsky.social' } }, images: [{ width: 652, height: 348 }] });
  });

  it('getPostThread.json by AT URI or address; getPosts.json when replies are not asked', async () => {
    const out = await runLive('bluesky.post', { post: 'https://bsky.app/profile/did:plc:ic6zqvuw5ulmfpjiwnhsr2ns/post/3k7qmjev5lr2s' }, live.ctx);
    expect(out.data.post).toMatchObject({ id: POST, url: 'https://bsky.app/profile/soubhikbarari.bsky.social/post/3k7qmjev5lr2s', likes: 4, language: 'en', comments: 0 });
    expect(out.data.replies).toBeUndefined();
    expect(replay.seen[0].query.get('depth')).toBe('6');
    const alone = await runLive('bluesky.post', { post: POST, includeReplies: false }, live.ctx);
    expect(alone.data.post).toEqual(out.data.post);
    expect(replay.served()).toEqual(['bluesky/getPostThread.json', 'bluesky/getPosts.json']);
  });

  it('resolveHandle.json: an address under a handle is asked by DID; a post the AppView does not have is notFound', async () => {
    const e = await failure(runLive('bluesky.post', { post: 'https://bsky.app/profile/chriskenny.bsky.social/post/3lgone' }, live.ctx));
    expect([e.code, e.message]).toEqual(['notFound', `post: not found on Bluesky (Post not found: at://${KENNY}/app.bsky.feed.post/3lgone)`]);
    expect(replay.served()[0]).toBe('bluesky/resolveHandle.json');
  });

  it('searchPosts.json: asked as the operator’s account (documented session), two pages of one recorded page', async () => {
    const first = await runLive('bluesky.search', { query: 'redistricting', limit: 12 }, signed.ctx);
    const [login, search] = replay.seen;
    expect([login.method, login.host, login.path, login.body]).toEqual(['POST', ENTRYWAY, '/xrpc/com.atproto.server.createSession', { identifier: SETTINGS.HANDLE, password: SETTINGS.APP_PASSWORD }]);
    expect([search.host, search.headers.authorization, search.query.get('sort'), search.query.get('q')]).toEqual([ENTRYWAY, `Bearer ${ACCESS_JWT}`, 'latest', 'redistricting']);
    expect(first.data.posts[0]).toMatchObject({ id: 'at://did:plc:kkergqgbhb56ptpwj2wenkje/app.bsky.feed.post/3lpk2u6qo222m', author: { username: 'socpaperbot.bsky.social' } });
    expect(first.data.cursor).toBe('12~');
    replay.seen.length = 0;
    const next = await runLive('bluesky.search', { query: 'redistricting', limit: 12, cursor: '12~' }, signed.ctx);
    expect(replay.seen.map((s) => s.path)).toEqual(['/xrpc/app.bsky.feed.searchPosts']); // the session is cached
    expect(next.data.posts[0].id).toBe(recorded('searchPosts.json').posts[12].uri);
  });

  it('post search filters go to Bluesky; without an account it is sourceUnavailable naming the settings', async () => {
    await runLive('bluesky.search', { query: 'redistricting', sort: 'top', author: '@chriskenny.bsky.social', language: 'en', from: '2025-01-01', to: '2025-01-31', limit: 5 }, signed.ctx);
    const q = replay.seen.at(-1)!.query;
    expect([q.get('sort'), q.get('author'), q.get('lang'), q.get('since'), q.get('until'), q.get('limit')]).toEqual(['top', 'chriskenny.bsky.social', 'en', '2025-01-01', '2025-02-01', '5']);
    const e = await failure(runLive('bluesky.search', { query: 'redistricting' }, live.ctx));
    expect([e.code, e.retryable, e.message]).toEqual(['sourceUnavailable', false, expect.stringContaining('QUARRY_BLUESKY_HANDLE and QUARRY_BLUESKY_APP_PASSWORD')]);
  });

  it('an expired access token is renewed once; a refused account is sourceUnavailable', async () => {
    let refused = 1;
    const r = await startReplay(
      blueskyReplay([
        { host: ENTRYWAY, path: '/xrpc/app.bsky.feed.searchPosts', match: () => refused-- > 0, ...xrpcError(401, 'ExpiredToken', 'Token has expired') },
        { method: 'POST', host: 'refused.example', path: '/xrpc/com.atproto.server.createSession', ...xrpcError(401, 'AuthenticationRequired', 'Invalid identifier or password') },
      ]),
    );
    const ctx = liveContext(F, r, { HANDLE: 'renewing.bsky.social', APP_PASSWORD: 'x' }, [...BSKY_HOSTS, 'refused.example']);
    const bad = liveContext(F, r, { HANDLE: 'someone', APP_PASSWORD: 'wrong', SERVICE: 'https://refused.example' }, [...BSKY_HOSTS, 'refused.example']);
    try {
      const out = await runLive('bluesky.search', { query: 'redistricting', limit: 3 }, ctx.ctx);
      expect(out.data.posts).toHaveLength(3);
      expect(r.seen.map((s) => s.path)).toEqual(['/xrpc/com.atproto.server.createSession', '/xrpc/app.bsky.feed.searchPosts', '/xrpc/com.atproto.server.createSession', '/xrpc/app.bsky.feed.searchPosts']);
      const e = await failure(runLive('bluesky.search', { query: 'x' }, bad.ctx));
      expect([e.code, e.message]).toEqual(['sourceUnavailable', expect.stringContaining('Invalid identifier or password')]);
    } finally {
      await ctx.close();
      await bad.close();
      await r.close();
    }
  });

  it('documented (not recorded) account search: searchActors on the AppView, keyless; a handle that failed is shown by DID', async () => {
    const out = await runLive('bluesky.search', { query: 'political science', type: 'users' }, live.ctx);
    expect(replay.seen.map((s) => [s.host, s.path])).toEqual([[APPVIEW, '/xrpc/app.bsky.actor.searchActors']]);
    expect(out.data.users.map((u: any) => u.username)).toEqual(['polisci-example.bsky.social', 'did:plc:bbbbbbbbbbbbbbbbbbbbbbb3']);
    expect(out.data.cursor).toBeUndefined();
    expect((await failure(runLive('bluesky.search', { query: 'x', type: 'users', language: 'en' }, live.ctx))).message).toMatch(/^type: /);
  });

  it('getFollowers.json and getFollows.json', async () => {
    const followers = await runLive('bluesky.followers', { profile: KENNY_HANDLE, limit: 100 }, live.ctx);
    expect([followers.data.users.length, followers.data.cursor]).toEqual([48, '3lktasir3le2j']);
    const follows = await runLive('bluesky.followers', { profile: KENNY_HANDLE, type: 'following', limit: 100 }, live.ctx);
    expect([follows.data.users.length, follows.data.users[0].username]).toEqual([48, 'sunyoungpark.bsky.social']);
    expect(replay.served()).toEqual(['bluesky/getFollowers.json', 'bluesky/getFollows.json']);
  });

  it('getFeed.json: a custom feed by its AT URI', async () => {
    const out = await runLive('bluesky.feed', { feed: FEED, limit: 30 }, live.ctx);
    expect(out.data.posts.map((p: any) => p.author.username)).toEqual(['bsky.app', 'bsky.app', 'atproto.com', 'atproto.com', 'bsky.app', 'bsky.app', 'bsky.app']);
    expect(out.data.cursor).toBe('2025-04-21T16:01:54Z');
  });

  it('XRPC errors: an unknown account or post is notFound; a page after a recorded one is not recorded', async () => {
    expect((await failure(runLive('bluesky.profile', { profile: 'nobody.bsky.social' }, live.ctx))).code).toBe('notFound');
    expect((await failure(runLive('bluesky.posts', { profile: 'nobody.bsky.social' }, live.ctx))).message).toBe('profile: not found on Bluesky (Profile not found)');
    expect((await failure(runLive('bluesky.posts', { profile: KENNY_HANDLE, cursor: '2024-03-21T23:36:16.378Z' }, live.ctx))).code).toBe('sourceUnavailable');
    expect((await failure(runLive('bluesky.posts', { profile: KENNY_HANDLE, cursor: '3~<script>' }, live.ctx))).code).toBe('invalidRequest');
  });

  it('drift: a profile without its follower count, a post without its like count → sourceChanged', async () => {
    replay.mutate = (name, body) => body.replace(/"followersCount":\d+,/, '').replace(/"likeCount":\d+,/g, '');
    expect((await failure(runLive('bluesky.profile', { profile: KENNY_HANDLE }, live.ctx))).code).toBe('sourceChanged');
    expect((await failure(runLive('bluesky.post', { post: POST }, live.ctx))).code).toBe('sourceChanged');
  });
});

describe.skipIf(!haveRecordings(F))(`bluesky through the gateway${skipReason(F)}`, () => {
  const g = useSourceGateway(() => ({
    replay: blueskyReplay([SEARCH_ACTORS_ROUTE, ...ERRORS]),
    hosts: BSKY_HOSTS,
    env: { QUARRY_UPSTREAM_RETRIES: '0', QUARRY_BLUESKY_HANDLE: SETTINGS.HANDLE, QUARRY_BLUESKY_APP_PASSWORD: SETTINGS.APP_PASSWORD },
  }));

  it('profiles, posts, threads, followers and feeds are keyless; search needs a key; paging needs a key', async () => {
    for (const [path, body] of [
      ['/v1/bluesky/profile', { profile: KENNY_HANDLE }],
      ['/v1/bluesky/posts', { profile: KENNY_HANDLE, limit: 10 }],
      ['/v1/bluesky/post', { post: POST }],
      ['/v1/bluesky/followers', { profile: KENNY_HANDLE }],
      ['/v1/bluesky/feed', { feed: FEED }],
    ] as const) {
      const r = await g.post(path, body, 'anonymous');
      expect([path, r.status]).toEqual([path, 200]);
    }
    expect((await g.post('/v1/bluesky/search', { query: 'redistricting' }, 'anonymous')).status).toBe(401);
    expect((await g.post('/v1/bluesky/posts', { profile: KENNY_HANDLE, cursor: '10~' }, 'anonymous')).status).toBe(401);
  });

  it('live: posts priced per 30 that came back, search per 25, paging by the cursor', async () => {
    const before = await g.balance();
    const first = await g.post('/v1/bluesky/posts', { profile: KENNY_HANDLE, filter: 'replies', limit: 40 });
    expect([first.status, first.json.data.posts.length, first.json.creditsUsed, first.json.data.cursor]).toEqual([200, 40, 2, '40~']);
    const next = await g.post('/v1/bluesky/posts', { profile: KENNY_HANDLE, filter: 'replies', limit: 40, cursor: '40~' });
    expect([next.json.data.posts.length, next.json.creditsUsed]).toEqual([10, 1]);
    const s = await g.post('/v1/bluesky/search', { query: 'redistricting', limit: 25 });
    expect([s.status, s.json.data.posts.length, s.json.creditsUsed]).toEqual([200, 25, 1]);
    expect(await g.balance()).toBe(before - 4);
  });

  it('test mode answers every example from the samples, never upstream, no credits spent', async () => {
    await g.expectTestMode(async () => {
      await g.expectExamples('bluesky');
      const next = await g.post('/v1/bluesky/followers', { profile: 'x.bsky.social', cursor: '24~' }, 'test');
      expect(next.json.data.users).toHaveLength(24);
    });
  });

  it('drift → 502 sourceChanged; a throttle or a sign-in wall → 502 sourceRefused; unknown → 404; all unbilled', async () => {
    await g.expectDrift('/v1/bluesky/profile', { profile: KENNY_HANDLE, maxAge: 0 }, (name, body) => (name === 'bluesky/getProfiles.json' ? body.replace(/"followersCount":\d+,/, '') : body));
    await g.expectRefused('/v1/bluesky/profile', { profile: 'throttled.bsky.social' });
    await g.expectRefused('/v1/bluesky/profile', { profile: 'walled.bsky.social' });
    await g.expectFailure('/v1/bluesky/profile', { profile: 'nobody.bsky.social' }, { status: 404, code: 'notFound' });
  });
});
