/**
 * walmart samples: the product from the recorded product page (danieljamesjohnson/bot-y, MIT; served by route at the
 * short /ip/ address the source asks); search and reviews from pages written from Walmart's page state
 * (test/fixtures/documented/walmart/), since neither is recorded.
 */
import type { ReplayOptions, ReplayRoute } from '../../test/helpers/replay.js';
import { documented } from './documented.js';
import { PREVIOUS_CURSOR, recordSamples } from './kit.js';
import { originsOf, recordingRoute } from './market.js';

export const WALMART_PRODUCT_FILE = 'walmart/product-page.10450114.html';
const W = 'www.walmart.com';
const html = { 'content-type': 'text/html; charset=utf-8' };
const doc = (file: string, path: string, query: Record<string, string>, match?: ReplayRoute['match']): ReplayRoute => ({
  host: W, path, query, text: documented('walmart', file), headers: html, name: `documented/walmart/${file}`, ...(match ? { match } : {}),
});
const firstPage: ReplayRoute['match'] = (s) => !s.query.has('page');

export const WALMART_ROUTES: ReplayRoute[] = [
  recordingRoute(W, '/ip/10450114', WALMART_PRODUCT_FILE),
  doc('search-page.whole-milk.page1.html', '/search', { q: 'whole milk' }, firstPage),
  doc('search-page.whole-milk.page2.html', '/search', { q: 'whole milk', page: '2' }),
  doc('search-page.nothing.html', '/search', { q: 'nothing at all' }),
  doc('robot-or-human.html', '/search', { q: 'robot' }),
  doc('reviews-page.10450114.page1.html', '/reviews/product/10450114', {}, firstPage),
  doc('reviews-page.10450114.page2.html', '/reviews/product/10450114', { page: '2' }),
];
export const WALMART_REPLAY: ReplayOptions = { folders: ['walmart'], routes: WALMART_ROUTES };
export const WALMART_ORIGINS = originsOf([WALMART_PRODUCT_FILE]);

const DOCUMENTED =
  'Written from Walmart’s page state (__NEXT_DATA__) as public scrapers read it, not a recording (test/fixtures/documented/walmart/): no Walmart search or reviews page is recorded; products, reviewers and texts are illustrative.';

export async function walmartSamples(): Promise<void> {
  for (const c of [
    {
      endpoint: 'walmart.product',
      pages: [{ product: '10450114' }],
      note: 'Normalised from the recorded Walmart product page (shared/upstream/walmart, from danieljamesjohnson/bot-y, MIT; captured 2026-08; its origin redacted store ids and the visitor’s location). Test data only.',
    },
    { endpoint: 'walmart.search', pages: [{ query: 'whole milk', limit: 3 }, { query: 'whole milk', limit: 3, cursor: PREVIOUS_CURSOR }], note: DOCUMENTED },
    { endpoint: 'walmart.reviews', pages: [{ product: '10450114', limit: 3 }, { product: '10450114', limit: 3, cursor: PREVIOUS_CURSOR }], note: DOCUMENTED },
  ]) {
    console.log(`wrote ${await recordSamples({ ...c, replay: WALMART_REPLAY, extraHosts: [W], origins: WALMART_ORIGINS })}`);
  }
}
