/**
 * appstore: the app from the recorded iTunes Lookup answers (../shared/upstream/appstore, fastlane's fixtures, every
 * one read here); search and reviews on answers written from Apple's documented interfaces
 * (test/fixtures/documented/appstore/), named as such since no recording of them exists. Through the replay double:
 * the live operations, test mode, the gateway (keyless and keyed prices, paging), drift and refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPSTORE_REPLAY, APPSTORE_ROUTES } from '../../scripts/samples/appstore.js';
import { documented } from '../../scripts/samples/documented.js';
import { appRefOf } from '../../src/sources/appstore/refs.js';
import { failure } from '../helpers/failure.js';
import { haveRecordings, skipReason, startReplay, type Replay, type ReplayRoute } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';

const I = 'itunes.apple.com';
const json = { 'content-type': 'text/javascript; charset=utf-8' };
const feed = (page: number, id: string, sort = 'mostrecent') => `/us/rss/customerreviews/page=${page}/id=${id}/sortby=${sort}/json`;
/** Documented shapes the sample routes do not serve: a feed of one review, a feed without any, a throttled Apple. */
const EXTRA: ReplayRoute[] = [
  { host: I, path: feed(1, '111'), text: documented('appstore', 'reviews.single.json'), headers: json },
  { host: I, path: feed(1, '222'), text: documented('appstore', 'reviews.empty.json'), headers: json },
  { host: I, path: feed(1, '284882215', 'mosthelpful'), text: documented('appstore', 'reviews.page2.json'), headers: json },
  { host: I, path: '/lookup', query: { id: '403403' }, status: 403, text: '<html><body>Forbidden</body></html>', headers: { 'content-type': 'text/html' } },
  { host: I, path: '/search', query: { term: 'throttled' }, status: 429, text: '', headers: { 'retry-after': '60' } },
];

describe('appstore app references', () => {
  it('ids, id-prefixed ids, bundle ids and store addresses; the bad field named', async () => {
    expect(appRefOf('284882215')).toEqual({ id: '284882215' });
    expect(appRefOf('id284882215')).toEqual({ id: '284882215' });
    expect(appRefOf('com.facebook.Facebook')).toEqual({ bundleId: 'com.facebook.Facebook' });
    expect(appRefOf('https://apps.apple.com/fr/app/118-712/id338986109?l=en')).toEqual({ id: '338986109' });
    expect((await failure(() => appRefOf('https://example.com/id1'))).message).toMatch(/^app: /);
    expect((await failure(() => appRefOf('not an app'))).code).toBe('invalidRequest');
  });
});

describe.skipIf(!haveRecordings('appstore'))(`appstore against the recorded Lookup answers${skipReason('appstore')}`, () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay({ ...APPSTORE_REPLAY, routes: [...EXTRA, ...APPSTORE_ROUTES] });
    live = liveContext('appstore', replay, {}, [I]);
  });
  afterAll(async () => {
    await live.close();
    await replay.close();
  });

  it.each([
    ['by id (lookup.id-284882215)', { app: '284882215' }, 'appstore/lookup.id-284882215.json'],
    ['by bundle id (lookup.bundleId-com.facebook.Facebook)', { app: 'com.facebook.Facebook' }, 'appstore/lookup.bundleId-com.facebook.Facebook.json'],
  ])('the app %s: the shared app record', async (_what, body, recording) => {
    const out = await runLive('appstore.app', body, live.ctx);
    expect(replay.served().at(-1)).toBe(recording);
    expect(out.data.app).toMatchObject({
      type: 'app', id: '284882215', url: 'https://itunes.apple.com/us/app/facebook/id284882215?mt=8', title: 'Facebook',
      developer: { id: '284882218', name: 'Facebook, Inc.', url: 'https://itunes.apple.com/us/artist/facebook-inc./id284882218' },
      price: { amount: 0, currency: 'USD' }, isFree: true, rating: { value: 3.5, max: 5, count: 2840784 }, version: '15.0',
      releasedAt: '2008-07-11T07:00:00.000Z', sizeBytes: 67617695, contentRating: '4+', genres: ['Social Networking'],
      minimumOsVersion: '7.0', website: 'http://www.facebook.com/mobile', bundleId: 'com.facebook.Facebook',
    });
    expect(out.data.app.screenshots).toHaveLength(10);
    expect(out.data.app.languages).toContain('zh');
    expect(new Set(out.data.app.languages).size).toBe(out.data.app.languages.length);
  });

  it('the French store (lookup.id-338986109.country-FR): euros, French genres, the country asked in Apple’s case', async () => {
    const out = await runLive('appstore.app', { app: 'https://apps.apple.com/fr/app/x/id338986109', country: 'FR' }, live.ctx);
    expect(replay.seen.at(-1)!.query.get('country')).toBe('FR');
    expect(out.data.app).toMatchObject({ id: '338986109', price: { amount: 0, currency: 'EUR' }, genres: ['Utilitaires', 'Style de vie'], developer: { name: 'Orange' } });
    expect(out.data.app.rating).toEqual({ value: 3.5, max: 5, count: 4118 });
  });

  it('an id Apple does not know (lookup.not-found) is notFound; a throttled Apple is sourceRefused', async () => {
    expect((await failure(runLive('appstore.app', { app: '0' }, live.ctx))).code).toBe('notFound');
    expect(replay.served().at(-1)).toBe('appstore/lookup.not-found.json');
    expect((await failure(runLive('appstore.app', { app: '403403' }, live.ctx))).code).toBe('sourceRefused');
    expect((await failure(runLive('appstore.search', { query: 'throttled' }, live.ctx))).code).toBe('sourceRefused');
  });

  it('search (documented answer): Apple’s limit asked, pages by the count answered, the end of the list has no cursor', async () => {
    const first = await runLive('appstore.search', { query: 'weather', limit: 2 }, live.ctx);
    expect(Object.fromEntries(replay.seen.at(-1)!.query)).toMatchObject({ term: 'weather', country: 'US', entity: 'software', limit: '2' });
    expect(first.data.apps.map((a: { title: string }) => a.title)).toEqual(['Example Weather', 'Example Radar Pro']);
    expect(first.data.apps[1]).toMatchObject({ price: { amount: 4.99, currency: 'USD' }, isFree: false, updatedAt: '2026-09-12T08:00:00.000Z' });
    expect(first.data.cursor).toBe('2');
    const second = await runLive('appstore.search', { query: 'weather', limit: 2, cursor: first.data.cursor }, live.ctx);
    expect(replay.seen.at(-1)!.query.get('limit')).toBe('4');
    expect(second.data.apps.map((a: { title: string }) => a.title)).toEqual(['Example Clouds']);
    expect(second.data.cursor).toBeUndefined();
  });

  it('search options: iPad apps, the language as Apple’s language_country', async () => {
    await runLive('appstore.search', { query: 'weather', device: 'ipad', language: 'ja', country: 'jp' }, live.ctx);
    expect(Object.fromEntries(replay.seen.at(-1)!.query)).toMatchObject({ entity: 'iPadSoftware', lang: 'ja_jp', country: 'JP' });
  });

  it('reviews (documented feed): two pages by the feed’s own page number, limit cut with N~page', async () => {
    const first = await runLive('appstore.reviews', { app: '284882215', limit: 2 }, live.ctx);
    expect(first.data.reviews).toHaveLength(2);
    expect(first.data.reviews[0]).toEqual({
      type: 'review', id: '11000000001', rating: 5, title: 'Works well', text: 'Keeps me in touch with family.',
      createdAt: '2026-11-19T21:02:11.000Z', author: { name: 'reader one', url: 'https://itunes.apple.com/us/reviews/id900000001' },
      helpful: 3, appVersion: '540.0',
    });
    expect(first.data.cursor).toBe('2~');
    const second = await runLive('appstore.reviews', { app: '284882215', limit: 2, cursor: '2~' }, live.ctx);
    expect(second.data.reviews.map((r: { id: string }) => r.id)).toEqual(['11000000003', '11000000004']);
    expect(second.data.cursor).toBe('1~2');
    const rest = await runLive('appstore.reviews', { app: '284882215', limit: 50, cursor: second.data.cursor }, live.ctx);
    expect(rest.data.reviews.map((r: { id: string }) => r.id)).toEqual(['11000000005']);
    expect(rest.data.cursor).toBeUndefined();
  });

  it('reviews: most helpful asks that feed; a bundle id is looked up first; one review and none are read', async () => {
    await runLive('appstore.reviews', { app: '284882215', sort: 'helpful', limit: 1 }, live.ctx);
    expect(replay.seen.at(-1)!.path).toBe(feed(1, '284882215', 'mosthelpful'));
    const byBundle = await runLive('appstore.reviews', { app: 'com.facebook.Facebook', limit: 1 }, live.ctx);
    expect(byBundle.data.app).toBe('284882215');
    expect(replay.seen.at(-2)!.path).toBe('/lookup');
    expect((await runLive('appstore.reviews', { app: '111' }, live.ctx)).data.reviews.map((r: { title: string }) => r.title)).toEqual(['Single']);
    const none = await runLive('appstore.reviews', { app: '222' }, live.ctx);
    expect([none.data.reviews, none.free]).toEqual([[], true]);
    expect((await failure(runLive('appstore.reviews', { app: 'x', cursor: 'abc' }, live.ctx))).code).toBe('invalidRequest');
  });
});

describe('appstore test mode', () => {
  it('answers every example from the samples, paging through recorded pages', async () => {
    expect((await runSample('appstore.app', { app: 'anything' })).data.app.title).toBe('Facebook');
    const s = await runSample('appstore.search', { query: 'weather', limit: 10 });
    expect(s.data.apps).toHaveLength(2);
    expect((await runSample('appstore.search', { query: 'weather', cursor: s.data.cursor })).data.apps).toHaveLength(1);
    const r = await runSample('appstore.reviews', { app: '284882215', limit: 2 });
    expect([r.data.reviews.length, r.items]).toEqual([2, 2]);
  });
});

describe.skipIf(!haveRecordings('appstore'))(`appstore through the gateway${skipReason('appstore')}`, () => {
  const g = useSourceGateway(() => ({ replay: { ...APPSTORE_REPLAY, routes: [...EXTRA, ...APPSTORE_ROUTES] }, hosts: [I] }));

  it('live: the app keyless and with a key (1 credit); search per 25 apps; reviews paged with a key', async () => {
    const keyless = await g.post('/v1/appstore/app', { app: '284882215' }, 'anonymous');
    expect([keyless.status, keyless.json.data.app.title]).toEqual([200, 'Facebook']);
    const before = await g.balance();
    const app = await g.post('/v1/appstore/app', { app: 'com.facebook.Facebook' });
    expect(app.json.creditsUsed).toBe(1);
    const search = await g.post('/v1/appstore/search', { query: 'weather', limit: 2 });
    expect([search.json.data.apps.length, search.json.creditsUsed]).toEqual([2, 1]);
    const page1 = await g.post('/v1/appstore/reviews', { app: '284882215', limit: 3 });
    const page2 = await g.post('/v1/appstore/reviews', { app: '284882215', limit: 3, cursor: page1.json.data.cursor });
    expect([page1.json.data.reviews.length, page2.json.data.reviews.length, page2.json.creditsUsed]).toEqual([3, 2, 1]);
    expect(await g.balance()).toBe(before - 4);
  });

  it('test mode: the samples, never upstream, no credits spent', async () => {
    await g.expectTestMode(async () => {
      const r = await g.post('/v1/appstore/reviews', { app: '284882215', limit: 3 }, 'test');
      expect([r.status, r.json.data.reviews.length, r.json.creditsUsed]).toEqual([200, 3, 1]);
      const next = await g.post('/v1/appstore/reviews', { app: '284882215', limit: 3, cursor: r.json.data.cursor }, 'test');
      expect(next.json.data.reviews).toHaveLength(2);
    });
  });

  it('drift (an app without its id) → 502 sourceChanged; a refusal → 502 sourceRefused; both unbilled', async () => {
    await g.expectDrift('/v1/appstore/app', { app: '338986109', country: 'fr', maxAge: 0 }, (name, body) => (name === 'appstore/lookup.id-338986109.country-FR.json' ? body.replace(/"trackId":[^\n]*\n/, '') : body));
    await g.expectRefused('/v1/appstore/app', { app: '403403' });
    await g.expectFailure('/v1/appstore/app', { app: '0' }, { status: 404, code: 'notFound' });
  });
});
