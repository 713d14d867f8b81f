/**
 * Zillow's public pages, read through their `__NEXT_DATA__`. A search is the results page Zillow serves for a place
 * typed in its search box (`/homes/for_rent/04011_rb/`, page N at `…_rb/N_p/`): its `searchPageState` holds the
 * query Zillow resolved and `cat1.searchResults.listResults`, the cards the page shows (recorded: a rental search of
 * ZIP 04011, shared/upstream/zillow). A home is its `/homedetails/{zpid}_zpid/` page, whose `gdpClientCache` (a JSON
 * string inside `__NEXT_DATA__`) holds the property (the shape scrapfly/scrapfly-scrapers' Zillow scraper reads; no
 * home page is recorded). Zillow runs PerimeterX: its "Press & Hold" page is `sourceRefused`.
 */
import { QuarryError } from '../../errors.js';
import { scriptJsonById } from '../kit/embedded.js';
import { isObj, obj, type Obj } from '../kit/read.js';
import { refuseWalls } from '../kit/web/walls.js';
import type { SourceContext } from '../types.js';

export const WEB = 'https://www.zillow.com';
const PAGE_MAX_BYTES = 8 * 1024 * 1024;
const HEADERS = { accept: 'text/html,application/xhtml+xml', 'accept-language': 'en-US,en;q=0.9' };

/** The path segment of each status Zillow's search box uses. */
export const STATUS_PATHS = { forSale: 'for_sale', forRent: 'for_rent', sold: 'recently_sold' } as const;

/** A place as Zillow's search box takes it in an address: words joined by `-`, commas kept. */
export function searchPath(location: string, status: keyof typeof STATUS_PATHS, page: number): string {
  const term = encodeURIComponent(location.trim().replace(/\s+/g, '-')).replace(/%2C/gi, ',');
  return `/homes/${STATUS_PATHS[status]}/${term}_rb/${page > 1 ? `${page}_p/` : ''}`;
}

async function page(url: string, what: string, ctx: SourceContext): Promise<{ status: number; html: string }> {
  const res = await ctx.http.request({ url, headers: HEADERS, maxBytes: PAGE_MAX_BYTES, passStatuses: [403, 404, 410, 429] }, ctx.signal);
  const html = res.text();
  refuseWalls('zillow', res.headers, html);
  if (res.status === 403 || res.status === 429) throw new QuarryError('sourceRefused', `zillow: Zillow refused the ${what} (HTTP ${res.status})`);
  return { status: res.status, html };
}

/** The search page's `searchPageState`. */
export async function searchPage(location: string, status: keyof typeof STATUS_PATHS, n: number, ctx: SourceContext): Promise<Obj> {
  const { status: code, html } = await page(`${WEB}${searchPath(location, status, n)}`, 'search', ctx);
  if (code === 404 || code === 410) throw new QuarryError('notFound', `zillow: Zillow knows no place "${location}"`);
  const state = obj(obj(obj(obj(scriptJsonById(html, '__NEXT_DATA__'))?.props)?.pageProps)?.searchPageState);
  if (!state) throw new QuarryError('sourceChanged', 'zillow: the search page carries no __NEXT_DATA__ searchPageState');
  return state;
}

/** The property object of a home page (`gdpClientCache`, or the older `hdpApolloPreloadedData` cache). */
export async function homePage(zpid: string, ctx: SourceContext): Promise<Obj> {
  const { status, html } = await page(`${WEB}/homedetails/${zpid}_zpid/`, 'home page', ctx);
  if (status === 404 || status === 410) throw new QuarryError('notFound', `zillow: no home with zpid ${zpid}`);
  const props = obj(obj(obj(scriptJsonById(html, '__NEXT_DATA__'))?.props)?.pageProps);
  const cache = parseCache(obj(props?.componentProps)?.gdpClientCache) ?? parseCache(obj(scriptJsonById(html, 'hdpApolloPreloadedData'))?.apiCache);
  // The cache holds a few queries' answers; the full render's property is the one with the most fields.
  let property: Obj | undefined;
  for (const v of Object.values(cache ?? {})) {
    const p = obj(obj(v)?.property);
    if (p && Object.keys(p).length > Object.keys(property ?? {}).length) property = p;
  }
  if (!property) throw new QuarryError('sourceChanged', 'zillow: the home page carries no gdpClientCache property');
  return property;
}

/** The caches are JSON strings inside the page's JSON. */
function parseCache(v: unknown): Obj | undefined {
  if (isObj(v)) return v;
  if (typeof v !== 'string') return undefined;
  try {
    return obj(JSON.parse(v));
  } catch {
    return undefined;
  }
}
