/**
 * x.post and x.search against the replay double (test/sources/x-doubles.ts): every recording of
 * ../shared/upstream/microblog read through the live client, the anonymous path through its documented envelope,
 * the session requirement, the failure shapes and drift; then the same over HTTP through the gateway.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_QUERY_IDS, postId } from '../../src/sources/x/client.js';
import { normaliseAuthor, normaliseTweet } from '../../src/sources/x/normalise.js';
import { failure } from '../helpers/failure.js';
import { post as call, startGateway, type TestGateway } from '../helpers/gateway.js';
import { haveRecordings, readRecordingJson, skipReason, startReplay, type Replay } from '../helpers/replay.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';
import { SESSION, variablesOf, xReplay } from './x-doubles.js';

const JSON_TYPE = { 'content-type': 'application/json' };
const DETAIL = '1649191520250245121';
const POLL = '1780666831310877100';
const VIDEO = '1671508600538161153';
const CURSOR = 'DAAKCgABHPEX5kT__qkLAAIAAAGoRW1QQzZ3QUFB';

describe('x post addresses (no recordings needed)', () => {
  it.each([
    ['1790000000000000000', '1790000000000000000'],
    ['https://x.com/nasa/status/1790000000000000000', '1790000000000000000'],
    ['https://twitter.com/nasa/status/1790000000000000000/photo/1?s=20', '1790000000000000000'],
    ['mobile.twitter.com/nasa/statuses/1790000000000000000', '1790000000000000000'],
    ['https://x.com/i/web/status/1790000000000000000', '1790000000000000000'],
  ])('%s → %s', (input, id) => expect(postId(input)).toBe(id));

  it.each(['https://example.com/nasa/status/1', 'https://x.com/nasa', 'not a post', 'https://x.com/nasa/status/12a'])('%s → 400 naming post', async (input) => {
    const err = await failure(() => postId(input));
    expect([err.code, err.message]).toEqual(['invalidRequest', 'post: not an X post id or address']);
  });

  it('a tweet result without its counts → sourceChanged', async () => {
    expect((await failure(() => normaliseTweet({ __typename: 'Tweet', rest_id: '1', legacy: {} }))).code).toBe('sourceChanged');
    expect((await failure(() => normaliseTweet({ __typename: 'TweetTombstone' }))).code).toBe('sourceChanged');
  });
});

describe('x test mode (committed samples)', () => {
  it('x.post answers its catalogue example with a recorded post and replies', async () => {
    const r = await runSample('x.post', { post: 'https://x.com/nasa/status/1790000000000000000' });
    expect(r.data.post).toMatchObject({ type: 'post', id: DETAIL, author: { username: 'XDevelopers' } });
    expect(r.data.replies.length).toBeGreaterThan(0);
    const past = await runSample('x.post', { post: '1', cursor: r.data.cursor });
    expect(past).toMatchObject({ free: true });
  });

  it('x.search answers its example, cut to limit', async () => {
    expect((await runSample('x.search', { query: 'from:nasa artemis', limit: 20 })).data.posts).toHaveLength(20);
    expect((await runSample('x.search', { query: 'x', limit: 3 })).data.posts).toHaveLength(3);
  });
});

describe.skipIf(!haveRecordings('microblog'))(`x against the recordings${skipReason('microblog')}`, () => {
  let replay: Replay;
  let session: LiveContext;
  let anonymous: LiveContext;

  beforeAll(async () => {
    replay = await startReplay(xReplay([
      // A later page of replies was not recorded: the first page's answer stands in, to show the cursor is sent.
      { host: 'x.com', path: /\/TweetDetail$/, file: 'microblog/tweet-detail.TweetDetail.json', match: (s) => variablesOf(s).cursor === CURSOR },
      { host: 'x.com', path: /\/TweetDetail$/, status: 404, text: '', match: (s) => variablesOf(s).focalTweetId === '404' },
      { host: 'x.com', path: /\/TweetDetail$/, status: 401, text: '{"errors":[{"code":32,"message":"Could not authenticate you."}]}', headers: JSON_TYPE, match: (s) => variablesOf(s).focalTweetId === '401' },
      { host: 'x.com', path: /\/TweetDetail$/, text: '{"errors":[{"message":"_Missing: No status found with that ID.","code":144}],"data":{}}', headers: JSON_TYPE, match: (s) => variablesOf(s).focalTweetId === '144' },
      { host: 'api.x.com', path: /\/TweetResultByRestId$/, text: '{"data":{"tweetResult":{"result":{"__typename":"TweetUnavailable","reason":"NsfwLoggedOut"}}}}', headers: JSON_TYPE, match: (s) => variablesOf(s).tweetId === '18' },
      { host: 'api.x.com', path: /\/TweetResultByRestId$/, text: '{"data":{"tweetResult":{"result":{"__typename":"TweetTombstone","tombstone":{}}}}}', headers: JSON_TYPE, match: (s) => variablesOf(s).tweetId === '19' },
      { host: 'api.x.com', path: /\/TweetResultByRestId$/, text: '{"data":{"tweetResult":{}}}', headers: JSON_TYPE, match: (s) => variablesOf(s).tweetId === '20' },
    ]));
    session = liveContext('x', replay, SESSION);
    anonymous = liveContext('x', replay, {});
  });
  afterAll(async () => {
    await session?.close();
    await anonymous?.close();
    await replay?.close();
  });
  beforeEach(() => {
    replay.mutate = undefined;
    replay.seen.length = 0;
  });

  it.each<[string, string, (d: any) => void]>([
    ['tweet-detail.TweetDetail.json', `https://x.com/XDevelopers/status/${DETAIL}`, (d) => {
      expect(d.post).toEqual({
        type: 'post',
        id: DETAIL,
        url: `https://x.com/XDevelopers/status/${DETAIL}`,
        createdAt: '2023-04-20T23:21:13.000Z',
        author: {
          id: '2244994945',
          username: 'XDevelopers',
          name: 'Developers',
          url: 'https://x.com/XDevelopers',
          avatar: 'https://pbs.twimg.com/profile_images/1683501992314798080/xl1POYLw_normal.jpg',
          isVerified: true,
        },
        text: 'Today, we are deprecating our Premium v1.1 API, including Premium Search and Account Activity API.',
        language: 'en',
        likes: 426,
        reposts: 202,
        quotes: 118,
        comments: 93,
        views: 979440,
        bookmarks: 73,
        conversationId: DETAIL,
      });
      // 34 conversation threads, the author's own thread three posts long.
      expect(d.replies).toHaveLength(36);
      expect(d.replies.slice(0, 3).map((r: any) => r.replyTo.id)).toEqual([DETAIL, '1649191521323995138', '1649191522485817345']);
      expect(d.cursor).toMatch(/^DAAKCgABHPEX5kT__qkLAAIAAAGo/);
    }],
    ['tweet-detail-poll-card.TweetDetail.json', POLL, (d) => {
      expect(d.post).toMatchObject({ id: POLL, text: 'Bring back Vine?', author: { username: 'elonmusk' } });
      expect(d.post.poll).toEqual({
        options: [{ text: 'Yes', votes: 844386 }, { text: 'No', votes: 364677 }],
        totalVotes: 1209063,
        endsAt: '2024-04-18T18:37:10.000Z',
        isClosed: false,
      });
      // "You might also like" posts are not replies; a thread's own "show more" cursor is not a post.
      expect(d.replies).toHaveLength(3);
      expect(d.cursor).toBe('JQAAAPAWHBk27IKw5b3GmbYx_IW5xfvWmbYx-ICxhaWNm7YxJQISFQ4AAA');
    }],
    ['tweet-detail-video.TweetDetail.json', VIDEO, (d) => {
      expect(d.post).toMatchObject({ id: VIDEO, isVideo: true, text: 'This is not science fiction.\nNightscape in Nanjing, China' });
      expect(d.post.video).toEqual({
        url: expect.stringMatching(/^https:\/\/video\.twimg\.com\/ext_tw_video\/1668857866328100864\/pu\/vid\/.+\.mp4\?tag=12$/),
        hls: 'https://video.twimg.com/ext_tw_video/1668857866328100864/pu/pl/XClvBaLx4CLu1KJ6.m3u8?tag=12&container=fmp4',
        durationSeconds: 5,
        width: 1080,
        height: 1920,
        thumbnail: 'https://pbs.twimg.com/ext_tw_video_thumb/1668857866328100864/pu/img/nvEZWP1Yu9-6C23H.jpg',
      });
      expect(d.replies).toHaveLength(10);
      expect(d.cursor).toMatch(/^WwAAAPAEHBmWgoDSuY/);
    }],
  ])('x.post with a session: %s', async (_file, post, check) => {
    check((await runLive('x.post', { post }, session.ctx)).data);
    expect(replay.misses()).toEqual([]);
    const [request] = replay.seen;
    expect(request).toMatchObject({ host: 'x.com', path: `/i/api/graphql/${DEFAULT_QUERY_IDS.TweetDetail}/TweetDetail` });
    expect(variablesOf(request)).toMatchObject({ focalTweetId: postId(post), referrer: 'tweet' });
    expect(JSON.parse(request.query.get('features')!)).toMatchObject({ view_counts_everywhere_api_enabled: true });
  });

  it('the cursor goes back as TweetDetail\'s `cursor` (an optional `N~` prefix dropped); query ids are settings', async () => {
    const alt = liveContext('x', replay, { ...SESSION, TWEET_DETAIL_QUERY_ID: 'rotatedId123' });
    try {
      const out = await runLive('x.post', { post: DETAIL, cursor: `7~${CURSOR}` }, alt.ctx);
      expect(variablesOf(replay.seen[0]).cursor).toBe(CURSOR);
      expect(replay.seen[0].path).toBe('/i/api/graphql/rotatedId123/TweetDetail');
      expect(out.data.replies.length).toBeGreaterThan(0);
    } finally {
      await alt.close();
    }
  });

  it('x.search with a session: the recorded Latest page, cut to limit', async () => {
    const all = await runLive('x.search', { query: 'tesla' }, session.ctx);
    expect(all.data.posts).toHaveLength(20);
    expect(all.data.posts[0]).toMatchObject({ id: '2074976613713031490', author: { username: 'piloly' } });
    expect(all.data.posts[0].images).toHaveLength(4);
    // A quote post names the post it quotes.
    expect(all.data.posts.find((p: any) => p.id === '2074955486441492823').quoteOf).toMatchObject({ id: '2074915723487678904' });
    // A long post's text is its note, not the truncated full_text.
    const note = readRecordingJson('microblog/search-latest.SearchTimeline.json').data.search_by_raw_query.search_timeline.timeline
      .instructions[0].entries[0].content.itemContent.tweet_results.result.note_tweet.note_tweet_results.result.text;
    expect(all.data.posts[0].text).toBe(note.trim());
    replay.seen.length = 0;
    const five = await runLive('x.search', { query: 'from:nasa artemis', limit: 5 }, session.ctx);
    expect(five.data.posts).toHaveLength(5);
    expect(variablesOf(replay.seen[0])).toEqual({ rawQuery: 'from:nasa artemis', count: 5, querySource: 'typed_query', product: 'Latest' });
  });

  it('the recorded UserByScreenName user reads as the author record (2025+ user shape)', () => {
    const user = readRecordingJson('microblog/user-by-screen-name.UserByScreenName.json').data.user.result;
    expect(normaliseAuthor(user)).toEqual({
      id: '2244994945',
      username: 'XDevelopers',
      name: 'Developers',
      url: 'https://x.com/XDevelopers',
      avatar: 'https://pbs.twimg.com/profile_images/1683501992314798080/xl1POYLw_normal.jpg',
      isVerified: true,
    });
  });

  it('without a session: the post through a guest token (documented envelope), the same record, no replies', async () => {
    const withSession = await runLive('x.post', { post: VIDEO }, session.ctx);
    replay.seen.length = 0;
    const out = await runLive('x.post', { post: VIDEO }, anonymous.ctx);
    expect(out.data).toEqual({ post: withSession.data.post });
    expect(replay.seen.map((s) => `${s.method} ${s.host}${s.path}`)).toEqual([
      'POST api.x.com/1.1/guest/activate.json',
      `GET api.x.com/graphql/${DEFAULT_QUERY_IDS.TweetResultByRestId}/TweetResultByRestId`,
    ]);
    // The guest token is kept for the next call.
    await runLive('x.post', { post: POLL }, anonymous.ctx);
    expect(replay.seen.filter((s) => s.path === '/1.1/guest/activate.json')).toHaveLength(1);
  });

  it('without a session: replies and search answer sourceUnavailable naming the settings, without asking X', async () => {
    const replies = await failure(runLive('x.post', { post: DETAIL, cursor: CURSOR }, anonymous.ctx));
    expect([replies.code, replies.retryable]).toEqual(['sourceUnavailable', false]);
    expect(replies.message).toMatch(/QUARRY_X_AUTH_TOKEN and QUARRY_X_CT0/);
    const search = await failure(runLive('x.search', { query: 'tesla' }, anonymous.ctx));
    expect([search.code, search.retryable]).toEqual(['sourceUnavailable', false]);
    expect(search.message).toMatch(/QUARRY_X_AUTH_TOKEN/);
    expect(replay.seen).toEqual([]);
  });

  it('failure shapes: unknown posts, walls, a refused session, a rotated query id', async () => {
    const missing = await failure(runLive('x.post', { post: '144' }, session.ctx));
    expect([missing.code, missing.message]).toEqual(['notFound', 'post: no such post 144']);
    const nsfw = await failure(runLive('x.post', { post: '18' }, anonymous.ctx));
    expect(nsfw.code).toBe('sourceRefused');
    expect((await failure(runLive('x.post', { post: '19' }, anonymous.ctx))).code).toBe('notFound');
    expect((await failure(runLive('x.post', { post: '20' }, anonymous.ctx))).code).toBe('notFound');
    const refused = await failure(runLive('x.post', { post: '401' }, session.ctx));
    expect([refused.code, refused.message]).toEqual(['sourceRefused', 'x: the configured X session was refused (logged out or expired)']);
    const rotated = await failure(runLive('x.post', { post: '404' }, session.ctx));
    expect(rotated.code).toBe('sourceChanged');
    expect(rotated.message).toMatch(/QUARRY_X_TWEET_DETAIL_QUERY_ID/);
    const bad = liveContext('x', replay, { ...SESSION, FEATURES: '[1]' });
    try {
      expect((await failure(runLive('x.search', { query: 'tesla' }, bad.ctx))).message).toMatch(/QUARRY_X_FEATURES/);
    } finally {
      await bad.close();
    }
  });

  it('drift: a post without its like count → sourceChanged', async () => {
    replay.mutate = (name, body) => (name.endsWith('tweet-detail-video.TweetDetail.json') ? body.replace(/"favorite_count": \d+,/g, '') : body);
    expect((await failure(runLive('x.post', { post: VIDEO }, session.ctx))).code).toBe('sourceChanged');
  });

  describe('through the gateway', () => {
    let gw: TestGateway;
    let key: string;
    let testKey: string;
    let accountId: string;
    const balance = async () => (await gw.gateway.deps.store.getAccount(accountId))!.balance;

    beforeAll(async () => {
      gw = await startGateway({
        QUARRY_UPSTREAM_OVERRIDES: replay.overrides(),
        QUARRY_OUTBOUND_ALLOW: '127.0.0.1',
        QUARRY_UPSTREAM_RETRIES: '0',
        QUARRY_X_AUTH_TOKEN: SESSION.AUTH_TOKEN,
        QUARRY_X_CT0: SESSION.CT0,
      });
      const acct = await gw.accounts.createAccount({ credits: 50 });
      accountId = acct.accountId;
      key = acct.apiKey;
      testKey = (await gw.accounts.createKey({ accountId, test: true })).apiKey;
    });
    afterAll(async () => {
      await gw?.close();
    });

    it('live post and search: 1 credit each; paging sends the cursor', async () => {
      const before = await balance();
      const r = await call(gw.url, '/v1/x/post', { post: `https://x.com/XDevelopers/status/${DETAIL}` }, { key });
      expect(r.status).toBe(200);
      expect(r.json.creditsUsed).toBe(1);
      expect(r.json.data.replies).toHaveLength(36);
      replay.seen.length = 0;
      const next = await call(gw.url, '/v1/x/post', { post: DETAIL, cursor: CURSOR }, { key });
      expect(next.status).toBe(200);
      expect(variablesOf(replay.seen[0]).cursor).toBe(CURSOR);
      const search = await call(gw.url, '/v1/x/search', { query: 'tesla', limit: 10 }, { key });
      expect(search.json.creditsUsed).toBe(1);
      expect(search.json.data.posts).toHaveLength(10);
      expect(await balance()).toBe(before - 3);
    });

    it('test mode answers the catalogue examples from the samples, never upstream', async () => {
      replay.seen.length = 0;
      const r = await call(gw.url, '/v1/x/post', { post: 'https://x.com/nasa/status/1790000000000000000' }, { key: testKey });
      expect(r.status).toBe(200);
      expect(r.json.data.post.id).toBe(DETAIL);
      const s = await call(gw.url, '/v1/x/search', { query: 'from:nasa artemis', limit: 20 }, { key: testKey });
      expect(s.json.data.posts).toHaveLength(20);
      expect(replay.seen).toEqual([]);
    });

    it('drift → 502 sourceChanged and a refused session → 502 sourceRefused, both unbilled', async () => {
      const before = await balance();
      replay.mutate = (name, body) => (name.endsWith('search-latest.SearchTimeline.json') ? body.replace(/"rest_id": "\d+",/g, '') : body);
      try {
        const drift = await call(gw.url, '/v1/x/search', { query: 'drifted' }, { key });
        expect([drift.status, drift.json.error.code]).toEqual([502, 'sourceChanged']);
      } finally {
        replay.mutate = undefined;
      }
      const refused = await call(gw.url, '/v1/x/post', { post: '401' }, { key });
      expect([refused.status, refused.json.error.code]).toEqual([502, 'sourceRefused']);
      expect(await balance()).toBe(before);
    });
  });
});
