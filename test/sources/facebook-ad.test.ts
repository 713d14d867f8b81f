/**
 * facebook.ads.ad: one archived ad of Meta's Ad Library, read as a Graph object by its Library ID with the operator's
 * token, or found in its page's archive (`ads_archive` by `search_page_ids`) when Meta does not serve it by id and the
 * address names the page. No such read is recorded: the node answer and Graph's "Unsupported get request" are
 * documented-shape doubles (test/fixtures/documented/facebook/, written from Meta's reference, not recordings).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adRef } from '../../src/sources/facebook/refs.js';
import { failure } from '../helpers/failure.js';
import { startReplay, type Replay, type ReplayOptions, type Seen } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';
import {
  AD_BY_ID,
  AD_IN_PAGE_ONLY,
  AD_NOWHERE,
  DOCUMENTED_PAGE_ID,
  DOCUMENTED_ROUTES,
  DOCUMENTED_SETTINGS,
  PAGE1_AFTER,
  THROTTLED_PAGE,
} from './facebook-doubles.js';

/** What the source asked Graph (a stray request from another test's reused port is not the source's). */
const onGraph = (s: Seen) => s.host === 'graph.facebook.com';
const graph = (r: Replay) => r.seen.filter(onGraph);

/** The documented doubles alone: no recording is needed. */
const replayOptions = (): ReplayOptions => ({ folders: [], ignoreQuery: ['fields'], routes: DOCUMENTED_ROUTES });
const library = (id: string, page?: string) => `https://www.facebook.com/ads/library/?active_status=all&id=${id}${page ? `&view_all_page_id=${page}` : ''}`;

describe('facebook ads.ad: what callers name an ad by', () => {
  it('adRef reads Library IDs, Ad Library and snapshot addresses, and the page an address names', async () => {
    expect(adRef('1000000000000001')).toEqual({ id: '1000000000000001' });
    expect(adRef(library('1000000000000001', '100000000000042'))).toEqual({ id: '1000000000000001', pageId: '100000000000042' });
    expect(adRef('facebook.com/ads/archive/render_ad/?id=1000000000000001&access_token=secret')).toEqual({ id: '1000000000000001' });
    for (const bad of ['https://www.facebook.com/nike', 'https://example.com/ads/library/?id=1', 'https://www.facebook.com/ads/library/?q=shoes', 'an ad']) {
      const err = await failure(() => adRef(bad));
      expect(err.code, bad).toBe('invalidRequest');
      expect(err.message).toMatch(/^ad: /);
    }
  });
});

describe('facebook ads.ad against documented Graph answers', () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(replayOptions());
    live = liveContext('facebook', replay, DOCUMENTED_SETTINGS, ['graph.facebook.com']);
  });
  afterAll(async () => {
    await live?.close();
    await replay?.close();
  });
  beforeEach(() => {
    replay.seen.length = 0;
    replay.mutate = undefined;
  });

  it.each([
    ['by its id', AD_BY_ID, [`/v24.0/${AD_BY_ID}`], (ad: any) => expect(ad).toMatchObject({ id: AD_BY_ID, advertiser: { id: DOCUMENTED_PAGE_ID, name: 'Example Shoes' }, reach: 12345, startedAt: '2026-03-02' })],
    ['by its address', library(AD_BY_ID), [`/v24.0/${AD_BY_ID}`], (ad: any) => expect(ad.paidBy).toBe('Example Shoes GmbH')],
    [
      "in its page's archive when Meta does not serve it by id",
      library(AD_IN_PAGE_ONLY, DOCUMENTED_PAGE_ID),
      [`/v24.0/${AD_IN_PAGE_ONLY}`, '/v24.0/ads_archive', '/v24.0/ads_archive'],
      (ad: any) => expect(ad).toMatchObject({ id: AD_IN_PAGE_ONLY, platforms: ['instagram', 'messenger'], endedAt: '2025-12-31' }),
    ],
  ])('%s', async (_how, ad, asked, check) => {
    const out = await runLive('facebook.ads.ad', { ad }, live.ctx);
    check(out.data.ad);
    expect(graph(replay).map((s) => s.path)).toEqual(asked);
    expect(graph(replay).filter((s) => !s.answeredBy)).toEqual([]);
    // The token goes in a header, never in an address.
    for (const s of graph(replay)) expect(s.query.get('access_token')).toBeNull();
    expect(graph(replay)[0].headers.authorization).toBe('Bearer replay-token');
  });

  it("the page's archive is asked whole: every country, active or not, then Graph's after", async () => {
    await runLive('facebook.ads.ad', { ad: library(AD_IN_PAGE_ONLY, DOCUMENTED_PAGE_ID) }, live.ctx);
    const [first, second] = graph(replay).filter((s) => s.path.endsWith('/ads_archive'));
    expect(Object.fromEntries(first.query)).toMatchObject({ search_page_ids: `['${DOCUMENTED_PAGE_ID}']`, ad_reached_countries: "['ALL']", ad_active_status: 'ALL', ad_type: 'ALL' });
    expect(second.query.get('after')).toBe(PAGE1_AFTER);
  });

  it.each([
    ['an ad Meta does not serve by id, no page named', AD_NOWHERE, 'notFound', /view_all_page_id/],
    ["an ad in neither its id nor the page's archive", library(AD_NOWHERE, DOCUMENTED_PAGE_ID), 'notFound', /archive of page/],
    ['a throttled page archive', library(AD_NOWHERE, THROTTLED_PAGE), 'sourceRefused', /throttling/],
  ])('%s → %s', async (_what, ad, code, message) => {
    const err = await failure(runLive('facebook.ads.ad', { ad }, live.ctx));
    expect(err.code).toBe(code);
    expect(err.message).toMatch(message);
  });

  it('without the operator token: sourceUnavailable naming QUARRY_FACEBOOK_ACCESS_TOKEN, nothing asked', async () => {
    const bare = liveContext('facebook', replay, {}, ['graph.facebook.com']);
    try {
      const err = await failure(runLive('facebook.ads.ad', { ad: AD_BY_ID }, bare.ctx));
      expect(err).toMatchObject({ code: 'sourceUnavailable', retryable: false });
      expect(err.message).toMatch(/QUARRY_FACEBOOK_ACCESS_TOKEN/);
      expect(graph(replay)).toHaveLength(0);
    } finally {
      await bare.close();
    }
  });

  it('drift: an archived ad without its page → sourceChanged', async () => {
    replay.mutate = (name, body) => (name.endsWith('archived-ad.node.json') ? body.replace('"page_id"', '"page_ref"') : body);
    expect((await failure(runLive('facebook.ads.ad', { ad: AD_BY_ID }, live.ctx))).code).toBe('sourceChanged');
  });
});

describe('facebook ads.ad test mode (the sample is built from a documented double)', () => {
  it('answers its catalogue example', async () => {
    const out = await runSample('facebook.ads.ad', { ad: '1234567890123456' });
    expect(out.data.ad).toMatchObject({ id: AD_BY_ID, advertiser: { name: 'Example Shoes' } });
  });
});

describe('facebook ads.ad through the gateway (documented doubles)', () => {
  const g = useSourceGateway(() => ({ replay: replayOptions(), env: { QUARRY_FACEBOOK_ACCESS_TOKEN: 'replay-token' } }));

  it('live: one ad costs 2 credits, found by id or in its page', async () => {
    const before = await g.balance();
    const byId = await g.post('/v1/facebook/ads/ad', { ad: AD_BY_ID });
    expect(byId.status).toBe(200);
    expect(byId.json.creditsUsed).toBe(2);
    const inPage = await g.post('/v1/facebook/ads/ad', { ad: library(AD_IN_PAGE_ONLY, DOCUMENTED_PAGE_ID) });
    expect(inPage.json.data.ad.id).toBe(AD_IN_PAGE_ONLY);
    expect(await g.balance()).toBe(before - 4);
  });

  it('test mode: the sample with a qry_test_ key, never upstream, balance untouched', async () => {
    await g.expectTestMode(async () => {
      const r = await g.post('/v1/facebook/ads/ad', { ad: '1234567890123456' }, 'test');
      expect(r.status).toBe(200);
      expect(r.json.data.ad.id).toBe(AD_BY_ID);
    }, onGraph);
  });

  it('refusals, unknown ads and drift fail unbilled: 502 sourceRefused, 404 notFound, 502 sourceChanged', async () => {
    await g.expectRefused('/v1/facebook/ads/ad', { ad: library(AD_NOWHERE, THROTTLED_PAGE) });
    await g.expectFailure('/v1/facebook/ads/ad', { ad: AD_NOWHERE }, { status: 404 });
    await g.expectDrift('/v1/facebook/ads/ad', { ad: AD_BY_ID, maxAge: 0 }, (name, body) => (name.endsWith('archived-ad.node.json') ? body.replace('"ad_delivery_start_time"', '"delivery_start"') : body));
  });
});
