/**
 * Etsy, two ways. Etsy's Open API v3 with the operator's app key (`QUARRY_ETSY_API_KEY`, sent as `x-api-key`; the
 * public listing and shop reads need no OAuth): active-listing search, listings with their images and shop, shops by
 * id or name. Without a key, a listing is read from its public page's schema.org Product; search and shops need the
 * key (`sourceUnavailable` naming it). Etsy's DataDome wall (kit/web/walls.ts) is `sourceRefused`.
 */
import { QuarryError } from '../../errors.js';
import { changed, isObj, type Obj } from '../kit/read.js';
import { refuseWalls } from '../kit/web/walls.js';
import type { SourceContext } from '../types.js';

const API = 'https://openapi.etsy.com/v3/application';
export const KEY_SETTING = 'QUARRY_ETSY_API_KEY';

export const hasKey = (ctx: SourceContext): boolean => !!ctx.settings.API_KEY;

export function needKey(ctx: SourceContext, what: string): string {
  const key = ctx.settings.API_KEY;
  if (!key) throw new QuarryError('sourceUnavailable', `etsy: ${what} needs Etsy's Open API; set ${KEY_SETTING}`, { retryable: false });
  return key;
}

async function api(path: string, ctx: SourceContext, what: string): Promise<{ status: number; body: Obj }> {
  const key = needKey(ctx, what);
  const res = await ctx.http.request({ url: `${API}${path}`, headers: { 'x-api-key': key, accept: 'application/json' }, passStatuses: [400, 401, 403, 404] }, ctx.signal);
  const body = res.json<unknown>();
  if (!isObj(body)) throw changed('etsy', 'the Open API answered no JSON object');
  if (res.status === 401 || res.status === 403) {
    throw new QuarryError('sourceUnavailable', `etsy: Etsy refused the operator's API key (${String(body.error ?? res.status)}); check ${KEY_SETTING}`, { retryable: false });
  }
  if (res.status === 400) throw new QuarryError('invalidRequest', `etsy: Etsy refused the request: ${String(body.error ?? 'bad request').slice(0, 200)}`, { retryable: false });
  return { status: res.status, body };
}

const SORT = { relevance: ['score', 'desc'], newest: ['created', 'desc'], priceLow: ['price', 'asc'], priceHigh: ['price', 'desc'] } as const;

export async function searchListings(
  q: { query: string; sort: keyof typeof SORT; priceMin?: number; priceMax?: number; location?: string; limit: number; offset: number },
  ctx: SourceContext,
): Promise<Obj> {
  const [on, order] = SORT[q.sort];
  const params = new URLSearchParams({ keywords: q.query, limit: String(q.limit), offset: String(q.offset), sort_on: on, sort_order: order });
  if (q.priceMin !== undefined) params.set('min_price', String(q.priceMin));
  if (q.priceMax !== undefined) params.set('max_price', String(q.priceMax));
  if (q.location) params.set('shop_location', q.location);
  return (await api(`/listings/active?${params}`, ctx, 'search')).body;
}

/** Several listings with their images (one request), for search results. */
export async function listingsWithImages(ids: string[], ctx: SourceContext): Promise<Obj> {
  return (await api(`/listings/batch?listing_ids=${ids.join(',')}&includes=Images`, ctx, 'search')).body;
}

export async function listing(id: string, ctx: SourceContext): Promise<Obj> {
  const { status, body } = await api(`/listings/${id}?includes=Images,Shop`, ctx, 'a listing');
  if (status === 404) throw new QuarryError('notFound', `etsy: no listing ${id}`);
  return body;
}

export async function shopById(id: string, ctx: SourceContext): Promise<Obj> {
  const { status, body } = await api(`/shops/${id}`, ctx, 'a shop');
  if (status === 404) throw new QuarryError('notFound', `etsy: no shop ${id}`);
  return body;
}

export async function shopsByName(name: string, ctx: SourceContext): Promise<Obj> {
  return (await api(`/shops?shop_name=${encodeURIComponent(name)}&limit=25`, ctx, 'a shop')).body;
}

/** The public listing page (keyless path); an unknown listing is `notFound`. */
export async function listingPage(id: string, ctx: SourceContext): Promise<string> {
  const res = await ctx.http.request(
    { url: `https://www.etsy.com/listing/${id}`, headers: { accept: 'text/html,application/xhtml+xml', 'accept-language': 'en-US,en;q=0.9' }, maxBytes: 6 * 1024 * 1024, passStatuses: [404, 410] },
    ctx.signal,
  );
  const html = res.text();
  refuseWalls('etsy', res.headers, html);
  if (res.status === 404 || res.status === 410) throw new QuarryError('notFound', `etsy: no listing ${id}`);
  return html;
}
