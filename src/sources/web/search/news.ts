/**
 * web.news backends:
 * - Google News' RSS (`news.google.com/rss/search?q&hl&gl&ceid`, topic sections `/rss/headlines/section/topic/X`,
 *   top stories `/rss`): keyless, about 100 items, no paging. Its feed terms allow personal feed readers only, so it
 *   is used only when the operator lists `google-news` in QUARRY_WEB_NEWS_BACKENDS. Query operators: `when:`,
 *   `after:`/`before:`, `site:`. Item titles end in " - Publisher"; links are Google redirects.
 * - SearXNG's news category (the operator's instance).
 * - The operator's own feeds (QUARRY_WEB_NEWS_FEEDS): each fetched, its items matched against the query's words.
 */
import { QuarryError } from '../../../errors.js';
import type { SourceContext } from '../../types.js';
import { domainOf, siteTerms, type Filters, type Window } from './filters.js';
import { decodeFeed, readFeed, type FeedItem } from './feed.js';

export const GOOGLE_NEWS = 'https://news.google.com';
const MAX_FEEDS = 20;
/** Google's `when:` takes hours and days; longer windows become `after:`. */
const WHEN: Partial<Record<Window, string>> = { hour: 'when:1h', day: 'when:1d', week: 'when:7d' };

export interface NewsQuery extends Filters {
  query?: string;
  topic?: string;
  country?: string;
  language?: string;
}

/** Google's locale: hl=en-US, gl=US, ceid=US:en by default; a language alone keeps the US edition. */
export function googleLocale(country?: string, language?: string): URLSearchParams {
  const gl = (country ?? 'us').toUpperCase();
  const lang = language ?? 'en';
  const primary = lang.split('-')[0];
  const hl = lang.includes('-') ? `${primary}-${lang.split('-')[1].toUpperCase()}` : `${primary}-${gl}`;
  return new URLSearchParams({ hl, gl, ceid: `${gl}:${primary}` });
}

const DAY = 86_400_000;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Google's operators for the filters: `site:`, `after:`/`before:` (exclusive), `when:` for the short windows. */
export function googleOperators(q: NewsQuery, now = Date.now()): string {
  const since = q.within === 'month' ? now - 31 * DAY : q.within === 'year' ? now - 366 * DAY : undefined;
  const after = [q.from ? Date.parse(`${q.from}T00:00:00Z`) : undefined, since].filter((n): n is number => n !== undefined);
  return [
    siteTerms(q),
    after.length ? `after:${isoDay(Math.max(...after))}` : '',
    // `before:` is exclusive: the day after `to` keeps `to` itself.
    q.to ? `before:${isoDay(Date.parse(`${q.to}T00:00:00Z`) + DAY)}` : '',
    WHEN[q.within] ?? '',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * The feed for a query (with the operators), else a topic section (which cannot be searched: the filters are then
 * checked on its items), else the operators alone, else the top stories.
 */
export function googleNewsUrl(q: NewsQuery, now = Date.now()): string {
  const locale = googleLocale(q.country, q.language);
  const operators = googleOperators(q, now);
  if (q.query) return `${GOOGLE_NEWS}/rss/search?${new URLSearchParams({ q: [q.query, operators].filter(Boolean).join(' ') })}&${locale}`;
  if (q.topic) return `${GOOGLE_NEWS}/rss/headlines/section/topic/${q.topic.toUpperCase()}?${locale}`;
  if (operators) return `${GOOGLE_NEWS}/rss/search?${new URLSearchParams({ q: operators })}&${locale}`;
  return `${GOOGLE_NEWS}/rss?${locale}`;
}

async function fetchFeed(ctx: SourceContext, url: string, userSupplied: boolean): Promise<FeedItem[]> {
  const res = await ctx.http.request(
    { url, headers: { accept: 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.8' }, maxBytes: 8 * 1024 * 1024, userSupplied },
    ctx.signal,
  );
  const feed = readFeed(decodeFeed(res.body, res.headers['content-type']));
  if (!feed) throw new QuarryError('sourceChanged', `web: ${new URL(url).host} answered something other than an RSS or Atom feed`);
  return feed.items;
}

/** Google News: items with the publisher split off the title. */
export async function googleNews(ctx: SourceContext, q: NewsQuery): Promise<FeedItem[]> {
  const items = await fetchFeed(ctx, googleNewsUrl(q), false);
  return items.map((item) => {
    const name = item.source?.name;
    const suffix = name ? ` - ${name}` : undefined;
    // The description only repeats the headline and the publisher as links: no snippet.
    const bare = { ...item, description: undefined };
    return suffix && item.title.endsWith(suffix) && item.title.length > suffix.length ? { ...bare, title: item.title.slice(0, -suffix.length) } : bare;
  });
}

/** The words of a query, lower-cased; quoted phrases stay whole. */
export function queryWords(query: string): string[] {
  return [...query.toLowerCase().matchAll(/"([^"]+)"|(\S+)/g)].map((m) => (m[1] ?? m[2]).trim()).filter(Boolean).slice(0, 30);
}

/** The operator's feeds, fetched together; an item is kept when every query word is in its title or summary. */
export async function operatorFeeds(ctx: SourceContext, urls: string[], q: NewsQuery): Promise<FeedItem[]> {
  const words = q.query ? queryWords(q.query) : [];
  const results = await Promise.allSettled(urls.slice(0, MAX_FEEDS).map((u) => fetchFeed(ctx, u, true)));
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length === results.length && failed.length) throw (failed[0] as PromiseRejectedResult).reason;
  for (const f of failed) ctx.log.warn({ reason: String((f as PromiseRejectedResult).reason?.message ?? f) }, 'web.news: a configured feed failed');
  const items = results.flatMap((r, i) =>
    r.status === 'fulfilled' ? r.value.map((item) => ({ ...item, source: item.source ?? { name: domainOf(urls[i]) ?? urls[i], url: new URL(urls[i]).origin } })) : [],
  );
  const matching = items.filter((item) => {
    const text = `${item.title} ${item.description ?? ''}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
  // Newest first across feeds; undated items last.
  return matching.sort((a, b) => (Date.parse(b.publishedAt ?? '') || 0) - (Date.parse(a.publishedAt ?? '') || 0));
}
