import { boolean, choice, endpoint, integer, limit, text } from '../fields.js';
import { itemRef, pageCursor, priceMax, priceMin, productRecord, reviewRecord } from '../market.js';
import { list, rec, str } from '../records.js';

/** A Walmart product: the shared product record (`id` is Walmart's item id, the number in /ip/ addresses). */
export const WALMART_PRODUCT = productRecord();

/** A Walmart customer review. */
export const WALMART_REVIEW = reviewRecord();

const product = () => itemRef('the product: its item id (the number in /ip/ addresses) or a walmart.com product address');

export const WALMART = {
  search: endpoint({
    id: 'walmart.search',
    title: 'Walmart search',
    summary: 'Searches Walmart.com for products and returns each one’s item id, title, price, rating, seller and availability.',
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 1800,
    fields: {
      query: text(1, 300, 'search terms'),
      sort: choice(['relevance', 'priceLow', 'priceHigh', 'bestSelling', 'rating', 'newest'] as const, 'relevance'),
      priceMin: priceMin(),
      priceMax: priceMax(),
      limit: limit(1, 100, 40),
      cursor: pageCursor(),
    },
    required: ['query'],
    itemsField: 'products',
    example: { query: 'whole milk', limit: 20 },
    output: rec({ products: list(WALMART_PRODUCT) }, { cursor: str }),
  }),
  product: endpoint({
    id: 'walmart.product',
    title: 'Walmart product',
    summary: 'Returns a Walmart.com product by item id: title, brand, price, rating, seller, availability, images and specifications.',
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { product: product() },
    required: ['product'],
    example: { product: '10450114' },
    output: rec({ product: WALMART_PRODUCT }),
  }),
  reviews: endpoint({
    id: 'walmart.reviews',
    title: 'Walmart reviews',
    summary: 'Returns a Walmart.com product’s customer reviews, by relevance, date, rating or helpfulness, with stars, text and verified flag.',
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 3600,
    fields: {
      product: product(),
      sort: choice(['relevant', 'newest', 'oldest', 'ratingHigh', 'ratingLow', 'helpful'] as const, 'relevant'),
      rating: { ...integer(1, 5), description: 'only reviews of this many stars' },
      verifiedOnly: boolean(false),
      limit: limit(1, 100, 20),
      cursor: pageCursor(),
    },
    required: ['product'],
    itemsField: 'reviews',
    example: { product: '10450114', limit: 10 },
    output: rec({ product: str, reviews: list(WALMART_REVIEW) }, { cursor: str }),
  }),
};
