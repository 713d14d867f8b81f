/**
 * realtor, against documented-shape doubles only: no Realtor.com answer is recorded anywhere this project may use.
 * The suggester and GraphQL answers are written from the interface HomeHarvest uses (test/fixtures/documented/realtor,
 * named so). Also: the queries sent, the offset cursor, walls, drift, test mode and one gateway round over HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { searchQuery } from '../../src/sources/realtor/client.js';
import { propertyIdOf } from '../../src/sources/realtor/refs.js';
import { failure } from '../helpers/failure.js';
import { startReplay, type Replay } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';
import { REALTOR_HOSTS, realtorReplay } from './realtor-doubles.js';

describe('realtor queries and refs', () => {
  it('a city is asked by city and state, newest first; sold by sold date; pending as contingent or pending for sale', () => {
    const city = searchQuery({ area_type: 'city', city: 'Austin', state_code: 'TX' }, 'forSale');
    expect(city.variables).toEqual({ city: 'Austin', state_code: 'TX' });
    expect(city.query).toContain('status: for_sale');
    expect(city.query).toContain('sort: [{ field: list_date, direction: desc }]');
    expect(searchQuery({ area_type: 'postal_code', postal_code: '78704' }, 'sold').query).toContain('sort: [{ field: sold_date, direction: desc }]');
    expect(searchQuery({ area_type: 'county', county: 'Travis', state_code: 'TX' }, 'pending').query).toContain('or_filters: { contingent: true, pending: true }');
    expect(searchQuery({ area_type: 'address', mpr_id: '9876543210' }, 'forSale').variables).toEqual({ property_id: ['9876543210'] });
  });

  it('a property id, or the detail address ending in it; anything else a 400 naming property', async () => {
    expect(propertyIdOf('9876543210')).toBe('9876543210');
    expect(propertyIdOf('https://www.realtor.com/realestateandhomes-detail/880-Blue-Ridge-Ln_Alpine_UT_84004_M16220-21779')).toBe('1622021779');
    for (const bad of ['abc', 'https://www.zillow.com/homedetails/1_zpid/', 'https://www.realtor.com/realestateandhomes-search/Austin_TX']) {
      const err = await failure(() => propertyIdOf(bad));
      expect([err.code, err.message.startsWith('property: ')]).toEqual(['invalidRequest', true]);
    }
  });
});

describe('realtor live path against the documented-shape doubles', () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(realtorReplay());
    live = liveContext('realtor', replay, {}, REALTOR_HOSTS);
  });
  afterAll(async () => {
    await live?.close();
    await replay?.close();
  });
  beforeEach(() => {
    replay.seen.length = 0;
  });

  it('realtor.search resolves the place, asks home_search and answers the shared property record', async () => {
    const { data } = await runLive('realtor.search', { location: 'Austin, TX', limit: 3 }, live.ctx);
    expect(replay.seen[0]).toMatchObject({ host: 'parser-external.geo.moveaws.com', path: '/suggest' });
    expect(replay.seen[0].query.get('client_id')).toBe('for-sale');
    expect((replay.seen[1].body as any).variables).toEqual({ city: 'Austin', state_code: 'TX', offset: 0, limit: 3 });
    expect(data.total).toBe(5);
    expect(data.cursor).toBe('3');
    expect(data.properties.map((p: any) => [p.id, p.status])).toEqual([
      ['9876543210', 'forSale'],
      ['9876543211', 'forSale'],
      ['9876543212', 'pending'],
    ]);
    expect(data.properties[0]).toEqual({
      type: 'property',
      id: '9876543210',
      url: 'https://www.realtor.com/realestateandhomes-detail/101-Example-St_Austin_TX_78704_M98765-43210',
      description: 'Illustrative listing text for 101 Example St, not a listing.',
      status: 'forSale',
      homeType: 'singleFamily',
      price: { amount: 549000, currency: 'USD' },
      address: { full: '101 Example St, Austin, TX 78704', street: '101 Example St', city: 'Austin', state: 'TX', postalCode: '78704', country: 'US' },
      geo: { latitude: 30.2431, longitude: -97.7702 },
      beds: 3,
      baths: 2.5,
      bathsFull: 2,
      bathsHalf: 1,
      livingArea: { value: 1720, unit: 'sqft' },
      lotSize: { value: 6970, unit: 'sqft' },
      yearBuilt: 1998,
      stories: 1,
      garage: 2,
      listedAt: '2026-11-19',
      hoa: { amount: 35, currency: 'USD', period: 'month' },
      estimate: { amount: 541200, currency: 'USD' },
      images: [{ url: 'https://ap.rdcpix.com/example1l-m1s.jpg' }, { url: 'https://ap.rdcpix.com/example1l-m2s.jpg' }],
      agent: { name: 'Pat Example' },
      broker: 'Example Realty Group',
      mlsId: 'EX4001',
      county: 'Travis',
      neighborhoods: ['Example Heights'],
    });
    expect(data.properties[1].isNewConstruction).toBe(true);
    expect(data.properties[2]).toMatchObject({ soldAt: '2011-06-30', soldPrice: { amount: 210000, currency: 'USD' } });
  });

  it('the cursor is Realtor.com\'s offset: the next page starts there and the last one has none', async () => {
    const next = await runLive('realtor.search', { location: 'Austin, TX', limit: 3, cursor: '3' }, live.ctx);
    expect((replay.seen[1].body as any).variables.offset).toBe(3);
    expect(next.data.properties.map((p: any) => p.id)).toEqual(['9876543213', '9876543214']);
    expect(next.data.cursor).toBeUndefined();
  });

  it('bounds are applied to the answer; limit inside a page leaves the cursor on the first unread result', async () => {
    const cheap = await runLive('realtor.search', { location: 'Austin, TX', limit: 3, priceMax: 600000, bedsMin: 3 }, live.ctx);
    expect(cheap.data.properties.map((p: any) => p.id)).toEqual(['9876543210']);
    const cut = await runLive('realtor.search', { location: 'Austin, TX', limit: 2 }, live.ctx);
    expect(cut.data.cursor).toBe('2');
  });

  it('an address is the one home at it; realtor.property reads home() with taxes and estimates', async () => {
    const one = await runLive('realtor.search', { location: '101 Example St, Austin, TX 78704' }, live.ctx);
    expect(one.data.properties.map((p: any) => p.id)).toEqual(['9876543210']);
    const { data } = await runLive('realtor.property', { property: 'https://www.realtor.com/realestateandhomes-detail/101-Example-St_Austin_TX_78704_M98765-43210' }, live.ctx);
    expect(data.property).toMatchObject({
      id: '9876543210',
      estimate: { amount: 541200, currency: 'USD' },
      taxes: [
        { year: 2025, tax: { amount: 11214, currency: 'USD' }, assessedValue: { amount: 537000, currency: 'USD' }, landValue: { amount: 215000, currency: 'USD' }, buildingValue: { amount: 322000, currency: 'USD' } },
        { year: 2024, tax: { amount: 10520, currency: 'USD' }, assessedValue: { amount: 511000, currency: 'USD' }, landValue: { amount: 210000, currency: 'USD' }, buildingValue: { amount: 301000, currency: 'USD' } },
      ],
    });
  });

  it.each([
    ['realtor.search', { location: 'Nowhere' }, 'notFound'],
    ['realtor.search', { location: 'walled' }, 'sourceRefused'],
    ['realtor.search', { location: 'Austin, TX', cursor: 'x1' }, 'invalidRequest'],
    ['realtor.property', { property: '1111111111' }, 'notFound'],
    ['realtor.property', { property: '2222222222' }, 'sourceChanged'],
  ])('%s %j → %s', async (id, body, code) => {
    try {
      await runLive(id, body, live.ctx);
      throw new Error('expected a failure');
    } catch (e: any) {
      expect(e.code).toBe(code);
    }
  });

  it('drift: a result without its property id is sourceChanged', async () => {
    replay.mutate = (_name, body) => body.replaceAll('"property_id"', '"propertyId"');
    try {
      expect((await failure(runLive('realtor.search', { location: 'Austin, TX', limit: 3 }, live.ctx))).code).toBe('sourceChanged');
    } finally {
      replay.mutate = undefined;
    }
  });
});

describe('realtor test mode (committed samples, from documented-shape doubles)', () => {
  it('search walks its two pages by cursor; the property answers its sample', async () => {
    const first = await runSample('realtor.search', { location: 'Austin, TX', limit: 3 });
    expect(first.data.properties).toHaveLength(3);
    const second = await runSample('realtor.search', { location: 'Austin, TX', limit: 3, cursor: first.data.cursor });
    expect(second.data.properties).toHaveLength(2);
    expect(second.data.cursor).toBeUndefined();
    expect((await runSample('realtor.property', { property: '9876543210' })).data.property.taxes).toHaveLength(2);
  });
});

describe('realtor through the gateway', () => {
  const g = useSourceGateway(() => ({ replay: realtorReplay(), hosts: REALTOR_HOSTS }));

  it('live: a page costs 1 credit per 20 homes, the next page by cursor 1, a home 1; test mode is free and never upstream', async () => {
    const before = await g.balance();
    const r = await g.post('/v1/realtor/search', { location: 'Austin, TX', limit: 3 });
    expect([r.status, r.json.creditsUsed]).toEqual([200, 1]);
    const next = await g.post('/v1/realtor/search', { location: 'Austin, TX', limit: 3, cursor: r.json.data.cursor });
    expect(next.json.data.properties).toHaveLength(2);
    const home = await g.post('/v1/realtor/property', { property: '9876543210' });
    expect(home.status).toBe(200);
    expect(await g.balance()).toBe(before - 3);
    await g.expectTestMode(async () => {
      const sample = await g.post('/v1/realtor/search', { location: 'Austin, TX', status: 'forSale', limit: 20 }, 'test');
      expect([sample.status, sample.json.creditsUsed, sample.json.data.properties.length]).toEqual([200, 1, 3]);
    });
    expect(await g.balance()).toBe(before - 3);
  });

  it('a wall is 502 sourceRefused, drift 502 sourceChanged, both unbilled', async () => {
    await g.expectRefused('/v1/realtor/search', { location: 'walled' });
    await g.expectDrift('/v1/realtor/property', { property: '2222222222' });
    await g.expectDrift('/v1/realtor/search', { location: 'Austin, TX', limit: 3, maxAge: 0 }, (_name, body) => body.replaceAll('"status"', '"state"'));
  });
});
