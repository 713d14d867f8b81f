/**
 * YouTube through the gateway over HTTP on loopback: live calls against the replay double (QUARRY_UPSTREAM_OVERRIDES),
 * per-item prices from what came back, paging, keyless calls, drift, and test mode with a qry_test_ key for every
 * YouTube endpoint's catalogue example.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { findOperation } from '../../src/sources/registry.js';
import { haveRecordings, skipReason } from '../helpers/replay.js';
import { endpointsOf, useSourceGateway } from '../helpers/source-gateway.js';
import { YOUTUBE_REPLAY } from './youtube-replay.js';

describe.skipIf(!haveRecordings('video'))(`youtube through the gateway${skipReason('video')}`, () => {
  const g = useSourceGateway(() => ({ replay: YOUTUBE_REPLAY, credits: 1000 }));
  beforeEach(() => {
    g.replay.mutate = undefined;
  });

  it('search: live, priced per 20 results, and its cursor pages on (the recorded second page)', async () => {
    const first = await g.post('/v1/youtube/search', { query: 'test', limit: 30, maxAge: 0 });
    expect(first.status).toBe(200);
    expect(first.json.data.results).toHaveLength(30);
    expect(first.json.creditsUsed).toBe(2); // 30 results: two units of 20
    expect(first.json.data.cursor).toMatch(/^10~/);
    // The ten entries of the recorded second page still owed (the third page is not recorded).
    const next = await g.post('/v1/youtube/search', { query: 'test', limit: 10, cursor: first.json.data.cursor, maxAge: 0 });
    expect(next.status).toBe(200);
    expect(next.json.data.results).toHaveLength(10);
    expect(next.json.data.results[0].id).not.toBe(first.json.data.results[29].id);
    expect(next.json.creditsUsed).toBe(1);
  });

  it('search and transcript are keyless, limited per address by the gateway', async () => {
    const r = await g.post('/v1/youtube/search', { query: 'test', limit: 5 }, 'anonymous');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-ratelimit-limit')).toBeTruthy();
    const t = await g.post('/v1/youtube/transcript', { video: 'GJLlxj_dtq8' }, 'anonymous');
    expect(t.status).toBe(200);
    expect(t.json.data.language).toBe('zh');
    // Paging needs a key, and the keyed-only endpoints refuse anonymous calls.
    expect((await g.post('/v1/youtube/search', { query: 'test', cursor: 'abc' }, 'anonymous')).status).toBe(401);
    expect((await g.post('/v1/youtube/video', { video: 'M4gD1WSo5mA' }, 'anonymous')).status).toBe(401);
  });

  it('video, channel and playlist: live answers and their prices', async () => {
    const v = await g.post('/v1/youtube/video', { video: 'https://youtu.be/M4gD1WSo5mA' });
    expect(v.status).toBe(200);
    expect(v.json.data.video).toMatchObject({ id: 'M4gD1WSo5mA', views: 12916 });
    expect(v.json.creditsUsed).toBe(1);
    const c = await g.post('/v1/youtube/channel', { channel: 'https://www.youtube.com/user/creativecommons', limit: 60 });
    expect(c.status).toBe(200);
    expect(c.json.data.items).toHaveLength(60);
    expect(c.json.creditsUsed).toBe(2); // per 30 items
    const p = await g.post('/v1/youtube/playlist', { playlist: 'PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr', limit: 150 });
    expect(p.status).toBe(200);
    expect(p.json.data.videos).toHaveLength(150);
    expect(p.json.creditsUsed).toBe(2); // per 100 items
    const cm = await g.post('/v1/youtube/comments', { video: 'xaQJbozY_Is', limit: 5 });
    expect(cm.json.data.comments).toHaveLength(5);
    expect(cm.json.creditsUsed).toBe(1);
  });

  it('a drifted answer is 502 sourceChanged and unbilled', async () => {
    await g.expectDrift('/v1/youtube/video', { video: 'M4gD1WSo5mA', maxAge: 0 }, (name, body) =>
      name.endsWith('video-cc.player-web-fields.json') ? body.replace('"publishDate"', '"publishedOn"').replace('"uploadDate"', '"uploadedOn"') : body,
    );
  });

  it('a bot wall is 502 sourceRefused; an unknown video 404', async () => {
    await g.expectRefused('/v1/youtube/transcript', { video: 'BotCheck000' });
    await g.expectFailure('/v1/youtube/transcript', { video: 'Unavailabl0' }, { status: 404 });
  });

  it('bad input is a 400 naming the field', async () => {
    const r = await g.expectFailure('/v1/youtube/video', { video: 'https://example.com/watch?v=dQw4w9WgXcQ' }, { status: 400 });
    expect(r.json.error.message).toMatch(/^video: /);
  });

  it('every youtube endpoint is in the catalogue as available, and a test key gets 200 for its example', async () => {
    const youtube = endpointsOf('youtube').filter((e) => findOperation(e.id));
    expect(youtube.map((e) => e.id)).toEqual(expect.arrayContaining(['youtube.search', 'youtube.video', 'youtube.transcript', 'youtube.comments', 'youtube.comments.replies', 'youtube.channel', 'youtube.playlist']));
    const catalogue = await fetch(`${g.url}/v1/catalogue`).then((r) => r.json());
    await g.expectExamples(youtube, (r, e) => {
      expect(catalogue.data.endpoints.find((x: any) => x.id === e.id)?.available, e.id).toBe(true);
      expect(r.json.creditsUsed, e.id).toBeGreaterThanOrEqual(e.credits);
    });
  });

  it('test mode pages through the recorded pages, then an empty unbilled page', async () => {
    const first = await g.post('/v1/youtube/playlist', { playlist: 'PLanything12' }, 'test');
    expect(first.json.data.videos).toHaveLength(100);
    const second = await g.post('/v1/youtube/playlist', { playlist: 'PLanything12', cursor: first.json.data.cursor }, 'test');
    expect(second.json.data.videos).toHaveLength(50);
    expect(second.json.data.videos[0].index).toBe(101);
  });
});
