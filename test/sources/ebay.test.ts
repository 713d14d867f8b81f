/**
 * ebay: search on the recorded ebay.de results page (../shared/upstream/ebay, read here); sold listings, eBay's 2025
 * result cards, a listing page, the bot page and the Browse API on answers written from eBay's markup and developer
 * documentation (test/fixtures/documented/ebay/), named as such since none of them is recorded.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APP, EBAY_HOSTS, EBAY_REPLAY, EBAY_ROUTES, EBAY_SEARCH_FILE } from '../../scripts/samples/ebay.js';
import { forgetTokens } from '../../src/sources/ebay/client.js';
import { itemRefOf } from '../../src/sources/ebay/sites.js';
import { failure } from '../helpers/failure.js';
import { haveRecordings, skipReason, startReplay, type Replay } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';

const ids = (list: { id: string }[]) => list.map((x) => x.id);

describe('ebay item references', () => {
  it('item numbers and /itm/ addresses (their site with them); the bad field named', async () => {
    expect(itemRefOf('144278067683')).toEqual({ id: '144278067683' });
    const ref = itemRefOf('https://www.ebay.de/itm/3x-Ladekabel/144278067683?hash=x');
    expect([ref.id, ref.site?.host, ref.site?.currency]).toEqual(['144278067683', 'www.ebay.de', 'EUR']);
    expect(itemRefOf('https://ebay.co.uk/itm/144278067683').site?.country).toBe('gb');
    expect((await failure(() => itemRefOf('https://www.example.com/itm/144278067683'))).message).toMatch(/^item: /);
  });
});

describe.skipIf(!haveRecordings('ebay'))(`ebay against the recorded results page and documented answers${skipReason('ebay')}`, () => {
  let replay: Replay;
  let live: LiveContext;
  let api: LiveContext;
  let refused: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(EBAY_REPLAY);
    live = liveContext('ebay', replay, {}, EBAY_HOSTS);
    api = liveContext('ebay', replay, APP, EBAY_HOSTS);
    refused = liveContext('ebay', replay, { CLIENT_ID: 'refused', CLIENT_SECRET: 'x' }, EBAY_HOSTS);
  });
  beforeEach(() => forgetTokens());
  afterAll(async () => {
    await Promise.all([live.close(), api.close(), refused.close()]);
    await replay.close();
  });

  it('search (search-page.de.apple): the 64 listings eBay shows, the placeholder card skipped, euros, bids, sold counts, shipping', async () => {
    const out = await runLive('ebay.search', { query: 'apple', country: 'de', limit: 64 }, live.ctx);
    expect(replay.served().at(-1)).toBe(EBAY_SEARCH_FILE);
    expect(out.data.via).toBe('page');
    expect(out.data.items).toHaveLength(64);
    expect(out.data.items[0]).toEqual({
      type: 'product', id: '144278067683', url: 'https://www.ebay.de/itm/144278067683',
      title: '3x 2m Ladekabel NYLON für Original iPhone 6 7 8 11 12 X XS XR Pro Max USB Apple',
      price: { amount: 10.79, currency: 'EUR' }, listPrice: { amount: 11.99, currency: 'EUR' }, condition: 'Brandneu',
      images: [{ url: 'https://i.ebayimg.com/thumbs/images/g/MMcAAOSwYLBjfqw~/s-l225.webp', alt: expect.any(String) }],
      shipping: { amount: 0, currency: 'EUR' }, position: 1,
    });
    const byId = Object.fromEntries(out.data.items.map((i: { id: string }) => [i.id, i]));
    expect(byId['125633387556']).toMatchObject({ condition: 'Gebraucht', bids: 0, shipping: { amount: 6.99, currency: 'EUR' } });
    expect(byId['125633387556'].title).toMatch(/^Apple MacBook Pro 15" A1398/);
    expect(byId['124924977463'].sold).toBe(6698);
    expect(byId['373649272098'].priceRange).toEqual({ currency: 'EUR', min: 234.95, max: 269.95 });
    // The page links a next page: the cursor asks it.
    expect(out.data.cursor).toBe('2');
  });

  it('a limit beyond the page asks eBay’s next page (_pgn=2; unrecorded, so the double’s 404 fails the call)', async () => {
    expect((await failure(runLive('ebay.search', { query: 'apple', country: 'de', limit: 120 }, live.ctx))).code).toBe('sourceUnavailable');
    expect(replay.seen.at(-1)!.query.get('_pgn')).toBe('2');
  });

  it('search paging and the filters eBay reads (_sop, LH_ItemCondition, LH_Auction, _udlo/_udhi, _ipg)', async () => {
    const first = await runLive('ebay.search', { query: 'apple', country: 'de', limit: 20, condition: 'refurbished', buyingFormat: 'auction', sort: 'priceLow', priceMin: 10, priceMax: 500 }, live.ctx);
    expect(Object.fromEntries(replay.seen.at(-1)!.query)).toEqual({ _nkw: 'apple', _ipg: '60', _sop: '15', LH_ItemCondition: '2000|2010|2020|2030|2500', LH_Auction: '1', _udlo: '10', _udhi: '500' });
    expect(first.data.cursor).toBe('20~');
    const second = await runLive('ebay.search', { query: 'apple', country: 'de', limit: 20, cursor: '20~' }, live.ctx);
    expect(ids(second.data.items)).toEqual(ids((await runLive('ebay.search', { query: 'apple', country: 'de', limit: 60 }, live.ctx)).data.items.slice(20, 40)));
  });

  it('sold listings (documented s-item page): LH_Sold and LH_Complete asked, the sale’s day and final price; no next when eBay disables it', async () => {
    const out = await runLive('ebay.search', { query: 'apple iphone 12', sold: true }, api.ctx);
    expect(out.data.via).toBe('page');
    expect(replay.seen.at(-1)!.query.get('LH_Complete')).toBe('1');
    expect(out.data.items.map((i: { id: string; soldAt: string; price: { amount: number }; shipping: { amount: number } }) => [i.id, i.soldAt, i.price.amount, i.shipping.amount])).toEqual([
      ['296000000001', '2025-10-23', 189.99, 5.99],
      ['296000000002', '2025-10-21', 210, 0],
    ]);
    expect(out.data.cursor).toBeUndefined();
  });

  it('eBay’s 2025 result cards (documented s-card page): title without the screen-reader suffix, bids, delivery, a price range', async () => {
    const out = await runLive('ebay.search', { query: 'mechanical keyboard', limit: 3 }, live.ctx);
    expect(out.data.items.map((i: { id: string; bids?: number; shipping?: { amount: number }; condition: string }) => [i.id, i.bids, i.shipping?.amount, i.condition])).toEqual([
      ['306000000001', undefined, 6.5, 'Brand New'],
      ['306000000002', 3, 0, 'Pre-Owned'],
      ['306000000003', undefined, undefined, 'New (Other)'],
    ]);
    expect(out.data.items[0].title).toBe('Example Mechanical Keyboard 87 Keys Brown Switches');
    expect(out.data.items[2]).toMatchObject({ price: { amount: 20, currency: 'USD' }, priceRange: { currency: 'USD', min: 20, max: 35 } });
  });

  it('a listing page (documented): its schema.org Product, seller card and item specifics; a missing listing is notFound', async () => {
    const out = await runLive('ebay.item', { item: 'https://www.ebay.de/itm/144278067683' }, live.ctx);
    expect(out.data).toMatchObject({
      via: 'page',
      item: {
        id: '144278067683', url: 'https://www.ebay.de/itm/144278067683', price: { amount: 10.79, currency: 'EUR' }, shipping: { amount: 0, currency: 'EUR' },
        condition: 'New', availability: 'InStock', brand: 'Markenlos', seller: { username: 'shopbrothers', url: 'https://www.ebay.de/usr/shopbrothers' },
      },
    });
    expect(out.data.item.attributes).toContainEqual({ name: 'Kabellänge', value: '2 m' });
    expect((await failure(runLive('ebay.item', { item: '100000000000' }, live.ctx))).code).toBe('notFound');
  });

  it('"Pardon Our Interruption" is sourceRefused (search and listing)', async () => {
    expect((await failure(runLive('ebay.search', { query: 'pardon' }, live.ctx))).code).toBe('sourceRefused');
    expect((await failure(runLive('ebay.item', { item: '100000000001' }, live.ctx))).code).toBe('sourceRefused');
  });

  it('with the operator’s app: the Browse API (token once, marketplace header, filters, offset pages, auction bids)', async () => {
    const first = await runLive('ebay.search', { query: 'iphone', condition: 'used', buyingFormat: 'buyItNow', sort: 'priceHigh', priceMin: 100, limit: 2 }, api.ctx);
    const asked = replay.seen.at(-1)!;
    expect([asked.headers.authorization, asked.headers['x-ebay-c-marketplace-id']]).toEqual(['Bearer v^1.1#i^1#example-application-token', 'EBAY_US']);
    expect(Object.fromEntries(asked.query)).toEqual({ q: 'iphone', limit: '60', offset: '0', sort: '-price', filter: 'price:[100..],priceCurrency:USD,conditionIds:{3000},buyingOptions:{FIXED_PRICE}' });
    expect(first.data.via).toBe('browseApi');
    expect(first.data.items[1]).toMatchObject({ id: '335000000002', price: { amount: 151, currency: 'USD' }, bids: 7, endsAt: '2026-11-30T18:00:00.000Z', buyingOptions: ['auction'] });
    expect(first.data.items[0]).toMatchObject({ url: 'https://www.ebay.com/itm/335000000001', shipping: { amount: 0, currency: 'USD' }, seller: { username: 'example_seller' }, buyingOptions: ['buyItNow', 'bestOffer'], itemLocation: { postalCode: '100**', country: 'US' } });
    expect(first.data.cursor).toBe('2');
    const second = await runLive('ebay.search', { query: 'iphone', limit: 2, cursor: '2' }, api.ctx);
    expect(replay.seen.filter((s) => s.path === '/identity/v1/oauth2/token')).toHaveLength(1); // one token for both pages
    expect([ids(second.data.items), second.data.cursor]).toEqual([['335000000003'], undefined]);
    const none = await runLive('ebay.search', { query: 'nothing' }, api.ctx);
    expect([none.data.items, none.free]).toEqual([[], true]);
  });

  it('with the operator’s app: a listing from get_item_by_legacy_id, an unknown one notFound; refused keys sourceUnavailable naming the settings', async () => {
    const out = await runLive('ebay.item', { item: '335000000001' }, api.ctx);
    expect(out.data).toMatchObject({
      via: 'browseApi',
      item: {
        id: '335000000001', brand: 'Apple', description: 'Fully working, light scratches on the frame.', listPrice: { amount: 399.99, currency: 'USD' },
        category: 'Cell Phones & Accessories|Cell Phones & Smartphones', sold: 12, availability: 'IN_STOCK',
        itemLocation: { city: 'New York', state: 'New York', postalCode: '100**', country: 'US' },
      },
    });
    expect(out.data.item.images).toHaveLength(2);
    expect((await failure(runLive('ebay.item', { item: '999999999999' }, api.ctx))).code).toBe('notFound');
    const e = await failure(runLive('ebay.search', { query: 'iphone' }, refused.ctx));
    expect([e.code, e.retryable]).toEqual(['sourceUnavailable', false]);
    expect(e.message).toContain('QUARRY_EBAY_CLIENT_ID');
  });
});

describe('ebay test mode', () => {
  it('answers the examples from the samples, paging through the recorded page', async () => {
    const s = await runSample('ebay.search', { query: 'apple', country: 'de', limit: 20 });
    expect([s.data.items.length, s.data.cursor]).toEqual([20, '20~']);
    expect((await runSample('ebay.search', { query: 'apple', cursor: '20~' })).data.items).toHaveLength(20);
    expect((await runSample('ebay.item', { item: '1' })).data.item.id).toBe('144278067683');
  });
});

describe.skipIf(!haveRecordings('ebay'))(`ebay through the gateway${skipReason('ebay')}`, () => {
  const g = useSourceGateway(() => ({ replay: EBAY_REPLAY, hosts: EBAY_HOSTS }));

  it('live: search per 20 listings (60 cost 3), paged; a listing 1 credit', async () => {
    const before = await g.balance();
    const page1 = await g.post('/v1/ebay/search', { query: 'apple', country: 'de', limit: 60 });
    expect([page1.status, page1.json.data.items.length, page1.json.creditsUsed, page1.json.data.cursor]).toEqual([200, 60, 3, '60~']);
    const page2 = await g.post('/v1/ebay/search', { query: 'apple', country: 'de', limit: 4, cursor: '60~' });
    expect([page2.json.data.items.length, page2.json.creditsUsed]).toEqual([4, 1]);
    expect((await g.post('/v1/ebay/item', { item: '144278067683', country: 'de' })).json.creditsUsed).toBe(1);
    expect(await g.balance()).toBe(before - 5);
  });

  it('test mode: the samples, never upstream, no credits spent', async () => {
    await g.expectTestMode(async () => {
      const r = await g.post('/v1/ebay/search', { query: 'apple', country: 'de', limit: 20 }, 'test');
      expect([r.status, r.json.data.items.length, r.json.creditsUsed]).toEqual([200, 20, 1]);
    });
  });

  it('drift (result cards that lost their titles) → 502 sourceChanged; the bot page → 502 sourceRefused; both unbilled', async () => {
    await g.expectDrift('/v1/ebay/search', { query: 'apple', country: 'de', maxAge: 0 }, (name, body) => (name === EBAY_SEARCH_FILE ? body.replaceAll('s-item__title', 's-item__name') : body));
    await g.expectRefused('/v1/ebay/search', { query: 'pardon' });
  });
});
