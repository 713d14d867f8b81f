/**
 * airbnb, against documented-shape doubles only: no Airbnb answer is recorded anywhere this project may use. Pages
 * and web API answers are written from the layouts scrapfly-scrapers and pyairbnb read (test/fixtures/documented/
 * airbnb, named so). Also: the URLs and persisted queries sent, dates, prices, cursors, walls, rotated hashes, drift,
 * test mode and one gateway round over HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { globalId, idFromGlobal, searchUrl } from '../../src/sources/airbnb/client.js';
import { pricesOf, ratingOf } from '../../src/sources/airbnb/normalise.js';
import { listingIdOf } from '../../src/sources/airbnb/refs.js';
import { failure } from '../helpers/failure.js';
import { startReplay, type Replay } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';
import { AIRBNB_HOSTS, airbnbReplay, NEXT_CURSOR } from './airbnb-doubles.js';

const ID = '1234567890123456789';
const search = { location: 'Lisbon, Portugal', checkIn: '2027-06-10', checkOut: '2027-06-14', adults: 2 };

describe('airbnb addresses, ids, ratings and prices', () => {
  it('the search page URL carries the place, dates, guests, price bounds, currency and cursor', () => {
    const url = new URL(searchUrl({ ...search, children: 1, infants: 0, pets: 1, priceMax: 250.5, currency: 'EUR', language: 'pt' }, 'abc='));
    expect(url.pathname).toBe('/s/Lisbon--Portugal/homes');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      query: 'Lisbon, Portugal', adults: '2', children: '1', pets: '1', checkin: '2027-06-10', checkout: '2027-06-14',
      price_max: '251', currency: 'EUR', locale: 'pt', cursor: 'abc=',
    });
  });

  it('global ids are base64 Type:id; listings by id or address; anything else a 400 naming listing', async () => {
    expect(idFromGlobal(globalId('DemandStayListing', ID))).toBe(ID);
    expect(idFromGlobal('nonsense')).toBeUndefined();
    expect(listingIdOf(`https://www.airbnb.co.uk/rooms/${ID}?adults=2`)).toBe(ID);
    for (const bad of ['abc', 'https://evil.example/rooms/1', 'https://www.airbnb.com/s/Lisbon/homes']) {
      const err = await failure(() => listingIdOf(bad));
      expect([err.code, err.message.startsWith('listing: ')]).toEqual(['invalidRequest', true]);
    }
  });

  it('ratings are on 5; prices read from the displayed lines, nightly derived from a total over the nights', () => {
    expect(ratingOf('4,9 (1.234)')).toEqual({ value: 4.9, max: 5, count: 1234 });
    expect(ratingOf('New')).toBeUndefined();
    expect(pricesOf({ primaryLine: { accessibilityLabel: '€1,087 for 7 nights, originally €1,907' } }, 'EUR')).toEqual({
      totalPrice: { amount: 1087, currency: 'EUR' }, originalTotalPrice: { amount: 1907, currency: 'EUR' }, nights: 7, nightlyPrice: { amount: 155.29, currency: 'EUR' },
    });
    expect(pricesOf({ primaryLine: { price: '$34', qualifier: 'night' }, secondaryLine: { price: '$170 total' } }, 'USD', 5)).toEqual({
      nightlyPrice: { amount: 34, currency: 'USD' }, totalPrice: { amount: 170, currency: 'USD' }, nights: 5,
    });
  });
});

describe('airbnb live path against the documented-shape doubles', () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(airbnbReplay());
    live = liveContext('airbnb', replay, {}, AIRBNB_HOSTS);
  });
  afterAll(async () => {
    await live?.close();
    await replay?.close();
  });
  beforeEach(() => {
    replay.seen.length = 0;
  });

  it('airbnb.search: cards with the stay, guests and prices; Airbnb\'s cursor pages on', async () => {
    const first = await runLive('airbnb.search', { ...search, limit: 3 }, live.ctx);
    expect(first.data.cursor).toBe(NEXT_CURSOR);
    expect(first.data.listings.map((l: any) => [l.id, l.rating?.count, l.totalPrice?.amount])).toEqual([
      [ID, 112, 1087],
      ['1234567890123456790', 37, 842],
      ['1234567890123456791', undefined, 396],
    ]);
    expect(first.data.listings[1]).toEqual({
      type: 'listing',
      id: '1234567890123456790',
      url: 'https://www.airbnb.com/rooms/1234567890123456790',
      name: 'Quiet flat with a balcony',
      title: 'Condo in Lisbon',
      geo: { latitude: 38.7152, longitude: -9.1391 },
      rating: { value: 4.8, max: 5, count: 37 },
      images: [{ url: 'https://a0.muscache.com/im/pictures/example-1234567890123456790-1.jpeg?im_w=720' }, { url: 'https://a0.muscache.com/im/pictures/example-1234567890123456790-2.jpeg?im_w=720' }],
      checkIn: '2027-06-10',
      checkOut: '2027-06-14',
      nights: 4,
      guests: { adults: 2 },
      nightlyPrice: { amount: 210.5, currency: 'USD' },
      totalPrice: { amount: 842, currency: 'USD' },
    });
    const next = await runLive('airbnb.search', { ...search, limit: 3, cursor: first.data.cursor }, live.ctx);
    expect(next.data.listings.map((l: any) => l.id)).toEqual(['1234567890123456792', '1234567890123456793']);
    expect(next.data.cursor).toBeUndefined();
  });

  it('limit inside a page owes its rest (N~); without dates no prices are claimed; the 2024 card layout is read', async () => {
    const cut = await runLive('airbnb.search', { location: 'Lisbon, Portugal', limit: 2 }, live.ctx);
    expect(cut.data.cursor).toBe('2~');
    expect(cut.data.listings[0].totalPrice).toBeUndefined();
    const rest = await runLive('airbnb.search', { location: 'Lisbon, Portugal', limit: 2, cursor: '2~' }, live.ctx);
    expect(rest.data.listings.map((l: any) => l.id)).toEqual(['1234567890123456791', '1234567890123456792']);
    const legacy = await runLive('airbnb.search', { location: 'Sao Paulo', checkIn: '2027-06-10', checkOut: '2027-06-12' }, live.ctx);
    expect(legacy.data.listings[0]).toMatchObject({
      id: '49616489', name: 'Apartment with a view, 20th floor', rating: { value: 4.83, max: 5 }, nightlyPrice: { amount: 34, currency: 'USD' }, nights: 2,
    });
  });

  it('airbnb.listing reads the StaysPdpSections answer; with dates, the booking line\'s prices', async () => {
    const { data } = await runLive('airbnb.listing', { listing: ID, checkIn: '2027-06-10', checkOut: '2027-06-14', adults: 2 }, live.ctx);
    expect(new URL(`https://x${replay.seen[0].path}?${replay.seen[0].query}`).searchParams.get('check_in')).toBe('2027-06-10');
    expect(data.listing).toMatchObject({
      id: ID,
      name: 'Sunny loft near the river',
      kind: 'Entire rental unit',
      maxGuests: 4,
      bedrooms: 1,
      beds: 2,
      baths: 1,
      host: { name: 'Ana', id: '987654' },
      isSuperhost: true,
      amenities: ['Hair dryer', 'Wifi', 'Dedicated workspace'],
      rating: { value: 4.93, max: 5, count: 112 },
      totalPrice: { amount: 1087, currency: 'USD' },
      originalTotalPrice: { amount: 1312, currency: 'USD' },
      nightlyPrice: { amount: 271.75, currency: 'USD' },
      guests: { adults: 2 },
    });
  });

  it('airbnb.reviews: the persisted query with the public key, newest first, offset cursor', async () => {
    const first = await runLive('airbnb.reviews', { listing: ID, limit: 2 }, live.ctx);
    const sent = replay.seen[0];
    expect(sent.path).toMatch(/^\/api\/v3\/StaysPdpReviewsQuery\/dec1c806/);
    expect(sent.headers['x-airbnb-api-key']).toBe('d306zoyjsyarp7ifhu67rjxn52tv0t20');
    expect(JSON.parse(sent.query.get('variables')!)).toMatchObject({ id: globalId('StayListing', ID), pdpReviewsRequest: { limit: 2, offset: '0', sortingPreference: 'MOST_RECENT' } });
    expect(first.data).toMatchObject({ total: 3, cursor: '2' });
    expect(first.data.reviews[0]).toMatchObject({ id: '1300000000000000001', rating: 5, ratingMax: 5, response: { text: 'Thank you, Joana!' }, author: { name: 'Joana' } });
    const next = await runLive('airbnb.reviews', { listing: ID, limit: 2, cursor: '2' }, live.ctx);
    expect(next.data.reviews.map((r: any) => r.id)).toEqual(['1300000000000000003']);
    expect(next.data.cursor).toBeUndefined();
  });

  it('airbnb.calendar: days from `from` on, with check-in/out rules, minimum nights and prices', async () => {
    const { data } = await runLive('airbnb.calendar', { listing: ID, from: '2027-06-10', months: 2 }, live.ctx);
    expect(JSON.parse(replay.seen[0].query.get('variables')!)).toEqual({ request: { count: 2, listingId: ID, month: 6, year: 2027 } });
    expect(data.listingId).toBe(ID);
    expect(data.days[0]).toEqual({ date: '2027-06-10', isAvailable: true, isCheckInAllowed: true, isCheckOutAllowed: true, isBookable: true, minNights: 1, maxNights: 365, price: { amount: 280, currency: 'USD' } });
    expect(data.days[2]).toMatchObject({ date: '2027-06-12', isAvailable: false, isCheckOutAllowed: true });
    expect(data.days).toHaveLength(21 + 31);
  });

  it.each([
    ['airbnb.search', { location: 'walled' }, {}, 'sourceRefused'],
    ['airbnb.search', { location: 'Lisbon', checkIn: '2027-06-10' }, {}, 'invalidRequest'],
    ['airbnb.search', { location: 'Lisbon', checkIn: '2027-06-10', checkOut: '2027-06-09' }, {}, 'invalidRequest'],
    ['airbnb.search', { location: 'Lisbon, Portugal', cursor: 'not a cursor!' }, {}, 'invalidRequest'],
    ['airbnb.listing', { listing: '1' }, {}, 'notFound'],
    ['airbnb.reviews', { listing: ID }, { API_KEY: 'revoked' }, 'sourceUnavailable'],
    ['airbnb.reviews', { listing: ID }, { REVIEWS_HASH: 'rotated' }, 'sourceChanged'],
  ])('%s %j %j → %s', async (id, body, settings, code) => {
    const ctx = liveContext('airbnb', replay, settings as Record<string, string>, AIRBNB_HOSTS);
    try {
      const err = await failure(runLive(id, body, ctx.ctx));
      expect(err.code).toBe(code);
      if (code === 'sourceChanged') expect(err.message).toContain('QUARRY_AIRBNB_REVIEWS_HASH');
      if (code === 'sourceUnavailable') expect(err.message).toContain('QUARRY_AIRBNB_API_KEY');
    } finally {
      await ctx.close();
    }
  });

  it('drift: a page without its StaysSearch answer, a review without rating', async () => {
    replay.mutate = (_name, body) => body.replace('StaysSearch:', 'ExploreSearch:').replaceAll('"rating": 5', '"stars": 5');
    try {
      expect((await failure(runLive('airbnb.search', search, live.ctx))).code).toBe('sourceChanged');
      expect((await failure(runLive('airbnb.reviews', { listing: ID, limit: 2 }, live.ctx))).code).toBe('sourceChanged');
    } finally {
      replay.mutate = undefined;
    }
  });
});

describe('airbnb test mode (committed samples, from documented-shape doubles)', () => {
  it('search and reviews walk two pages; the listing and calendar answer theirs', async () => {
    const first = await runSample('airbnb.search', { ...search, limit: 3 });
    const second = await runSample('airbnb.search', { ...search, limit: 3, cursor: first.data.cursor });
    expect([first.data.listings.length, second.data.listings.length]).toEqual([3, 2]);
    const reviews = await runSample('airbnb.reviews', { listing: ID, limit: 2 });
    expect((await runSample('airbnb.reviews', { listing: ID, limit: 2, cursor: reviews.data.cursor })).data.reviews).toHaveLength(1);
    expect((await runSample('airbnb.listing', { listing: ID })).data.listing.name).toBe('Sunny loft near the river');
    expect((await runSample('airbnb.calendar', { listing: ID, from: '2027-06-01', months: 2 })).data.days).toHaveLength(61);
  });
});

describe('airbnb through the gateway', () => {
  const g = useSourceGateway(() => ({ replay: airbnbReplay(), hosts: AIRBNB_HOSTS }));

  it('live prices, paging, test mode, a 400 for dates out of order, walls and drift unbilled', async () => {
    const before = await g.balance();
    const r = await g.post('/v1/airbnb/search', { ...search, limit: 3 });
    expect([r.status, r.json.creditsUsed]).toEqual([200, 1]);
    const next = await g.post('/v1/airbnb/search', { ...search, limit: 3, cursor: r.json.data.cursor });
    expect(next.json.data.listings).toHaveLength(2);
    const cal = await g.post('/v1/airbnb/calendar', { listing: ID, from: '2027-06-01', months: 2 });
    expect([cal.status, cal.json.creditsUsed]).toEqual([200, 1]);
    expect(await g.balance()).toBe(before - 3);

    await g.expectTestMode(async () => {
      const sample = await g.post('/v1/airbnb/search', { location: 'Lisbon, Portugal', checkIn: '2027-06-10', checkOut: '2027-06-14', adults: 2 }, 'test');
      expect([sample.status, sample.json.creditsUsed, sample.json.data.listings.length]).toEqual([200, 1, 3]);
    });

    await g.expectFailure('/v1/airbnb/search', { location: 'Lisbon', checkIn: '2027-06-10', checkOut: '2027-06-01' }, { status: 400, code: 'invalidRequest', message: 'checkOut: must be after checkIn' });
    await g.expectRefused('/v1/airbnb/search', { location: 'walled' });
    await g.expectDrift('/v1/airbnb/listing', { listing: ID }, (_name, body) => body.replace('StaysPdpSections:', 'OtherQuery:'));
    expect(await g.balance()).toBe(before - 3);
  });
});
