/**
 * ebay samples: search from the recorded ebay.de results page (vkolev/parsy, MIT; served by route since its sidecar
 * names no exact request), the listing from a page written from eBay's listing markup (test/fixtures/documented/ebay/),
 * since no listing page is recorded. The sold-listing, 2025-card and Browse API answers are documented too.
 */
import type { ReplayOptions, ReplayRoute } from '../../test/helpers/replay.js';
import { documented } from './documented.js';
import { PREVIOUS_CURSOR, recordSamples } from './kit.js';
import { originsOf, recordingRoute } from './market.js';

export const EBAY_SEARCH_FILE = 'ebay/search-page.de.apple.html';
const html = { 'content-type': 'text/html; charset=utf-8' };
const json = { 'content-type': 'application/json' };
const doc = (file: string, over: Partial<ReplayRoute> & Pick<ReplayRoute, 'path'>): ReplayRoute => ({
  text: documented('ebay', file),
  headers: file.endsWith('.json') ? json : html,
  name: `documented/ebay/${file}`,
  // Each documented page is one page: a request naming a later one is left unanswered.
  match: (s) => !s.query.has('_pgn'),
  ...over,
});

export const EBAY_ROUTES: ReplayRoute[] = [
  recordingRoute('www.ebay.de', '/sch/i.html', EBAY_SEARCH_FILE, { _nkw: 'apple' }),
  doc('search-page.us.sold.html', { host: 'www.ebay.com', path: '/sch/i.html', query: { _nkw: 'apple iphone 12', LH_Sold: '1' } }),
  doc('search-page.us.cards.html', { host: 'www.ebay.com', path: '/sch/i.html', query: { _nkw: 'mechanical keyboard' } }),
  doc('pardon.html', { host: 'www.ebay.com', path: '/sch/i.html', query: { _nkw: 'pardon' } }),
  doc('item-page.144278067683.html', { host: 'www.ebay.de', path: '/itm/144278067683' }),
  doc('item-page.missing.html', { host: 'www.ebay.com', path: '/itm/100000000000' }),
  doc('pardon.html', { host: 'www.ebay.com', path: '/itm/100000000001' }),
  doc('api.token.json', { method: 'POST', host: 'api.ebay.com', path: '/identity/v1/oauth2/token', match: (s) => /Basic /.test(String(s.headers.authorization)) && !/Basic cmVmdXNlZDp/.test(String(s.headers.authorization)) }),
  doc('api.token.refused.json', { method: 'POST', host: 'api.ebay.com', path: '/identity/v1/oauth2/token', status: 401 }),
  doc('api.search.page1.json', { host: 'api.ebay.com', path: '/buy/browse/v1/item_summary/search', query: { q: 'iphone', offset: '0' } }),
  doc('api.search.page2.json', { host: 'api.ebay.com', path: '/buy/browse/v1/item_summary/search', query: { q: 'iphone', offset: '60' } }),
  doc('api.search.empty.json', { host: 'api.ebay.com', path: '/buy/browse/v1/item_summary/search', query: { q: 'nothing' } }),
  doc('api.item.335000000001.json', { host: 'api.ebay.com', path: '/buy/browse/v1/item/get_item_by_legacy_id', query: { legacy_item_id: '335000000001' } }),
  doc('api.item.notfound.json', { host: 'api.ebay.com', path: '/buy/browse/v1/item/get_item_by_legacy_id', status: 404 }),
];
export const EBAY_HOSTS = ['www.ebay.de', 'www.ebay.com', 'api.ebay.com'];
export const EBAY_REPLAY: ReplayOptions = { folders: ['ebay'], routes: EBAY_ROUTES };
/** Keys of an eBay developer application (illustrative: the double checks only that they are sent). */
export const APP = { CLIENT_ID: 'example-app-id', CLIENT_SECRET: 'example-cert-id' };

export async function ebaySamples(): Promise<void> {
  console.log(
    `wrote ${await recordSamples({
      endpoint: 'ebay.search',
      pages: [{ query: 'apple', country: 'de', limit: 20 }, { query: 'apple', country: 'de', limit: 20, cursor: PREVIOUS_CURSOR }],
      replay: EBAY_REPLAY,
      extraHosts: EBAY_HOSTS,
      origins: originsOf([EBAY_SEARCH_FILE]),
      note: 'Normalised from the recorded ebay.de results page for "apple" (shared/upstream/ebay, from vkolev/parsy, MIT; 2022), 64 listings served as pages of 20. Test data only.',
    })}`,
  );
  console.log(
    `wrote ${await recordSamples({
      endpoint: 'ebay.item',
      pages: [{ item: '144278067683', country: 'de' }],
      replay: EBAY_REPLAY,
      extraHosts: EBAY_HOSTS,
      note: 'Written from eBay’s listing-page markup (schema.org Product JSON-LD, seller card, item specifics), not a recording (test/fixtures/documented/ebay/): no listing page is recorded; the listing’s title is the recorded search’s first result, its other values illustrative.',
    })}`,
  );
}
