/**
 * booking, against documented-shape doubles only: no Booking.com answer is recorded anywhere this project may use.
 * Pages and GraphQL answers are written from the layouts scrapfly-scrapers reads (test/fixtures/documented/booking,
 * named so). Also: the search URL, required dates, the offset cursor, AWS WAF, drift, test mode and a gateway round.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hotelPath, langOf, searchUrl } from '../../src/sources/booking/client.js';
import { failure } from '../helpers/failure.js';
import { startReplay, type Replay } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';
import { BOOKING_HOSTS, bookingReplay } from './booking-doubles.js';

const HOTEL = 'https://www.booking.com/hotel/mt/example-harbour.html';
const search = { destination: 'Valletta', checkIn: '2027-06-10', checkOut: '2027-06-14', adults: 2 };

describe('booking addresses', () => {
  it('the results page URL: destination, dates, guests with each child\'s age, rooms, currency, language, offset', () => {
    const url = new URL(searchUrl({ destination: 'Valletta', stay: { checkIn: '2027-06-10', checkOut: '2027-06-14', nights: 4 }, adults: 2, childrenAges: [4, 9], rooms: 1, currency: 'EUR', language: 'de' }, 25));
    expect(url.pathname).toBe('/searchresults.html');
    expect([...url.searchParams]).toEqual([
      ['ss', 'Valletta'], ['checkin', '2027-06-10'], ['checkout', '2027-06-14'], ['group_adults', '2'], ['group_children', '2'],
      ['no_rooms', '1'], ['selected_currency', 'EUR'], ['lang', 'de'], ['age', '4'], ['age', '9'], ['offset', '25'],
    ]);
    expect(langOf('EN')).toBe('en-us');
  });

  it('a property by its address on any host and language, or country/name; anything else a 400 naming hotel', async () => {
    expect(hotelPath('https://www.booking.com/hotel/mt/example-harbour.en-gb.html?aid=1')).toEqual({ country: 'mt', name: 'example-harbour' });
    expect(hotelPath('mt/example-harbour')).toEqual({ country: 'mt', name: 'example-harbour' });
    for (const bad of ['example-harbour', 'https://evil.example/hotel/mt/x.html', 'https://www.booking.com/searchresults.html']) {
      const err = await failure(() => hotelPath(bad));
      expect([err.code, err.message.startsWith('hotel: ')]).toEqual(['invalidRequest', true]);
    }
  });
});

describe('booking live path against the documented-shape doubles', () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(bookingReplay());
    live = liveContext('booking', replay, {}, BOOKING_HOSTS);
  });
  afterAll(async () => {
    await live?.close();
    await replay?.close();
  });
  beforeEach(() => {
    replay.seen.length = 0;
  });

  it('booking.search reads the Apollo store, references resolved; prices for the stay; offset cursor', async () => {
    const first = await runLive('booking.search', { ...search, limit: 2 }, live.ctx);
    expect(first.data).toMatchObject({ total: 4, cursor: '2' });
    expect(first.data.hotels[0]).toEqual({
      type: 'hotel',
      id: '1010101',
      url: HOTEL,
      name: 'Example Harbour Hotel',
      kind: 'Hotel room',
      address: { street: '12 Example Street', city: 'Valletta', country: 'MT' },
      rating: { value: 8.7, max: 10, count: 424 },
      stars: 4,
      images: [{ url: 'https://cf.bstatic.com/xdata/images/hotel/square600/101010101.jpg?k=example&o=' }],
      badges: ['Breakfast included'],
      beds: 2,
      baths: 1,
      distance: '1.2 km from centre',
      checkIn: '2027-06-10',
      checkOut: '2027-06-14',
      nights: 4,
      guests: { adults: 2, rooms: 1 },
      totalPrice: { amount: 612.4, currency: 'USD' },
      nightlyPrice: { amount: 153.1, currency: 'USD' },
      originalTotalPrice: { amount: 688, currency: 'USD' },
    });
    // The second result's basicPropertyData is an Apollo reference in the store.
    expect(first.data.hotels[1]).toMatchObject({ id: '1010102', url: 'https://www.booking.com/hotel/mt/sample-suites.html', rating: { value: 9.1 } });
    const next = await runLive('booking.search', { ...search, limit: 2, cursor: first.data.cursor }, live.ctx);
    expect(replay.seen.at(-1)!.query.get('offset')).toBe('2');
    expect(next.data.hotels.map((h: any) => h.id)).toEqual(['1010103', '1010104']);
    expect(next.data.cursor).toBeUndefined();
  });

  it('booking.hotel reads the JSON-LD, the page\'s hotel id and map coordinates', async () => {
    const { data } = await runLive('booking.hotel', { hotel: 'mt/example-harbour' }, live.ctx);
    expect(data.hotel).toMatchObject({
      type: 'hotel',
      id: '1010101',
      url: HOTEL,
      name: 'Example Harbour Hotel',
      kind: 'Hotel',
      geo: { latitude: 35.8997, longitude: 14.5147 },
      rating: { value: 8.7, max: 10, count: 424 },
      address: { city: 'Valletta', postalCode: 'VLT 1000', country: 'Malta' },
    });
  });

  it('booking.reviews: the page\'s ids and CSRF token in the ReviewList request; skip as cursor', async () => {
    const first = await runLive('booking.reviews', { hotel: HOTEL, limit: 2 }, live.ctx);
    const sent = replay.seen[1];
    expect(sent.headers['x-booking-csrf-token']).toBe('example-csrf-token');
    expect((sent.body as any).variables.input).toMatchObject({ hotelId: 1010101, ufi: -19069, hotelCountryCode: 'mt', skip: 0, limit: 2, sorter: 'MOST_RELEVANT', hotelScore: 8.7 });
    expect(first.data).toMatchObject({ total: 3, cursor: '2' });
    expect(first.data.reviews[1]).toEqual({
      type: 'review', id: 'a1b2c3d4e5f60002', rating: 7, ratingMax: 10, title: 'Great base for the old town', text: 'Street noise at night.', disliked: 'Street noise at night.',
      createdAt: '2026-10-03T04:00:00.000Z', language: 'en', author: { name: 'Leyla' }, guestCountry: 'DK', guestType: 'Couple', helpful: 0,
      stayedAt: '2026-09-20', nights: 1, roomType: 'Twin Room',
    });
    const next = await runLive('booking.reviews', { hotel: HOTEL, limit: 2, cursor: '2' }, live.ctx);
    expect(next.data.reviews.map((r: any) => r.id)).toEqual(['a1b2c3d4e5f60003']);
    expect(next.data.cursor).toBeUndefined();
  });

  it.each([
    ['booking.search', { destination: 'Valletta' }, 'invalidRequest'],
    ['booking.search', { ...search, checkOut: '2027-06-10' }, 'invalidRequest'],
    ['booking.search', { ...search, destination: 'walled' }, 'sourceRefused'],
    ['booking.hotel', { hotel: 'mt/missing' }, 'notFound'],
    ['booking.reviews', { hotel: HOTEL, cursor: '40' }, 'sourceChanged'],
  ])('%s %j → %s', async (id, body, code) => {
    expect((await failure(runLive(id, body, live.ctx))).code).toBe(code);
  });

  it('an AWS WAF stub is named as such; drift in the store or the JSON-LD is sourceChanged', async () => {
    const walled = await failure(runLive('booking.search', { ...search, destination: 'walled' }, live.ctx));
    expect(walled.message).toBe('booking: the platform answered an AWS WAF bot wall instead of the page');
    replay.mutate = (_name, body) => body.replaceAll('displayName', 'title').replace('application/ld+json', 'application/json');
    try {
      expect((await failure(runLive('booking.search', search, live.ctx))).code).toBe('sourceChanged');
      expect((await failure(runLive('booking.hotel', { hotel: HOTEL }, live.ctx))).code).toBe('sourceChanged');
    } finally {
      replay.mutate = undefined;
    }
  });
});

describe('booking test mode (committed samples, from documented-shape doubles)', () => {
  it('search and reviews walk two pages; the property answers its sample', async () => {
    const first = await runSample('booking.search', { ...search, limit: 2 });
    const second = await runSample('booking.search', { ...search, limit: 2, cursor: first.data.cursor });
    expect([first.data.hotels.length, second.data.hotels.length, second.data.cursor]).toEqual([2, 2, undefined]);
    const reviews = await runSample('booking.reviews', { hotel: HOTEL, limit: 2 });
    expect((await runSample('booking.reviews', { hotel: HOTEL, limit: 2, cursor: reviews.data.cursor })).data.reviews).toHaveLength(1);
    expect((await runSample('booking.hotel', { hotel: HOTEL })).data.hotel.id).toBe('1010101');
  });
});

describe('booking through the gateway', () => {
  const g = useSourceGateway(() => ({ replay: bookingReplay(), hosts: BOOKING_HOSTS }));

  it('live prices and paging, test mode, the dates 400, a wall and drift unbilled', async () => {
    const before = await g.balance();
    const r = await g.post('/v1/booking/search', { ...search, limit: 2 });
    expect([r.status, r.json.creditsUsed]).toEqual([200, 1]);
    const next = await g.post('/v1/booking/search', { ...search, limit: 2, cursor: r.json.data.cursor });
    expect(next.json.data.hotels).toHaveLength(2);
    const reviews = await g.post('/v1/booking/reviews', { hotel: HOTEL, limit: 2 });
    expect([reviews.status, reviews.json.creditsUsed]).toEqual([200, 1]);
    expect(await g.balance()).toBe(before - 3);

    await g.expectTestMode(async () => {
      const sample = await g.post('/v1/booking/search', { destination: 'Valletta', checkIn: '2027-06-10', checkOut: '2027-06-14', adults: 2 }, 'test');
      expect([sample.status, sample.json.data.hotels.length]).toEqual([200, 2]);
    });

    await g.expectFailure('/v1/booking/search', { destination: 'Valletta', checkIn: '2027-06-10', checkOut: '2027-06-09' }, { status: 400, message: 'checkOut: must be after checkIn' });
    await g.expectRefused('/v1/booking/search', { ...search, destination: 'walled' });
    await g.expectDrift('/v1/booking/reviews', { hotel: HOTEL, cursor: '40' });
    expect(await g.balance()).toBe(before - 3);
  });
});
