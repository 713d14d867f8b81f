/**
 * linkedin.ads.search and linkedin.ads.ad: LinkedIn's Ad Library read from its server-rendered pages. No answer of
 * it is recorded, so every live call here runs against documented-shape doubles (test/fixtures/documented/linkedin/
 * ad-*.html, written from the page shape open-source readers agree on, not recordings): the search page, its paging
 * fragment, an image ad's and a video ad's pages; sign-in walls, 999 and an unknown ad; drift; test mode; and one
 * gateway round over HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adSearchParams, type AdSearchQuery } from '../../src/sources/linkedin/client.js';
import { adRecord, adResults, impressionsFrom, regionFrom } from '../../src/sources/linkedin/normalise-ads.js';
import { adId } from '../../src/sources/linkedin/refs.js';
import { failure } from '../helpers/failure.js';
import { startReplay, type Replay, type Seen } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';
import { documented } from './linkedin-doubles.js';
import { AD_IMAGE, AD_LIBRARY_HOSTS, AD_VIDEO, linkedinAdsReplay, PAGE1_TOKEN, SEARCH } from './linkedin-ads-doubles.js';

/** What the source asked LinkedIn (a stray request from another test's reused port is not the source's). */
const onLinkedin = (s: Seen) => s.host === 'www.linkedin.com';
const linkedin = (r: Replay) => r.seen.filter(onLinkedin);
const query = (q: Partial<AdSearchQuery>): AdSearchQuery => ({ countries: [], within: 'all', limit: 24, ...q }) as AdSearchQuery;

describe('linkedin ad library: addresses, search parameters and page reading (documented doubles)', () => {
  it('adId reads digits and ad addresses on any country subdomain; anything else is a 400 naming ad', async () => {
    expect(adId(' 1452369111 ')).toBe('1452369111');
    expect(adId('https://de.linkedin.com/ad-library/detail/1452369111?trk=x')).toBe('1452369111');
    expect(adId('linkedin.com/ad-library/detail/1452369111/')).toBe('1452369111');
    for (const bad of ['https://example.com/ad-library/detail/1', 'https://www.linkedin.com/jobs/view/1452369111', 'an ad']) {
      const err = await failure(() => adId(bad));
      expect(err.code, bad).toBe('invalidRequest');
      expect(err.message).toMatch(/^ad: /);
    }
  });

  it('search parameters in the form\'s names: countries as one upper-case list, LinkedIn\'s date options, a custom range', async () => {
    const p = adSearchParams(query({ query: 'cloud', advertiser: 'Example Cloud', paidBy: 'Example GmbH', countries: ['de', 'at', 'DE'], within: 'month' }));
    expect(Object.fromEntries(p)).toEqual({ keyword: 'cloud', accountOwner: 'Example Cloud', payer: 'Example GmbH', countries: 'DE,AT', dateOption: 'last-30-days' });
    expect(adSearchParams(query({ query: 'x', within: 'year' })).get('dateOption')).toBe('current-year');
    expect(adSearchParams(query({ query: 'x' })).has('dateOption')).toBe(false);
    const range = adSearchParams(query({ query: 'x', from: '2026-01-01', to: '2026-02-01' }));
    expect(Object.fromEntries(range)).toMatchObject({ dateOption: 'custom-date-range', startdate: '2026-01-01', enddate: '2026-02-01' });
    // LinkedIn wants both ends: today for a missing `to`, a year before `to` for a missing `from`.
    expect(adSearchParams(query({ query: 'x', from: '2026-01-01' }), Date.parse('2026-03-05T10:00:00Z')).get('enddate')).toBe('2026-03-05');
    expect(adSearchParams(query({ query: 'x', to: '2026-12-31' })).get('startdate')).toBe('2026-01-01');
    for (const [q, field] of [
      [query({}), 'query'],
      [query({ query: 'x', within: 'month', from: '2026-01-01' }), 'within'],
      [query({ query: 'x', from: '2026-02-01', to: '2026-01-01' }), 'from'],
    ] as const) {
      const err = await failure(() => adSearchParams(q));
      expect(err.code).toBe('invalidRequest');
      expect(err.message).toMatch(new RegExp(`^${field}: `));
    }
  });

  it('impression ranges and country shares as LinkedIn writes them', () => {
    expect(impressionsFrom('10k-20k')).toEqual({ min: 10000, max: 20000 });
    expect(impressionsFrom('100k-150k')).toEqual({ min: 100000, max: 150000 });
    expect(impressionsFrom('< 1k')).toEqual({ min: 0, max: 1000 });
    expect(impressionsFrom('1M+')).toEqual({ min: 1000000 });
    expect(impressionsFrom('lots')).toBeUndefined();
    expect(regionFrom('France, impressions 72%')).toEqual({ region: 'France', share: 0.72 });
    expect(regionFrom('Belgium, impressions less than 1%')).toEqual({ region: 'Belgium', share: 0.01, isUpperBound: true });
    expect(regionFrom('France, impressions 172%')).toBeUndefined();
  });

  it('the documented search page: cards, LinkedIn\'s token and the count; the fragment drops the ad its token names', () => {
    const first = adResults(documented('ad-search.page1.html'));
    expect(first.ads.map((a) => [a.id, a.format])).toEqual([[AD_IMAGE, 'image'], [AD_VIDEO, 'video'], ['1452369333', 'message']]);
    expect(first).toMatchObject({ next: PAGE1_TOKEN, total: 5 });
    // A thought-leader ad: posted by a member, "Promoted by" the company.
    expect(first.ads[1]).toMatchObject({ advertiser: { name: 'Example Cloud' }, videos: [{ thumbnail: expect.stringContaining('videocover') }] });
    expect(first.ads[1].images).toBeUndefined();
    expect(first.ads[0]).toMatchObject({ advertiser: { id: '13004429', name: 'Example Cloud' }, titles: ['Migrate without downtime'] });
    const second = adResults(documented('ad-search.page2.fragment.html'), PAGE1_TOKEN);
    expect(second.ads.map((a) => a.id)).toEqual(['1452369444', '1452369555']);
    expect(second.next).toBeUndefined();
    expect(second.ads[0]).toMatchObject({ format: 'carousel', titles: ['Right-size storage', 'Pause idle compute'], link: 'https://www.example.com/guide/storage?utm_source=linkedin' });
    expect(second.ads[1]).toMatchObject({ format: 'document', titles: ['2026 Data Report'] });
  });

  it('an ad\'s page: about, run days, impressions, shares (a bound as such) and targeting', () => {
    const ad = adRecord(documented(`ad-detail.${AD_IMAGE}.html`), AD_IMAGE);
    expect(ad).toMatchObject({
      advertiser: { id: '13004429', name: 'Example Cloud', url: 'https://www.linkedin.com/company/13004429' },
      paidBy: 'Example Cloud GmbH',
      format: 'image',
      cta: 'Register',
      link: 'https://www.example.com/workshop?utm_source=linkedin&utm_campaign=migrate',
      startedAt: '2026-02-17',
      endedAt: '2026-03-04',
      impressions: { min: 10000, max: 20000 },
    });
    expect(ad.regions?.[2]).toEqual({ region: 'Switzerland', share: 0.01, isUpperBound: true });
    expect(ad.targeting?.locations?.map((l) => `${l.isExcluded ? '-' : '+'}${l.name}`)).toEqual(['+Germany', '+Austria', '+Switzerland', '+Liechtenstein', '-Berlin']);
    expect(ad.targeting?.segments).toEqual([{ category: 'Language', name: 'German', isExcluded: false }]);
    expect(ad.targeting?.facets).toContainEqual({ category: 'Company', isIncluded: true, isExcluded: true });
    const video = adRecord(documented(`ad-detail.${AD_VIDEO}.html`), AD_VIDEO);
    expect(video.videos).toEqual([{ url: expect.stringContaining('720p'), thumbnail: expect.stringContaining('videocover') }]);
    expect(video.startedAt).toBe('2026-03-01');
    expect(video.endedAt).toBeUndefined();
  });

  it('drift and walls: a page without cards, ids or preview is sourceChanged; a sign-up page is sourceRefused', async () => {
    const page = documented('ad-search.page1.html');
    expect((await failure(() => adResults(page.replaceAll('search-result-item', 'x').replaceAll('ad-preview', 'y')))).code).toBe('sourceChanged');
    expect((await failure(() => adResults(page.replaceAll('/ad-library/detail/', '/ad-library/view/')))).code).toBe('sourceChanged');
    expect((await failure(() => adResults(page.replace('1452369333-1784563519937', 'eyJ0b2tlbiI6MX0=')))).code).toBe('sourceChanged');
    expect((await failure(() => adResults('<html><body><p>Something else</p></body></html>'))).code).toBe('sourceChanged');
    expect(adResults('<html><body><h1>0 ads match your search criteria</h1></body></html>')).toEqual({ ads: [], total: 0 });
    const detail = documented(`ad-detail.${AD_IMAGE}.html`);
    expect((await failure(() => adRecord(detail.replaceAll('ad-preview', 'z'), AD_IMAGE))).code).toBe('sourceChanged');
    expect((await failure(() => adRecord(detail, '1452369999'))).code).toBe('sourceChanged');
    expect((await failure(() => adRecord('<html><head><title>Sign Up | LinkedIn</title></head></html>', AD_IMAGE))).code).toBe('sourceRefused');
  });
});

describe('linkedin ad library against its documented doubles (no recording exists)', () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(linkedinAdsReplay());
    live = liveContext('linkedin', replay, {}, AD_LIBRARY_HOSTS);
  });
  afterAll(async () => {
    await live?.close();
    await replay?.close();
  });
  beforeEach(() => {
    replay.seen.length = 0;
  });

  it.each([
    ['linkedin.ads.search', { ...SEARCH, limit: 24 }, (d: any) => expect(d.ads.map((a: any) => a.id)).toEqual([AD_IMAGE, AD_VIDEO, '1452369333', '1452369444', '1452369555'])],
    ['linkedin.ads.search', { ...SEARCH, limit: 3 }, (d: any) => expect(d).toMatchObject({ cursor: PAGE1_TOKEN, total: 5 })],
    ['linkedin.ads.search', { ...SEARCH, limit: 2 }, (d: any) => expect(d.cursor).toBe('2~0-0')],
    ['linkedin.ads.search', { ...SEARCH, limit: 2, cursor: '2~0-0' }, (d: any) => expect(d.ads.map((a: any) => a.id)).toEqual(['1452369333', '1452369444'])],
    ['linkedin.ads.search', { ...SEARCH, limit: 5, cursor: PAGE1_TOKEN }, (d: any) => expect(d.ads.map((a: any) => a.id)).toEqual(['1452369444', '1452369555'])],
    ['linkedin.ads.search', { query: 'nothing at all' }, (d: any) => expect(d).toEqual({ ads: [], total: 0 })],
    ['linkedin.ads.ad', { ad: AD_IMAGE }, (d: any) => expect(d.ad).toMatchObject({ id: AD_IMAGE, paidBy: 'Example Cloud GmbH', impressions: { min: 10000, max: 20000 } })],
    ['linkedin.ads.ad', { ad: `https://www.linkedin.com/ad-library/detail/${AD_VIDEO}` }, (d: any) => expect(d.ad).toMatchObject({ id: AD_VIDEO, format: 'video' })],
  ])('%s %j', async (id, body, check) => {
    check((await runLive(id, body, live.ctx)).data);
    expect(linkedin(replay).filter((s) => !s.answeredBy)).toEqual([]);
  });

  it('asks the search page, then the paging fragment with the same query and LinkedIn\'s token', async () => {
    await runLive('linkedin.ads.search', { ...SEARCH, within: 'all', limit: 5 }, live.ctx);
    expect(linkedin(replay).map((s) => s.path)).toEqual(['/ad-library/search', '/ad-library/searchPaginationFragment']);
    expect(Object.fromEntries(linkedin(replay)[1].query)).toEqual({ accountOwner: 'Example Cloud', countries: 'DE,AT', paginationToken: PAGE1_TOKEN });
  });

  it.each([
    ['a sign-in wall', 'linkedin.ads.search', { query: 'walled' }, 'sourceRefused'],
    ['HTTP 999', 'linkedin.ads.ad', { ad: '999999999' }, 'sourceRefused'],
    ['an unknown ad', 'linkedin.ads.ad', { ad: '404404404' }, 'notFound'],
    ['no search terms', 'linkedin.ads.search', { countries: ['de'] }, 'invalidRequest'],
    ['a tampered cursor', 'linkedin.ads.search', { query: 'x', cursor: '3~99' }, 'invalidRequest'],
  ])('%s → %s', async (_what, id, body, code) => {
    expect((await failure(runLive(id, body, live.ctx))).code).toBe(code);
  });
});

describe('linkedin ad library test mode (committed samples, written from documented doubles)', () => {
  it('ads.search answers its example and pages by its cursor; ads.ad answers any ad', async () => {
    const first = await runSample('linkedin.ads.search', { advertiser: 'Microsoft', countries: ['us', 'gb'], within: 'year', limit: 24 });
    expect(first.data.ads).toHaveLength(3);
    const second = await runSample('linkedin.ads.search', { advertiser: 'Microsoft', cursor: first.data.cursor });
    expect(second.data.ads.map((a: any) => a.id)).toEqual(['1452369444', '1452369555']);
    const ad = await runSample('linkedin.ads.ad', { ad: '512345678' });
    expect(ad.data.ad).toMatchObject({ id: AD_IMAGE, advertiser: { name: 'Example Cloud' } });
  });
});

describe('linkedin ad library through the gateway (documented doubles)', () => {
  const g = useSourceGateway(() => ({ replay: linkedinAdsReplay() }));

  it('live: a page of ads costs 2 credits (per 24), its cursor the next page for 2 more; an ad 2', async () => {
    const before = await g.balance();
    const r = await g.post('/v1/linkedin/ads/search', { ...SEARCH, limit: 3 });
    expect(r.status).toBe(200);
    expect(r.json.creditsUsed).toBe(2);
    expect(r.json.data.cursor).toBe(PAGE1_TOKEN);
    const next = await g.post('/v1/linkedin/ads/search', { ...SEARCH, limit: 3, cursor: r.json.data.cursor });
    expect(next.json.data.ads.map((a: any) => a.id)).toEqual(['1452369444', '1452369555']);
    const ad = await g.post('/v1/linkedin/ads/ad', { ad: AD_IMAGE });
    expect(ad.status).toBe(200);
    expect(ad.json.creditsUsed).toBe(2);
    expect(await g.balance()).toBe(before - 6);
  });

  it('test mode: the committed samples with a qry_test_ key, paging by cursor, never upstream, balance untouched', async () => {
    await g.expectTestMode(async () => {
      const first = await g.post('/v1/linkedin/ads/search', { advertiser: 'Microsoft', countries: ['us', 'gb'], within: 'year', limit: 24 }, 'test');
      expect(first.status).toBe(200);
      expect(first.json.data.ads).toHaveLength(3);
      const second = await g.post('/v1/linkedin/ads/search', { advertiser: 'Microsoft', cursor: first.json.data.cursor }, 'test');
      expect(second.json.data.ads).toHaveLength(2);
      const ad = await g.post('/v1/linkedin/ads/ad', { ad: '512345678' }, 'test');
      expect(ad.status).toBe(200);
    }, onLinkedin);
  });

  it('walls and drift fail unbilled: a sign-in wall and 999 → 502 sourceRefused, a changed page → 502 sourceChanged', async () => {
    await g.expectRefused('/v1/linkedin/ads/search', { query: 'walled' });
    await g.expectRefused('/v1/linkedin/ads/ad', { ad: '999999999' });
    await g.expectDrift('/v1/linkedin/ads/ad', { ad: AD_IMAGE, maxAge: 0 }, (name, body) => (name.includes('ad-detail') ? body.replaceAll('ad-preview', 'renamed') : body));
    await g.expectDrift('/v1/linkedin/ads/search', { ...SEARCH, limit: 3, maxAge: 0 }, (name, body) => (name.includes('ad-search') ? body.replaceAll('/ad-library/detail/', '/ad-library/view/') : body));
  });
});
