/**
 * tiktok against its recordings (../shared/upstream/tiktok, every one read here) through the replay double, with a
 * signer double standing for the operator's signing service. TikTok's signed comment list, video search and the EU
 * ad library have no recording: their answers are written from the public shape (test/fixtures/documented/tiktok/)
 * and the tests that use them say so. No account's post list was recorded either: the recorded For You answer, which
 * has the same item shape, stands in for it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXTRA_HOSTS, SIGNER, SIGNED, TIKTOK_REPLAY } from '../../scripts/samples/tiktok.js';
import { audienceOf } from '../../src/sources/tiktok/normalise.js';
import { usernameOf, videoOf } from '../../src/sources/tiktok/refs.js';
import { failure } from '../helpers/failure.js';
import { post } from '../helpers/gateway.js';
import { haveRecordings, readRecordingJson, skipReason, startReplay, type Replay, type ReplayRoute } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';

const F = 'tiktok';
const html = { 'content-type': 'text/html; charset=utf-8' };

describe('tiktok references (no recordings needed)', () => {
  it('accounts, videos and short links', () => {
    expect(usernameOf('@illojuan')).toBe('illojuan');
    expect(usernameOf('https://www.tiktok.com/@illojuan?lang=es')).toBe('illojuan');
    expect(videoOf('https://www.tiktok.com/@illojuan/video/7571863205253778710?is_from_webapp=1')).toEqual({ username: 'illojuan', id: '7571863205253778710' });
    expect(videoOf('https://www.tiktok.com/@a3noticias/photo/6806030056956251397')).toEqual({ username: 'a3noticias', id: '6806030056956251397' });
    expect(videoOf('7571863205253778710')).toEqual({ id: '7571863205253778710' });
    expect(videoOf('https://vm.tiktok.com/ZMabc123/')).toEqual({ shortLink: 'https://vm.tiktok.com/ZMabc123/' });
  });

  it('names the bad field', async () => {
    expect((await failure(() => usernameOf('two words'))).message).toMatch(/^profile: /);
    expect((await failure(() => videoOf('https://www.tiktok.com/@illojuan'))).message).toMatch(/^video: /);
  });

  it('ad audience buckets become ranges; anything else is left out', () => {
    expect(audienceOf('0-1K')).toEqual({ min: 0, max: 1000 });
    expect(audienceOf('10K-100K')).toEqual({ min: 10000, max: 100000 });
    expect(audienceOf('1M+')).toEqual({ min: 1000000 });
    expect(audienceOf('unknown')).toBeUndefined();
  });
});

describe.skipIf(!haveRecordings(F))(`tiktok against its recordings${skipReason(F)}`, () => {
  let replay: Replay;
  let live: LiveContext;
  let unsigned: LiveContext;
  const walls: ReplayRoute[] = [
    // A verification page instead of the video: the oEmbed recording answers for it.
    { host: 'www.tiktok.com', path: '/@a3noticias/video/6806030056956251397', text: '<html><body><div id="tiktok-verify-page">Verify to continue</div></body></html>', headers: html },
    { host: 'www.tiktok.com', path: '/@gone_account', text: '<html><script id="__UNIVERSAL_DATA_FOR_REHYDRATION__" type="application/json">{"__DEFAULT_SCOPE__":{"webapp.user-detail":{"statusCode":10221,"statusMsg":"","userInfo":{"user":{},"stats":{}}}}}</script></html>', headers: html },
    { host: 'www.tiktok.com', path: '/@walled', text: '<html><body>Please verify you are human (captcha)</body></html>', headers: html },
    { host: 'www.tiktok.com', path: '/@changed', text: '<html><body><p>a page without its data</p></body></html>', headers: html },
  ];
  beforeAll(async () => {
    replay = await startReplay({ ...TIKTOK_REPLAY, routes: [...walls, ...TIKTOK_REPLAY.routes!] });
    live = liveContext(F, replay, SIGNER, EXTRA_HOSTS);
    unsigned = liveContext(F, replay, {}, EXTRA_HOSTS);
  });
  afterAll(async () => {
    await Promise.all([live.close(), unsigned.close()]);
    await replay.close();
  });
  beforeEach(() => {
    replay.mutate = undefined;
  });

  it('profile-page.illojuan.html: the profile, counts from the exact statsV2', async () => {
    const out = await runLive('tiktok.profile', { profile: 'https://www.tiktok.com/@illojuan' }, live.ctx);
    expect(out.data.profile).toEqual({
      type: 'profile', id: '6781206617314018309', username: 'illojuan', url: 'https://www.tiktok.com/@illojuan', name: 'IlloJuan',
      bio: 'Timing, saludos desde Almería', avatar: expect.stringContaining('0e9e270af8359eb737271b7ae8d57d6a'), isVerified: true, isPrivate: false,
      followers: 783427, following: 0, likes: 3922256, posts: 19, createdAt: '2020-01-12T23:49:23.000Z', website: 'https://twitch.tv/illojuan', language: 'es',
    });
  });

  it('video-page.7571863205253778710.html: the video with its sound, captions and mentions', async () => {
    const out = await runLive('tiktok.video', { video: 'https://www.tiktok.com/@illojuan/video/7571863205253778710' }, live.ctx);
    expect(out.data.video).toMatchObject({
      type: 'video', id: '7571863205253778710', url: 'https://www.tiktok.com/@illojuan/video/7571863205253778710', publishedAt: '2025-11-12T15:36:28.000Z',
      durationSeconds: 64, views: 192100, likes: 25500, comments: 146, shares: 2156, bookmarks: 1311, reposts: 0, language: 'es', isAd: false,
      author: { id: '6781206617314018309', username: 'illojuan', isVerified: true },
      mentions: ['burgerking_es', 'esperanzagraciaoficial'],
      music: { title: 'original sound - IlloJuan', id: '7571863209596881686', author: 'IlloJuan', isOriginal: true },
      video: { width: 576, height: 1024, durationSeconds: 64 },
    });
    expect(out.data.video.captions).toEqual([
      expect.objectContaining({ language: 'en', format: 'webvtt', isAutomatic: true }),
      expect.objectContaining({ format: 'webvtt' }),
    ]);
    // A bare id asks for the page under the stand-in handle "_".
    await runLive('tiktok.video', { video: '7571863205253778710' }, live.ctx).catch(() => undefined);
    expect(replay.seen.at(-1)!.path).toBe('/@_/video/7571863205253778710');
  });

  it('oembed.video-6806030056956251397.json: a walled video page falls back to the keyless oEmbed', async () => {
    const out = await runLive('tiktok.video', { video: 'https://www.tiktok.com/@a3noticias/video/6806030056956251397' }, live.ctx);
    expect(out.data.video).toEqual({
      type: 'video', id: '6806030056956251397', url: 'https://www.tiktok.com/@a3noticias/video/6806030056956251397',
      description: 'Nuestro #AplausoSanitario más sincero. Para todos. Y recuerda, #QuédateEnCasa',
      author: { username: 'a3noticias', name: 'Antena 3 Noticias', url: 'https://www.tiktok.com/@a3noticias' },
      thumbnails: [{ url: expect.stringContaining('165175e006354d838501378cfb325b79'), width: 480, height: 848 }],
      hashtags: ['AplausoSanitario', 'QuédateEnCasa'],
    });
    expect(replay.served().slice(-1)).toEqual(['tiktok/oembed.video-6806030056956251397.json']);
  });

  it('recommend-item_list.foryou.json: the For You feed, signed as the signer says', async () => {
    const out = await runLive('tiktok.trending', { country: 'TW', limit: 30 }, live.ctx);
    const recorded = readRecordingJson('tiktok/recommend-item_list.foryou.json').itemList;
    expect(out.data.videos).toHaveLength(recorded.length);
    expect(out.data.videos[0]).toMatchObject({ id: '7158770362770099483', views: 376700, likes: 56900, shares: 118, durationSeconds: 13, author: { username: 'zoey._.03.18' } });
    const sent = replay.seen.at(-1)!;
    expect(sent.answeredBy).toBe('tiktok/recommend-item_list.foryou.json');
    expect(Object.fromEntries(['region', 'count', 'from_page', 'X-Bogus', 'msToken'].map((k) => [k, sent.query.get(k)]))).toEqual({
      region: 'TW', count: '30', from_page: 'fyp', 'X-Bogus': SIGNED.query['X-Bogus'], msToken: SIGNED.query.msToken,
    });
    const signing = replay.seen.at(-2)!;
    expect(signing.host).toBe('signer.test');
    expect((signing.body as any).url).toMatch(/^https:\/\/www\.tiktok\.com\/api\/recommend\/item_list\/\?aid=1988&/);
  });

  it("posts: the profile page's secUid, then a signed post list (the For You recording stands in for it)", async () => {
    const out = await runLive('tiktok.posts', { profile: 'illojuan', limit: 5 }, live.ctx);
    expect(out.data.videos).toHaveLength(5);
    expect(out.data.cursor).toBeUndefined(); // the stand-in carries no cursor
    const list = replay.seen.at(-1)!;
    expect(list.path).toBe('/api/post/item_list/');
    expect(list.query.get('secUid')).toBe('MS4wLjABAAAARpM8d0mtXFPytJwiiHvFcy1C-X3PKBSV8wIeJ8gldqXSle1wI4mKT7rlUOAfVa6z');
    expect(list.query.get('cursor')).toBe('0');
    // A cursor carries the secUid: the next page asks no profile page.
    const before = replay.seen.length;
    await runLive('tiktok.posts', { profile: 'illojuan', cursor: 'MS4wLjABAAAARpM8d0mtXFPytJwiiHvFcy1C-X3PKBSV8wIeJ8gldqXSle1wI4mKT7rlUOAfVa6z:1762961788000' }, live.ctx);
    expect(replay.seen.slice(before).map((s) => s.host)).toEqual(['signer.test', 'www.tiktok.com']);
    expect(replay.seen.at(-1)!.query.get('cursor')).toBe('1762961788000');
  });

  it('documented (not recorded) comment list: two pages by TikTok’s cursor', async () => {
    const first = await runLive('tiktok.comments', { video: 'https://www.tiktok.com/@illojuan/video/7571863205253778710' }, live.ctx);
    expect(first.data).toMatchObject({ cursor: '20', total: 146 });
    expect(first.data.comments[0]).toEqual({
      type: 'comment', id: '7571870011122233344', text: 'Illo el uniforme te queda perfecto 😂', createdAt: '2025-11-12T15:56:40.000Z',
      author: { id: '6800000000000000001', username: 'fan_de_illo', name: 'Fan de Illo', url: 'https://www.tiktok.com/@fan_de_illo', avatar: 'https://p16-sign.tiktokcdn-eu.com/example-avatar-1.jpeg' },
      likes: 1520, replies: 12, isPinned: false, isByAuthor: true, language: 'es',
    });
    expect(replay.seen.at(-1)!.query.get('aweme_id')).toBe('7571863205253778710');
    const next = await runLive('tiktok.comments', { video: '7571863205253778710', cursor: first.data.cursor }, live.ctx);
    expect(next.data.comments.map((c: any) => c.id)).toEqual(['7571870011122233366']);
    expect(next.data.cursor).toBeUndefined();
  });

  it('documented (not recorded) video search: two pages', async () => {
    const first = await runLive('tiktok.search', { query: 'cooking' }, live.ctx);
    expect(first.data.videos.map((v: any) => v.id)).toEqual(['7400000000000000001', '7400000000000000002']);
    expect(first.data.videos[0].hashtags).toEqual(['cooking', 'pasta']);
    expect(replay.seen.at(-1)!.query.get('keyword')).toBe('cooking');
    const next = await runLive('tiktok.search', { query: 'cooking', cursor: first.data.cursor }, live.ctx);
    expect(next.data).toEqual({ videos: [expect.objectContaining({ id: '7400000000000000003' })] });
  });

  it('documented (not recorded) ad library search: the token header, seconds, the search_id cursor', async () => {
    const first = await runLive('tiktok.ads.search', { query: 'nike', country: 'DE', from: '2026-01-01', to: '2026-09-30' }, live.ctx);
    expect(first.data.total).toBe(2417);
    expect(first.data.ads[0]).toEqual({
      type: 'ad', id: '1877067575828514', url: 'https://library.tiktok.com/ads/detail/?ad_id=1877067575828514&region=DE', advertiser: { name: 'Nike Retail B.V.' },
      titles: ['Just do it. New season running shoes'], format: 'video', videos: [{ url: 'https://library.tiktok.com/api/v1/cdn/1790115051/video/example-1', thumbnail: 'https://p16-common-sign.tiktokcdn.com/example-ad-cover-1.image' }],
      startedAt: '2026-09-22T21:33:56.000Z', endedAt: '2026-09-23T21:33:56.000Z', audience: { min: 10000, max: 100000 },
    });
    const sent = replay.seen.at(-1)!;
    expect(Object.fromEntries(['region', 'type', 'start_time', 'end_time'].map((k) => [k, sent.query.get(k)]))).toEqual({ region: 'DE', type: '1', start_time: '1767225600', end_time: '1790812799' });
    expect(sent.body).toMatchObject({ query: 'nike', search_id: '', order: 'create_time,desc' });
    const next = await runLive('tiktok.ads.search', { query: 'nike', country: 'de', cursor: first.data.cursor }, live.ctx);
    expect(next.data.ads).toHaveLength(1);
    expect(next.data.ads[0].audience).toEqual({ min: 1000000 });
    expect(next.data.cursor).toBeUndefined();
  });

  it('the signed reads without a signer are sourceUnavailable naming the setting', async () => {
    for (const [id, body] of [
      ['tiktok.posts', { profile: 'illojuan' }],
      ['tiktok.comments', { video: '7571863205253778710' }],
      ['tiktok.search', { query: 'cooking' }],
      ['tiktok.trending', {}],
      ['tiktok.ads.search', { query: 'nike' }],
    ] as const) {
      const e = await failure(runLive(id, body, unsigned.ctx));
      expect(e.code, id).toBe('sourceUnavailable');
      expect(e.retryable).toBe(false);
      expect(e.message).toContain('QUARRY_TIKTOK_SIGNER_URL');
    }
  });

  it('walls, missing accounts and drift', async () => {
    expect((await failure(runLive('tiktok.profile', { profile: 'gone_account' }, live.ctx))).code).toBe('notFound');
    expect((await failure(runLive('tiktok.profile', { profile: 'walled' }, live.ctx))).code).toBe('sourceRefused');
    expect((await failure(runLive('tiktok.profile', { profile: 'changed' }, live.ctx))).code).toBe('sourceChanged');
    replay.mutate = (name, body) => (name.endsWith('video-page.7571863205253778710.html') ? body.replaceAll('"createTime"', '"created"') : body);
    expect((await failure(runLive('tiktok.video', { video: 'https://www.tiktok.com/@illojuan/video/7571863205253778710' }, live.ctx))).code).toBe('sourceChanged');
  });
});

describe('tiktok refusals from the signed APIs and the signer', () => {
  let replay: Replay;
  let live: LiveContext;
  const json = { 'content-type': 'application/json' };
  beforeAll(async () => {
    replay = await startReplay({
      folders: [],
      routes: [
        { method: 'POST', host: 'signer.test', path: '/sign', text: JSON.stringify(SIGNED), headers: json },
        { method: 'POST', host: 'badsigner.test', path: '/sign', text: '{"query":{"X-Bogus":{"nested":true}}}', headers: json },
        // Unsigned or badly signed, TikTok answers 200 with nothing in it.
        { host: 'www.tiktok.com', path: '/api/comment/list/', text: '', headers: json },
        { host: 'www.tiktok.com', path: '/api/search/item/full/', text: '{"status_code":10201,"status_msg":"search is busy"}', headers: json },
        { method: 'POST', host: 'library.tiktok.com', path: '/api/v1/search', status: 421, text: 'system busy' },
      ],
    });
    live = liveContext(F, replay, SIGNER, ['www.tiktok.com', 'library.tiktok.com', 'badsigner.test']);
  });
  afterAll(async () => {
    await live.close();
    await replay.close();
  });

  it('an empty body, a status of its own and HTTP 421 are sourceRefused, never an empty list', async () => {
    expect((await failure(runLive('tiktok.comments', { video: '7571863205253778710' }, live.ctx))).message).toMatch(/empty body/);
    expect((await failure(runLive('tiktok.search', { query: 'x' }, live.ctx))).code).toBe('sourceRefused');
    const ads = await failure(runLive('tiktok.ads.search', { query: 'nike' }, live.ctx));
    expect(ads.code).toBe('sourceRefused');
    expect(ads.message).toMatch(/421/);
  });

  it("a signer answering something else is the operator's sourceUnavailable", async () => {
    const e = await failure(runLive('tiktok.search', { query: 'x' }, { ...live.ctx, settings: { SIGNER_URL: 'https://badsigner.test/sign' } }));
    expect(e.code).toBe('sourceUnavailable');
    expect(e.message).toMatch(/not a short string/);
  });
});

describe('tiktok test mode', () => {
  it.each(['tiktok.profile', 'tiktok.posts', 'tiktok.video', 'tiktok.comments', 'tiktok.search', 'tiktok.trending', 'tiktok.ads.search'])('%s answers its example from the samples', async (id) => {
    const { ENDPOINTS } = await import('../../src/catalogue/endpoints/index.js');
    const def = ENDPOINTS.find((e) => e.id === id)!;
    const out = await runSample(id, def.example!);
    expect(Object.keys(out.data).length).toBeGreaterThan(0);
  });

  it('documented pages walk by cursor in test mode too', async () => {
    const first = await runSample('tiktok.comments', { video: 'x' });
    const next = await runSample('tiktok.comments', { video: 'x', cursor: first.data.cursor });
    expect(next.data.comments.map((c: any) => c.id)).toEqual(['7571870011122233366']);
  });
});

describe.skipIf(!haveRecordings(F))(`tiktok through the gateway${skipReason(F)}`, () => {
  const g = useSourceGateway(() => ({ replay: TIKTOK_REPLAY, hosts: EXTRA_HOSTS, env: { QUARRY_TIKTOK_SIGNER_URL: SIGNER.SIGNER_URL } }));

  it('live: the For You feed through the operator’s signer, 28 videos at 30 a credit', async () => {
    const r = await g.post('/v1/tiktok/trending', { country: 'tw' });
    expect(r.status).toBe(200);
    expect(r.json.data.videos).toHaveLength(28);
    expect(r.json.creditsUsed).toBe(1);
  });

  it('ad library: 2 credits a page of up to 12, the cursor paging', async () => {
    const before = await g.balance();
    const r = await g.post('/v1/tiktok/ads/search', { query: 'nike', country: 'de' });
    expect(r.status).toBe(200);
    expect(r.json.creditsUsed).toBe(2);
    const next = await g.post('/v1/tiktok/ads/search', { query: 'nike', country: 'de', cursor: r.json.data.cursor });
    expect(next.status).toBe(200);
    expect(next.json.data.ads).toHaveLength(1);
    expect(await g.balance()).toBe(before - 4);
  });

  it('test mode: the samples, never upstream, no credits spent', async () => {
    await g.expectTestMode(async () => {
      const r = await g.post('/v1/tiktok/video', { video: '123456789012' }, 'test');
      expect(r.status).toBe(200);
      expect(r.json.data.video.id).toBe('7571863205253778710');
    });
  });

  it('drift: a profile without its follower count → 502 sourceChanged, unbilled', async () => {
    await g.expectDrift('/v1/tiktok/profile', { profile: 'illojuan', maxAge: 0 }, (name, body) => (name.endsWith('profile-page.illojuan.html') ? body.replaceAll('"followerCount"', '"followers"') : body));
  });

  it('a verification wall → 502 sourceRefused, unbilled', async () => {
    await g.expectRefused('/v1/tiktok/profile', { profile: 'illojuan', maxAge: 0 }, (name, body) => (name.endsWith('profile-page.illojuan.html') ? '<html><body><div id="tiktok-verify-page">captcha</div></body></html>' : body));
  });
});
