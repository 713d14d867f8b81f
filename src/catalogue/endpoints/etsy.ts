import { choice, cursor, endpoint, limit, text } from '../fields.js';
import { itemRef, priceMax, priceMin, productRecord, SHOP } from '../market.js';
import { int, list, rec, str } from '../records.js';

/** An Etsy listing: the shared product record (`id` is the listing id, the seller its shop) plus Etsy's own facts. */
export const ETSY_LISTING = productRecord({
  tags: list(str),
  materials: list(str),
  favorites: int,
  views: int,
  quantity: int,
  createdAt: str,
  updatedAt: str,
});

export const ETSY_SHOP = SHOP;

export const ETSY = {
  search: endpoint({
    id: 'etsy.search',
    title: 'Etsy search',
    summary: 'Searches Etsy’s active listings by keyword, price range and shop location, with price, shop, favorites and images.',
    credits: 1,
    perItems: 25,
    cacheTtlSeconds: 1800,
    fields: {
      query: text(1, 300, 'search terms'),
      sort: choice(['relevance', 'newest', 'priceLow', 'priceHigh'] as const, 'relevance'),
      priceMin: priceMin(),
      priceMax: priceMax(),
      location: text(1, 100, "the shops' location, as Etsy reads it (a country or city name)"),
      limit: limit(1, 100, 25),
      cursor: cursor('^[0-9]{1,5}$', 'the number of listings already answered', 5),
    },
    required: ['query'],
    itemsField: 'listings',
    example: { query: 'personalized pillow', limit: 25 },
    output: rec({ listings: list(ETSY_LISTING) }, { cursor: str, total: int }),
  }),
  listing: endpoint({
    id: 'etsy.listing',
    title: 'Etsy listing',
    summary: 'Returns one Etsy listing by id or address: title, description, price, shop, rating, images, tags and materials.',
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { listing: itemRef('the listing: its id or an etsy.com/listing/ address') },
    required: ['listing'],
    example: { listing: '87673424' },
    output: rec({ listing: ETSY_LISTING }, { via: str }),
  }),
  shop: endpoint({
    id: 'etsy.shop',
    title: 'Etsy shop',
    summary: 'Returns an Etsy shop by name, id or address: title, announcement, sales, active listings, rating, location and currency.',
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { shop: text(1, 2048, 'the shop: its name, numeric id or etsy.com/shop/ address') },
    required: ['shop'],
    example: { shop: 'RocailStudio' },
    output: rec({ shop: ETSY_SHOP }),
  }),
};
