/**
 * etsy: a listing from its recorded public page (../shared/upstream/etsy, read here), keyless; search, listings and
 * shops on Etsy's Open API v3 with a key, on answers written from Etsy's API reference (test/fixtures/documented/etsy/),
 * named as such since no API answer is recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ETSY_HOSTS, ETSY_LISTING_FILE, ETSY_REPLAY, ETSY_ROUTES, KEY } from '../../scripts/samples/etsy.js';
import { unescape } from '../../src/sources/etsy/normalise.js';
import { failure } from '../helpers/failure.js';
import { haveRecordings, skipReason, startReplay, type Replay, type ReplayRoute } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';

const EXTRA: ReplayRoute[] = [
  { host: 'www.etsy.com', path: '/listing/11111111', status: 403, headers: { 'content-type': 'text/html' }, text: '<html><head><title>etsy.com</title></head><body><iframe src="https://geo.captcha-delivery.com/captcha/?initialCid=example"></iframe></body></html>' },
  { host: 'www.etsy.com', path: '/listing/22222222', status: 404, headers: { 'content-type': 'text/html' }, text: '<html><body>Uh oh! Sorry, the page you were looking for was not found.</body></html>' },
];
const ids = (list: { id: string }[]) => list.map((x) => x.id);

describe('etsy texts', () => {
  it('Etsy’s escaped texts are unescaped, line breaks kept', () => {
    expect(unescape('A &quot;pillow&quot;\nfor &amp; you')).toBe('A "pillow"\nfor & you');
    expect(unescape('3 < 4 &amp; 5')).toBe('3 < 4 & 5');
    expect(unescape('plain')).toBe('plain');
  });
});

describe.skipIf(!haveRecordings('etsy'))(`etsy against the recorded listing page and documented Open API answers${skipReason('etsy')}`, () => {
  let replay: Replay;
  let keyless: LiveContext;
  let keyed: LiveContext;
  let refused: LiveContext;
  beforeAll(async () => {
    replay = await startReplay({ ...ETSY_REPLAY, routes: [...EXTRA, ...ETSY_ROUTES] });
    keyless = liveContext('etsy', replay, {}, ETSY_HOSTS);
    keyed = liveContext('etsy', replay, KEY, ETSY_HOSTS);
    refused = liveContext('etsy', replay, { API_KEY: 'refused-key' }, ETSY_HOSTS);
  });
  afterAll(async () => {
    await Promise.all([keyless.close(), keyed.close(), refused.close()]);
    await replay.close();
  });

  it('a listing keyless (listing-page.87673424): its schema.org Product, the price range of its variations, rating, shop', async () => {
    const out = await runLive('etsy.listing', { listing: 'https://www.etsy.com/in-en/listing/87673424/personalized-word-pillow-case-letter' }, keyless.ctx);
    expect(replay.served().at(-1)).toBe(ETSY_LISTING_FILE);
    expect(out.data.via).toBe('page');
    expect(out.data.listing).toMatchObject({
      type: 'product', id: '87673424', url: 'https://www.etsy.com/listing/87673424',
      title: 'Personalized Word Pillow Case | Letter, Symbol, Text Cushion Cover | 18x18 inch / 45x45 cm Decorative Pillow | Modern Home Decor',
      price: { amount: 52, currency: 'CAD' }, priceRange: { currency: 'CAD', min: 52, max: 81 }, rating: { value: 4.956, max: 5, count: 1238 },
      seller: { username: 'RocailStudio', url: 'https://www.etsy.com/shop/RocailStudio' }, availability: 'InStock',
      category: 'Home & Living › Home Décor › Decorative Cushions', images: [{ url: 'https://i.etsystatic.com/6088772/r/il/719b4b/1631899982/il_570xN.1631899982_2iay.jpg' }],
    });
    expect(out.data.listing.description).toContain('18" x 18" (45 x 45 cm)');
  });

  it('keyless: DataDome is sourceRefused, a missing listing notFound; search and shops need the key, naming QUARRY_ETSY_API_KEY', async () => {
    expect((await failure(runLive('etsy.listing', { listing: '11111111' }, keyless.ctx))).code).toBe('sourceRefused');
    expect((await failure(runLive('etsy.listing', { listing: '22222222' }, keyless.ctx))).code).toBe('notFound');
    for (const [id, body] of [['etsy.search', { query: 'pillow' }], ['etsy.shop', { shop: 'RocailStudio' }]] as const) {
      const e = await failure(runLive(id, body, keyless.ctx));
      expect([e.code, e.retryable, e.message.includes('QUARRY_ETSY_API_KEY')]).toEqual(['sourceUnavailable', false, true]);
    }
  });

  it('search with the key (documented): Etsy’s filters, prices from minor units, images joined in one batch request, offset cursor', async () => {
    const first = await runLive('etsy.search', { query: 'personalized pillow', limit: 2, sort: 'priceLow', priceMin: 10, priceMax: 80, location: 'Canada' }, keyed.ctx);
    const asked = replay.seen.at(-2)!;
    expect(asked.headers['x-api-key']).toBe(KEY.API_KEY);
    expect(Object.fromEntries(asked.query)).toEqual({ keywords: 'personalized pillow', limit: '2', offset: '0', sort_on: 'price', sort_order: 'asc', min_price: '10', max_price: '80', shop_location: 'Canada' });
    expect(Object.fromEntries(replay.seen.at(-1)!.query)).toEqual({ listing_ids: '1700000001,1700000002', includes: 'Images' });
    expect(first.data.listings[0]).toMatchObject({
      id: '1700000001', url: 'https://www.etsy.com/listing/1700000001/example-listing', price: { amount: 42, currency: 'USD' },
      seller: { id: '6088772' }, tags: ['pillow', 'personalized', 'letter'], favorites: 311, views: 5120, createdAt: '2025-10-09T08:53:20.000Z',
      description: 'Made to order in our studio.\nPlease allow 2–4 business days. Colours may vary "slightly".',
    });
    expect(first.data.listings[0].images.map((i: { url: string }) => i.url)).toEqual([expect.stringContaining('/1/'), expect.stringContaining('/2/')]);
    expect([first.data.total, first.data.cursor]).toEqual([3, '2']);
    const second = await runLive('etsy.search', { query: 'personalized pillow', limit: 2, cursor: '2' }, keyed.ctx);
    expect([ids(second.data.listings), second.data.cursor, second.data.listings[0].position]).toEqual([['1700000003'], undefined, 3]);
    const none = await runLive('etsy.search', { query: 'nothing at all' }, keyed.ctx);
    expect([none.data.listings, none.free]).toEqual([[], true]);
    const e = await failure(runLive('etsy.search', { query: 'pillow' }, refused.ctx));
    expect([e.code, e.retryable]).toEqual(['sourceUnavailable', false]);
  });

  it('a listing with the key (documented): the Open API’s listing with images and shop; an unknown one notFound', async () => {
    const out = await runLive('etsy.listing', { listing: '1700000001' }, keyed.ctx);
    expect(replay.seen.at(-1)!.query.get('includes')).toBe('Images,Shop');
    expect(out.data).toMatchObject({ via: 'openApi', listing: { id: '1700000001', seller: { id: '6088772', username: 'RocailStudio', url: 'https://www.etsy.com/shop/RocailStudio' }, quantity: 12 } });
    expect((await failure(runLive('etsy.listing', { listing: '999999' }, keyed.ctx))).code).toBe('notFound');
  });

  it('a shop by id and by name (the exact name among Etsy’s loose matches), or by address; none of that name is notFound', async () => {
    const byId = await runLive('etsy.shop', { shop: '6088772' }, keyed.ctx);
    expect(byId.data.shop).toEqual({
      type: 'shop', id: '6088772', url: 'https://www.etsy.com/shop/RocailStudio', name: 'RocailStudio', username: 'rocail',
      title: 'Modern pillows & home decor, made to order', announcement: 'Welcome!\nEvery cover is made to order.',
      avatar: expect.any(String), banner: expect.any(String), createdAt: '2010-07-24T19:33:20.000Z', location: 'CA', followers: 4821,
      rating: { value: 4.9, max: 5, count: 1238 }, sales: 15230, listings: 214, currency: 'CAD', isVacation: false,
    });
    expect((await runLive('etsy.shop', { shop: 'https://www.etsy.com/shop/RocailStudio?ref=x' }, keyed.ctx)).data.shop.id).toBe('6088772');
    expect((await failure(runLive('etsy.shop', { shop: 'Nobody' }, keyed.ctx))).code).toBe('notFound');
    expect((await failure(runLive('etsy.shop', { shop: 'not a shop!' }, keyed.ctx))).message).toMatch(/^shop: /);
  });
});

describe('etsy test mode', () => {
  it('answers every example from the samples', async () => {
    expect((await runSample('etsy.listing', { listing: '1' })).data.listing.id).toBe('87673424');
    const s = await runSample('etsy.search', { query: 'pillow' });
    expect([s.data.listings.length, s.data.cursor]).toEqual([2, '2']);
    expect((await runSample('etsy.search', { query: 'pillow', cursor: '2' })).data.listings).toHaveLength(1);
    expect((await runSample('etsy.shop', { shop: 'x' })).data.shop.name).toBe('RocailStudio');
  });
});

describe.skipIf(!haveRecordings('etsy'))(`etsy through the gateway${skipReason('etsy')}`, () => {
  const g = useSourceGateway(() => ({ replay: { ...ETSY_REPLAY, routes: [...EXTRA, ...ETSY_ROUTES] }, hosts: ETSY_HOSTS }));
  /** A second gateway, on the same double, with the operator's Etsy key. */
  const withKey = useSourceGateway(() => ({ replay: g.replay, hosts: ETSY_HOSTS, env: { QUARRY_ETSY_API_KEY: KEY.API_KEY } }));

  it('live: a listing from its page 1 credit; search without the operator’s key 503, unbilled; with it, search and shops billed', async () => {
    const before = await g.balance();
    expect((await g.post('/v1/etsy/listing', { listing: '87673424' })).json.creditsUsed).toBe(1);
    await g.expectFailure('/v1/etsy/search', { query: 'personalized pillow' }, { status: 503, code: 'sourceUnavailable' });
    expect(await g.balance()).toBe(before - 1);
    const page1 = await withKey.post('/v1/etsy/search', { query: 'personalized pillow', limit: 2 });
    const page2 = await withKey.post('/v1/etsy/search', { query: 'personalized pillow', limit: 2, cursor: page1.json.data.cursor });
    expect([page1.json.data.listings.length, page1.json.creditsUsed, page2.json.data.listings.length]).toEqual([2, 1, 1]);
    expect((await withKey.post('/v1/etsy/shop', { shop: 'RocailStudio' })).json.creditsUsed).toBe(1);
  });

  it('test mode: the samples, never upstream, no credits spent (also without the operator key)', async () => {
    await g.expectTestMode(async () => {
      const r = await g.post('/v1/etsy/shop', { shop: 'RocailStudio' }, 'test');
      expect([r.status, r.json.data.shop.name]).toEqual([200, 'RocailStudio']);
    });
  });

  it('drift (a listing page without its Product) → 502 sourceChanged; DataDome → 502 sourceRefused; both unbilled', async () => {
    await g.expectDrift('/v1/etsy/listing', { listing: '87673424', maxAge: 0 }, (name, body) => (name === ETSY_LISTING_FILE ? body.replace('"@type": "Product"', '"@type": "Thing"').replace('"@type":"Product"', '"@type":"Thing"') : body));
    await g.expectRefused('/v1/etsy/listing', { listing: '11111111' });
  });
});
