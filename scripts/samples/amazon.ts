/**
 * amazon samples: search, product, top reviews and best sellers from recorded Amazon pages (vkolev/parsy and
 * microlinkhq/metascraper fixtures, MIT), served by route where a saved page's sidecar names no exact request; the
 * signed-in review pages from pages written from the recorded review markup (test/fixtures/documented/amazon/).
 */
import type { ReplayOptions, ReplayRoute } from '../../test/helpers/replay.js';
import { documented } from './documented.js';
import { PREVIOUS_CURSOR, recordSamples } from './kit.js';
import { originsOf, recordingRoute } from './market.js';

export const AMAZON_FILES = {
  search: 'amazon/search-page.de.katzenfutter.html.gz',
  kindle: 'amazon/product-page.com.B0011UCPM4.html',
  vacuum: 'amazon/product-page.es.B01MUGXRT9.html',
};
const html = { 'content-type': 'text/html; charset=utf-8' };

export const AMAZON_ROUTES: ReplayRoute[] = [
  recordingRoute('www.amazon.de', '/s', AMAZON_FILES.search, { k: 'katzenfutter' }),
  recordingRoute('www.amazon.com', '/dp/B0011UCPM4', AMAZON_FILES.kindle),
  recordingRoute('www.amazon.es', '/dp/B01MUGXRT9', AMAZON_FILES.vacuum),
  { host: 'www.amazon.es', path: '/product-reviews/B01MUGXRT9', query: { pageNumber: '1' }, text: documented('amazon', 'reviews-page.B01MUGXRT9.page1.html'), headers: html, name: 'documented/amazon/reviews-page.B01MUGXRT9.page1.html' },
  { host: 'www.amazon.es', path: '/product-reviews/B01MUGXRT9', query: { pageNumber: '2' }, text: documented('amazon', 'reviews-page.B01MUGXRT9.page2.html'), headers: html, name: 'documented/amazon/reviews-page.B01MUGXRT9.page2.html' },
];
export const AMAZON_HOSTS = ['www.amazon.de', 'www.amazon.com', 'www.amazon.es'];
export const AMAZON_REPLAY: ReplayOptions = { folders: ['amazon'], routes: AMAZON_ROUTES };
export const AMAZON_ORIGINS = originsOf(Object.values(AMAZON_FILES));
/** A signed-in session for the samples of the review pages (no real cookie: the double does not read it). */
export const SESSION = { COOKIE: 'session-id=000-0000000-0000000; at-acbes=example' };

const RECORDED = 'Normalised from recorded Amazon pages (shared/upstream/amazon: vkolev/parsy and microlinkhq/metascraper fixtures, MIT; pages of 2022-2024). Test data only.';
const SIGNED_IN =
  'Written from the review markup of the recorded product pages, not a recording (test/fixtures/documented/amazon/): Amazon shows its review pages to signed-in visitors only and none is recorded; reviewers and texts are illustrative.';

export async function amazonSamples(): Promise<void> {
  for (const c of [
    { endpoint: 'amazon.search', pages: [{ query: 'katzenfutter', country: 'de', limit: 20 }, { query: 'katzenfutter', country: 'de', limit: 20, cursor: PREVIOUS_CURSOR }], note: `${RECORDED} One result page of 60 is recorded, served as pages of 20.` },
    { endpoint: 'amazon.product', pages: [{ product: 'B0011UCPM4', country: 'us' }], note: RECORDED },
    { endpoint: 'amazon.bestsellers', pages: [{ category: 'ce-de', country: 'de' }], note: RECORDED },
    { endpoint: 'amazon.reviews', pages: [{ product: 'B01MUGXRT9', country: 'es' }], note: `${RECORDED} Signed out: the product page's top reviews.` },
  ]) {
    console.log(`wrote ${await recordSamples({ ...c, replay: AMAZON_REPLAY, extraHosts: AMAZON_HOSTS, origins: AMAZON_ORIGINS })}`);
  }
  const signedIn = {
    endpoint: 'amazon.reviews',
    name: 'reviews-signed-in',
    pages: [{ product: 'B01MUGXRT9', country: 'es', sort: 'newest', limit: 2 }, { product: 'B01MUGXRT9', country: 'es', sort: 'newest', limit: 2, cursor: PREVIOUS_CURSOR }],
    settings: SESSION,
    note: SIGNED_IN,
  };
  console.log(`wrote ${await recordSamples({ ...signedIn, replay: AMAZON_REPLAY, extraHosts: AMAZON_HOSTS })}`);
}
