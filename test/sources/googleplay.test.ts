/**
 * googleplay: apps from the recorded details pages (../shared/upstream/googleplay, larryaasen/upgrader's fixtures,
 * every one read here: the 2025 layout, the 2022 layout, and the layout Google retired in 2022 as drift); the review
 * entries those pages embed read through the reviews normaliser; search and the reviews RPC on answers written from
 * google-play-scraper's reading of the store (test/fixtures/documented/googleplay/), named as such.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documented } from '../../scripts/samples/documented.js';
import { GOOGLEPLAY_REPLAY, GOOGLEPLAY_ROUTES, PAGE2_TOKEN, reviewsRequest } from '../../scripts/samples/googleplay.js';
import { dataBlocks, rpcPayload } from '../../src/sources/googleplay/client.js';
import { embeddedReviews } from '../../src/sources/googleplay/normalise.js';
import { hlOf, packageOf } from '../../src/sources/googleplay/refs.js';
import { failure } from '../helpers/failure.js';
import { haveRecordings, readRecording, skipReason, startReplay, type Replay, type ReplayRoute } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';

const P = 'play.google.com';
const html = { 'content-type': 'text/html; charset=utf-8' };
const EDU = 'com.raiseright.edumarketapp';
const EXTRA: ReplayRoute[] = [
  { host: P, path: '/store/apps/details', query: { id: 'com.example.gone' }, status: 404, text: '<html><body>We’re sorry, the requested URL was not found on this server.</body></html>', headers: html },
  {
    host: P, path: '/store/apps/details', query: { id: 'com.example.sorry' }, status: 200, headers: html,
    text: '<html><head><title>https://play.google.com/</title></head><body><div>Our systems have detected unusual traffic from your computer network.</div><form action="index"><div class="g-recaptcha"></div></form></body></html>',
  },
  { host: P, path: '/store/apps/details', query: { id: 'com.example.consent' }, status: 302, headers: { location: 'https://consent.google.com/ml?continue=https://play.google.com/store/apps/details?id%3Dcom.example.consent' }, text: '' },
  { host: 'consent.google.com', path: '/ml', headers: html, text: '<html><body><form action="https://consent.google.com/save">Before you continue to Google</form></body></html>' },
];

describe('googleplay references', () => {
  it('package names and store addresses; Google’s hl; the bad field named', async () => {
    expect(packageOf('com.whatsapp')).toBe('com.whatsapp');
    expect(packageOf('https://play.google.com/store/apps/details?id=com.whatsapp&hl=de')).toBe('com.whatsapp');
    expect((await failure(() => packageOf('https://play.google.com/store/apps/dev?id=1'))).message).toMatch(/^app: /);
    expect((await failure(() => packageOf('whatsapp'))).code).toBe('invalidRequest');
    expect([hlOf('en'), hlOf('pt-br'), hlOf('EN_us')]).toEqual(['en', 'pt_BR', 'en_US']);
  });

  it('a batchexecute answer: the RPC’s frame, an empty one, and one that is not the RPC’s format', async () => {
    expect(rpcPayload(documented('googleplay', 'reviews.none.txt'), 'UsvDTd')).toBeNull();
    expect((await failure(() => rpcPayload('<html>', 'UsvDTd'))).code).toBe('sourceChanged');
    expect((await failure(() => rpcPayload(`)]}'\n\n[["di",1]]`, 'UsvDTd'))).code).toBe('sourceChanged');
  });
});

describe.skipIf(!haveRecordings('googleplay'))(`googleplay review entries of the recorded pages${skipReason('googleplay')}`, () => {
  it('the 2022 page’s embedded reviews (ds:8): stars, text, time, thumbs, version, the developer’s reply', () => {
    const blocks = dataBlocks(readRecording('googleplay/app-details.com.moonwink.treasury.gl-BR.html'));
    const reviews = embeddedReviews(blocks, 'com.moonwink.treasury');
    expect(reviews.length).toBeGreaterThanOrEqual(2);
    expect(reviews[0]).toMatchObject({ type: 'review', rating: 1, text: 'Just up and quit.', createdAt: '2020-08-04T23:27:15.000Z', helpful: 0, appVersion: '1.19.2', author: { name: 'David williams' } });
    expect(reviews[1].response).toEqual({ author: 'Larry Aasen', text: expect.stringMatching(/^Dear friend/), createdAt: '2021-05-26T11:18:07.000Z' });
  });

  it('the 2025 page’s embedded reviews (ds:12)', () => {
    const reviews = embeddedReviews(dataBlocks(readRecording('googleplay/app-details.com.raiseright.edumarketapp.html')), EDU);
    expect(reviews[0]).toMatchObject({ id: '370036b3-6b42-4967-8600-96861d09d19a', rating: 5, text: 'good luck 👍', appVersion: '1.0.11', author: { name: 'ahmed issmail' } });
  });
});

describe.skipIf(!haveRecordings('googleplay'))(`googleplay against recorded and documented answers${skipReason('googleplay')}`, () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay({ ...GOOGLEPLAY_REPLAY, routes: [...EXTRA, ...GOOGLEPLAY_ROUTES] });
    live = liveContext('googleplay', replay, {}, [P, 'consent.google.com']);
  });
  afterAll(async () => {
    await live.close();
    await replay.close();
  });

  it('the 2025 layout (app-details.com.raiseright.edumarketapp): late fields from the sparse tail', async () => {
    const out = await runLive('googleplay.app', { app: EDU }, live.ctx);
    expect(replay.served().at(-1)).toBe('googleplay/app-details.com.raiseright.edumarketapp.html');
    expect(Object.fromEntries(replay.seen.at(-1)!.query)).toEqual({ id: EDU, hl: 'en', gl: 'US' });
    expect(out.data.app).toMatchObject({
      type: 'app', id: EDU, url: `https://play.google.com/store/apps/details?id=${EDU}`, title: 'Edu Market',
      developer: { id: 'Raise Right', name: 'Raise Right', url: 'https://play.google.com/store/apps/developer?id=Raise+Right' },
      price: { amount: 0, currency: 'EGP' }, isFree: true, installs: 100, installsText: '100+', contentRating: 'Rated for 3+',
      releasedAt: '2025-07-01T10:25:42.000Z', updatedAt: '2025-09-03T13:50:03.000Z', genres: ['Shopping'],
      releaseNotes: 'Enhancements in User Experience\n\nWelcome in Edu Market!!!', website: 'http://edumarket.io',
    });
    expect(out.data.app.description).toMatch(/^Edu Market – Your Smart Guide/);
    expect(out.data.app.rating).toBeUndefined(); // 0 stars of 0 ratings is no rating
    expect(out.data.app.screenshots[0]).toEqual({ url: expect.stringMatching(/^https:\/\/play-lh/), width: 1920, height: 1080 });
  });

  it('the 2022 layout (app-details.com.moonwink.treasury.gl-BR): ds:4, the Brazilian store in reais', async () => {
    const out = await runLive('googleplay.app', { app: 'com.moonwink.treasury', country: 'br', language: 'en-US' }, live.ctx);
    expect(replay.served().at(-1)).toBe('googleplay/app-details.com.moonwink.treasury.gl-BR.html');
    expect(out.data.app).toMatchObject({
      title: 'US Debt Now - National Debt', summary: 'See the total US debt now!', price: { amount: 0, currency: 'BRL' },
      installs: 1000, installsText: '1,000+', version: '2.3.0', minimumOsVersion: '6.0', hasAds: true, genres: ['Finance'],
      updatedAt: '2022-02-21T21:05:11.000Z', releaseNotes: 'Minor updates and improvements.', developer: { name: 'Larry Aasen' },
      privacyPolicy: 'https://wordpress.com/page/larryaasen.wordpress.com/344',
    });
  });

  it('the layout Google retired in 2022 (app-details.com.moonwink.treasury.gl-US) is drift, not a guessed record', async () => {
    const e = await failure(runLive('googleplay.app', { app: 'com.moonwink.treasury' }, live.ctx));
    expect(replay.served().at(-1)).toBe('googleplay/app-details.com.moonwink.treasury.gl-US.html');
    expect([e.code, e.message]).toEqual(['sourceChanged', 'googleplay: the details page of com.moonwink.treasury carries no details block naming it']);
  });

  it('walls and missing apps: 404 notFound, the unusual-traffic page and the consent page sourceRefused', async () => {
    expect((await failure(runLive('googleplay.app', { app: 'com.example.gone' }, live.ctx))).code).toBe('notFound');
    expect((await failure(runLive('googleplay.app', { app: 'com.example.sorry' }, live.ctx))).code).toBe('sourceRefused');
    expect((await failure(runLive('googleplay.app', { app: 'com.example.consent' }, live.ctx))).code).toBe('sourceRefused');
  });

  it('search (documented page): Google’s order, prices from micros, entities decoded; the price filter sent; nothing found is free', async () => {
    const out = await runLive('googleplay.search', { query: 'budget tracker', limit: 2, price: 'paid' }, live.ctx);
    expect(Object.fromEntries(replay.seen.at(-1)!.query)).toEqual({ q: 'budget tracker', hl: 'en', gl: 'US', price: '2' });
    expect(out.data.apps).toHaveLength(2);
    expect(out.data.apps[0]).toEqual({
      type: 'app', id: 'com.example.budget', url: 'https://play.google.com/store/apps/details?id=com.example.budget', title: 'Example Budget',
      summary: 'Track spending & plan your month', developer: { id: 'Example Money Ltd', name: 'Example Money Ltd', url: 'https://play.google.com/store/apps/developer?id=Example+Money+Ltd' },
      price: { amount: 0, currency: 'USD' }, isFree: true, rating: { value: 4.6, max: 5 }, icon: 'https://play-lh.googleusercontent.com/example-icon-1',
    });
    expect(out.data.apps[1].price).toEqual({ amount: 2.99, currency: 'USD' });
    const none = await runLive('googleplay.search', { query: 'nothing at all' }, live.ctx);
    expect([none.data.apps, none.free]).toEqual([[], true]);
  });

  it('reviews (documented RPC): the request Google’s web app sends, its token as cursor, N~token when limit cuts a page', async () => {
    const first = await runLive('googleplay.reviews', { app: EDU, limit: 3, sort: 'relevant', rating: 5 }, live.ctx);
    const asked = replay.seen.at(-1)!;
    expect([asked.method, asked.query.get('rpcids'), asked.query.get('gl')]).toEqual(['POST', 'UsvDTd', 'US']);
    expect(reviewsRequest(asked)).toEqual([null, null, [2, 1, [3, null, null], null, [null, 5]], [EDU, 7]]);
    expect(first.data.reviews.map((r: { id: string }) => r.id)).toEqual(['example-review-1', 'example-review-2', 'example-review-3']);
    expect(first.data.reviews[1].response).toEqual({ text: 'Thanks, a fix ships this week.', createdAt: '2025-11-18T07:13:20.000Z', author: 'Example Money Ltd' });
    expect(first.data.cursor).toBe(PAGE2_TOKEN);
    const cut = await runLive('googleplay.reviews', { app: EDU, limit: 4 }, live.ctx);
    expect(cut.data.reviews.map((r: { id: string }) => r.id)).toEqual(['example-review-1', 'example-review-2', 'example-review-3', 'example-review-4']);
    expect(cut.data.cursor).toBe(`1~${PAGE2_TOKEN}`);
    const rest = await runLive('googleplay.reviews', { app: EDU, cursor: cut.data.cursor }, live.ctx);
    expect([rest.data.reviews.map((r: { id: string }) => r.id), rest.data.cursor]).toEqual([['example-review-5'], undefined]);
    const none = await runLive('googleplay.reviews', { app: 'com.example.quiet' }, live.ctx);
    expect([none.data.reviews, none.free]).toEqual([[], true]);
    expect((await failure(runLive('googleplay.reviews', { app: EDU, cursor: '1~not a token' }, live.ctx))).code).toBe('invalidRequest');
  });
});

describe('googleplay test mode', () => {
  it('answers every example from the samples, paging through recorded pages', async () => {
    expect((await runSample('googleplay.app', { app: 'com.x.y' })).data.app.title).toBe('Edu Market');
    expect((await runSample('googleplay.search', { query: 'budget tracker', limit: 1 })).data.apps).toHaveLength(1);
    const r = await runSample('googleplay.reviews', { app: EDU, limit: 20 });
    expect((await runSample('googleplay.reviews', { app: EDU, cursor: r.data.cursor })).data.reviews).toHaveLength(2);
  });
});

describe.skipIf(!haveRecordings('googleplay'))(`googleplay through the gateway${skipReason('googleplay')}`, () => {
  const g = useSourceGateway(() => ({ replay: { ...GOOGLEPLAY_REPLAY, routes: [...EXTRA, ...GOOGLEPLAY_ROUTES] }, hosts: [P, 'consent.google.com'] }));

  it('live: the app keyless, search per 20 apps, reviews paged with a key', async () => {
    const keyless = await g.post('/v1/googleplay/app', { app: EDU }, 'anonymous');
    expect([keyless.status, keyless.json.data.app.title]).toEqual([200, 'Edu Market']);
    const before = await g.balance();
    const search = await g.post('/v1/googleplay/search', { query: 'budget tracker' });
    expect([search.json.data.apps.length, search.json.creditsUsed]).toEqual([3, 1]);
    const page1 = await g.post('/v1/googleplay/reviews', { app: EDU, limit: 3 });
    const page2 = await g.post('/v1/googleplay/reviews', { app: EDU, limit: 3, cursor: page1.json.data.cursor });
    expect([page1.json.data.reviews.length, page2.json.data.reviews.length, page2.json.creditsUsed]).toEqual([3, 2, 1]);
    expect(await g.balance()).toBe(before - 3);
  });

  it('test mode: the samples, never upstream, no credits spent', async () => {
    await g.expectTestMode(async () => {
      const r = await g.post('/v1/googleplay/app', { app: EDU }, 'test');
      expect([r.status, r.json.data.app.title]).toEqual([200, 'Edu Market']);
    });
  });

  it('drift (the app without its title) → 502 sourceChanged; the unusual-traffic wall → 502 sourceRefused; both unbilled', async () => {
    await g.expectDrift('/v1/googleplay/app', { app: EDU, maxAge: 0 }, (name, body) => (name.endsWith('edumarketapp.html') ? body.replace('[["Edu Market"]', '[[null]') : body));
    await g.expectRefused('/v1/googleplay/app', { app: 'com.example.sorry' });
  });
});

// Keep the recorded bodies honest: the retired layout really has no details array naming its package.
describe.skipIf(!haveRecordings('googleplay'))(`googleplay recordings${skipReason('googleplay')}`, () => {
  it('every recording is a store page (AF_initDataCallback blocks)', () => {
    for (const f of ['app-details.com.moonwink.treasury.gl-US.html', 'app-details.com.moonwink.treasury.gl-BR.html', 'app-details.com.raiseright.edumarketapp.html']) {
      expect(Object.keys(dataBlocks(readRecording(`googleplay/${f}`))).length).toBeGreaterThan(5);
    }
  });
});
