/**
 * etsy samples: the listing from its recorded public page (discourse/onebox, MIT; served by route at the short
 * /listing/ address the source asks), keyless; search and the shop from Open API v3 answers written from Etsy's API
 * reference (test/fixtures/documented/etsy/), since no API answer is recorded.
 */
import type { ReplayOptions, ReplayRoute } from '../../test/helpers/replay.js';
import { documented } from './documented.js';
import { PREVIOUS_CURSOR, recordSamples } from './kit.js';
import { originsOf, recordingRoute } from './market.js';

export const ETSY_LISTING_FILE = 'etsy/listing-page.87673424.html';
const A = 'openapi.etsy.com';
const json = { 'content-type': 'application/json' };
const api = (file: string, path: string, over: Partial<ReplayRoute> = {}): ReplayRoute => ({
  host: A, path: `/v3/application${path}`, text: documented('etsy', file), headers: json, name: `documented/etsy/${file}`,
  // The double serves only callers that send a key, as Etsy does.
  match: (s) => typeof s.headers['x-api-key'] === 'string' && s.headers['x-api-key'] !== 'refused-key',
  ...over,
});

export const ETSY_ROUTES: ReplayRoute[] = [
  recordingRoute('www.etsy.com', '/listing/87673424', ETSY_LISTING_FILE),
  api('api.forbidden.json', '/listings/active', { status: 403, match: (s) => s.headers['x-api-key'] === 'refused-key' }),
  api('api.search.page1.json', '/listings/active', { query: { keywords: 'personalized pillow', offset: '0' } }),
  api('api.search.page2.json', '/listings/active', { query: { keywords: 'personalized pillow', offset: '2' } }),
  api('api.search.empty.json', '/listings/active', { query: { keywords: 'nothing at all' } }),
  api('api.batch.page1.json', '/listings/batch', { query: { listing_ids: '1700000001,1700000002' } }),
  api('api.batch.page2.json', '/listings/batch', { query: { listing_ids: '1700000003' } }),
  api('api.listing.1700000001.json', '/listings/1700000001'),
  api('api.listing.notfound.json', '/listings/999999', { status: 404 }),
  api('api.shop.6088772.json', '/shops/6088772'),
  api('api.shops.rocailstudio.json', '/shops', { query: { shop_name: 'RocailStudio' } }),
  api('api.shops.nobody.json', '/shops', { query: { shop_name: 'Nobody' } }),
];
export const ETSY_HOSTS = ['www.etsy.com', A];
export const ETSY_REPLAY: ReplayOptions = { folders: ['etsy'], routes: ETSY_ROUTES };
/** An Open API key for the documented answers (illustrative: the double checks only that one is sent). */
export const KEY = { API_KEY: 'example-keystring' };

const DOCUMENTED =
  'Written from Etsy’s Open API v3 reference, not a recording (test/fixtures/documented/etsy/): no Open API answer is recorded; listings, shops and values are illustrative.';

export async function etsySamples(): Promise<void> {
  for (const c of [
    {
      endpoint: 'etsy.listing',
      pages: [{ listing: '87673424' }],
      note: 'Normalised, keyless, from the recorded public listing page (shared/upstream/etsy, from discourse/onebox, MIT; a 2020 page of the India storefront, prices in CAD). Test data only.',
    },
    { endpoint: 'etsy.search', pages: [{ query: 'personalized pillow', limit: 2 }, { query: 'personalized pillow', limit: 2, cursor: PREVIOUS_CURSOR }], settings: KEY, note: DOCUMENTED },
    { endpoint: 'etsy.shop', pages: [{ shop: 'RocailStudio' }], settings: KEY, note: DOCUMENTED },
  ]) {
    console.log(`wrote ${await recordSamples({ ...c, replay: ETSY_REPLAY, extraHosts: ETSY_HOSTS, origins: originsOf([ETSY_LISTING_FILE]) })}`);
  }
}
