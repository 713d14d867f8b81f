/**
 * amazon on recorded pages (../shared/upstream/amazon: a search page, two product pages with their top reviews, two
 * best-seller lists; every one read here), served by route where a saved page's sidecar names no exact request. The
 * signed-in review pages and the robot check are written from the recorded markup and public scrapers' markers
 * (test/fixtures/documented/amazon/), named as such.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AMAZON_FILES, AMAZON_HOSTS, AMAZON_REPLAY, AMAZON_ROUTES, SESSION } from '../../scripts/samples/amazon.js';
import { documented } from '../../scripts/samples/documented.js';
import { productRefOf } from '../../src/sources/amazon/refs.js';
import { failure } from '../helpers/failure.js';
import { post } from '../helpers/gateway.js';
import { haveRecordings, skipReason, startReplay, type Replay, type ReplayRoute } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';

const html = { 'content-type': 'text/html; charset=utf-8' };
const EXTRA: ReplayRoute[] = [
  { host: 'www.amazon.com', path: '/dp/B0ROBOTCHK', text: documented('amazon', 'robot-check.html'), headers: html },
  { host: 'www.amazon.com', path: '/dp/B000NOTHER', status: 404, text: '<html><head><title>Page Not Found</title></head><body>Sorry! We couldn\'t find that page.</body></html>', headers: html },
  { host: 'www.amazon.com', path: '/s', query: { k: 'robot' }, text: documented('amazon', 'robot-check.html'), headers: html },
  { host: 'www.amazon.es', path: '/product-reviews/B0SIGNEDOU', status: 302, headers: { location: 'https://www.amazon.es/ap/signin?openid.return_to=x' }, text: '' },
  { host: 'www.amazon.es', path: '/ap/signin', text: '<html><body><form name="signIn" method="post" action="https://www.amazon.es/ap/signin">Iniciar sesión</form></body></html>', headers: html },
];
const ids = (list: { id: string }[]) => list.map((x) => x.id);

describe('amazon product references', () => {
  it('ASINs and product addresses (their marketplace with them); the bad field named', async () => {
    expect(productRefOf('b0011ucpm4')).toEqual({ asin: 'B0011UCPM4' });
    const ref = productRefOf('https://www.amazon.es/aspirador-Excellence/dp/B01MUGXRT9/ref=x?th=1');
    expect([ref.asin, ref.market?.host, ref.market?.currency]).toEqual(['B01MUGXRT9', 'www.amazon.es', 'EUR']);
    expect(productRefOf('https://amazon.co.uk/gp/product/B0011UCPM4').market?.country).toBe('gb');
    expect((await failure(() => productRefOf('https://www.example.com/dp/B0011UCPM4'))).message).toMatch(/^product: /);
    expect((await failure(() => productRefOf('not an asin'))).code).toBe('invalidRequest');
  });
});

describe.skipIf(!haveRecordings('amazon'))(`amazon against recorded pages${skipReason('amazon')}`, () => {
  let replay: Replay;
  let live: LiveContext;
  let signedIn: LiveContext;
  beforeAll(async () => {
    replay = await startReplay({ ...AMAZON_REPLAY, routes: [...EXTRA, ...AMAZON_ROUTES] });
    live = liveContext('amazon', replay, {}, AMAZON_HOSTS);
    signedIn = liveContext('amazon', replay, SESSION, AMAZON_HOSTS);
  });
  afterAll(async () => {
    await Promise.all([live.close(), signedIn.close()]);
    await replay.close();
  });

  it('search (search-page.de.katzenfutter): 60 cards in page order, euros, ratings, sponsored ones marked', async () => {
    const out = await runLive('amazon.search', { query: 'katzenfutter', country: 'de', limit: 60 }, live.ctx);
    expect(replay.served().at(-1)).toBe(AMAZON_FILES.search);
    expect(out.data.products).toHaveLength(60);
    expect(out.data.products[0]).toEqual({
      type: 'product', id: 'B013JF5F0C', url: 'https://www.amazon.de/dp/B013JF5F0C',
      title: 'FELIX Countryside Sensations Dry Cat Food with Beef and Chicken, Pack of 1 (1 x 1 kg)',
      price: { amount: 2.95, currency: 'EUR' }, listPrice: { amount: 3.39, currency: 'EUR' }, rating: { value: 4.7, max: 5, count: 111 },
      images: [{ url: 'https://m.media-amazon.com/images/I/81j2n1ziQcL._AC_UL320_.jpg', alt: expect.stringContaining('FELIX') }],
      isSponsored: true, position: 1,
    });
    expect(out.data.products[4]).toMatchObject({ isSponsored: false, price: { amount: 12.9, currency: 'EUR' }, rating: { value: 4.6, count: 5177 } });
    expect(out.data.products.filter((p: { isSponsored: boolean }) => p.isSponsored).length).toBeGreaterThan(5);
    // The page links a next page: the cursor asks it.
    expect(out.data.cursor).toBe('2');
  });

  it('search paging within the recorded page (N~page) and the options Amazon reads (s, low-price, high-price, language)', async () => {
    const first = await runLive('amazon.search', { query: 'katzenfutter', country: 'de', limit: 20, sort: 'priceLow', priceMin: 5, priceMax: 30, language: 'en-gb' }, live.ctx);
    expect(Object.fromEntries(replay.seen.at(-1)!.query)).toEqual({ k: 'katzenfutter', s: 'price-asc-rank', 'low-price': '5', 'high-price': '30', language: 'en_GB' });
    expect(first.data.cursor).toBe('20~');
    const second = await runLive('amazon.search', { query: 'katzenfutter', country: 'de', limit: 20, cursor: '20~' }, live.ctx);
    expect(ids(second.data.products)).toEqual(ids((await runLive('amazon.search', { query: 'katzenfutter', country: 'de', limit: 60 }, live.ctx)).data.products.slice(20, 40)));
    expect((await failure(runLive('amazon.search', { query: 'x', priceMin: 9, priceMax: 1 }, live.ctx))).message).toMatch(/^priceMin: /);
  });

  it('a Kindle book (product-page.com.B0011UCPM4): its Kindle price, authors, details bullets, breadcrumbs', async () => {
    const out = await runLive('amazon.product', { product: 'B0011UCPM4' }, live.ctx);
    expect(replay.served().at(-1)).toBe(AMAZON_FILES.kindle);
    expect(out.data.product).toMatchObject({
      type: 'product', id: 'B0011UCPM4', url: 'https://www.amazon.com/dp/B0011UCPM4', title: 'The Whole Truth (A. Shaw Book 1)',
      authors: ['David Baldacci'], price: { amount: 10.99, currency: 'USD' }, rating: { value: 4.4, max: 5, count: 21200 },
      category: 'Books › Mystery, Thriller & Suspense › Thrillers & Suspense',
      images: [{ url: expect.stringMatching(/^https:\/\/m\.media-amazon\.com\/.+\.jpg$/) }],
    });
    expect(out.data.product.attributes).toContainEqual({ name: 'Publisher', value: 'Grand Central Publishing; 1st edition (April 22, 2008)' });
    expect(out.data.product.attributes).toContainEqual({ name: 'Print length', value: '497 pages' });
  });

  it('a product without a featured offer (product-page.es.B01MUGXRT9), by its amazon.es address: brand, decimal-comma rating, details table', async () => {
    const out = await runLive('amazon.product', { product: 'https://www.amazon.es/aspirador/dp/B01MUGXRT9?th=1' }, live.ctx);
    expect(replay.served().at(-1)).toBe(AMAZON_FILES.vacuum);
    expect(out.data.product).toMatchObject({
      id: 'B01MUGXRT9', url: 'https://www.amazon.es/dp/B01MUGXRT9', brand: 'Cecotec', rating: { value: 4.1, max: 5, count: 5182 },
      category: 'Hogar y cocina › Aspiración, limpieza y cuidado de suelo y ventanas › Aspiradoras › Robots aspiradores',
    });
    expect(out.data.product.price).toBeUndefined();
    expect(out.data.product.features).toHaveLength(3);
    expect(out.data.product.attributes).toContainEqual({ name: 'Número de modelo', value: '05042' });
    expect(out.data.product.attributes.some((a: { name: string }) => /Valoración/.test(a.name))).toBe(false);
  });

  it('top reviews signed out (product-page.es.B01MUGXRT9): stars, title, Spanish date, verified, text; filtered here by stars', async () => {
    const out = await runLive('amazon.reviews', { product: 'B01MUGXRT9', country: 'es' }, live.ctx);
    expect(out.data.product).toBe('B01MUGXRT9');
    expect(out.data.reviews).toHaveLength(7);
    expect(out.data.reviews[0]).toMatchObject({
      type: 'review', id: 'R3IALXQVW90895', rating: 5, url: 'https://www.amazon.es/gp/customer-reviews/R3IALXQVW90895', title: 'Me encanta',
      createdAt: '2017-08-25', isVerified: true, author: { id: 'amzn1.account.AEXTS5D3PWISWXXYD4ULTUS272VA', name: 'Teresa P.' },
    });
    expect(out.data.reviews[0].text).toMatch(/^La opción de aspirado es genial/);
    expect(out.data.reviews[0].text).toContain('\n');
    const fives = await runLive('amazon.reviews', { product: 'B01MUGXRT9', country: 'es', rating: 5, limit: 100 }, live.ctx);
    expect(fives.data.reviews.every((r: { rating: number }) => r.rating === 5)).toBe(true);
    const us = await runLive('amazon.reviews', { product: 'B0011UCPM4', limit: 3 }, live.ctx);
    expect(us.data.reviews.map((r: { createdAt: string; helpful?: number }) => [r.createdAt, r.helpful])).toEqual([['2021-08-02', 6], ['2023-07-28', 2], ['2023-08-28', undefined]]);
  });

  it('without a session, newest first and later pages are sourceUnavailable naming QUARRY_AMAZON_COOKIE', async () => {
    const e = await failure(runLive('amazon.reviews', { product: 'B01MUGXRT9', country: 'es', sort: 'newest' }, live.ctx));
    expect([e.code, e.retryable]).toEqual(['sourceUnavailable', false]);
    expect(e.message).toContain('QUARRY_AMAZON_COOKIE');
  });

  it('signed in (documented review pages): sort, stars and verified sent; Amazon’s pages as cursor; helpful counts in Spanish', async () => {
    const first = await runLive('amazon.reviews', { product: 'B01MUGXRT9', country: 'es', sort: 'newest', rating: 5, verifiedOnly: true, limit: 2 }, signedIn.ctx);
    const asked = replay.seen.at(-1)!;
    expect(Object.fromEntries(asked.query)).toEqual({ sortBy: 'recent', pageNumber: '1', reviewerType: 'avp_only_reviews', filterByStar: 'five_star' });
    expect(asked.headers.cookie).toBe(SESSION.COOKIE);
    expect(first.data.reviews.map((r: { id: string; helpful?: number; createdAt: string; isVerified?: boolean }) => [r.id, r.helpful, r.createdAt, r.isVerified])).toEqual([
      ['R1EXAMPLEAAAA', 12, '2024-03-03', true],
      ['R1EXAMPLEBBBB', 1, '2024-02-28', undefined],
    ]);
    expect(first.data.reviews[0].text).toBe('Limpia muy bien.\nLa recomiendo.');
    expect(first.data.cursor).toBe('2');
    const second = await runLive('amazon.reviews', { product: 'B01MUGXRT9', country: 'es', sort: 'newest', limit: 2, cursor: '2' }, signedIn.ctx);
    expect([ids(second.data.reviews), second.data.cursor]).toEqual([['R1EXAMPLECCCC'], undefined]);
    const expired = await failure(runLive('amazon.reviews', { product: 'B0SIGNEDOU', country: 'es' }, signedIn.ctx));
    expect([expired.code, expired.retryable]).toEqual(['sourceUnavailable', false]);
  });

  it('best sellers by slug (bestsellers-page.de.ce-de) and by address (bestsellers-page.com.hi): ranked, priced, rated', async () => {
    const de = await runLive('amazon.bestsellers', { category: 'ce-de', country: 'de' }, live.ctx);
    expect(replay.served().at(-1)).toBe('amazon/bestsellers-page.de.ce-de.html');
    expect(de.data.products).toHaveLength(30);
    expect(de.data.products[1]).toMatchObject({ id: 'B08C1KN5J2', rank: 2, price: { amount: 19.99, currency: 'EUR' }, rating: { value: 4.7, count: 92284 } });
    const us = await runLive('amazon.bestsellers', { category: 'https://www.amazon.com/Best-Sellers-Tools-Home-Improvement/zgbs/hi', limit: 5 }, live.ctx);
    expect(replay.served().at(-1)).toBe('amazon/bestsellers-page.com.hi.html');
    expect(us.data.category).toBe('/Best-Sellers-Tools-Home-Improvement/zgbs/hi');
    expect(us.data.products.map((p: { rank: number }) => p.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(us.data.products.some((p: { price?: { currency: string } }) => p.price?.currency === 'USD')).toBe(true);
    expect((await failure(runLive('amazon.bestsellers', { category: 'https://www.amazon.com/dp/B0011UCPM4' }, live.ctx))).message).toMatch(/^category: /);
  });

  it('the robot check is sourceRefused (product and search); an unknown ASIN is notFound', async () => {
    expect((await failure(runLive('amazon.product', { product: 'B0ROBOTCHK' }, live.ctx))).code).toBe('sourceRefused');
    expect((await failure(runLive('amazon.search', { query: 'robot' }, live.ctx))).code).toBe('sourceRefused');
    expect((await failure(runLive('amazon.product', { product: 'B000NOTHER' }, live.ctx))).code).toBe('notFound');
  });
});

describe('amazon test mode', () => {
  it('answers every example from the samples; newest-first reviews from the signed-in pages', async () => {
    const s = await runSample('amazon.search', { query: 'katzenfutter', country: 'de', limit: 20 });
    expect([s.data.products.length, s.data.cursor]).toEqual([20, '20~']);
    expect((await runSample('amazon.search', { query: 'katzenfutter', cursor: s.data.cursor })).data.products).toHaveLength(20);
    expect((await runSample('amazon.product', { product: 'B0011UCPM4' })).data.product.title).toBe('The Whole Truth (A. Shaw Book 1)');
    expect((await runSample('amazon.reviews', { product: 'B01MUGXRT9' })).data.reviews).toHaveLength(7);
    const newest = await runSample('amazon.reviews', { product: 'B01MUGXRT9', sort: 'newest', limit: 2 });
    expect([ids(newest.data.reviews), newest.data.cursor]).toEqual([['R1EXAMPLEAAAA', 'R1EXAMPLEBBBB'], '2']);
    expect((await runSample('amazon.reviews', { product: 'B01MUGXRT9', cursor: '2' })).data.reviews).toHaveLength(1);
    expect((await runSample('amazon.bestsellers', { category: 'ce-de', limit: 3 })).data.products).toHaveLength(3);
  });
});

describe.skipIf(!haveRecordings('amazon'))(`amazon through the gateway${skipReason('amazon')}`, () => {
  const g = useSourceGateway(() => ({ replay: { ...AMAZON_REPLAY, routes: [...EXTRA, ...AMAZON_ROUTES] }, hosts: AMAZON_HOSTS }));

  it('live: search per 20 products (40 cost 2), paged; a product, its reviews and a best-seller list 1 credit each', async () => {
    const before = await g.balance();
    const page1 = await g.post('/v1/amazon/search', { query: 'katzenfutter', country: 'de', limit: 40 });
    expect([page1.status, page1.json.data.products.length, page1.json.creditsUsed, page1.json.data.cursor]).toEqual([200, 40, 2, '40~']);
    const page2 = await g.post('/v1/amazon/search', { query: 'katzenfutter', country: 'de', limit: 20, cursor: '40~' });
    expect([page2.json.data.products.length, page2.json.creditsUsed, page2.json.data.cursor]).toEqual([20, 1, '2']);
    expect((await g.post('/v1/amazon/product', { product: 'B0011UCPM4' })).json.creditsUsed).toBe(1);
    expect((await g.post('/v1/amazon/reviews', { product: 'B01MUGXRT9', country: 'es' })).json.creditsUsed).toBe(1);
    expect((await g.post('/v1/amazon/bestsellers', { category: 'ce-de', country: 'de' })).json.creditsUsed).toBe(1);
    expect(await g.balance()).toBe(before - 6);
  });

  it('test mode: the samples, never upstream, no credits spent', async () => {
    await g.expectTestMode(async () => {
      const r = await g.post('/v1/amazon/search', { query: 'katzenfutter', country: 'de', limit: 20 }, 'test');
      expect([r.status, r.json.data.products.length, r.json.creditsUsed]).toEqual([200, 20, 1]);
    });
  });

  it('drift (a product page without its title) → 502 sourceChanged; the robot check → 502 sourceRefused; both unbilled', async () => {
    await g.expectDrift('/v1/amazon/product', { product: 'B0011UCPM4', maxAge: 0 }, (name, body) => (name === AMAZON_FILES.kindle ? body.replaceAll('id="productTitle"', 'id="productName"') : body));
    await g.expectRefused('/v1/amazon/product', { product: 'B0ROBOTCHK' });
  });
});
