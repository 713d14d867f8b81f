import { boolean, choice, countryAmong, endpoint, integer, language, limit, text } from '../fields.js';
import { itemRef, pageCursor, priceMax, priceMin, productRecord, reviewRecord } from '../market.js';
import { int, list, rec, str } from '../records.js';

/** Amazon's marketplaces by country (ISO 3166-1), each on its own domain and currency. */
export const AMAZON_COUNTRIES = ['us', 'gb', 'de', 'fr', 'it', 'es', 'nl', 'be', 'se', 'pl', 'tr', 'ca', 'mx', 'br', 'jp', 'in', 'au', 'sg', 'ae', 'sa', 'eg'] as const;

/** An Amazon product: the shared product record (`id` is the ASIN), its authors (books), its best-seller rank. */
export const AMAZON_PRODUCT = productRecord({ authors: list(str), rank: int });

/** An Amazon customer review. */
export const AMAZON_REVIEW = reviewRecord();

const country = () => countryAmong(AMAZON_COUNTRIES, 'us', 'Amazon');
const product = () => itemRef('the product: its ASIN (B0…) or an Amazon product address');

export const AMAZON = {
  search: endpoint({
    id: 'amazon.search',
    title: 'Amazon search',
    summary: 'Searches an Amazon marketplace for products and returns each one’s ASIN, title, price, rating and sponsored flag.',
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 1800,
    fields: {
      query: text(1, 400, 'search terms'),
      country: country(),
      language: language(),
      sort: choice(['relevance', 'priceLow', 'priceHigh', 'rating', 'newest'] as const, 'relevance'),
      priceMin: priceMin(),
      priceMax: priceMax(),
      limit: limit(1, 100, 20),
      cursor: pageCursor(),
    },
    required: ['query'],
    itemsField: 'products',
    example: { query: 'katzenfutter', country: 'de', limit: 20 },
    output: rec({ products: list(AMAZON_PRODUCT) }, { cursor: str }),
  }),
  product: endpoint({
    id: 'amazon.product',
    title: 'Amazon product',
    summary: 'Returns an Amazon product page by ASIN: title, brand, price, rating, images, bullet points, details and category.',
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { product: product(), country: country(), language: language() },
    required: ['product'],
    example: { product: 'B0011UCPM4', country: 'us' },
    output: rec({ product: AMAZON_PRODUCT }),
  }),
  reviews: endpoint({
    id: 'amazon.reviews',
    title: 'Amazon reviews',
    summary: 'Returns an Amazon product’s customer reviews: the top reviews its page shows, or every page and sort with the operator’s session.',
    credits: 1,
    perItems: 10,
    cacheTtlSeconds: 3600,
    fields: {
      product: product(),
      country: country(),
      language: language(),
      sort: { ...choice(['top', 'newest'] as const, 'top'), description: 'top or newest first (newest needs the operator’s Amazon session)' },
      rating: { ...integer(1, 5), description: 'only reviews of this many stars (needs the operator’s Amazon session)' },
      verifiedOnly: boolean(false),
      limit: limit(1, 100, 10),
      cursor: pageCursor(),
    },
    required: ['product'],
    itemsField: 'reviews',
    example: { product: 'B01MUGXRT9', country: 'es' },
    output: rec({ product: str, reviews: list(AMAZON_REVIEW) }, { cursor: str }),
  }),
  bestsellers: endpoint({
    id: 'amazon.bestsellers',
    title: 'Amazon best sellers',
    summary: 'Returns an Amazon marketplace’s best-seller list of a category, ranked, with each product’s price and rating.',
    credits: 1,
    perItems: 50,
    cacheTtlSeconds: 3600,
    fields: {
      category: text(1, 2048, 'the category: its best-seller slug (electronics, ce-de) or a best-sellers page address'),
      country: country(),
      language: language(),
      limit: limit(1, 50, 50),
    },
    required: ['category'],
    itemsField: 'products',
    example: { category: 'ce-de', country: 'de' },
    output: rec({ category: str, products: list(AMAZON_PRODUCT) }),
  }),
};

