/**
 * YouTube through the gateway over HTTP on loopback: live calls against the replay double (QUARRY_UPSTREAM_OVERRIDES),
 * per-item prices from what came back, paging, keyless calls, drift, and test mode with a qry_test_ key for every
 * YouTube endpoint's catalogue example.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/catalogue/endpoints/index.js';
import { findOperation } from '../../src/sources/registry.js';
import { post, startGateway, type TestGateway } from '../helpers/gateway.js';
import { haveRecordings, skipReason, startReplay, type Replay } from '../helpers/replay.js';
import { YOUTUBE_REPLAY } from './youtube-replay.js';

const pathOf = (id: string) => `/v1/${id.split('.').join('/')}`;

describe.skipIf(!haveRecordings('video'))(`youtube through the gateway${skipReason('video')}`, () => {
  let gw: TestGateway;
  let replay: Replay;
  let key: string;
  let testKey: string;
  let accountId: string;

  beforeAll(async () => {
    replay = await startReplay(YOUTUBE_REPLAY);
    gw = await startGateway({ QUARRY_UPSTREAM_OVERRIDES: replay.overrides(), QUARRY_OUTBOUND_ALLOW: '127.0.0.1' });
    const acct = await gw.accounts.createAccount({ credits: 1000 });
    key = acct.apiKey;
    accountId = acct.accountId;
    testKey = (await gw.accounts.createKey({ accountId, test: true })).apiKey;
  });
  afterAll(async () => {
    await gw.close();
    await replay.close();
  });
  beforeEach(() => {
    replay.mutate = undefined;
  });

  it('search: live, priced per 20 results, and its cursor pages on (the recorded second page)', async () => {
    const first = await post(gw.url, '/v1/youtube/search', { query: 'test', limit: 30, maxAge: 0 }, { key });
    expect(first.status).toBe(200);
    expect(first.json.data.results).toHaveLength(30);
    expect(first.json.creditsUsed).toBe(2); // 30 results: two units of 20
    expect(first.json.data.cursor).toMatch(/^10~/);
    // The ten entries of the recorded second page still owed (the third page is not recorded).
    const next = await post(gw.url, '/v1/youtube/search', { query: 'test', limit: 10, cursor: first.json.data.cursor, maxAge: 0 }, { key });
    expect(next.status).toBe(200);
    expect(next.json.data.results).toHaveLength(10);
    expect(next.json.data.results[0].id).not.toBe(first.json.data.results[29].id);
    expect(next.json.creditsUsed).toBe(1);
  });

  it('search and transcript are keyless, limited per address by the gateway', async () => {
    const r = await post(gw.url, '/v1/youtube/search', { query: 'test', limit: 5 }, {});
    expect(r.status).toBe(200);
    expect(r.headers.get('x-ratelimit-limit')).toBeTruthy();
    const t = await post(gw.url, '/v1/youtube/transcript', { video: 'GJLlxj_dtq8' }, {});
    expect(t.status).toBe(200);
    expect(t.json.data.language).toBe('zh');
    // Paging needs a key, and the keyed-only endpoints refuse anonymous calls.
    expect((await post(gw.url, '/v1/youtube/search', { query: 'test', cursor: 'abc' }, {})).status).toBe(401);
    expect((await post(gw.url, '/v1/youtube/video', { video: 'M4gD1WSo5mA' }, {})).status).toBe(401);
  });

  it('video, channel and playlist: live answers and their prices', async () => {
    const v = await post(gw.url, '/v1/youtube/video', { video: 'https://youtu.be/M4gD1WSo5mA' }, { key });
    expect(v.status).toBe(200);
    expect(v.json.data.video).toMatchObject({ id: 'M4gD1WSo5mA', views: 12916 });
    expect(v.json.creditsUsed).toBe(1);
    const c = await post(gw.url, '/v1/youtube/channel', { channel: 'https://www.youtube.com/user/creativecommons', limit: 60 }, { key });
    expect(c.status).toBe(200);
    expect(c.json.data.items).toHaveLength(60);
    expect(c.json.creditsUsed).toBe(2); // per 30 items
    const p = await post(gw.url, '/v1/youtube/playlist', { playlist: 'PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr', limit: 150 }, { key });
    expect(p.status).toBe(200);
    expect(p.json.data.videos).toHaveLength(150);
    expect(p.json.creditsUsed).toBe(2); // per 100 items
    const cm = await post(gw.url, '/v1/youtube/comments', { video: 'xaQJbozY_Is', limit: 5 }, { key });
    expect(cm.json.data.comments).toHaveLength(5);
    expect(cm.json.creditsUsed).toBe(1);
  });

  it('a drifted answer is 502 sourceChanged and unbilled', async () => {
    const before = (await gw.gateway.deps.store.getAccount(accountId))?.balance;
    replay.mutate = (name, body) => (name.endsWith('video-cc.player-web-fields.json') ? body.replace('"publishDate"', '"publishedOn"').replace('"uploadDate"', '"uploadedOn"') : body);
    const r = await post(gw.url, '/v1/youtube/video', { video: 'M4gD1WSo5mA', maxAge: 0 }, { key });
    expect(r.status).toBe(502);
    expect(r.json.error.code).toBe('sourceChanged');
    expect((await gw.gateway.deps.store.getAccount(accountId))?.balance).toBe(before);
  });

  it('a bot wall is 502 sourceRefused; an unknown video 404', async () => {
    const bot = await post(gw.url, '/v1/youtube/transcript', { video: 'BotCheck000' }, { key });
    expect(bot.status).toBe(502);
    expect(bot.json.error.code).toBe('sourceRefused');
    const gone = await post(gw.url, '/v1/youtube/transcript', { video: 'Unavailabl0' }, { key });
    expect(gone.status).toBe(404);
  });

  it('bad input is a 400 naming the field', async () => {
    const r = await post(gw.url, '/v1/youtube/video', { video: 'https://example.com/watch?v=dQw4w9WgXcQ' }, { key });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toMatch(/^video: /);
  });

  it('every youtube endpoint is in the catalogue as available, and a test key gets 200 for its example', async () => {
    const youtube = ENDPOINTS.filter((e) => e.id.startsWith('youtube.') && findOperation(e.id));
    expect(youtube.map((e) => e.id)).toEqual(expect.arrayContaining(['youtube.search', 'youtube.video', 'youtube.transcript', 'youtube.comments', 'youtube.comments.replies', 'youtube.channel', 'youtube.playlist']));
    const catalogue = await fetch(`${gw.url}/v1/catalogue`).then((r) => r.json());
    for (const e of youtube) {
      expect(catalogue.data.endpoints.find((x: any) => x.id === e.id)?.available, e.id).toBe(true);
      const r = await post(gw.url, pathOf(e.id), e.example, { key: testKey });
      expect(r.status, `${e.id}: ${r.text.slice(0, 200)}`).toBe(200);
      expect(r.json.creditsUsed, e.id).toBeGreaterThanOrEqual(e.credits);
    }
  });

  it('test mode pages through the recorded pages, then an empty unbilled page', async () => {
    const first = await post(gw.url, '/v1/youtube/playlist', { playlist: 'PLanything12' }, { key: testKey });
    expect(first.json.data.videos).toHaveLength(100);
    const second = await post(gw.url, '/v1/youtube/playlist', { playlist: 'PLanything12', cursor: first.json.data.cursor }, { key: testKey });
    expect(second.json.data.videos).toHaveLength(50);
    expect(second.json.data.videos[0].index).toBe(101);
  });
});
