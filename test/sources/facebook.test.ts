/**
 * facebook: Meta's Ad Library API with the operator's token. The one recorded `ads_archive` answer (Graph v5.0)
 * through the live client; today's fields, a second page, page look-ups and Graph errors through documented-shape
 * doubles (test/fixtures/documented/facebook, written from Meta's reference: no such answer is recorded); the missing
 * token; drift; test mode; and one gateway round over HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { archiveParams } from '../../src/sources/facebook/client.js';
import { normalisePage } from '../../src/sources/facebook/normalise.js';
import { decodeCursor, encodeCursor, pageRef } from '../../src/sources/facebook/refs.js';
import { failure } from '../helpers/failure.js';
import { haveRecordings, readRecordingJson, skipReason, startReplay, type Replay } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';
import {
  documented,
  DOCUMENTED_PAGE_ID,
  DOCUMENTED_SETTINGS,
  EXPIRED_TOKEN_PAGE,
  facebookReplay,
  PAGE1_AFTER,
  RECORDED_SETTINGS,
  THROTTLED_PAGE,
} from './facebook-doubles.js';

const FOLDER = 'adlib';
const RECORDED = 'adlib/ads-archive.search-terms-political.json';
const RECORDED_QUERY = { query: 'zuckerberg', country: 'us', adType: 'politicalAndIssue', status: 'active', limit: 1 };

describe('facebook pages, cursors and Graph parameters (no recordings needed)', () => {
  it('pageRef reads ids, usernames and facebook.com addresses; anything else is a 400 naming page', async () => {
    expect(pageRef('15087023444')).toEqual({ id: '15087023444' });
    expect(pageRef('nike')).toEqual({ username: 'nike' });
    expect(pageRef('https://www.facebook.com/nike/')).toEqual({ username: 'nike' });
    expect(pageRef('facebook.com/profile.php?id=100064123456789')).toEqual({ id: '100064123456789' });
    expect(pageRef('https://www.facebook.com/ads/library/?active_status=all&view_all_page_id=15087023444')).toEqual({ id: '15087023444' });
    expect(pageRef('https://www.facebook.com/people/Some-Name/100064123456789/')).toEqual({ id: '100064123456789' });
    for (const bad of ['https://example.com/nike', 'https://www.facebook.com/groups/123', 'two words']) {
      const err = await failure(() => pageRef(bad));
      expect(err.code, bad).toBe('invalidRequest');
      expect(err.message).toMatch(/^page: /);
    }
  });

  it('cursors: Graph\'s after base64url-encoded (any alphabet fits), N~ counts ads of that page already given', async () => {
    const token = encodeCursor({ after: PAGE1_AFTER, skip: 0 })!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{10,500}$/);
    expect(decodeCursor(token)).toEqual({ after: PAGE1_AFTER, skip: 0 });
    expect(decodeCursor(encodeCursor({ after: PAGE1_AFTER, skip: 7 }))).toEqual({ after: PAGE1_AFTER, skip: 7 });
    expect(encodeCursor({ skip: 1 })).toBe('1~');
    expect(decodeCursor('1~')).toEqual({ skip: 1 });
    expect((await failure(() => decodeCursor('______________'))).message).toMatch(/^cursor: /); // not a token this source made
  });

  it('archiveParams maps every filter onto ads_archive, lists in Meta\'s own [\'…\'] form', () => {
    const p = archiveParams(
      {
        query: 'bike lanes', country: 'de', adType: 'politicalAndIssue', status: 'inactive', mediaType: 'video',
        platforms: ['instagram', 'audienceNetwork'], from: '2026-01-01', to: '2026-02-01', language: 'pt-BR', limit: 30,
      },
      undefined,
      30,
      'abc',
    );
    expect(Object.fromEntries(p)).toMatchObject({
      search_terms: 'bike lanes',
      ad_reached_countries: "['DE']",
      ad_type: 'POLITICAL_AND_ISSUE_ADS',
      ad_active_status: 'INACTIVE',
      media_type: 'VIDEO',
      publisher_platforms: "['INSTAGRAM','AUDIENCE_NETWORK']",
      ad_delivery_date_min: '2026-01-01',
      ad_delivery_date_max: '2026-02-01',
      languages: "['pt']",
      limit: '30',
      after: 'abc',
    });
    expect(p.get('fields')).not.toContain('ad_snapshot_url'); // it would carry a token
    expect(archiveParams({ country: 'all', adType: 'all', status: 'all', mediaType: 'all', platforms: [], limit: 5 }, '42', 5).get('ad_reached_countries')).toBe("['ALL']");
  });

  it('the documented fields map onto the ad record; an answer without its data list is drift', async () => {
    const page = normalisePage(JSON.parse(documented('ads-archive.page1.json')), 'active');
    expect(page.after).toBe(PAGE1_AFTER);
    expect(page.ads[1]).toMatchObject({
      id: '1000000000000002',
      paidBy: 'Example Shoes GmbH',
      isActive: true,
      endedAt: '2026-03-11',
      currency: 'EUR',
      spend: { currency: 'EUR', min: 100, max: 199 },
      impressions: { min: 1000, max: 1999 },
      audience: { min: 10000, max: 50000 },
      demographics: [{ share: 0.42, age: '25-34', gender: 'female' }, { share: 0.58, age: '25-34', gender: 'male' }],
      regions: [{ region: 'Berlin', share: 0.6 }, { region: 'Hamburg', share: 0.4 }],
    });
    expect((await failure(() => normalisePage({ error: 'x' }, 'all'))).code).toBe('sourceChanged');
    expect((await failure(() => normalisePage({ data: [{ page_id: '1', ad_delivery_start_time: '2026-01-01' }] }, 'all'))).code).toBe('sourceChanged');
  });
});

describe('facebook test mode (committed samples)', () => {
  it('ads.search answers the recorded ad; its cursor runs past the recording into an empty, free page', async () => {
    const first = await runSample('facebook.ads.search', { query: 'running shoes' });
    expect(first.data.ads[0]).toMatchObject({ id: '2487345651520779', advertiser: { name: 'Rishi Kumar for Congress 2020' } });
    expect(await runSample('facebook.ads.search', { query: 'running shoes', cursor: first.data.cursor })).toMatchObject({ items: 0, free: true });
  });

  it('ads.page walks its two documented pages', async () => {
    const first = await runSample('facebook.ads.page', { page: 'https://www.facebook.com/nike' });
    expect(first.data.ads).toHaveLength(2);
    const second = await runSample('facebook.ads.page', { page: 'https://www.facebook.com/nike', cursor: first.data.cursor });
    expect(second.data.ads.map((a: any) => a.id)).toEqual(['1000000000000003']);
    expect(second.data.cursor).toBeUndefined();
  });
});

describe.skipIf(!haveRecordings(FOLDER))(`facebook against the recorded and documented Ad Library API answers${skipReason(FOLDER)}`, () => {
  let replay: Replay;
  let recorded: LiveContext;
  let current: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(facebookReplay());
    recorded = liveContext('facebook', replay, RECORDED_SETTINGS);
    current = liveContext('facebook', replay, DOCUMENTED_SETTINGS);
  });
  afterAll(async () => {
    await recorded?.close();
    await current?.close();
    await replay?.close();
  });
  beforeEach(() => {
    replay.seen.length = 0;
    replay.mutate = undefined;
  });

  it('ads.search: the recorded political ad, the token in a header and never in an address', async () => {
    const out = await runLive('facebook.ads.search', RECORDED_QUERY, recorded.ctx);
    expect(replay.misses()).toEqual([]);
    expect(replay.served()).toEqual([RECORDED]);
    const asked = replay.seen[0];
    expect(asked.path).toBe('/v5.0/ads_archive');
    expect(asked.query.get('access_token')).toBeNull();
    const raw = readRecordingJson(RECORDED);
    expect(out.items).toBe(1);
    expect(out.data.ads[0]).toEqual({
      type: 'ad',
      id: '2487345651520779',
      url: 'https://www.facebook.com/ads/library/?id=2487345651520779',
      advertiser: { id: '393656900730519', name: 'Rishi Kumar for Congress 2020', url: 'https://www.facebook.com/393656900730519' },
      paidBy: 'Rishi Kumar',
      bodies: [raw.data[0].ad_creative_body.trim()],
      titles: ['Atherton resident supports Rishi Kumar for Congress'],
      captions: ['fb.com'],
      createdAt: '2019-12-03T22:03:18.000Z',
      startedAt: '2019-12-03T22:03:18.000Z',
      endedAt: '2020-03-03T22:03:06.000Z',
      isActive: true,
      currency: 'USD',
      spend: { currency: 'USD', min: 0, max: 99 },
      impressions: { min: 0, max: 999 },
    });
    expect(decodeCursor(out.data.cursor)).toEqual({ after: raw.paging.cursors.after, skip: 0 });
    expect(JSON.stringify(out.data)).not.toContain('access_token');
  });

  it('ads.page by username: the page look-up, then two documented pages joined up to the limit', async () => {
    const out = await runLive('facebook.ads.page', { page: 'https://www.facebook.com/example.shoes', country: 'de', status: 'all', limit: 3 }, current.ctx);
    expect(replay.seen.map((s) => s.path)).toEqual(['/v24.0/example.shoes', '/v24.0/ads_archive', '/v24.0/ads_archive']);
    expect(replay.seen[1].query.get('search_page_ids')).toBe(`['${DOCUMENTED_PAGE_ID}']`);
    expect(replay.seen[2].query.get('after')).toBe(PAGE1_AFTER);
    expect(out.data.ads.map((a: any) => a.id)).toEqual(['1000000000000001', '1000000000000002', '1000000000000003']);
    expect(out.data.cursor).toBeUndefined();
    expect(out.data.ads[2]).toMatchObject({ platforms: ['instagram', 'messenger'], endedAt: '2025-12-31' });
  });

  it('a page cut by limit resumes on the same Graph page with N~, then continues with Graph\'s after', async () => {
    const first = await runLive('facebook.ads.page', { page: DOCUMENTED_PAGE_ID, limit: 1 }, current.ctx);
    expect(first.data.ads.map((a: any) => a.id)).toEqual(['1000000000000001']);
    expect(first.data.cursor).toBe('1~');
    const second = await runLive('facebook.ads.page', { page: DOCUMENTED_PAGE_ID, limit: 1, cursor: first.data.cursor }, current.ctx);
    expect(second.data.ads.map((a: any) => a.id)).toEqual(['1000000000000002']);
    expect(decodeCursor(second.data.cursor)).toEqual({ after: PAGE1_AFTER, skip: 0 });
  });

  it.each([
    ['no token', 'facebook.ads.search', { query: 'x' }, {}, 'sourceUnavailable', /QUARRY_FACEBOOK_ACCESS_TOKEN/],
    ['an expired token', 'facebook.ads.page', { page: EXPIRED_TOKEN_PAGE }, DOCUMENTED_SETTINGS, 'sourceUnavailable', /QUARRY_FACEBOOK_ACCESS_TOKEN .*expired/],
    ['a throttled app', 'facebook.ads.page', { page: THROTTLED_PAGE }, DOCUMENTED_SETTINGS, 'sourceRefused', /throttling/],
    ['an unknown page name', 'facebook.ads.page', { page: 'no.such.page' }, DOCUMENTED_SETTINGS, 'notFound', /^page: /],
    ['a tampered cursor', 'facebook.ads.search', { query: 'x', cursor: '12~!!' }, DOCUMENTED_SETTINGS, 'invalidRequest', /cursor/],
  ])('%s → %s', async (_what, id, body, settings, code, message) => {
    const ctx = liveContext('facebook', replay, settings as Record<string, string>);
    try {
      const err = await failure(runLive(id, body, ctx.ctx));
      expect(err.code).toBe(code);
      expect(err.message).toMatch(message);
      if (code === 'sourceUnavailable') expect(err.retryable).toBe(false);
      expect(err.message).not.toContain('replay-token');
    } finally {
      await ctx.close();
    }
  });

  it('drift: an archived ad without its page → sourceChanged', async () => {
    replay.mutate = (name, body) => (name === RECORDED ? body.replace('"page_id"', '"page_ref"') : body);
    expect((await failure(runLive('facebook.ads.search', RECORDED_QUERY, recorded.ctx))).code).toBe('sourceChanged');
  });
});

describe.skipIf(!haveRecordings(FOLDER))(`facebook through the gateway${skipReason(FOLDER)}`, () => {
  const g = useSourceGateway(() => ({ replay: facebookReplay(), env: { QUARRY_FACEBOOK_ACCESS_TOKEN: 'replay-token' } }));

  it('live: two ads cost 2 credits (2 per 10 results), the next page by its cursor 2 more', async () => {
    const before = await g.balance();
    const r = await g.post('/v1/facebook/ads/page', { page: DOCUMENTED_PAGE_ID, country: 'de', status: 'all', limit: 2 });
    expect(r.status).toBe(200);
    expect(r.json.creditsUsed).toBe(2);
    expect(r.json.data.ads).toHaveLength(2);
    const next = await g.post('/v1/facebook/ads/page', { page: DOCUMENTED_PAGE_ID, country: 'de', status: 'all', limit: 2, cursor: r.json.data.cursor });
    expect(next.json.data.ads.map((a: any) => a.id)).toEqual(['1000000000000003']);
    expect(await g.balance()).toBe(before - 4);
  });

  it('test mode: the recorded sample with a qry_test_ key, never upstream, balance untouched', async () => {
    await g.expectTestMode(async () => {
      const r = await g.post('/v1/facebook/ads/search', { query: 'running shoes', country: 'us', status: 'active', limit: 30 }, 'test');
      expect(r.status).toBe(200);
      expect(r.json.data.ads[0].id).toBe('2487345651520779');
      expect(r.json.creditsUsed).toBe(2);
    });
  });

  it('refusals and drift fail unbilled: throttled → 502 sourceRefused, a changed answer → 502 sourceChanged', async () => {
    await g.expectRefused('/v1/facebook/ads/page', { page: THROTTLED_PAGE });
    await g.expectDrift('/v1/facebook/ads/page', { page: DOCUMENTED_PAGE_ID, limit: 5, maxAge: 0 }, (name, body) => body.replaceAll('"ad_delivery_start_time"', '"delivery_start"'));
  });
});
