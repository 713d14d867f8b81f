/**
 * Walmart.com's public pages, which carry their whole state in `__NEXT_DATA__`: search (`/search?q=`,
 * `props.pageProps.initialData.searchResult`), products (`/ip/{id}`, `…initialData.data.product`) and reviews
 * (`/reviews/product/{id}`, `…initialData.data.reviews`). Walmart's PerimeterX wall ("Robot or human?", a
 * `px-captcha` box, read by kit/web/walls.ts, and the `/blocked` page it redirects to) is `sourceRefused`; an unknown
 * item is its 404.
 */
import { QuarryError } from '../../errors.js';
import { scriptJsonById } from '../kit/embedded.js';
import { refuseWalls } from '../kit/web/walls.js';
import { changed, obj, type Obj } from '../kit/read.js';
import type { SourceContext } from '../types.js';

const WALMART = 'https://www.walmart.com';
const PAGE_BYTES = 8 * 1024 * 1024;

export function isWall(url: string, html: string): boolean {
  if (/^\/blocked\b/.test(URL.canParse(url) ? new URL(url).pathname : '')) return true;
  const head = html.slice(0, 200_000).toLowerCase();
  return head.includes('robot or human?');
}

/** The page's `props.pageProps.initialData`, or `notFound` for a 404. */
async function initialData(url: string, ctx: SourceContext, what: string): Promise<Obj> {
  const res = await ctx.http.request({ url, headers: { accept: 'text/html,application/xhtml+xml', 'accept-language': 'en-US,en;q=0.9' }, maxBytes: PAGE_BYTES, passStatuses: [404] }, ctx.signal);
  const html = res.text();
  if (isWall(res.url, html)) throw new QuarryError('sourceRefused', 'walmart: Walmart answered its "Robot or human?" check instead of the page');
  refuseWalls('walmart', res.headers, html);
  if (res.status === 404) throw new QuarryError('notFound', `walmart: no ${what}`);
  const data = obj(obj(obj(obj(scriptJsonById(html, '__NEXT_DATA__'))?.props)?.pageProps)?.initialData);
  if (!data) throw changed('walmart', `the ${what} page carries no __NEXT_DATA__ initialData`);
  return data;
}

const SORT = { relevance: 'best_match', priceLow: 'price_low', priceHigh: 'price_high', bestSelling: 'best_seller', rating: 'rating_high', newest: 'new' } as const;

export async function searchData(
  q: { query: string; sort: keyof typeof SORT; priceMin?: number; priceMax?: number; page: number },
  ctx: SourceContext,
): Promise<Obj> {
  const params = new URLSearchParams({ q: q.query });
  if (q.sort !== 'relevance') params.set('sort', SORT[q.sort]);
  if (q.priceMin !== undefined) params.set('min_price', String(q.priceMin));
  if (q.priceMax !== undefined) params.set('max_price', String(q.priceMax));
  if (q.page > 1) params.set('page', String(q.page));
  return initialData(`${WALMART}/search?${params}`, ctx, `search page for "${q.query}"`);
}

export async function productData(id: string, ctx: SourceContext): Promise<Obj> {
  return initialData(`${WALMART}/ip/${id}`, ctx, `product ${id} on walmart.com`);
}

const REVIEW_SORT = { relevant: 'relevancy', newest: 'submission-desc', oldest: 'submission-asc', ratingHigh: 'rating-desc', ratingLow: 'rating-asc', helpful: 'helpful' } as const;

export async function reviewsData(
  r: { id: string; sort: keyof typeof REVIEW_SORT; rating?: number; page: number },
  ctx: SourceContext,
): Promise<Obj> {
  const params = new URLSearchParams({ sort: REVIEW_SORT[r.sort] });
  if (r.rating) params.set('ratings', String(r.rating));
  if (r.page > 1) params.set('page', String(r.page));
  return initialData(`${WALMART}/reviews/product/${r.id}?${params}`, ctx, `product ${r.id} on walmart.com`);
}

/** An item id, or a walmart.com /ip/ or /reviews/product/ address. */
export function itemIdOf(input: string, field = 'product'): string {
  const s = input.trim();
  if (/^\d{4,15}$/.test(s)) return s;
  if (/^https?:\/\//i.test(s) && URL.canParse(s)) {
    const url = new URL(s);
    const m = /\/(?:ip(?:\/[^/]+)?|reviews\/product)\/(\d{4,15})(?:[/?#]|$)/.exec(url.pathname);
    if (/(?:^|\.)walmart\.com$/i.test(url.hostname) && m) return m[1];
  }
  throw new QuarryError('invalidRequest', `${field}: give a Walmart item id or a walmart.com product address`, { retryable: false });
}
