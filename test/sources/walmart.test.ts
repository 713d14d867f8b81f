/**
 * walmart: the product from the recorded product page (../shared/upstream/walmart, read here, with the reviews it
 * embeds through the reviews reader); search, review pages and the "Robot or human?" wall on pages written from
 * Walmart's page state (test/fixtures/documented/walmart/), named as such since none of them is recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WALMART_PRODUCT_FILE, WALMART_REPLAY, WALMART_ROUTES } from '../../scripts/samples/walmart.js';
import { scriptJsonById } from '../../src/sources/kit/embedded.js';
import { itemIdOf } from '../../src/sources/walmart/client.js';
import { reviewsOf } from '../../src/sources/walmart/normalise.js';
import { failure } from '../helpers/failure.js';
import { haveRecordings, readRecording, skipReason, startReplay, type Replay, type ReplayRoute } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';

const W = 'www.walmart.com';
const EXTRA: ReplayRoute[] = [
  { host: W, path: '/ip/99999999', status: 404, text: '<!DOCTYPE html><html><head><title>Walmart.com</title></head><body>This page could not be found.</body></html>', headers: { 'content-type': 'text/html' } },
  { host: W, path: '/ip/88888888', status: 307, headers: { location: 'https://www.walmart.com/blocked?url=L2lwLzg4ODg4ODg4' }, text: '' },
  { host: W, path: '/blocked', text: '<!DOCTYPE html><html><head><title>Robot or human?</title></head><body><h1>Robot or human?</h1><p>Activate and hold the button to confirm that you’re human.</p></body></html>', headers: { 'content-type': 'text/html' } },
];
const ids = (list: { id: string }[]) => list.map((x) => x.id);

describe('walmart item references', () => {
  it('item ids and walmart.com addresses; the bad field named', async () => {
    expect(itemIdOf('10450114')).toBe('10450114');
    expect(itemIdOf('https://www.walmart.com/ip/Great-Value-Whole-Vitamin-D-Milk/10450114?classType=REGULAR')).toBe('10450114');
    expect(itemIdOf('https://www.walmart.com/reviews/product/10450114')).toBe('10450114');
    expect((await failure(() => itemIdOf('https://www.walmart.ca/en/ip/x/10450114'))).message).toMatch(/^product: /);
  });
});

describe.skipIf(!haveRecordings('walmart'))(`walmart against the recorded product page and documented pages${skipReason('walmart')}`, () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay({ ...WALMART_REPLAY, routes: [...EXTRA, ...WALMART_ROUTES] });
    live = liveContext('walmart', replay, {}, [W]);
  });
  afterAll(async () => {
    await live.close();
    await replay.close();
  });

  it('the product (product-page.10450114): price, rating, seller, availability, category, bullets, specifications', async () => {
    const out = await runLive('walmart.product', { product: 'https://www.walmart.com/ip/Great-Value-Whole-Vitamin-D-Milk/10450114' }, live.ctx);
    expect(replay.served().at(-1)).toBe(WALMART_PRODUCT_FILE);
    expect(out.data.product).toMatchObject({
      type: 'product', id: '10450114', url: 'https://www.walmart.com/ip/Great-Value-Whole-Vitamin-D-Milk-Gallon-Plastic-Jug-128-Fl-Oz/10450114',
      title: 'Great Value Whole Vitamin D Milk, Gallon', brand: 'Great Value', price: { amount: 2.42, currency: 'USD' },
      rating: { value: 4.6, max: 5, count: 349887 }, seller: { id: 'F55CDC31AB754BB68FE0B39041159D63', name: 'Walmart.com' },
      condition: 'New', availability: 'In stock', category: 'Food › Dairy & Eggs › Milk › Dairy Milk › Whole Milk',
    });
    expect(out.data.product.features).toContain('Fortified with vitamin D');
    expect(out.data.product.attributes).toContainEqual({ name: 'Milk type', value: 'Cow Milk' });
    expect(out.data.product.images.length).toBeGreaterThan(3);
    expect(out.data.product.description).toMatch(/^Great Value Whole Vitamin D Milk brings rich, creamy flavor/);
  });

  it('the reviews the product page embeds, through the reviews reader: US dates as days, verified badges, helpful votes', () => {
    const data = (scriptJsonById(readRecording(WALMART_PRODUCT_FILE), '__NEXT_DATA__') as any).props.pageProps.initialData;
    const { reviews, found } = reviewsOf(data, '10450114');
    expect(found).toBe(true);
    expect(reviews).toHaveLength(10);
    expect(reviews[0]).toMatchObject({ id: '405185975', rating: 5, createdAt: '2025-11-18', author: { name: 'CAROL' }, helpful: 5, isVerified: true, language: 'en-US' });
    expect(reviews[2].createdAt).toBe('2026-01-15');
  });

  it('search (documented pages): products only, ads skipped, sponsored marked; Walmart’s pages as cursor; sort and price range sent', async () => {
    const first = await runLive('walmart.search', { query: 'whole milk', limit: 4, sort: 'priceLow', priceMin: 1, priceMax: 5 }, live.ctx);
    expect(Object.fromEntries(replay.seen.at(-2)!.query)).toEqual({ q: 'whole milk', sort: 'price_low', min_price: '1', max_price: '5' });
    expect(replay.seen.at(-1)!.query.get('page')).toBe('2');
    expect(ids(first.data.products)).toEqual(['10450114', '10450117', '10450118', '10450119']);
    expect(first.data.products[1]).toMatchObject({ isSponsored: true, listPrice: { amount: 3.48, currency: 'USD' }, position: 2 });
    expect(first.data.products[3]).toMatchObject({ availability: 'Out of stock', seller: { name: 'Example Dairy LLC' }, position: 1 });
    expect(first.data.cursor).toBe('1~2');
    const rest = await runLive('walmart.search', { query: 'whole milk', cursor: first.data.cursor }, live.ctx);
    expect([ids(rest.data.products), rest.data.cursor]).toEqual([['10450120'], undefined]);
    const none = await runLive('walmart.search', { query: 'nothing at all' }, live.ctx);
    expect([none.data.products, none.free]).toEqual([[], true]);
  });

  it('reviews (documented pages): sort and stars sent, verified kept here, Walmart’s pages as cursor, replies', async () => {
    const first = await runLive('walmart.reviews', { product: '10450114', limit: 3, sort: 'newest' }, live.ctx);
    expect(Object.fromEntries(replay.seen.at(-1)!.query)).toEqual({ sort: 'submission-desc' });
    expect(ids(first.data.reviews)).toEqual(['900000001', '900000002', '900000003']);
    expect(first.data.reviews[1].response).toEqual({ text: 'Sorry to hear that. Please contact us.', createdAt: '2025-11-21', author: 'Walmart Customer Care' });
    expect(first.data.cursor).toBe('2');
    const verified = await runLive('walmart.reviews', { product: '10450114', verifiedOnly: true, limit: 10 }, live.ctx);
    expect(ids(verified.data.reviews)).toEqual(['900000001', '900000003', '900000004', '900000005']);
    await runLive('walmart.reviews', { product: '10450114', rating: 5, limit: 1 }, live.ctx);
    expect(replay.seen.at(-1)!.query.get('ratings')).toBe('5');
  });

  it('the "Robot or human?" wall (a px-captcha page, or a redirect to /blocked) is sourceRefused; an unknown item notFound', async () => {
    expect((await failure(runLive('walmart.search', { query: 'robot' }, live.ctx))).code).toBe('sourceRefused');
    expect((await failure(runLive('walmart.product', { product: '88888888' }, live.ctx))).code).toBe('sourceRefused');
    expect((await failure(runLive('walmart.product', { product: '99999999' }, live.ctx))).code).toBe('notFound');
  });
});

describe('walmart test mode', () => {
  it('answers every example from the samples, paging through recorded pages', async () => {
    expect((await runSample('walmart.product', { product: '1' })).data.product.title).toBe('Great Value Whole Vitamin D Milk, Gallon');
    const s = await runSample('walmart.search', { query: 'whole milk', limit: 20 });
    expect([s.data.products.length, s.data.cursor]).toEqual([3, '2']);
    expect((await runSample('walmart.search', { query: 'whole milk', cursor: '2' })).data.products).toHaveLength(2);
    expect((await runSample('walmart.reviews', { product: '10450114', limit: 2 })).data.reviews).toHaveLength(2);
  });
});

describe.skipIf(!haveRecordings('walmart'))(`walmart through the gateway${skipReason('walmart')}`, () => {
  const g = useSourceGateway(() => ({ replay: { ...WALMART_REPLAY, routes: [...EXTRA, ...WALMART_ROUTES] }, hosts: [W] }));

  it('live: a product 1 credit; search and reviews per 20, paged', async () => {
    const before = await g.balance();
    expect((await g.post('/v1/walmart/product', { product: '10450114' })).json.creditsUsed).toBe(1);
    const s1 = await g.post('/v1/walmart/search', { query: 'whole milk', limit: 3 });
    const s2 = await g.post('/v1/walmart/search', { query: 'whole milk', limit: 3, cursor: s1.json.data.cursor });
    expect([s1.json.data.products.length, s2.json.data.products.length, s2.json.creditsUsed]).toEqual([3, 2, 1]);
    const r = await g.post('/v1/walmart/reviews', { product: '10450114' });
    expect([r.json.data.reviews.length, r.json.creditsUsed]).toEqual([5, 1]);
    expect(await g.balance()).toBe(before - 4);
  });

  it('test mode: the samples, never upstream, no credits spent', async () => {
    await g.expectTestMode(async () => {
      const r = await g.post('/v1/walmart/product', { product: '10450114' }, 'test');
      expect([r.status, r.json.data.product.id]).toEqual([200, '10450114']);
    });
  });

  it('drift (a page without its __NEXT_DATA__) → 502 sourceChanged; the wall → 502 sourceRefused; both unbilled', async () => {
    await g.expectDrift('/v1/walmart/product', { product: '10450114', maxAge: 0 }, (name, body) => (name === WALMART_PRODUCT_FILE ? body.replace('id="__NEXT_DATA__"', 'id="__NEXT_STATE__"') : body));
    await g.expectRefused('/v1/walmart/search', { query: 'robot' });
  });
});
