/** The walmart source: search, products and reviews from Walmart.com's public pages and their __NEXT_DATA__ state. */
import { WALMART } from '../../catalogue/endpoints/walmart.js';
import { PAGE_TOKEN } from '../../catalogue/market.js';
import { QuarryError } from '../../errors.js';
import { operation } from '../kit/operation.js';
import { collectPages, readSkipCursor } from '../kit/paging.js';
import { changed } from '../kit/read.js';
import type { SourceModule } from '../types.js';
import { itemIdOf, productData, reviewsData, searchData } from './client.js';
import { productOf, reviewsOf, searchOf, type WalmartProduct, type WalmartReview } from './normalise.js';
import productSamples from './samples/product.json' with { type: 'json' };
import reviewsSamples from './samples/reviews.json' with { type: 'json' };
import searchSamples from './samples/search.json' with { type: 'json' };

/** Walmart shows at most 25 result pages. */
const MAX_PAGE = 25;

const search = operation(WALMART.search, {
  async run(input, ctx) {
    if (input.priceMin !== undefined && input.priceMax !== undefined && input.priceMin > input.priceMax) {
      throw new QuarryError('invalidRequest', 'priceMin: must not be above priceMax', { retryable: false });
    }
    const from = readSkipCursor(input.cursor, PAGE_TOKEN);
    const { items, cursor } = await collectPages<WalmartProduct>(from, input.limit, async (token) => {
      const page = Number(token ?? 1);
      if (page > MAX_PAGE) return { items: [] };
      const found = searchOf(await searchData({ ...input, page }, ctx), page);
      if (!found.found) throw changed('walmart', 'the search page carries no searchResult');
      return { items: found.products, ...(found.hasNext && found.products.length && page < MAX_PAGE ? { token: String(page + 1) } : {}) };
    });
    return { data: { products: items, ...(cursor ? { cursor } : {}) }, ...(items.length ? {} : { free: true }) };
  },
  samples: searchSamples,
});

const product = operation(WALMART.product, {
  async run(input, ctx) {
    const id = itemIdOf(input.product);
    const data = await productData(id, ctx);
    return { data: { product: productOf(changedUnless(data.data, `the page of item ${id} carries no data`), id) } };
  },
  samples: productSamples,
});

function changedUnless(v: unknown, what: string): Record<string, unknown> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw changed('walmart', what);
  return v as Record<string, unknown>;
}

const reviews = operation(WALMART.reviews, {
  async run(input, ctx) {
    const id = itemIdOf(input.product);
    const from = readSkipCursor(input.cursor, PAGE_TOKEN);
    const { items, cursor } = await collectPages<WalmartReview>(from, input.limit, async (token) => {
      const page = Number(token ?? 1);
      const found = reviewsOf(await reviewsData({ id, sort: input.sort, rating: input.rating, page }, ctx), id);
      if (!found.found) throw changed('walmart', `the reviews page of item ${id} carries no reviews block`);
      // Walmart filters by stars itself; verified purchases are kept here, by the review's own badge.
      const kept = found.reviews.filter((r) => (input.rating === undefined || r.rating === input.rating) && (!input.verifiedOnly || r.isVerified));
      return { items: kept, ...(found.hasNext && found.reviews.length ? { token: String(page + 1) } : {}) };
    });
    return { data: { product: id, reviews: items, ...(cursor ? { cursor } : {}) }, ...(items.length ? {} : { free: true }) };
  },
  samples: reviewsSamples,
});

const walmart: SourceModule = {
  id: 'walmart',
  needs: { proxy: 'advised' },
  operations: [search, product, reviews],
};

export default walmart;
