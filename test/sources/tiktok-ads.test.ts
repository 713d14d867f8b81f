/**
 * tiktok.ads.ad: one ad of TikTok's ad library through the Commercial Content API, with the operator's research client.
 * No answer of that API is recorded: the token and the ad's details are answers written from TikTok's documentation
 * (test/fixtures/documented/tiktok/oauth-token.json, ad-detail*.json, not recordings). A table of live calls, the
 * credentials and TikTok's refusals, drift, test mode, and one gateway round over HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AD_DETAIL_ID, AD_THROTTLED, AD_TOKEN_REFUSED, AD_UNKNOWN, EXTRA_HOSTS, RESEARCH, TIKTOK_REPLAY } from '../../scripts/samples/tiktok.js';
import { adDetailRecord } from '../../src/sources/tiktok/normalise.js';
import { adOf } from '../../src/sources/tiktok/refs.js';
import { failure } from '../helpers/failure.js';
import { startReplay, type Replay, type Seen } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';

const DETAIL = '/v2/research/adlib/ad/detail/';
/** What the source asked TikTok's API (a stray request from another test's reused port is not the source's). */
const onApi = (s: Seen) => s.host === 'open.tiktokapis.com';
const api = (r: Replay) => r.seen.filter(onApi);
const TOKEN = '/v2/oauth/token/';

describe('tiktok ads.ad: addresses and the documented answer (no recording exists)', () => {
  it('adOf reads ids and library addresses (their region kept); anything else is a 400 naming ad', async () => {
    expect(adOf(' 1923845247192304 ')).toEqual({ id: '1923845247192304' });
    expect(adOf('https://library.tiktok.com/ads/detail/?ad_id=1923845247192304&region=de')).toEqual({ id: '1923845247192304', region: 'DE' });
    expect(adOf('library.tiktok.com/ads/detail/?ad_id=1923845247192304')).toEqual({ id: '1923845247192304' });
    for (const bad of ['https://www.tiktok.com/@x/video/1923845247192304', 'https://library.tiktok.com/ads?region=DE', 'abc']) {
      const err = await failure(() => adOf(bad));
      expect(err.code, bad).toBe('invalidRequest');
      expect(err.message).toMatch(/^ad: /);
    }
  });

  it('targeting under ad_group.target (the documentation example\'s key) reads like targeting_info; no ad is notFound', async () => {
    const data = { ad: { id: 1923845247192304, first_shown_date: '20260105' }, ad_group: { target: { country: ['it'], gender: { female: true, male: false } } } };
    expect(adDetailRecord(data, AD_DETAIL_ID)).toMatchObject({ startedAt: '2026-01-05', targeting: { gender: 'female', locations: [{ name: 'IT', type: 'country' }] } });
    expect((await failure(() => adDetailRecord({ ad: {} }, AD_DETAIL_ID))).code).toBe('notFound');
    expect((await failure(() => adDetailRecord({ ad: { id: 5, first_shown_date: 20260105 } }, AD_DETAIL_ID))).code).toBe('sourceChanged');
    expect((await failure(() => adDetailRecord({ ad: { id: AD_DETAIL_ID } }, AD_DETAIL_ID))).code).toBe('sourceChanged');
  });
});

describe('tiktok ads.ad against its documented Commercial Content API answers', () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(TIKTOK_REPLAY);
    live = liveContext('tiktok', replay, RESEARCH, EXTRA_HOSTS);
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
    [AD_DETAIL_ID, (ad: any) => expect(ad).toMatchObject({ id: AD_DETAIL_ID, url: `https://library.tiktok.com/ads/detail/?ad_id=${AD_DETAIL_ID}` })],
    [`https://library.tiktok.com/ads/detail/?ad_id=${AD_DETAIL_ID}&region=AT`, (ad: any) => expect(ad.url).toMatch(/&region=AT$/)],
    [AD_DETAIL_ID, (ad: any) => expect(ad).toMatchObject({ paidBy: 'Example Oat Drinks GmbH', cta: 'Shop now', link: 'https://www.example.com/barista?utm_source=tiktok', isActive: false, startedAt: '2026-01-05', endedAt: '2026-02-12' })],
    // A 19-digit business id is read exactly, not through a double.
    [AD_DETAIL_ID, (ad: any) => expect(ad.advertiser).toEqual({ id: '7000000000000000001', name: 'Example Oat Drinks GmbH', url: 'https://www.tiktok.com/@exampleoat', avatar: expect.stringContaining('avatar') })],
    [AD_DETAIL_ID, (ad: any) => expect(ad).toMatchObject({ reach: 30000, reachByCountry: [{ country: 'DE', reach: 18000 }, { country: 'AT', reach: 12000 }], audience: { min: 50000, max: 50000 } })],
    [AD_DETAIL_ID, (ad: any) => expect(ad.targeting).toMatchObject({ ages: ['18-24', '25-34', '35-44'], gender: 'all', segments: [{ category: 'audience_targeting', name: 'Custom audience' }, { category: 'interest', name: 'Food & Beverage' }, { category: 'video_interactions', name: 'Food & Beverage' }] })],
  ])('%s', async (ad, check) => {
    check((await runLive('tiktok.ads.ad', { ad }, live.ctx)).data.ad);
    expect(api(replay).filter((s) => !s.answeredBy)).toEqual([]);
  });

  it('asks with every documented field, the id as its exact digits and the client token in the header', async () => {
    await runLive('tiktok.ads.ad', { ad: AD_DETAIL_ID }, live.ctx);
    const asked = api(replay).find((s) => s.path === DETAIL)!;
    expect(asked.query.get('fields')?.split(',')).toContain('ad_group.targeting_info');
    expect(asked.body).toEqual({ ad_id: 1923845247192304 });
    expect(asked.headers.authorization).toBe('Bearer clt.example12345Example12345Example');
  });

  it.each([
    ['no research client', AD_DETAIL_ID, {}, 'sourceUnavailable', /QUARRY_TIKTOK_CLIENT_KEY and QUARRY_TIKTOK_CLIENT_SECRET/],
    ['refused credentials', AD_DETAIL_ID, { CLIENT_KEY: 'refused', CLIENT_SECRET: 'x' }, 'sourceUnavailable', /invalid_client/],
    ['a throttled client', AD_THROTTLED, RESEARCH, 'sourceRefused', /throttling/],
    ['an unknown ad', AD_UNKNOWN, RESEARCH, 'notFound', /^ad: /],
  ])('%s → %s', async (_what, ad, settings, code, message) => {
    const ctx = liveContext('tiktok', replay, settings as Record<string, string>, EXTRA_HOSTS);
    try {
      const err = await failure(runLive('tiktok.ads.ad', { ad }, ctx.ctx));
      expect(err.code).toBe(code);
      expect(err.message).toMatch(message);
      expect(err.message).not.toContain('replay-secret');
      if (code === 'sourceUnavailable') expect(err.retryable).toBe(false);
    } finally {
      await ctx.close();
    }
  });

  it('a token TikTok no longer accepts is renewed once, then the operator\'s sourceUnavailable', async () => {
    const err = await failure(runLive('tiktok.ads.ad', { ad: AD_TOKEN_REFUSED }, live.ctx));
    expect(err.code).toBe('sourceUnavailable');
    expect(err.message).toMatch(/access token|token of/i);
    expect(api(replay).filter((s) => s.path === DETAIL)).toHaveLength(2);
    expect(api(replay).filter((s) => s.path === TOKEN)).toHaveLength(1);
  });

  it('drift: an ad without the day it was first shown, an answer without data → sourceChanged', async () => {
    replay.mutate = (name, body) => (name.endsWith('ad-detail.json') ? body.replace('"first_shown_date"', '"first_shown"') : body);
    expect((await failure(runLive('tiktok.ads.ad', { ad: AD_DETAIL_ID }, live.ctx))).code).toBe('sourceChanged');
    replay.mutate = (name, body) => (name.endsWith('ad-detail.json') ? body.replace('"data"', '"payload"') : body);
    expect((await failure(runLive('tiktok.ads.ad', { ad: AD_DETAIL_ID }, live.ctx))).code).toBe('sourceChanged');
  });
});

describe('tiktok ads.ad test mode (the sample is built from documented answers)', () => {
  it('answers its catalogue example', async () => {
    const out = await runSample('tiktok.ads.ad', { ad: '1790109992000000' });
    expect(out.data.ad).toMatchObject({ id: AD_DETAIL_ID, advertiser: { name: 'Example Oat Drinks GmbH' } });
  });
});

describe('tiktok ads.ad through the gateway (documented answers)', () => {
  const g = useSourceGateway(() => ({
    replay: TIKTOK_REPLAY,
    hosts: EXTRA_HOSTS,
    env: { QUARRY_TIKTOK_CLIENT_KEY: RESEARCH.CLIENT_KEY, QUARRY_TIKTOK_CLIENT_SECRET: RESEARCH.CLIENT_SECRET },
  }));

  it('live: one ad costs 2 credits', async () => {
    const before = await g.balance();
    const r = await g.post('/v1/tiktok/ads/ad', { ad: AD_DETAIL_ID });
    expect(r.status).toBe(200);
    expect(r.json.creditsUsed).toBe(2);
    expect(r.json.data.ad.reachByCountry).toHaveLength(2);
    expect(await g.balance()).toBe(before - 2);
  });

  it('test mode: the sample with a qry_test_ key, never upstream, balance untouched', async () => {
    await g.expectTestMode(async () => {
      const r = await g.post('/v1/tiktok/ads/ad', { ad: '1790109992000000' }, 'test');
      expect(r.status).toBe(200);
      expect(r.json.data.ad.id).toBe(AD_DETAIL_ID);
    }, onApi);
  });

  it('refusals and drift fail unbilled: throttled → 502 sourceRefused, a changed answer → 502 sourceChanged', async () => {
    await g.expectRefused('/v1/tiktok/ads/ad', { ad: AD_THROTTLED });
    await g.expectDrift('/v1/tiktok/ads/ad', { ad: AD_DETAIL_ID, maxAge: 0 }, (name, body) => (name.endsWith('ad-detail.json') ? body.replace('"first_shown_date"', '"first_shown"') : body));
  });
});
