/**
 * Amazon's public pages on each marketplace's domain: search results (`/s?k=`), product pages (`/dp/{ASIN}`), best
 * seller lists (`/gp/bestsellers/{slug}`) and, with the operator's signed-in session (`QUARRY_AMAZON_COOKIE`), the
 * review pages (`/product-reviews/{ASIN}`), which Amazon shows signed-in visitors only since late 2024. Amazon's
 * "Robot Check" (its `/errors/validateCaptcha` form) and its automated-access notice are `sourceRefused`, read from the
 * page itself since Amazon serves them with status 200; an unknown ASIN is its 404.
 */
import { QuarryError } from '../../errors.js';
import { refuseWalls } from '../kit/web/walls.js';
import type { SourceContext } from '../types.js';
import type { UpstreamResponse } from '../../upstream/types.js';
import { amazonLanguage, type Market } from './markets.js';

const PAGE_BYTES = 8 * 1024 * 1024;
export const COOKIE_SETTING = 'QUARRY_AMAZON_COOKIE';

/** Markers of Amazon's bot walls, as the pages themselves word them. */
const WALLS = [
  '/errors/validatecaptcha',
  '<title dir="ltr">robot check</title>',
  '<title>robot check</title>',
  'type the characters you see in this image',
  'enter the characters you see below',
  'api-services-support@amazon.com',
  'to discuss automated access to amazon data',
];

export function isWall(html: string): boolean {
  const head = html.slice(0, 60_000).toLowerCase();
  return WALLS.some((w) => head.includes(w));
}

export interface AmazonPage {
  status: number;
  url: string;
  html: string;
}

async function get(url: string, market: Market, ctx: SourceContext, cookie?: string): Promise<AmazonPage> {
  const headers: Record<string, string> = {
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'accept-language': market.country === 'us' ? 'en-US,en;q=0.9' : 'en;q=0.8',
    ...(cookie ? { cookie } : {}),
  };
  const res: UpstreamResponse = await ctx.http.request({ url, headers, maxBytes: PAGE_BYTES, passStatuses: [404] }, ctx.signal);
  const html = res.text();
  if (isWall(html)) throw new QuarryError('sourceRefused', 'amazon: Amazon answered its robot check instead of the page');
  refuseWalls('amazon', res.headers, html);
  return { status: res.status, url: res.url, html };
}

function withLanguage(params: URLSearchParams, language: string | undefined, market: Market): URLSearchParams {
  const lang = amazonLanguage(language, market);
  if (lang) params.set('language', lang);
  return params;
}

const SORT = { relevance: undefined, priceLow: 'price-asc-rank', priceHigh: 'price-desc-rank', rating: 'review-rank', newest: 'date-desc-rank' } as const;

export async function searchPage(
  q: { query: string; market: Market; language?: string; sort: keyof typeof SORT; priceMin?: number; priceMax?: number; page: number },
  ctx: SourceContext,
): Promise<AmazonPage> {
  const params = new URLSearchParams({ k: q.query });
  if (SORT[q.sort]) params.set('s', SORT[q.sort]!);
  if (q.priceMin !== undefined) params.set('low-price', String(q.priceMin));
  if (q.priceMax !== undefined) params.set('high-price', String(q.priceMax));
  if (q.page > 1) params.set('page', String(q.page));
  return get(`https://${q.market.host}/s?${withLanguage(params, q.language, q.market)}`, q.market, ctx);
}

/** A product page; an ASIN Amazon does not know is `notFound`. */
export async function productPage(asin: string, market: Market, language: string | undefined, ctx: SourceContext): Promise<AmazonPage> {
  const params = withLanguage(new URLSearchParams(), language, market);
  const page = await get(`https://${market.host}/dp/${asin}${params.size ? `?${params}` : ''}`, market, ctx);
  if (page.status === 404) throw new QuarryError('notFound', `amazon: no product ${asin} on ${market.host}`);
  return page;
}

/** A best-seller list: a slug under /gp/bestsellers/, or the path of a best-sellers address on the same marketplace. */
export async function bestsellersPage(path: string, market: Market, language: string | undefined, ctx: SourceContext): Promise<AmazonPage> {
  const params = withLanguage(new URLSearchParams(), language, market);
  const page = await get(`https://${market.host}${path}${params.size ? `?${params}` : ''}`, market, ctx);
  if (page.status === 404) throw new QuarryError('notFound', `amazon: no best-seller list at ${path} on ${market.host}`);
  return page;
}

const STARS = ['one_star', 'two_star', 'three_star', 'four_star', 'five_star'];

/** One page of a product's reviews, signed in with the operator's session. */
export async function reviewsPage(
  r: { asin: string; market: Market; language?: string; sort: 'top' | 'newest'; rating?: number; verifiedOnly: boolean; page: number; cookie: string },
  ctx: SourceContext,
): Promise<AmazonPage> {
  const params = new URLSearchParams({ sortBy: r.sort === 'newest' ? 'recent' : 'helpful', pageNumber: String(r.page) });
  params.set('reviewerType', r.verifiedOnly ? 'avp_only_reviews' : 'all_reviews');
  if (r.rating) params.set('filterByStar', STARS[r.rating - 1]);
  const page = await get(`https://${r.market.host}/product-reviews/${r.asin}?${withLanguage(params, r.language, r.market)}`, r.market, ctx, r.cookie);
  if (page.status === 404) throw new QuarryError('notFound', `amazon: no product ${r.asin} on ${r.market.host}`);
  // A session Amazon no longer honours is sent to its sign-in page: the operator's to renew.
  if (/\/ap\/signin/.test(page.url) || /<form[^>]+name="signIn"/i.test(page.html.slice(0, 200_000))) {
    throw new QuarryError('sourceUnavailable', `amazon: Amazon asked the operator's session to sign in again (renew ${COOKIE_SETTING})`, { retryable: false });
  }
  return page;
}
