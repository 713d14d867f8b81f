/**
 * The legacy convention (SPEC.md "Legacy endpoints", CONTRACT.md "Legacy convention") over HTTP on loopback: the seven
 * paths answer SPEC's records in the flat envelope, run the current pipeline (keys, credits, the cache shared with the
 * current endpoint, test mode, logs named by path) against the replay double, and fail in the flat error shape with
 * the contract's statuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post, startGateway, type TestGateway } from '../helpers/gateway.js';
import { haveRecordings, readRecordingJson, skipReason, startReplay, type Replay } from '../helpers/replay.js';
import { YOUTUBE_REPLAY } from '../sources/youtube-replay.js';

const VIDEO_KEYS = [
  'id', 'videoUrl', 'title', 'author', 'authorId', 'description', 'viewCount', 'viewCountText', 'likeCount', 'likeCountText',
  'durationSec', 'durationText', 'publishedAt', 'tags', 'isLive', 'category', 'thumbnails', 'type',
];
const RELATED_KEYS = [
  'id', 'videoUrl', 'title', 'author', 'authorId', 'viewCount', 'viewCountText', 'durationSec', 'durationText', 'publishedAt',
  'publishedAtText', 'thumbnails', 'type',
];
const SEARCH_ITEM_KEYS = [
  'type', 'id', 'videoUrl', 'title', 'author', 'authorId', 'description', 'duration', 'durationSec', 'durationText', 'isLive',
  'isUpcoming', 'isVerified', 'viewCount', 'viewCountText', 'publishedAt', 'publishedAtText', 'thumbnails',
];
const CHANNEL_KEYS = [
  'type', 'id', 'url', 'name', 'handle', 'channelUrl', 'description', 'subscriberCount', 'subscriberCountText', 'videoCount',
  'videoCountText', 'isVerified', 'thumbnails', 'banners', 'country', 'joinedDate', 'viewCount', 'viewCountText', 'links',
];
const PLAYLIST_KEYS = ['id', 'playlistUrl', 'title', 'author', 'authorId', 'description', 'videoCount', 'thumbnails', 'type'];
const MUSIC_SONG_KEYS = [
  'type', 'id', 'url', 'videoUrl', 'playlistUrl', 'channelUrl', 'albumUrl', 'artistUrl', 'title', 'author', 'authorId', 'album',
  'artists', 'duration', 'durationSec', 'durationText', 'isExplicit', 'plays', 'thumbnails',
];
const KIDS_KEYS = [
  'type', 'id', 'url', 'videoUrl', 'kidsUrl', 'title', 'author', 'authorId', 'authorUrl', 'duration', 'durationSec', 'durationText',
  'publishedAt', 'publishedAtText', 'viewCount', 'viewCountText', 'thumbnails',
];

const hasKeys = (o: Record<string, unknown>, keys: string[]) => expect(Object.keys(o)).toEqual(expect.arrayContaining(keys));

describe.skipIf(!haveRecordings('video'))(`the legacy paths${skipReason('video')}`, () => {
  let gw: TestGateway;
  let replay: Replay;
  let key: string;
  let testKey: string;
  let accountId: string;
  const balance = async () => (await gw.gateway.deps.store.getAccount(accountId))!.balance;

  beforeAll(async () => {
    replay = await startReplay(YOUTUBE_REPLAY);
    gw = await startGateway({ QUARRY_UPSTREAM_OVERRIDES: replay.overrides(), QUARRY_OUTBOUND_ALLOW: '127.0.0.1' });
    const acct = await gw.accounts.createAccount({ credits: 1000 });
    [key, accountId] = [acct.apiKey, acct.accountId];
    testKey = (await gw.accounts.createKey({ accountId, test: true })).apiKey;
  });
  afterAll(async () => {
    await gw?.close();
    await replay?.close();
  });

  it('/v1/video details: SPEC’s video and related records in the flat envelope, billed like youtube.video, then a cache hit', async () => {
    const before = await balance();
    const r = await post(gw.url, '/v1/video', { videoUrl: 'https://www.youtube.com/watch?v=M4gD1WSo5mA' }, { key });
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.json)).toEqual(['success', 'requestId', 'cacheState', 'creditsUsed', 'creditsRemaining', 'data']);
    expect(r.json).toMatchObject({ success: true, cacheState: 'miss', creditsUsed: 1, creditsRemaining: before - 1 });
    expect(r.json.requestId).toBe(r.headers.get('x-request-id'));
    const v = r.json.data.video;
    hasKeys(v, VIDEO_KEYS);
    expect(v).toMatchObject({ type: 'video', id: 'M4gD1WSo5mA', videoUrl: 'https://www.youtube.com/watch?v=M4gD1WSo5mA', viewCount: 12916 });
    expect(v.viewCountText).toMatch(/12,916/);
    expect(v.durationText).toMatch(/^\d+:\d\d$/);
    expect(r.json.data.related.length).toBeGreaterThan(0);
    for (const item of r.json.data.related) hasKeys(item, RELATED_KEYS);
    // The same data as youtube.video: its cache entry answers the current endpoint too, billed the same.
    const current = await post(gw.url, '/v1/youtube/video', { video: 'https://www.youtube.com/watch?v=M4gD1WSo5mA' }, { key });
    expect(current.headers.get('x-cache')).toBe('hit');
    expect(current.json.data.video.id).toBe('M4gD1WSo5mA');
    const again = await post(gw.url, '/v1/video', { videoUrl: 'https://www.youtube.com/watch?v=M4gD1WSo5mA' }, { key });
    expect(again.json).toMatchObject({ cacheState: 'hit', creditsUsed: 1, creditsRemaining: before - 3 });
  });

  it('/v1/video comments → replies: the repliesToken pages the thread, priced like youtube.comments and .replies', async () => {
    const c = await post(gw.url, '/v1/video', { videoUrl: 'xaQJbozY_Is', type: 'comments' }, { key });
    expect(c.status, c.text).toBe(200);
    const pinned = c.json.data.comments[0];
    expect(pinned).toMatchObject({ type: 'comment', id: 'UgwSOM0QHBLysE3vZE54AaABAg', likeCount: 9800, replyCount: 327, isPinned: true });
    expect(pinned.repliesToken).toBe(readRecordingJson('video/comments.next-replies.request.json').request.body.continuation);
    expect(c.json.data).toHaveProperty('continuationToken');
    const r = await post(gw.url, '/v1/video', { videoUrl: 'xaQJbozY_Is', type: 'replies', continuationToken: pinned.repliesToken }, { key });
    expect(r.status, r.text).toBe(200);
    expect(r.json.data.replies).toHaveLength(10);
    expect(r.json.creditsUsed).toBe(1);
  });

  it('/v1/video transcript: timestamped captions', async () => {
    const r = await post(gw.url, '/v1/video', { videoUrl: 'GJLlxj_dtq8', type: 'transcript' }, { key });
    expect(r.status, r.text).toBe(200);
    expect(r.json.creditsUsed).toBe(3);
    expect(r.json.data.language).toBe('zh');
    expect(r.json.data.segments[0]).toEqual({ start: expect.any(Number), duration: expect.any(Number), end: expect.any(Number), text: expect.any(String) });
  });

  it('/v1/search: the query echoed, SPEC’s items, a continuationToken that pages, estimatedResults', async () => {
    const r = await post(gw.url, '/v1/search', { q: 'test' }, { key });
    expect(r.status, r.text).toBe(200);
    expect(r.json.data.query).toEqual({ q: 'test', type: 'video', sortBy: 'relevance', uploadDate: 'all', duration: 'all', features: [] });
    expect(r.json.data.items).toHaveLength(20);
    for (const item of r.json.data.items) hasKeys(item, SEARCH_ITEM_KEYS);
    expect(typeof r.json.data.estimatedResults).toBe('number');
    const next = await post(gw.url, '/v1/search', { q: 'test', continuationToken: r.json.data.continuationToken }, { key });
    expect(next.status, next.text).toBe(200);
    expect(next.json.data.items[0].id).not.toBe(r.json.data.items[0].id);
  });

  it('/v1/channel and /v1/playlist: SPEC’s channel and playlist records with their items', async () => {
    const c = await post(gw.url, '/v1/channel', { channelUrl: 'https://www.youtube.com/user/creativecommons' }, { key });
    expect(c.status, c.text).toBe(200);
    hasKeys(c.json.data.channel, CHANNEL_KEYS);
    expect(c.json.data.channel.links).toBeNull(); // only with the about tab
    expect(c.json.data).toMatchObject({ tab: 'videos', hasMore: true });
    expect(c.json.data.items.length).toBe(30);
    const p = await post(gw.url, '/v1/playlist', { playlistUrl: 'https://www.youtube.com/playlist?list=PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr' }, { key });
    expect(p.status, p.text).toBe(200);
    hasKeys(p.json.data.playlist, PLAYLIST_KEYS);
    expect(p.json.data.items[0]).toMatchObject({ index: 1, isPlayable: true });
    expect(p.json.data.continuationToken).toEqual(expect.any(String));
  });

  it('/v1/suggest, /v1/music and /v1/kids answer through their current counterparts', async () => {
    const s = await post(gw.url, '/v1/suggest', { q: 'hello', gl: 'DE' }, { key });
    expect(s.status, s.text).toBe(200);
    expect(s.json.data).toMatchObject({ q: 'hello', gl: 'de' });
    expect(s.json.data.suggestions.slice(0, 2)).toEqual(['hello', 'hello kitty']);
    const m = await post(gw.url, '/v1/music', { type: 'search', q: 'mocromaniac', searchType: 'songs' }, { key });
    expect(m.status, m.text).toBe(200);
    hasKeys(m.json.data.items[0], MUSIC_SONG_KEYS);
    expect(m.json.data).toMatchObject({ hasMore: true, empty: null });
    const none = await post(gw.url, '/v1/music', { type: 'suggestions', q: '' }, { key });
    expect(none.json.data).toMatchObject({ items: [], hasMore: false, empty: { code: 'NO_RESULTS' } });
    const k = await post(gw.url, '/v1/kids', { type: 'search', q: 'dinosaurs' }, { key });
    expect(k.status, k.text).toBe(200);
    hasKeys(k.json.data.items[0], KIDS_KEYS);
  });

  it('logs: variant B filters the legacy calls by path', async () => {
    const r = await get(gw.url, '/v1/logs?endpoint=/video&days=today', { key });
    expect(r.status).toBe(200);
    expect(r.json.data.logs.length).toBeGreaterThan(0);
    expect(new Set(r.json.data.logs.map((l: { endpoint: string }) => l.endpoint))).toEqual(new Set(['/video']));
  });

  it('test mode: every path answers from the samples, reporting the price and never touching the balance', async () => {
    const before = await balance();
    const seen = replay.seen.length;
    const bodies: Array<[string, Record<string, unknown>]> = [
      ['/v1/video', { videoUrl: 'dQw4w9WgXcQ' }],
      ['/v1/channel', { channelUrl: '@veritasium', tab: 'about' }],
      ['/v1/search', { q: 'anything' }],
      ['/v1/music', { type: 'album', id: 'MPREb_Tr9YVfRfip1' }],
      ['/v1/kids', { type: 'video', videoUrl: 'kidsVideo01' }],
      ['/v1/playlist', { playlistUrl: 'PLRqwX-V7Uu6ZiZxtDDRCi6uhfTH4FilpH' }],
      ['/v1/suggest', { q: 'how to' }],
    ];
    for (const [path, body] of bodies) {
      const r = await post(gw.url, path, body, { key: testKey });
      expect(r.status, `${path} ${r.text}`).toBe(200);
      expect(r.json.creditsUsed, path).toBeGreaterThan(0);
    }
    expect(replay.seen.length).toBe(seen); // never upstream
    expect(await balance()).toBe(before);
  });

  it('OpenAPI documents each legacy path: its body, the flat envelope and errors, and what it is priced as', async () => {
    const doc = (await get(gw.url, '/openapi.json')).json;
    for (const name of ['video', 'channel', 'search', 'music', 'kids', 'playlist', 'suggest']) {
      const op = doc.paths[`/v1/${name}`]?.post;
      expect(op, name).toBeDefined();
      expect(op.tags).toEqual(['legacy']);
      expect(op['x-legacy-of'].every((id: string) => id.startsWith('youtube.'))).toBe(true);
      expect(op.responses['5XX'].content['application/json'].schema.properties.code.enum).toContain('UPSTREAM_ERROR');
    }
    expect(doc.paths['/v1/video'].post.requestBody.content['application/json'].schema.required).toEqual(['videoUrl']);
    expect(doc.paths['/v1/video'].post['x-credits']).toBe(1);
  });

  it('errors are flat, with the contract’s codes and statuses, and name the legacy field', async () => {
    const missing = await post(gw.url, '/v1/video', {}, { key });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ success: false, code: 'INVALID_INPUT', error: expect.stringMatching(/^videoUrl: /), details: null });
    const noToken = await post(gw.url, '/v1/video', { videoUrl: 'xaQJbozY_Is', type: 'replies' }, { key });
    expect(noToken.json).toMatchObject({ code: 'INVALID_INPUT', error: expect.stringMatching(/^continuationToken: is required/) });
    // A rule of the current endpoint, worded with the legacy field the caller sent.
    const empty = await post(gw.url, '/v1/music', { type: 'search', q: '' }, { key });
    expect(empty.json).toMatchObject({ code: 'INVALID_INPUT', error: expect.stringMatching(/^q: /) });
    const anonymous = await post(gw.url, '/v1/search', { q: 'test' }, {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toEqual({ success: false, code: 'UNAUTHORIZED', error: 'Invalid or missing API key.', details: null });
    const blocked = await post(gw.url, '/v1/video', { videoUrl: 'BotCheck000', type: 'transcript' }, { key });
    expect(blocked.status).toBe(502);
    expect(blocked.json.code).toBe('UPSTREAM_ERROR');
    const poor = await gw.accounts.createAccount({ credits: 0 });
    const broke = await post(gw.url, '/v1/video', { videoUrl: 'M4gD1WSo5mA' }, { key: poor.apiKey });
    expect(broke.status).toBe(402);
    expect(broke.json.code).toBe('INSUFFICIENT_CREDITS');
  });
});
