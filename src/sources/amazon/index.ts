/**
 * The amazon source: search results, product pages, their reviews and best-seller lists from Amazon's public pages on
 * each marketplace; full review pages with the operator's signed-in session.
 */
import { AMAZON } from '../../catalogue/endpoints/amazon.js';
import { PAGE_TOKEN } from '../../catalogue/market.js';
import type { OutputOf } from '../../catalogue/types.js';
import { QuarryError } from '../../errors.js';
import { operation } from '../kit/operation.js';
import { collectPages, readSkipCursor } from '../kit/paging.js';
import { answerFromSamples, type SampleSet } from '../kit/samples.js';
import { changed } from '../kit/read.js';
import type { SourceModule } from '../types.js';
import { bestsellersPage, COOKIE_SETTING, productPage, reviewsPage, searchPage } from './client.js';
import { marketOf, marketOfHost } from './markets.js';
import { bestsellers, hasNextReviews, isSearchPage, parsePage, productFromPage, reviewsOf, searchResults, type AmazonProduct, type AmazonReview } from './normalise.js';
import { productRefOf } from './refs.js';
import bestsellersSamples from './samples/bestsellers.json' with { type: 'json' };
import productSamples from './samples/product.json' with { type: 'json' };
import reviewsSamples from './samples/reviews.json' with { type: 'json' };
import signedInSamples from './samples/reviews-signed-in.json' with { type: 'json' };
import searchSamples from './samples/search.json' with { type: 'json' };

/** Amazon shows at most 20 result pages and 10 review pages. */
const MAX_SEARCH_PAGE = 20;
const MAX_REVIEW_PAGE = 10;

/** An address names its own marketplace; `country` applies to a bare ASIN. */
const targetOf = (product: string, country: string) => {
  const ref = productRefOf(product);
  return { asin: ref.asin, market: ref.market ?? marketOf(country) };
};

const search = operation(AMAZON.search, {
  async run(input, ctx) {
    if (input.priceMin !== undefined && input.priceMax !== undefined && input.priceMin > input.priceMax) {
      throw new QuarryError('invalidRequest', 'priceMin: must not be above priceMax', { retryable: false });
    }
    const market = marketOf(input.country);
    const from = readSkipCursor(input.cursor, PAGE_TOKEN);
    const { items, cursor } = await collectPages<AmazonProduct>(from, input.limit, async (token) => {
      const page = Number(token ?? 1);
      if (page > MAX_SEARCH_PAGE) return { items: [] };
      const root = parsePage((await searchPage({ ...input, market, page }, ctx)).html);
      if (!isSearchPage(root)) throw changed('amazon', 'the search page carries no search results slot');
      const { products, hasNext } = searchResults(root, market);
      return { items: products, ...(hasNext && page < MAX_SEARCH_PAGE ? { token: String(page + 1) } : {}) };
    });
    return { data: { products: items, ...(cursor ? { cursor } : {}) }, ...(items.length ? {} : { free: true }) };
  },
  samples: searchSamples,
});

const product = operation(AMAZON.product, {
  async run(input, ctx) {
    const { asin, market } = targetOf(input.product, input.country);
    const root = parsePage((await productPage(asin, market, input.language, ctx)).html);
    return { data: { product: productFromPage(root, asin, market) } };
  },
  samples: productSamples,
});

const reviews = operation(AMAZON.reviews, {
  async run(input, ctx) {
    const { asin, market } = targetOf(input.product, input.country);
    const cookie = ctx.settings.COOKIE;
    if (!cookie) {
      // Signed out, Amazon shows only the product page's top reviews: one page, filtered here, in Amazon's order.
      if (input.sort === 'newest' || input.cursor !== undefined) {
        throw new QuarryError('sourceUnavailable', `amazon: newest-first and further review pages need a signed-in Amazon session; set ${COOKIE_SETTING}`, { retryable: false });
      }
      const root = parsePage((await productPage(asin, market, input.language, ctx)).html);
      const found = reviewsOf(root, market)
        .filter((r) => (input.rating === undefined || Math.round(r.rating) === input.rating) && (!input.verifiedOnly || r.isVerified))
        .slice(0, input.limit);
      return { data: { product: asin, reviews: found }, ...(found.length ? {} : { free: true }) };
    }
    const from = readSkipCursor(input.cursor, PAGE_TOKEN);
    const { items, cursor } = await collectPages<AmazonReview>(from, input.limit, async (token) => {
      const page = Number(token ?? 1);
      if (page > MAX_REVIEW_PAGE) return { items: [] };
      const root = parsePage((await reviewsPage({ asin, market, language: input.language, sort: input.sort, rating: input.rating, verifiedOnly: input.verifiedOnly, page, cookie }, ctx)).html);
      const found = reviewsOf(root, market);
      return { items: found, ...(found.length && hasNextReviews(root) && page < MAX_REVIEW_PAGE ? { token: String(page + 1) } : {}) };
    }, MAX_REVIEW_PAGE);
    return { data: { product: asin, reviews: items, ...(cursor ? { cursor } : {}) }, ...(items.length ? {} : { free: true }) };
  },
  // Test mode answers as a server with a session would for what only a session serves (newest first, later pages).
  sample(input) {
    const signedIn = input.sort === 'newest' || input.cursor !== undefined;
    return answerFromSamples(AMAZON.reviews, (signedIn ? signedInSamples : reviewsSamples) as SampleSet<OutputOf<typeof AMAZON.reviews>>, input);
  },
});

/** A slug goes under /gp/bestsellers/; an address keeps its own path on its own marketplace. */
function bestsellersTarget(category: string, country: string): { path: string; market: ReturnType<typeof marketOf> } {
  const s = category.trim();
  if (/^https?:\/\//i.test(s) && URL.canParse(s)) {
    const url = new URL(s);
    const market = marketOfHost(url.hostname);
    if (!market || !/\/(?:gp\/bestsellers|zgbs)(?:\/|$)/.test(url.pathname)) {
      throw new QuarryError('invalidRequest', 'category: not an Amazon best-sellers address', { retryable: false });
    }
    return { path: url.pathname, market };
  }
  if (!/^[A-Za-z0-9_-]{1,80}(?:\/[0-9]{1,20})?$/.test(s)) throw new QuarryError('invalidRequest', 'category: give a best-seller slug (electronics, ce-de) or a best-sellers address', { retryable: false });
  return { path: `/gp/bestsellers/${s}`, market: marketOf(country) };
}

const bestsellersOp = operation(AMAZON.bestsellers, {
  async run(input, ctx) {
    const { path, market } = bestsellersTarget(input.category, input.country);
    const root = parsePage((await bestsellersPage(path, market, input.language, ctx)).html);
    const products = bestsellers(root, market);
    if (!products.length) throw changed('amazon', 'the best-seller page carries no ranked products');
    return { data: { category: path, products: products.slice(0, input.limit) } };
  },
  samples: bestsellersSamples,
});

const amazon: SourceModule = {
  id: 'amazon',
  needs: {
    settings: [
      {
        name: 'COOKIE',
        required: false,
        purpose: "the Cookie header of a signed-in Amazon session on the marketplaces asked: amazon.reviews then reads every review page, newest first and by stars; without it, the product page's top reviews",
      },
    ],
    proxy: 'advised',
  },
  operations: [search, product, reviews, bestsellersOp],
};

export default amazon;
