/**
 * eBay, two ways. Keyless, its public pages: search results (`/sch/i.html`, sold listings with `LH_Sold=1&LH_Complete=1`)
 * and listing pages (`/itm/{id}`, read through their schema.org JSON-LD). With the operator's app credentials
 * (`QUARRY_EBAY_CLIENT_ID`, `QUARRY_EBAY_CLIENT_SECRET`), live searches and listings come from the Browse API instead
 * (an application token by the client-credentials grant, cached until it expires); the Browse API has no sold
 * listings, so those always come from the pages. eBay's "Pardon Our Interruption" bot page and its challenge
 * redirects are `sourceRefused`.
 */
import { QuarryError } from '../../errors.js';
import { changed, isObj, type Obj } from '../kit/read.js';
import { refuseWalls } from '../kit/web/walls.js';
import type { SourceContext } from '../types.js';
import type { Site } from './sites.js';

const PAGE_BYTES = 8 * 1024 * 1024;
export const PAGE_SIZE = 60;
export const CREDENTIAL_SETTINGS = ['QUARRY_EBAY_CLIENT_ID', 'QUARRY_EBAY_CLIENT_SECRET'];
const API = 'https://api.ebay.com';
const SCOPE = 'https://api.ebay.com/oauth/api_scope';

export function isWall(url: string, html: string): boolean {
  if (/\/splashui\/(?:challenge|captcha)/.test(url)) return true;
  const head = html.slice(0, 60_000).toLowerCase();
  return head.includes('<title>pardon our interruption') || head.includes('pardon our interruption...') || head.includes('/splashui/challenge');
}

async function page(url: string, ctx: SourceContext, passStatuses: number[] = []): Promise<{ status: number; url: string; html: string }> {
  const res = await ctx.http.request({ url, headers: { accept: 'text/html,application/xhtml+xml' }, maxBytes: PAGE_BYTES, passStatuses }, ctx.signal);
  const html = res.text();
  if (isWall(res.url, html)) throw new QuarryError('sourceRefused', 'ebay: eBay answered its "Pardon Our Interruption" check instead of the page');
  refuseWalls('ebay', res.headers, html);
  return { status: res.status, url: res.url, html };
}

export interface SearchQuery {
  query: string;
  site: Site;
  sold: boolean;
  condition: 'any' | 'new' | 'used' | 'refurbished';
  buyingFormat: 'any' | 'auction' | 'buyItNow';
  sort: 'relevance' | 'endingSoon' | 'newest' | 'priceLow' | 'priceHigh';
  priceMin?: number;
  priceMax?: number;
  page: number;
}

/** eBay's condition ids: new, used, and the refurbished grades (certified, excellent, very good, good, seller). */
export const CONDITION_IDS = { new: ['1000'], used: ['3000'], refurbished: ['2000', '2010', '2020', '2030', '2500'] } as const;
const SOP = { relevance: '12', endingSoon: '1', newest: '10', priceLow: '15', priceHigh: '16' } as const;

export async function searchPage(q: SearchQuery, ctx: SourceContext): Promise<string> {
  const params = new URLSearchParams({ _nkw: q.query, _ipg: String(PAGE_SIZE), _sop: SOP[q.sort] });
  if (q.sold) params.set('LH_Sold', '1'), params.set('LH_Complete', '1');
  if (q.condition !== 'any') params.set('LH_ItemCondition', CONDITION_IDS[q.condition].join('|'));
  if (q.buyingFormat === 'auction') params.set('LH_Auction', '1');
  if (q.buyingFormat === 'buyItNow') params.set('LH_BIN', '1');
  if (q.priceMin !== undefined) params.set('_udlo', String(q.priceMin));
  if (q.priceMax !== undefined) params.set('_udhi', String(q.priceMax));
  if (q.page > 1) params.set('_pgn', String(q.page));
  return (await page(`https://${q.site.host}/sch/i.html?${params}`, ctx)).html;
}

/** A listing page; an item eBay does not know is `notFound` (its 404, or its "page is missing" answer). */
export async function itemPage(id: string, site: Site, ctx: SourceContext): Promise<string> {
  const p = await page(`https://${site.host}/itm/${id}`, ctx, [404, 410]);
  if (p.status === 404 || p.status === 410) throw new QuarryError('notFound', `ebay: no listing ${id} on ${site.host}`);
  return p.html;
}

// The Browse API, with the operator's app credentials.

export const hasCredentials = (ctx: SourceContext): boolean => !!(ctx.settings.CLIENT_ID && ctx.settings.CLIENT_SECRET);

const tokens = new Map<string, { token: string; until: number }>();

async function appToken(ctx: SourceContext): Promise<string> {
  const id = ctx.settings.CLIENT_ID!;
  const cached = tokens.get(id);
  if (cached && cached.until > Date.now()) return cached.token;
  const res = await ctx.http.request(
    {
      url: `${API}/identity/v1/oauth2/token`,
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${id}:${ctx.settings.CLIENT_SECRET}`).toString('base64')}`,
      },
      body: `grant_type=client_credentials&scope=${encodeURIComponent(SCOPE)}`,
      passStatuses: [400, 401],
    },
    ctx.signal,
  );
  const body = res.json<Obj>();
  if (res.status !== 200 || typeof body.access_token !== 'string') {
    throw new QuarryError('sourceUnavailable', `ebay: eBay refused the operator's app credentials (${String(body.error ?? res.status)}); check ${CREDENTIAL_SETTINGS.join(' and ')}`, { retryable: false });
  }
  const seconds = typeof body.expires_in === 'number' ? body.expires_in : 7200;
  tokens.set(id, { token: body.access_token, until: Date.now() + Math.max(60, seconds - 120) * 1000 });
  return body.access_token;
}

async function api(path: string, site: Site, ctx: SourceContext, pass: number[] = []): Promise<{ status: number; body: Obj }> {
  const token = await appToken(ctx);
  const res = await ctx.http.request(
    { url: `${API}${path}`, headers: { authorization: `Bearer ${token}`, 'x-ebay-c-marketplace-id': site.marketplace, accept: 'application/json' }, passStatuses: [401, ...pass] },
    ctx.signal,
  );
  if (res.status === 401) {
    tokens.delete(ctx.settings.CLIENT_ID!);
    throw new QuarryError('sourceUnavailable', `ebay: eBay refused the application token; check ${CREDENTIAL_SETTINGS.join(' and ')}`, { retryable: false });
  }
  const body = res.json<unknown>();
  if (!isObj(body)) throw changed('ebay', 'the Browse API answered no JSON object');
  return { status: res.status, body };
}

const API_SORT = { relevance: undefined, endingSoon: 'endingSoonest', newest: 'newlyListed', priceLow: 'price', priceHigh: '-price' } as const;

export async function apiSearch(q: SearchQuery, ctx: SourceContext): Promise<Obj> {
  const filters: string[] = [];
  if (q.priceMin !== undefined || q.priceMax !== undefined) {
    filters.push(`price:[${q.priceMin ?? ''}..${q.priceMax ?? ''}]`, `priceCurrency:${q.site.currency}`);
  }
  if (q.condition !== 'any') filters.push(`conditionIds:{${CONDITION_IDS[q.condition].join('|')}}`);
  if (q.buyingFormat !== 'any') filters.push(`buyingOptions:{${q.buyingFormat === 'auction' ? 'AUCTION' : 'FIXED_PRICE'}}`);
  const params = new URLSearchParams({ q: q.query, limit: String(PAGE_SIZE), offset: String((q.page - 1) * PAGE_SIZE) });
  if (API_SORT[q.sort]) params.set('sort', API_SORT[q.sort]!);
  if (filters.length) params.set('filter', filters.join(','));
  return (await api(`/buy/browse/v1/item_summary/search?${params}`, q.site, ctx)).body;
}

export async function apiItem(id: string, site: Site, ctx: SourceContext): Promise<Obj> {
  const { status, body } = await api(`/buy/browse/v1/item/get_item_by_legacy_id?legacy_item_id=${id}`, site, ctx, [404]);
  if (status === 404) throw new QuarryError('notFound', `ebay: no listing ${id} (the Browse API knows none)`);
  return body;
}

/** Forgets cached application tokens (tests). */
export const forgetTokens = (): void => tokens.clear();
