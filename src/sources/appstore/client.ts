/**
 * Apple's keyless App Store interfaces: the iTunes Search API (`/search`, at most 200 results, no offset) and Lookup
 * API (`/lookup` by id or bundle id), both at itunes.apple.com and answering `{resultCount, results}`; and the
 * customer-review RSS feed in JSON (`/{cc}/rss/customerreviews/page={1-10}/id={id}/sortby=…/json`, 50 reviews a page,
 * at most 10 pages). Apple asks for about 20 calls a minute; a throttled answer (403, 429) is the upstream client's
 * `sourceRefused`.
 */
import { changed, isObj, obj, type Obj } from '../kit/read.js';
import type { SourceContext } from '../types.js';
import type { AppRef } from './refs.js';

const ITUNES = 'https://itunes.apple.com';
const MAX_BYTES = 4 * 1024 * 1024;

export type Device = 'iphone' | 'ipad' | 'mac';
const ENTITY: Record<Device, string> = { iphone: 'software', ipad: 'iPadSoftware', mac: 'macSoftware' };

async function getJson(url: string, ctx: SourceContext): Promise<Obj> {
  const res = await ctx.http.request({ url, headers: { accept: 'application/json' }, maxBytes: MAX_BYTES }, ctx.signal);
  const body = res.json();
  if (!isObj(body)) throw changed('appstore', 'the answer is not a JSON object');
  return body;
}

/** The Lookup API's results for one app (empty when Apple knows no such app in that country). */
export async function lookup(ref: AppRef, country: string, ctx: SourceContext): Promise<unknown[]> {
  const q = 'id' in ref ? `id=${ref.id}` : `bundleId=${encodeURIComponent(ref.bundleId)}`;
  const body = await getJson(`${ITUNES}/lookup?${q}&country=${country.toUpperCase()}&entity=software`, ctx);
  return results(body);
}

/** The Search API's first `count` results (1-200). */
export async function search(
  query: { term: string; country: string; language?: string; device: Device; count: number },
  ctx: SourceContext,
): Promise<unknown[]> {
  const params = new URLSearchParams({ term: query.term, country: query.country.toUpperCase(), entity: ENTITY[query.device], limit: String(query.count) });
  // Apple's `lang` takes a language_country pair (en_us, ja_jp); a bare language is paired with the store's country.
  if (query.language) params.set('lang', query.language.includes('-') ? query.language.replace('-', '_').toLowerCase() : `${query.language}_${query.country}`.toLowerCase());
  return results(await getJson(`${ITUNES}/search?${params}`, ctx));
}

function results(body: Obj): unknown[] {
  if (!Array.isArray(body.results)) throw changed('appstore', 'the answer carries no results list');
  return body.results;
}

/** One page (1-10) of the review feed: its entries and whether a next page exists. */
export async function reviewPage(
  id: string,
  country: string,
  sort: 'newest' | 'helpful',
  page: number,
  ctx: SourceContext,
): Promise<{ entries: Obj[]; hasNext: boolean }> {
  const sortBy = sort === 'helpful' ? 'mosthelpful' : 'mostrecent';
  const body = await getJson(`${ITUNES}/${country.toLowerCase()}/rss/customerreviews/page=${page}/id=${id}/sortby=${sortBy}/json`, ctx);
  const feed = obj(body.feed);
  if (!feed) throw changed('appstore', 'the review feed carries no feed object');
  // One review is an object, several an array, none no `entry` at all.
  const entries = (Array.isArray(feed.entry) ? feed.entry : isObj(feed.entry) ? [feed.entry] : []).filter(isObj);
  const links = (Array.isArray(feed.link) ? feed.link : [feed.link]).map((l) => obj(obj(l)?.attributes));
  const last = links.find((a) => a?.rel === 'last');
  const lastPage = Number(/\/page=(\d+)\//.exec(String(last?.href ?? ''))?.[1] ?? page);
  return { entries, hasNext: entries.length > 0 && page < Math.min(10, lastPage) };
}
