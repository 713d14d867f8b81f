/**
 * tripadvisor, against documented-shape doubles only: no Content API answer is recorded anywhere this project may
 * use. Answers are written from the API's documentation (test/fixtures/documented/tripadvisor, named so). Also: the
 * key (required, never echoed), errors, drift, test mode and one gateway round over HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { langOf } from '../../src/sources/tripadvisor/client.js';
import { locationIdOf } from '../../src/sources/tripadvisor/refs.js';
import { failure } from '../helpers/failure.js';
import { startReplay, type Replay } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';
import { API_KEY, SETTINGS, TRIPADVISOR_HOSTS, tripadvisorReplay } from './tripadvisor-doubles.js';

describe('tripadvisor ids and languages', () => {
  it('a location id, or an address carrying -d<id>-; anything else a 400 naming place', async () => {
    expect(locationIdOf('1234567')).toBe('1234567');
    expect(locationIdOf('https://www.tripadvisor.co.uk/Hotel_Review-g190327-d264936-Reviews-1926_Le_Soleil_Hotel_Spa-Sliema_Island_of_Malta.html')).toBe('264936');
    for (const bad of ['hotel', 'https://evil.example/Hotel_Review-g1-d2-Reviews.html', 'https://www.tripadvisor.com/Tourism-g190327-Valletta-Vacations.html']) {
      const err = await failure(() => locationIdOf(bad));
      expect([err.code, err.message.startsWith('place: ')]).toEqual(['invalidRequest', true]);
    }
    expect([langOf('EN'), langOf('pt-br')]).toEqual(['en', 'pt_BR']);
  });
});

describe('tripadvisor live path against the documented-shape doubles', () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(tripadvisorReplay());
    live = liveContext('tripadvisor', replay, SETTINGS, TRIPADVISOR_HOSTS);
  });
  afterAll(async () => {
    await live?.close();
    await replay?.close();
  });
  beforeEach(() => {
    replay.seen.length = 0;
  });

  it('search: the key and the query, places with their location id and address; limit cuts', async () => {
    const { data } = await runLive('tripadvisor.search', { query: 'Example Harbour', limit: 2 }, live.ctx);
    expect(Object.fromEntries(replay.seen[0].query)).toEqual({ key: API_KEY, searchQuery: 'Example Harbour', language: 'en' });
    expect(data.places).toEqual([
      { type: 'place', id: '1234567', name: 'Example Harbour Hotel', address: { full: '12 Example Street, Valletta VLT 1000, Malta', street: '12 Example Street', city: 'Valletta', state: 'Island of Malta', postalCode: 'VLT 1000', country: 'Malta' } },
      { type: 'place', id: '1234568', name: 'Example Harbour Bistro', address: expect.any(Object) },
    ]);
    await runLive('tripadvisor.search', { query: 'Example Harbour', category: 'hotels' }, live.ctx);
    expect(replay.seen[1].query.get('category')).toBe('hotels');
  });

  it('place: details and photos, numbers read from the API\'s strings, largest photo sizes', async () => {
    const { data } = await runLive('tripadvisor.place', { place: 'https://www.tripadvisor.com/Hotel_Review-g190327-d1234567-Reviews-Example_Harbour_Hotel.html', currency: 'eur' }, live.ctx);
    expect(replay.seen.find((s) => s.path.endsWith('/details'))!.query.get('currency')).toBe('EUR');
    expect(data.place).toMatchObject({
      type: 'place', id: '1234567', name: 'Example Harbour Hotel', kind: 'Hotel', geo: { latitude: 35.8997, longitude: 14.5147 },
      rating: { value: 4.5, max: 5, count: 1215 }, ranking: '#3 of 41 hotels in Valletta', subratings: [{ name: 'Location', value: 5 }, { name: 'Sleep Quality', value: 4.5 }],
      categories: ['Hotel', 'Boutique'], awards: ['Travelers Choice 2026'], photos: 432, priceLevel: '$$$',
    });
    expect(data.place.images[0]).toEqual({ url: 'https://media-cdn.tripadvisor.com/media/photo-o/0e/00/00/01/example-1.jpg', width: 2000, height: 1500, caption: 'Rooftop terrace' });
  });

  it('reviews: 5 a page, the offset as cursor; a short page ends the list', async () => {
    const first = await runLive('tripadvisor.reviews', { place: '1234567' }, live.ctx);
    expect(replay.seen[0].query.get('limit')).toBe('5');
    expect(first.data.cursor).toBe('5');
    expect(first.data.reviews[0]).toMatchObject({ id: '900000001', rating: 5, ratingMax: 5, tripType: 'Couples', travelledAt: '2026-09', response: { text: 'Thank you for staying with us.' } });
    const next = await runLive('tripadvisor.reviews', { place: '1234567', cursor: '5' }, live.ctx);
    expect(next.data.reviews.map((r: any) => r.id)).toEqual(['900000006']);
    expect(next.data.cursor).toBeUndefined();
  });

  it.each([
    ['no key', 'tripadvisor.search', { query: 'Example Harbour' }, {}, 'sourceUnavailable'],
    ['a refused key', 'tripadvisor.place', { place: '1234567' }, { API_KEY: 'revoked' }, 'sourceUnavailable'],
    ['throttling', 'tripadvisor.search', { query: 'throttled' }, SETTINGS, 'sourceRefused'],
    ['an unknown place', 'tripadvisor.place', { place: '9999999' }, SETTINGS, 'notFound'],
  ])('%s → %s', async (_what, id, body, settings, code) => {
    const ctx = liveContext('tripadvisor', replay, settings as Record<string, string>, TRIPADVISOR_HOSTS);
    try {
      const err = await failure(runLive(id, body, ctx.ctx));
      expect(err.code).toBe(code);
      expect(err.message).not.toContain(API_KEY);
      if (code === 'sourceUnavailable') expect(err.message).toContain('QUARRY_TRIPADVISOR_API_KEY');
    } finally {
      await ctx.close();
    }
  });

  it('drift: details without web_url, reviews without a data list', async () => {
    replay.mutate = (_name, body) => body.replace('"web_url"', '"link"').replace('"data"', '"items"');
    try {
      expect((await failure(runLive('tripadvisor.place', { place: '1234567' }, live.ctx))).code).toBe('sourceChanged');
      expect((await failure(runLive('tripadvisor.reviews', { place: '1234567' }, live.ctx))).code).toBe('sourceChanged');
    } finally {
      replay.mutate = undefined;
    }
  });
});

describe('tripadvisor test mode (committed samples, from documented-shape doubles)', () => {
  it('reviews walk two pages; search and place answer theirs', async () => {
    const first = await runSample('tripadvisor.reviews', { place: '1234567' });
    expect((await runSample('tripadvisor.reviews', { place: '1234567', cursor: first.data.cursor })).data.reviews).toHaveLength(1);
    expect((await runSample('tripadvisor.search', { query: 'Example Harbour' })).data.places).toHaveLength(3);
    expect((await runSample('tripadvisor.place', { place: '1234567' })).data.place.name).toBe('Example Harbour Hotel');
  });
});

describe('tripadvisor through the gateway', () => {
  const g = useSourceGateway(() => ({ replay: tripadvisorReplay(), hosts: TRIPADVISOR_HOSTS, env: { QUARRY_TRIPADVISOR_API_KEY: API_KEY } }));

  it('live: 1 credit a call, reviews paged by cursor; test mode free; errors unbilled', async () => {
    const before = await g.balance();
    const place = await g.post('/v1/tripadvisor/place', { place: '1234567' });
    expect([place.status, place.json.creditsUsed]).toEqual([200, 1]);
    const reviews = await g.post('/v1/tripadvisor/reviews', { place: '1234567' });
    const next = await g.post('/v1/tripadvisor/reviews', { place: '1234567', cursor: reviews.json.data.cursor });
    expect(next.json.data.reviews).toHaveLength(1);
    expect(await g.balance()).toBe(before - 3);

    await g.expectTestMode(async () => {
      const sample = await g.post('/v1/tripadvisor/search', { query: 'Example Harbour' }, 'test');
      expect([sample.status, sample.json.data.places.length]).toEqual([200, 3]);
    });

    await g.expectFailure('/v1/tripadvisor/place', { place: '9999999' }, { status: 404, code: 'notFound' });
    await g.expectRefused('/v1/tripadvisor/search', { query: 'throttled' });
    await g.expectDrift('/v1/tripadvisor/place', { place: '1234567', maxAge: 0 }, (_name, body) => body.replace('"web_url"', '"link"'));
    expect(await g.balance()).toBe(before - 3);
  });
});
