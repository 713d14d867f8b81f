import { boolean, choice, countryAmong, endpoint, language, limit, text } from '../fields.js';
import { condition, itemRef, pageCursor, priceMax, priceMin, productRecord } from '../market.js';
import { int, list, rec, str } from '../records.js';
import { ADDRESS, MONEY } from '../vocabulary.js';

/** eBay's sites by country (ISO 3166-1), each on its own domain and currency. */
export const EBAY_COUNTRIES = ['us', 'gb', 'de', 'fr', 'it', 'es', 'ca', 'au', 'at', 'ch', 'nl', 'ie', 'pl', 'be'] as const;

/**
 * An eBay listing: the shared product record (`id` is the item number) plus what an auction site has: bids, how many
 * sold, the shipping cost, when a sold listing sold (a day) and when a listing ends, its location and eBay's aspects.
 */
export const EBAY_ITEM = productRecord({
  bids: int,
  sold: int,
  shipping: MONEY,
  soldAt: str,
  endsAt: str,
  buyingOptions: list(str),
  itemLocation: ADDRESS,
});

const country = () => countryAmong(EBAY_COUNTRIES, 'us', 'eBay');

export const EBAY = {
  search: endpoint({
    id: 'ebay.search',
    title: 'eBay search',
    summary: 'Searches eBay listings, or sold listings with their final prices, by keyword, condition, format and price range.',
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 1800,
    fields: {
      query: text(1, 300, 'search terms'),
      country: country(),
      sold: { ...boolean(false), description: 'sold listings (completed sales, with their final prices) instead of live ones' },
      condition: condition(),
      buyingFormat: { ...choice(['any', 'auction', 'buyItNow'] as const, 'any'), description: 'auctions, fixed-price listings or both' },
      sort: choice(['relevance', 'endingSoon', 'newest', 'priceLow', 'priceHigh'] as const, 'relevance'),
      priceMin: priceMin(),
      priceMax: priceMax(),
      limit: limit(1, 120, 60),
      cursor: pageCursor(),
    },
    required: ['query'],
    itemsField: 'items',
    example: { query: 'apple', country: 'de', limit: 20 },
    output: rec({ items: list(EBAY_ITEM) }, { cursor: str, via: str }),
  }),
  item: endpoint({
    id: 'ebay.item',
    title: 'eBay item',
    summary: 'Returns one eBay listing by item number or address: title, price, condition, seller, images, shipping and item specifics.',
    credits: 1,
    cacheTtlSeconds: 3600,
    fields: { item: itemRef('the listing: its item number or an eBay /itm/ address'), country: country(), language: language() },
    required: ['item'],
    example: { item: '144278067683', country: 'de' },
    output: rec({ item: EBAY_ITEM }, { via: str }),
  }),
};
