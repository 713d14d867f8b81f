/**
 * zillow: search against its one real recording (a rental search page of ZIP 04011, 2025-06, served at the address
 * Zillow's search box gives that search), homes against documented-shape doubles (test/fixtures/documented/zillow,
 * named so), PerimeterX walls, drift, the skip cursor, test mode and one gateway round over HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { searchPath } from '../../src/sources/zillow/client.js';
import { camel } from '../../src/sources/zillow/normalise.js';
import { zpidOf } from '../../src/sources/zillow/refs.js';
import { wallOf } from '../../src/sources/kit/web/walls.js';
import { failure } from '../helpers/failure.js';
import { haveRecordings, readRecording, skipReason, startReplay, type Replay } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';
import { PX_WALL, SEARCH_RECORDING, zillowReplay } from './zillow-doubles.js';

describe('zillow addresses and refs', () => {
  it('a place becomes the search box path; pages after the first add N_p', () => {
    expect(searchPath('04011', 'forRent', 1)).toBe('/homes/for_rent/04011_rb/');
    expect(searchPath('Austin, TX', 'forSale', 3)).toBe('/homes/for_sale/Austin,-TX_rb/3_p/');
    expect(searchPath('Brunswick ME', 'sold', 1)).toBe('/homes/recently_sold/Brunswick-ME_rb/');
  });

  it('a zpid, or an address carrying one; anything else is a 400 naming property', async () => {
    expect(zpidOf('15192198')).toBe('15192198');
    expect(zpidOf('https://www.zillow.com/homedetails/661-Lakeview-Ave-San-Francisco-CA-94112/15192198_zpid/')).toBe('15192198');
    for (const bad of ['abc', 'https://evil.example/15192198_zpid/', 'https://www.zillow.com/b/building/']) {
      const err = await failure(() => zpidOf(bad));
      expect(err.code).toBe('invalidRequest');
      expect(err.message).toMatch(/^property: /);
    }
    expect(camel('SINGLE_FAMILY')).toBe('singleFamily');
  });

  it('the recorded page is no wall although it carries PerimeterX\'s sensor; the Press & Hold page is one', () => {
    if (haveRecordings('zillow')) expect(wallOf({}, readRecording(SEARCH_RECORDING))).toBeUndefined();
    expect(wallOf({}, PX_WALL)).toBe('PerimeterX');
  });
});

describe.skipIf(!haveRecordings('zillow'))(`zillow search against the recorded page${skipReason('zillow')}`, () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(zillowReplay());
    live = liveContext('zillow', replay, {}, ['www.zillow.com']);
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
    [
      { location: '04011', status: 'forRent', limit: 40 },
      (d: any) => {
        expect(d.properties).toHaveLength(36);
        expect(d.total).toBe(91);
        expect(d.cursor).toBeUndefined(); // Zillow says the search has one page
        expect(d.properties[0]).toMatchObject({
          type: 'property',
          id: '43.90381--69.918846',
          url: 'https://www.zillow.com/b/building/43.90381,-69.918846_ll/',
          title: 'Atlantic Pointe',
          status: 'forRent',
          isBuilding: true,
          address: { full: '10 Townsend Ln, Brunswick, ME', street: '10 Townsend Ln # 9-203', city: 'Brunswick', state: 'ME', postalCode: '04011' },
          geo: { latitude: 43.90381, longitude: -69.918846 },
          units: [
            { priceText: '$2,225+', price: { amount: 2225, currency: 'USD' }, beds: 1 },
            { priceText: '$2,602+', price: { amount: 2602, currency: 'USD' }, beds: 2 },
          ],
        });
        expect(d.properties[0].images).toHaveLength(20);
        expect(d.properties[3]).toEqual({
          type: 'property',
          id: '343985606',
          url: 'https://www.zillow.com/apartments/brunswick-me/41-river-rd./CjNMfF/',
          status: 'forRent',
          homeType: 'apartment',
          price: { amount: 1699, currency: 'USD' },
          pricePeriod: 'month',
          priceText: '$1,699/mo',
          address: { full: '41 River Rd., 41 River Rd #A9, Brunswick, ME 04011', street: '41 River Rd #A9', city: 'Brunswick', state: 'ME', postalCode: '04011', country: 'US' },
          geo: { latitude: 43.914337, longitude: -69.98345 },
          beds: 2,
          baths: 1,
          livingArea: { value: 700, unit: 'sqft' },
          daysOnMarket: 31,
          rentEstimate: { amount: 1710, currency: 'USD' },
          images: expect.any(Array),
          broker: 'Maine Real Estate Management LLC',
        });
      },
    ],
    [
      { location: '04011', status: 'forRent', priceMax: 1600, bedsMin: 1, limit: 40 },
      // Bounds are applied to the cards Zillow answered: a building counts when one of its units fits.
      (d: any) => {
        for (const p of d.properties) {
          const prices = [p.price?.amount, ...(p.units ?? []).map((u: any) => u.price?.amount)].filter((x) => x !== undefined);
          expect(Math.min(...prices)).toBeLessThanOrEqual(1600);
        }
        expect(d.properties.map((p: any) => p.id)).toContain('452051415'); // $1,495+/mo, 1 bed
        expect(d.properties.map((p: any) => p.id)).not.toContain('84948074'); // $1,550/mo but 0 beds (a studio)
      },
    ],
  ])('zillow.search %j', async (body, check) => {
    check((await runLive('zillow.search', body, live.ctx)).data);
    expect(replay.misses()).toEqual([]);
  });

  it('limit cuts the page: the cursor owes the rest of it (N~), and the next call answers it without repeats', async () => {
    const first = await runLive('zillow.search', { location: '04011', status: 'forRent', limit: 20 }, live.ctx);
    expect(first.data.properties).toHaveLength(20);
    expect(first.data.cursor).toBe('20~');
    const next = await runLive('zillow.search', { location: '04011', status: 'forRent', limit: 20, cursor: first.data.cursor }, live.ctx);
    expect(next.data.properties).toHaveLength(16);
    expect(next.data.cursor).toBeUndefined();
    const ids = [...first.data.properties, ...next.data.properties].map((p: any) => p.id);
    expect(new Set(ids).size).toBe(36);
    expect(replay.seen.map((s) => s.path)).toEqual(['/homes/for_rent/04011_rb/', '/homes/for_rent/04011_rb/']);
    expect((await failure(runLive('zillow.search', { location: '04011', cursor: '1~x' }, live.ctx))).code).toBe('invalidRequest');
  });

  it('drift: a page without listResults is sourceChanged', async () => {
    replay.mutate = (_name, body) => body.replace('"listResults"', '"listings"');
    const err = await failure(runLive('zillow.search', { location: '04011', status: 'forRent' }, live.ctx));
    expect(err.code).toBe('sourceChanged');
  });
});

describe('zillow homes against documented-shape doubles, and walls', () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(zillowReplay());
    live = liveContext('zillow', replay, {}, ['www.zillow.com']);
  });
  afterAll(async () => {
    await live?.close();
    await replay?.close();
  });

  it('zillow.property reads the gdpClientCache property: facts, money, taxes, history and the largest photos', async () => {
    const { data } = await runLive('zillow.property', { property: 'https://www.zillow.com/homedetails/12-Example-Ave-Springfield-IL-62701/2087654321_zpid/' }, live.ctx);
    expect(data.property).toEqual({
      type: 'property',
      id: '2087654321',
      url: 'https://www.zillow.com/homedetails/12-Example-Ave-Springfield-IL-62701/2087654321_zpid/',
      description: 'Brick ranch on a quiet street. Illustrative text, not a listing.',
      status: 'forSale',
      homeType: 'singleFamily',
      price: { amount: 315000, currency: 'USD' },
      address: { full: '12 Example Ave, Springfield, IL 62701', street: '12 Example Ave', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
      geo: { latitude: 39.7817, longitude: -89.6501 },
      beds: 3,
      baths: 2,
      bathsFull: 1,
      bathsHalf: 1,
      livingArea: { value: 1640, unit: 'sqft' },
      lotSize: { value: 0.25, unit: 'acres' },
      yearBuilt: 1958,
      listedAt: '2026-10-02',
      daysOnMarket: 12,
      soldPrice: { amount: 189000, currency: 'USD' },
      hoa: { amount: 45, currency: 'USD', period: 'month' },
      estimate: { amount: 321400, currency: 'USD' },
      rentEstimate: { amount: 1890, currency: 'USD' },
      taxes: [
        { year: 2025, tax: { amount: 4120.55, currency: 'USD' }, assessedValue: { amount: 98100, currency: 'USD' } },
        { year: 2024, tax: { amount: 4039.1, currency: 'USD' }, assessedValue: { amount: 95200, currency: 'USD' } },
      ],
      priceHistory: [
        { date: '2026-10-02', event: 'Listed for sale', price: { amount: 315000, currency: 'USD' }, source: 'Example MLS' },
        { date: '2012-05-18', event: 'Sold', price: { amount: 189000, currency: 'USD' }, source: 'Public Record' },
      ],
      images: [
        { url: 'https://photos.zillowstatic.com/fp/example-front-cc_ft_1536.jpg', width: 1536 },
        { url: 'https://photos.zillowstatic.com/fp/example-kitchen-cc_ft_1536.jpg', width: 1536 },
      ],
      agent: { name: 'Pat Example' },
      broker: 'Example Realty',
      mlsId: 'EX-100200',
      county: 'Sangamon County',
    });
  });

  it('the older layout (hdpApolloPreloadedData) is read too; its full-render property wins over stubs', async () => {
    const { data } = await runLive('zillow.property', { property: '2087654322' }, live.ctx);
    expect(data.property).toMatchObject({ id: '2087654322', status: 'sold', address: { street: '12 Example Ave' } });
    expect(data.property.price).toBeUndefined();
  });

  it('unknown homes, walls and drift', async () => {
    expect((await failure(runLive('zillow.property', { property: '1' }, live.ctx))).code).toBe('notFound');
    const walled = await failure(runLive('zillow.search', { location: 'walled' }, live.ctx));
    expect([walled.code, walled.message]).toEqual(['sourceRefused', 'zillow: the platform answered a PerimeterX bot wall instead of the page']);
    expect((await failure(runLive('zillow.search', { location: 'walled ok' }, live.ctx))).code).toBe('sourceRefused');
    replay.mutate = (_name, body) => body.replaceAll('homeStatus', 'listingStatus');
    try {
      expect((await failure(runLive('zillow.property', { property: '2087654321' }, live.ctx))).code).toBe('sourceChanged');
    } finally {
      replay.mutate = undefined;
    }
  });
});

describe('zillow test mode', () => {
  it('search walks its two recorded pages by cursor; the home answers its documented sample', async () => {
    const first = await runSample('zillow.search', { location: '04011', status: 'forRent', limit: 20 });
    expect(first.data.properties).toHaveLength(20);
    const second = await runSample('zillow.search', { location: '04011', status: 'forRent', limit: 20, cursor: first.data.cursor });
    expect(second.data.properties).toHaveLength(16);
    expect(second.data.cursor).toBeUndefined();
    expect((await runSample('zillow.property', { property: '2087654321' })).data.property.address.city).toBe('Springfield');
  });
});

describe.skipIf(!haveRecordings('zillow'))(`zillow through the gateway${skipReason('zillow')}`, () => {
  const g = useSourceGateway(() => ({ replay: zillowReplay(), hosts: ['www.zillow.com'] }));

  it('live: 36 listings cost 2 credits (1 per 20), 20 cost 1, the next page by cursor 1; a home 1', async () => {
    const before = await g.balance();
    const all = await g.post('/v1/zillow/search', { location: '04011', status: 'forRent', limit: 40 });
    expect(all.status).toBe(200);
    expect(all.json.creditsUsed).toBe(2);
    const first = await g.post('/v1/zillow/search', { location: '04011', status: 'forRent', limit: 20, maxAge: 0 });
    expect(first.json.creditsUsed).toBe(1);
    const next = await g.post('/v1/zillow/search', { location: '04011', status: 'forRent', limit: 20, cursor: first.json.data.cursor });
    expect(next.json.data.properties).toHaveLength(16);
    const home = await g.post('/v1/zillow/property', { property: '2087654321' });
    expect(home.status).toBe(200);
    expect(await g.balance()).toBe(before - 5);
  });

  it('test mode: the example answers from its sample with a qry_test_ key, never upstream, balance untouched', async () => {
    await g.expectTestMode(async () => {
      const r = await g.post('/v1/zillow/search', { location: '04011', status: 'forRent', limit: 20 }, 'test');
      expect(r.status).toBe(200);
      expect(r.json.data.properties).toHaveLength(20);
      expect(r.json.creditsUsed).toBe(1);
    });
  });

  it('a wall is 502 sourceRefused and drift 502 sourceChanged, both unbilled; a bad cursor is 400', async () => {
    await g.expectRefused('/v1/zillow/search', { location: 'walled' });
    await g.expectDrift('/v1/zillow/search', { location: '04011', status: 'forRent', maxAge: 0 }, (_name, body) => body.replace('"listResults"', '"listings"'));
    await g.expectFailure('/v1/zillow/search', { location: '04011', cursor: 'abc' }, { status: 400, code: 'invalidRequest' });
  });
});
