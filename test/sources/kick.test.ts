/**
 * kick against answers written from the documented interface (no Kick answer is recorded in shared/upstream:
 * test/fixtures/documented/kick/, served by test/sources/kick-doubles.ts): the channel (offline and live), clips with
 * their cursor and a cut page, the bot walls Kick puts in front of many addresses, drift, test mode and the gateway.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { documented } from '../../scripts/samples/documented.js';
import { slugOf } from '../../src/sources/kick/client.js';
import { failure } from '../helpers/failure.js';
import { startReplay, type Replay, type ReplayRoute } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';
import { KICK_HOST, NEXT, kickReplay } from './kick-doubles.js';

/** The walls Kick answers from many server addresses: Cloudflare's challenge and its own security policy's 403. */
const WALLS: ReplayRoute[] = [
  { host: KICK_HOST, path: '/api/v2/channels/challenged', status: 403, text: '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><div id="cf-chl-widget"></div></body></html>', headers: { 'content-type': 'text/html' } },
  { host: KICK_HOST, path: '/api/v2/channels/policy', status: 403, text: '{"error":"Request blocked by security policy."}', headers: { 'content-type': 'application/json' } },
  { host: KICK_HOST, path: '/api/v2/channels/challenge200', text: '<html><head><title>Just a moment...</title><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></head></html>', headers: { 'content-type': 'text/html' } },
  { host: KICK_HOST, path: '/api/v2/channels/drifted', text: documented('kick', 'channel.json').replace('"followers_count": 95411, ', ''), headers: { 'content-type': 'application/json' } },
];

describe('kick references (no answers needed)', () => {
  it('slugs from themselves or kick.com addresses; anything else is a 400 naming channel', async () => {
    expect(slugOf('xQc')).toBe('xqc');
    expect(slugOf('https://kick.com/xqc/clips?sort=view')).toBe('xqc');
    for (const input of ['https://kick.com/categories/irl', 'https://example.com/xqc', 'not a slug']) {
      const e = await failure(() => slugOf(input));
      expect([e.code, e.message.startsWith('channel: ')]).toEqual(['invalidRequest', true]);
    }
  });
});

describe('kick test mode (committed samples, written from the documented interface)', () => {
  it('the examples answer; clips page through the samples', async () => {
    expect((await runSample('kick.channel', { channel: 'xqc' })).data.channel).toMatchObject({ username: 'examplelive', isLive: true });
    const first = await runSample('kick.clips', { channel: 'xqc' });
    expect((await runSample('kick.clips', { channel: 'xqc', cursor: first.data.cursor })).data.clips).toHaveLength(2);
  });
});

describe('kick against documented answers (not recordings)', () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(kickReplay(WALLS));
    live = liveContext('kick', replay, {}, [KICK_HOST]);
  });
  afterAll(async () => {
    await live.close();
    await replay.close();
  });
  beforeEach(() => {
    replay.seen.length = 0;
  });

  it('an offline channel: its user, followers, badge, banner and social handles as addresses', async () => {
    const out = await runLive('kick.channel', { channel: 'https://kick.com/examplestreamer' }, live.ctx);
    expect(out.data.channel).toEqual({
      type: 'profile', id: '8000001', username: 'examplestreamer', url: 'https://kick.com/examplestreamer', followers: 95411,
      name: 'ExampleStreamer', bio: 'An illustrative channel (written from the documented shape).', avatar: expect.stringMatching(/profile_image/),
      banner: 'https://files.kick.com/images/channel/8000001/banner_image/example', isVerified: true, isLive: false, recentCategories: ['Just Chatting'],
      links: [
        { url: 'https://www.instagram.com/examplestreamer', title: 'instagram' },
        { url: 'https://x.com/ExampleStreamer', title: 'twitter' },
        { url: 'https://discord.com/invite/example', title: 'discord' },
      ],
    });
  });

  it('a live channel: its stream, Kick’s zone-less start time read as UTC', async () => {
    const out = await runLive('kick.channel', { channel: 'examplelive' }, live.ctx);
    expect(out.data.channel.live).toEqual({ id: '70000001', title: 'An illustrative live stream', viewers: 4321, startedAt: '2025-05-20T18:00:05.000Z', category: 'Just Chatting', thumbnail: 'https://images.kick.com/video_thumbnails/example/480.webp', language: 'English' });
  });

  it('clips: sort and window sent as Kick names them; a cut page owes its rest; Kick’s cursor pages on', async () => {
    const first = await runLive('kick.clips', { channel: 'examplestreamer', sort: 'newest', within: 'week', limit: 2 }, live.ctx);
    expect([replay.seen[0].query.get('sort'), replay.seen[0].query.get('time'), replay.seen[0].query.has('cursor')]).toEqual(['date', 'week', false]);
    expect([first.data.clips.map((c: any) => c.id), first.data.cursor]).toEqual([['clip_01EXAMPLE000000000001', 'clip_01EXAMPLE000000000002'], '2~']);
    const rest = await runLive('kick.clips', { channel: 'examplestreamer', cursor: '2~', limit: 20 }, live.ctx);
    expect([rest.data.clips.map((c: any) => c.id), rest.data.cursor]).toEqual([['clip_01EXAMPLE000000000003'], NEXT]);
    expect(rest.data.clips[0]).toMatchObject({ isMature: true, views: 800, clippedBy: { username: 'clipper3' }, video: { hls: expect.stringMatching(/playlist\.m3u8$/), url: expect.stringMatching(/video\.mp4$/) } });
    const last = await runLive('kick.clips', { channel: 'examplestreamer', cursor: NEXT }, live.ctx);
    expect([last.data.clips.length, last.data.cursor]).toEqual([2, undefined]);
  });

  it('an unknown channel is notFound; Cloudflare’s challenge and Kick’s security policy are sourceRefused; drift is sourceChanged', async () => {
    expect((await failure(runLive('kick.channel', { channel: 'nobody' }, live.ctx))).message).toBe('channel: not found on Kick (Channel not found)');
    expect((await failure(runLive('kick.clips', { channel: 'nobody' }, live.ctx))).code).toBe('notFound');
    for (const walled of ['challenged', 'policy', 'challenge200']) {
      expect([walled, (await failure(runLive('kick.channel', { channel: walled }, live.ctx))).code]).toEqual([walled, 'sourceRefused']);
    }
    expect((await failure(runLive('kick.channel', { channel: 'drifted' }, live.ctx))).code).toBe('sourceChanged');
  });
});

describe('kick through the gateway (documented answers)', () => {
  const g = useSourceGateway(() => ({ replay: kickReplay(WALLS), hosts: [KICK_HOST], env: { QUARRY_UPSTREAM_RETRIES: '0' } }));

  it('live: a channel for 1 credit, clips per 20, paging by the cursor', async () => {
    const before = await g.balance();
    expect((await g.post('/v1/kick/channel', { channel: 'examplestreamer' })).json.creditsUsed).toBe(1);
    const first = await g.post('/v1/kick/clips', { channel: 'examplestreamer' });
    expect([first.json.data.clips.length, first.json.creditsUsed]).toEqual([3, 1]);
    const next = await g.post('/v1/kick/clips', { channel: 'examplestreamer', cursor: first.json.data.cursor });
    expect(next.json.data.clips).toHaveLength(2);
    expect(await g.balance()).toBe(before - 3);
  });

  it('test mode: the samples, never upstream, no credits spent', async () => {
    await g.expectTestMode(() => g.expectExamples('kick'));
  });

  it('a bot wall → 502 sourceRefused; drift → 502 sourceChanged; unknown → 404; all unbilled', async () => {
    await g.expectRefused('/v1/kick/channel', { channel: 'challenged' });
    await g.expectDrift('/v1/kick/channel', { channel: 'drifted' });
    await g.expectFailure('/v1/kick/channel', { channel: 'nobody' }, { status: 404, code: 'notFound' });
  });
});
