/**
 * SearXNG (the operator's own instance, QUARRY_WEB_SEARXNG_URL): `GET /search?q&format=json&pageno&categories&
 * language&time_range`. JSON must be enabled in its settings (`search.formats: [html, json]`), else it answers 403.
 * An instance whose every engine failed answers no results and lists them in `unresponsive_engines`: that is an
 * outage (sourceUnavailable), not an empty result.
 */
import { QuarryError } from '../../../errors.js';
import { arr, isoFromText, obj, objs, str } from '../../kit/read.js';
import type { SourceContext } from '../../types.js';
import { clean, type Window } from './filters.js';
import type { Found, Hit } from './types.js';

const TIME_RANGES: Partial<Record<Window, string>> = { day: 'day', week: 'week', month: 'month', year: 'year' };
const MAX_PAGES = 10;

export interface SearxngQuery {
  q: string;
  category: 'general' | 'news';
  language?: string;
  within: Window;
  limit: number;
}

/** SearXNG's language: `en-US` from a language and a country, or the language alone. */
export function searxngLanguage(language?: string, country?: string): string | undefined {
  if (!language) return undefined;
  const primary = language.split('-')[0];
  return country ? `${primary}-${country.toUpperCase()}` : language;
}

/** One answer's results and notes. */
export function normaliseSearxng(body: unknown): Found & { unresponsive: string[] } {
  const o = obj(body);
  if (!o || !Array.isArray(o.results)) throw new QuarryError('sourceChanged', 'web: SearXNG answer without results (is format=json enabled?)');
  const hits: Hit[] = objs(o.results).flatMap((r) => {
    const url = str(r.url);
    const title = clean(str(r.title));
    if (!url || !title || !/^https?:\/\//i.test(url)) return [];
    const engines = arr(r.engines).flatMap((e) => (str(e) ? [str(e)!] : []));
    return [
      {
        url,
        title,
        snippet: clean(str(r.content)),
        publishedAt: isoFromText(r.publishedDate),
        thumbnail: str(r.thumbnail) ?? str(r.img_src),
        engines: engines.length ? engines : str(r.engine) ? [str(r.engine)!] : undefined,
      },
    ];
  });
  const strings = (v: unknown) => arr(v).flatMap((s) => (typeof s === 'string' && s.trim() ? [s.trim()] : []));
  return {
    hits,
    suggestions: strings(o.suggestions),
    corrections: strings(o.corrections),
    unresponsive: arr(o.unresponsive_engines).flatMap((e) => (Array.isArray(e) && typeof e[0] === 'string' ? [`${e[0]}${typeof e[1] === 'string' ? `: ${e[1]}` : ''}`] : [])),
  };
}

/**
 * Pages through the instance until `enough` says the results suffice or a page brings nothing new. `keepPage` is the
 * caller's filter, so only kept results count towards the limit.
 */
export async function searxng(ctx: SourceContext, base: string, q: SearxngQuery, keepPage: (hits: Hit[]) => Hit[]): Promise<Found> {
  const kept: Hit[] = [];
  const seen = new Set<string>();
  let first: ReturnType<typeof normaliseSearxng> | undefined;
  const pages = Math.min(MAX_PAGES, Math.ceil(q.limit / 10) + 1);
  for (let page = 1; page <= pages && kept.length < q.limit; page++) {
    const query = new URLSearchParams({ q: q.q, format: 'json', pageno: String(page), categories: q.category, safesearch: '0' });
    if (q.language) query.set('language', q.language);
    if (TIME_RANGES[q.within]) query.set('time_range', TIME_RANGES[q.within]!);
    const res = await ctx.http.request({ url: `${base}/search?${query}`, headers: { accept: 'application/json' }, maxBytes: 4 * 1024 * 1024 }, ctx.signal);
    const found = normaliseSearxng(res.json());
    first ??= found;
    if (page === 1 && found.hits.length === 0 && found.unresponsive.length) {
      throw new QuarryError('sourceUnavailable', `web: every SearXNG engine failed (${found.unresponsive.slice(0, 5).join('; ')})`);
    }
    const fresh = found.hits.filter((h) => !seen.has(h.url));
    if (!fresh.length) break;
    for (const h of fresh) seen.add(h.url);
    kept.push(...keepPage(fresh));
  }
  return { hits: kept, suggestions: first?.suggestions, corrections: first?.corrections };
}
