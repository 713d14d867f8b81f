/**
 * snapchat: no recording of a Snapchat page exists, so the profile pages served here are written from the shape
 * Snapchat server-renders (test/fixtures/documented/snapchat/, after the captures of 2scraper/snapchat-scraper, MIT),
 * named as such. Through the replay double: the live operations, test mode, the gateway, drift and walls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, SNAPCHAT_REPLAY } from '../../scripts/samples/snapchat.js';
import { documented } from '../../scripts/samples/documented.js';
import { usernameOf } from '../../src/sources/snapchat/refs.js';
import { failure } from '../helpers/failure.js';
import { startReplay, type Replay, type ReplayRoute } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';

const W = 'www.snapchat.com';
const html = { 'content-type': 'text/html; charset=utf-8' };
const page = documented('snapchat', 'profile-page.spotlightcreator.html');
/** Walls and drift, each on an address of its own (documented pages are served as text, which `mutate` does not touch). */
const EXTRA: ReplayRoute[] = [
  { host: W, path: '/@challenged', text: '<html><head><script src="https://hcaptcha.com/1/api.js" async></script></head><body>Are you human?</body></html>', headers: html },
  { host: W, path: '/@drifted', text: page.replace('"userProfile"', '"account"'), headers: html },
  { host: W, path: '/@hidden', text: page.replace('"subscriberCount": "125400"', '"subscriberCount": "0"').replace(/"interactionStatistic": \[[^\]]*\]/, '"interactionStatistic": []'), headers: html },
  { host: W, path: '/@nospotlight', text: page.replace('"spotlightHighlights"', '"spotlights"'), headers: html },
];

describe('snapchat usernames', () => {
  it('handles, profile and /add/ addresses; the bad field named', async () => {
    expect(usernameOf('@SpotlightCreator')).toBe('spotlightcreator');
    expect(usernameOf('https://www.snapchat.com/add/spotlightcreator?share_id=x')).toBe('spotlightcreator');
    expect(usernameOf('https://www.snapchat.com/@spotlightcreator/spotlight/W7_x')).toBe('spotlightcreator');
    expect((await failure(() => usernameOf('https://www.snapchat.com/discover'))).message).toMatch(/^profile: /);
  });
});

describe('snapchat against documented (not recorded) profile pages', () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay({ folders: [], routes: [...ROUTES, ...EXTRA] });
    live = liveContext('snapchat', replay, {}, [W]);
  });
  afterAll(async () => {
    await live.close();
    await replay.close();
  });

  it('a public profile: title, bio, subscribers, website, category, JSON-LD creation date', async () => {
    const out = await runLive('snapchat.profile', { profile: '@spotlightcreator' }, live.ctx);
    expect(out.data.profile).toMatchObject({
      type: 'profile', username: 'spotlightcreator', url: 'https://www.snapchat.com/@spotlightcreator', isPublic: true,
      id: '00000000-1111-4222-8333-444444444444', name: 'Spotlight Creator', followers: 125400, website: 'https://example.com/recipes',
      location: 'Los Angeles, California', createdAt: '2019-05-22T17:38:27.000Z', category: 'public-profile-category-v3-creator',
    });
    expect(replay.seen.at(-1)!.path).toBe('/@spotlightcreator');
  });

  it('a hidden subscriber count (0, and no counter in the JSON-LD) is left out, not 0', async () => {
    const out = await runLive('snapchat.profile', { profile: 'hidden' }, live.ctx);
    expect(out.data.profile.followers).toBeUndefined();
  });

  it('an ordinary account: a display name and its Snapcode; its Spotlight is an empty answer', async () => {
    const out = await runLive('snapchat.profile', { profile: 'someone' }, live.ctx);
    expect(out.data.profile).toEqual({
      type: 'profile', username: 'someone', url: 'https://www.snapchat.com/@someone', isPublic: false, name: 'someone',
      avatar: 'https://cf-st.sc-cdn.net/3d/render/example-avatar.webp?ua=2', snapcode: expect.stringContaining('username=someone'),
    });
    expect((await runLive('snapchat.spotlight', { profile: 'someone' }, live.ctx)).data).toEqual({ videos: [] });
  });

  it('Spotlight: the two parallel lists joined by index, empty slots and Snapchat’s filler text left out', async () => {
    const out = await runLive('snapchat.spotlight', { profile: 'spotlightcreator' }, live.ctx);
    expect(out.data.videos).toHaveLength(2);
    expect(out.data.videos[0]).toEqual({
      type: 'video', id: 'W7_EDexampleSpotlightA0000000000000000000000000000000001', url: 'https://www.snapchat.com/spotlight/W7_EDexampleSpotlightA0000000000000000000000000000000001',
      publishedAt: '2025-09-16T05:20:00.123Z', durationSeconds: 20, views: 1529, comments: 3, shares: 12,
      author: { username: 'spotlightcreator', name: 'Spotlight Creator', url: 'https://www.snapchat.com/@spotlightcreator' },
      thumbnails: [{ url: expect.stringContaining('exampleThumbA') }],
    });
    expect(out.data.videos[1]).toMatchObject({ title: 'Five-minute omelette', hashtags: ['breakfast', 'eggs'], video: { url: expect.stringContaining('exampleVideoB') } });
    expect((await runLive('snapchat.spotlight', { profile: 'spotlightcreator', limit: 1 }, live.ctx)).data.videos).toHaveLength(1);
  });

  it('not found, a challenge, and drift', async () => {
    expect((await failure(runLive('snapchat.profile', { profile: 'nobody-here' }, live.ctx))).code).toBe('notFound');
    expect((await failure(runLive('snapchat.profile', { profile: 'challenged' }, live.ctx))).code).toBe('sourceRefused');
    expect((await failure(runLive('snapchat.profile', { profile: 'drifted' }, live.ctx))).code).toBe('sourceChanged');
    expect((await failure(runLive('snapchat.spotlight', { profile: 'nospotlight' }, live.ctx))).code).toBe('sourceChanged');
  });
});

describe('snapchat test mode', () => {
  it('answers the examples from the samples', async () => {
    expect((await runSample('snapchat.profile', { profile: 'anyone' })).data.profile.username).toBe('spotlightcreator');
    const v = await runSample('snapchat.spotlight', { profile: 'anyone', limit: 1 });
    expect(v.data.videos).toHaveLength(1);
    expect(v.items).toBe(1);
  });
});

describe('snapchat through the gateway', () => {
  const g = useSourceGateway(() => ({ replay: { ...SNAPCHAT_REPLAY, routes: [...ROUTES, ...EXTRA] }, hosts: [W] }));

  it('live: the profile and its Spotlight at 1 credit each; an empty Spotlight unbilled', async () => {
    const before = await g.balance();
    const p = await g.post('/v1/snapchat/profile', { profile: 'spotlightcreator' });
    expect(p.status).toBe(200);
    expect(p.json.creditsUsed).toBe(1);
    const s = await g.post('/v1/snapchat/spotlight', { profile: 'spotlightcreator' });
    expect(s.json.data.videos).toHaveLength(2);
    expect(s.json.creditsUsed).toBe(1);
    const empty = await g.post('/v1/snapchat/spotlight', { profile: 'someone' });
    expect(empty.status).toBe(200);
    expect(empty.json.creditsUsed).toBe(0);
    expect(await g.balance()).toBe(before - 2);
  });

  it('test mode: the samples, never upstream, no credits spent', async () => {
    await g.expectTestMode(async () => {
      const r = await g.post('/v1/snapchat/profile', { profile: 'anyone' }, 'test');
      expect(r.status).toBe(200);
    });
  });

  it('drift → 502 sourceChanged and a challenge → 502 sourceRefused, both unbilled', async () => {
    await g.expectDrift('/v1/snapchat/profile', { profile: 'drifted' });
    await g.expectRefused('/v1/snapchat/profile', { profile: 'challenged' });
  });
});
