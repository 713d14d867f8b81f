/**
 * The storefront client: `GET {origin}/meta.json` on the caller's address (SSRF guard on, every redirect checked),
 * plus `/products.json` and `/collections.json` page counts when meta.json does not carry the counts.
 */
import { QuarryError } from '../../errors.js';
import type { SourceContext } from '../types.js';
import type { UpstreamResponse } from '../../upstream/types.js';

const META_MAX_BYTES = 1024 * 1024;
const LIST_MAX_BYTES = 8 * 1024 * 1024;
const PAGE_SIZE = 250;
/** At most this many list pages are read per count (10,000 items); a larger shop reports that floor. */
const MAX_PAGES = 40;
/** Statuses that mean "this site has no storefront meta.json", answered as a non-storefront. */
const NOT_HERE = [400, 401, 403, 404, 405, 406, 410, 451];
const HOST = /^(?=.{1,253}$)(?:[a-z0-9_](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.?$/;

/**
 * The origin to ask: a bare domain (optionally with a path, which is ignored) → `https://domain`; a full http(s)
 * address → its own scheme, host and port.
 */
export function storeOrigin(store: string): string {
  const raw = store.trim();
  let url: URL;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    if (!URL.canParse(raw)) throw new QuarryError('invalidRequest', 'store: not a valid address', { retryable: false });
    url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new QuarryError('invalidRequest', 'store: only http and https addresses are allowed', { retryable: false });
    }
  } else {
    const host = raw.split(/[/?#]/, 1)[0];
    if (!URL.canParse(`https://${host}`)) throw new QuarryError('invalidRequest', 'store: not a domain name', { retryable: false });
    url = new URL(`https://${host}`);
    if (url.port || url.username) throw new QuarryError('invalidRequest', 'store: give a domain, or a full address with its scheme', { retryable: false });
  }
  const host = url.hostname.replace(/\.$/, '');
  if (!HOST.test(host) && !/^\[[0-9a-f:.]+\]$/.test(host) && !/^\d+\.\d+\.\d+\.\d+$/.test(host)) {
    throw new QuarryError('invalidRequest', 'store: not a domain name', { retryable: false });
  }
  return url.origin;
}

export interface StoreAnswers {
  origin: string;
  /** Parsed meta.json, or undefined when the site has none (non-JSON, 404 and the like). */
  meta?: unknown;
  headers: Record<string, string>;
}

export async function fetchMeta(origin: string, ctx: SourceContext): Promise<StoreAnswers> {
  const res = await ctx.http.request(
    {
      url: `${origin}/meta.json`,
      headers: { accept: 'application/json' },
      userSupplied: true,
      maxBytes: META_MAX_BYTES,
      passStatuses: NOT_HERE,
    },
    ctx.signal,
  );
  if ((res.status === 403 || res.status === 401) && looksLikeStorefront(res.headers)) {
    throw new QuarryError('sourceRefused', `shopify: the store refused the request (HTTP ${res.status})`);
  }
  return { origin, meta: res.status === 200 ? parseJson(res) : undefined, headers: res.headers };
}

/** The platform's own response headers (the notes' detection markers when meta.json is unavailable). */
export function looksLikeStorefront(headers: Record<string, string>): boolean {
  return !!headers['x-shopid'] || !!headers['x-shopify-stage'] || /shopify/i.test(headers['powered-by'] ?? '');
}

function parseJson(res: UpstreamResponse): unknown {
  try {
    return JSON.parse(res.text());
  } catch {
    return undefined;
  }
}

/** Items of a paged list (`products` or `collections`), 250 per page, stopping at the first short page. */
export async function countList(origin: string, what: 'products' | 'collections', ctx: SourceContext): Promise<number | undefined> {
  let total = 0;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const res = await ctx.http.request(
      { url: `${origin}/${what}.json?limit=${PAGE_SIZE}&page=${page}`, userSupplied: true, maxBytes: LIST_MAX_BYTES, passStatuses: NOT_HERE },
      ctx.signal,
    );
    if (res.status !== 200) return page === 1 ? undefined : total;
    const items = (parseJson(res) as Record<string, unknown> | undefined)?.[what];
    if (!Array.isArray(items)) return page === 1 ? undefined : total;
    total += items.length;
    if (items.length < PAGE_SIZE) break;
  }
  return total;
}
