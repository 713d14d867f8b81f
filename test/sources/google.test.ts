/**
 * google (the Ads Transparency Center) against answers written from the documented interface (nothing is recorded in
 * shared/upstream: test/fixtures/documented/google/, served by test/sources/google-doubles.ts): the f.req each
 * endpoint posts, the records read from the numbered fields, filters read off the ads, paging, Google's refusals and
 * "unusual traffic" page, drift, test mode and the gateway.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { documented } from '../../scripts/samples/documented.js';
import { adRefOf, advertiserIdOf, domainOf } from '../../src/sources/google/client.js';
import { countryOfGeoTarget, geoTargetOf } from '../../src/sources/google/regions.js';
import { failure } from '../helpers/failure.js';
import { startReplay, type Replay, type ReplayRoute } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';
import { ADVERTISER, ATC_HOST, PAGE2_TOKEN, freq, googleReplay } from './google-doubles.js';

const AD = `https://adstransparency.google.com/advertiser/${ADVERTISER}/creative/CR00000000000000000001`;
const rpcRoute = (path: string, when: (r: any) => boolean, answer: Partial<ReplayRoute>): ReplayRoute => ({
  method: 'POST', host: ATC_HOST, path: `/anji/_/rpc/${path}`, match: (s) => when(freq(s)), headers: { 'content-type': 'application/json' }, ...answer,
});
const WALLS: ReplayRoute[] = [
  rpcRoute('SearchService/SearchSuggestions', (r) => r['1'] === 'walled', { status: 429, text: '<html><body>Our systems have detected unusual traffic from your computer network.</body></html>', headers: { 'content-type': 'text/html' } }),
  rpcRoute('SearchService/SearchSuggestions', (r) => r['1'] === 'sorry', { text: '<html><body>Our systems have detected unusual traffic from your computer network.</body></html>', headers: { 'content-type': 'text/html' } }),
  rpcRoute('SearchService/SearchSuggestions', (r) => r['1'] === 'refused', { text: documented('google', 'refused.json') }),
  rpcRoute('SearchService/SearchCreatives', (r) => r['3']?.['12']?.['1'] === 'drifted.com', { text: documented('google', 'creatives.page1.json').replaceAll('"6": {"1": "', '"six": {"1": "') }),
];

describe('google ads references and regions (no answers needed)', () => {
  it('advertisers, domains and ads by id or address; a bad one is a 400 naming its field', async () => {
    expect(advertiserIdOf(`https://adstransparency.google.com/advertiser/${ADVERTISER}?region=US`)).toBe(ADVERTISER);
    expect(domainOf('https://www.Example.com/shoes')).toBe('example.com');
    expect(adRefOf(AD, undefined)).toEqual({ advertiserId: ADVERTISER, creativeId: 'CR00000000000000000001' });
    expect(adRefOf('CR00000000000000000001', ADVERTISER)).toEqual({ advertiserId: ADVERTISER, creativeId: 'CR00000000000000000001' });
    for (const [field, f] of [['advertiser', () => advertiserIdOf('AR123')], ['domain', () => domainOf('not a domain')], ['advertiser', () => adRefOf('CR00000000000000000001', undefined)], ['ad', () => adRefOf('x', ADVERTISER)]] as const) {
      const e = await failure(f);
      expect([e.code, e.message.startsWith(`${field}: `)]).toEqual(['invalidRequest', true]);
    }
  });

  it('countries as Google geo target ids (2000 + ISO numeric) and back', () => {
    expect([geoTargetOf('us'), geoTargetOf('GB'), geoTargetOf('jp'), geoTargetOf('be'), geoTargetOf('xx')]).toEqual([2840, 2826, 2392, 2056, undefined]);
    expect([countryOfGeoTarget(2840), countryOfGeoTarget(2170), countryOfGeoTarget(1)]).toEqual(['us', 'co', undefined]);
  });
});

describe('google ads test mode (committed samples, written from the documented interface)', () => {
  it('every example answers; the ads page through the samples', async () => {
    expect((await runSample('google.ads.advertisers', { query: 'nike' })).data.advertisers).toHaveLength(2);
    const first = await runSample('google.ads.search', { domain: 'nike.com' });
    expect((await runSample('google.ads.search', { domain: 'nike.com', cursor: first.data.cursor })).data.ads).toHaveLength(1);
    expect((await runSample('google.ads.ad', { ad: AD })).data.ad.countries).toEqual(['us', 'gb']);
  });
});

describe('google ads against documented answers (not recordings)', () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(googleReplay(WALLS));
    live = liveContext('google', replay, {}, [ATC_HOST]);
  });
  afterAll(async () => {
    await live.close();
    await replay.close();
  });
  beforeEach(() => {
    replay.seen.length = 0;
  });

  it('advertisers: SearchSuggestions, with the country as a geo target when one is given', async () => {
    const out = await runLive('google.ads.advertisers', { query: 'example', country: 'us', limit: 5 }, live.ctx);
    expect(freq(replay.seen[0])).toEqual({ '1': 'example', '2': 5, '3': 5, '4': [2840], '5': { '1': 1 } });
    expect(replay.seen[0].headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(out.data.advertisers[0]).toEqual({ type: 'advertiser', id: ADVERTISER, name: 'Example Advertiser LLC (illustrative)', url: `https://adstransparency.google.com/advertiser/${ADVERTISER}`, country: 'us', ads: { min: 120, max: 200 } });
    expect(out.data.domains).toEqual(['example.com']);
    await runLive('google.ads.advertisers', { query: 'example' }, live.ctx);
    expect(freq(replay.seen[1])).toEqual({ '1': 'example', '2': 10, '3': 10 });
  });

  it('ads of a domain or an advertiser: SearchCreatives, two pages by token, format and dates read off each ad', async () => {
    const first = await runLive('google.ads.search', { domain: 'example.com', country: 'gb' }, live.ctx);
    expect(freq(replay.seen[0])).toEqual({ '2': 40, '3': { '8': [2826], '12': { '1': 'example.com', '2': true } }, '7': { '1': 1, '2': 0, '3': 2826 } });
    expect(first.data.ads.map((a: any) => [a.id, a.format])).toEqual([['CR00000000000000000001', 'image'], ['CR00000000000000000002', 'text'], ['CR00000000000000000003', 'video']]);
    expect(first.data.ads[0]).toMatchObject({ startedAt: '2025-01-01T00:00:00.000Z', endedAt: '2025-05-19T00:00:00.000Z', daysShown: 138, images: [{ url: 'https://tpc.googlesyndication.com/archive/simgad/1000000000000000001' }] });
    expect([first.data.total, first.data.cursor]).toEqual([{ min: 120, max: 200 }, PAGE2_TOKEN]);
    const next = await runLive('google.ads.search', { domain: 'example.com', country: 'gb', cursor: PAGE2_TOKEN }, live.ctx);
    expect(freq(replay.seen[1])['4']).toBe(PAGE2_TOKEN);
    expect([next.data.ads.map((a: any) => a.id), next.data.cursor]).toEqual([['CR00000000000000000004'], undefined]);
    const byAdvertiser = await runLive('google.ads.search', { advertiser: ADVERTISER, format: 'image', from: '2025-01-01', to: '2025-12-31', limit: 2 }, live.ctx);
    expect(freq(replay.seen[2])).toEqual({ '2': 2, '3': { '12': { '1': '', '2': true }, '13': { '1': [ADVERTISER] } }, '7': { '1': 1 } });
    expect(byAdvertiser.data.ads.map((a: any) => a.id)).toEqual(['CR00000000000000000001']);
    const old = await runLive('google.ads.search', { domain: 'example.com', to: '2024-06-30' }, live.ctx);
    expect(old.data.ads.map((a: any) => a.id)).toEqual(['CR00000000000000000003']);
  });

  it('nothing matching is an empty, free answer; giving neither or both of advertiser and domain is a 400', async () => {
    const none = await runLive('google.ads.search', { domain: 'nothing.example' }, live.ctx);
    expect([none.data.ads, none.free]).toEqual([[], true]);
    for (const body of [{}, { advertiser: ADVERTISER, domain: 'example.com' }]) {
      expect((await failure(runLive('google.ads.search', body, live.ctx))).message).toMatch(/^advertiser: /);
    }
  });

  it('one ad: GetCreativeById, its versions, last shown day and countries; an ad Google does not show is notFound', async () => {
    const out = await runLive('google.ads.ad', { ad: AD }, live.ctx);
    expect(freq(replay.seen[0])).toEqual({ '1': ADVERTISER, '2': 'CR00000000000000000001', '5': { '1': 1 } });
    expect(out.data.ad).toMatchObject({ id: 'CR00000000000000000001', advertiser: { name: 'Example Advertiser LLC (illustrative)' }, endedAt: '2025-05-19T00:00:00.000Z', countries: ['us', 'gb'], previewUrl: expect.stringMatching(/content\.js/) });
    expect((await failure(runLive('google.ads.ad', { ad: 'CR00000000000000000009', advertiser: ADVERTISER }, live.ctx))).code).toBe('notFound');
  });

  it('Google’s throttle and "unusual traffic" page are sourceRefused; a request it cannot read, or a renamed field, sourceChanged', async () => {
    expect((await failure(runLive('google.ads.advertisers', { query: 'walled' }, live.ctx))).code).toBe('sourceRefused');
    expect((await failure(runLive('google.ads.advertisers', { query: 'sorry' }, live.ctx))).code).toBe('sourceRefused');
    expect((await failure(runLive('google.ads.advertisers', { query: 'refused' }, live.ctx))).code).toBe('sourceChanged');
    expect((await failure(runLive('google.ads.search', { domain: 'drifted.com' }, live.ctx))).code).toBe('sourceChanged');
  });
});

describe('google ads through the gateway (documented answers)', () => {
  const g = useSourceGateway(() => ({ replay: googleReplay(WALLS), hosts: [ATC_HOST], env: { QUARRY_UPSTREAM_RETRIES: '0' } }));

  it('live: ads at 2 credits per 10, an ad at 2, advertisers at 1; paging by the token', async () => {
    const before = await g.balance();
    const first = await g.post('/v1/google/ads/search', { domain: 'example.com', limit: 100 });
    expect([first.status, first.json.data.ads.length, first.json.creditsUsed]).toEqual([200, 3, 2]);
    const next = await g.post('/v1/google/ads/search', { domain: 'example.com', limit: 100, cursor: first.json.data.cursor });
    expect(next.json.data.ads).toHaveLength(1);
    expect((await g.post('/v1/google/ads/ad', { ad: AD })).json.creditsUsed).toBe(2);
    expect((await g.post('/v1/google/ads/advertisers', { query: 'example' })).json.creditsUsed).toBe(1);
    expect(await g.balance()).toBe(before - 7);
  });

  it('test mode answers every example from the samples, never upstream, no credits spent', async () => {
    await g.expectTestMode(() => g.expectExamples('google'));
  });

  it('a throttle → 502 sourceRefused; drift → 502 sourceChanged; unknown → 404; all unbilled', async () => {
    await g.expectRefused('/v1/google/ads/advertisers', { query: 'walled' });
    await g.expectDrift('/v1/google/ads/search', { domain: 'drifted.com' });
    await g.expectFailure('/v1/google/ads/ad', { ad: 'CR00000000000000000009', advertiser: ADVERTISER }, { status: 404, code: 'notFound' });
  });
});
