/**
 * web.search and web.news on the backends the operator chooses (QUARRY_WEB_SEARCH_BACKENDS, QUARRY_WEB_NEWS_BACKENDS:
 * comma lists tried in order, the next one taken when one refuses, fails or times out). Defaults: the SearXNG instance
 * when QUARRY_WEB_SEARXNG_URL is set, then Brave when QUARRY_WEB_BRAVE_API_KEY is; for news, SearXNG's news category,
 * then the feeds of QUARRY_WEB_NEWS_FEEDS. HTML engines and Google News' RSS are used only when listed by name.
 * Nothing configured: sourceUnavailable naming what to set.
 */
import { NEWS_BACKENDS, SEARCH_BACKENDS, WEB } from '../../../catalogue/endpoints/web.js';
import type { InputOf, OutputOf } from '../../../catalogue/types.js';
import { QuarryError, isQuarryError } from '../../../errors.js';
import { operation } from '../../kit/operation.js';
import type { OperationResult, SourceContext, SourceNeeds } from '../../types.js';
import newsSamples from '../samples/news.json' with { type: 'json' };
import searchSamples from '../samples/search.json' with { type: 'json' };
import { brave } from './brave.js';
import { engineWindow, htmlEngine, type HtmlEngine } from './engines.js';
import { clean, dateSpan, domainOf, keep, siteTerms, type Filters } from './filters.js';
import type { FeedItem } from './feed.js';
import { googleNews, operatorFeeds } from './news.js';
import { searxng, searxngLanguage } from './searxng.js';
import type { Found, Hit } from './types.js';

type SearchBackend = (typeof SEARCH_BACKENDS)[number];
type NewsBackend = (typeof NEWS_BACKENDS)[number];
type SearchInput = InputOf<typeof WEB.search>;
type NewsInput = InputOf<typeof WEB.news>;
type Article = OutputOf<typeof WEB.news>['articles'][number];

export const SEARCH_SETTINGS: NonNullable<SourceNeeds['settings']> = [
  { name: 'SEARXNG_URL', required: false, purpose: 'base address of your SearXNG instance (JSON format enabled): web.search and web.news' },
  { name: 'BRAVE_API_KEY', required: false, purpose: 'a Brave Search API key: web.search' },
  { name: 'SEARCH_BACKENDS', required: false, purpose: 'web.search backends in order: searxng, brave, duckduckgo, bing, mojeek (HTML engines only when listed)' },
  { name: 'NEWS_BACKENDS', required: false, purpose: 'web.news backends in order: searxng, google-news, feeds (google-news only when listed)' },
  { name: 'NEWS_FEEDS', required: false, purpose: 'comma list of RSS or Atom feed addresses web.news searches' },
];

const unavailable = (message: string) => new QuarryError('sourceUnavailable', message, { retryable: false });
const trimSlash = (s: string): string => s.trim().replace(/\/+$/, '');
const listOf = (v: string | undefined): string[] => (v ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);

function chosen<B extends string>(setting: string, given: string | undefined, allowed: readonly B[], defaults: B[]): B[] {
  if (!given?.trim()) return defaults;
  const names = listOf(given);
  const wrong = names.filter((n) => !allowed.includes(n as B));
  if (wrong.length) throw unavailable(`web: ${setting} names ${wrong.join(', ')}; the choices are ${allowed.join(', ')}`);
  return [...new Set(names)] as B[];
}

/** The web.search backends to try, in order, each with what it needs checked. */
export function searchBackends(settings: SourceContext['settings']): SearchBackend[] {
  const defaults: SearchBackend[] = [...(settings.SEARXNG_URL ? ['searxng' as const] : []), ...(settings.BRAVE_API_KEY ? ['brave' as const] : [])];
  const list = chosen('QUARRY_WEB_SEARCH_BACKENDS', settings.SEARCH_BACKENDS, SEARCH_BACKENDS, defaults);
  if (!list.length) {
    throw unavailable(
      'web.search: no search backend is configured: set QUARRY_WEB_SEARXNG_URL (your SearXNG instance, JSON format enabled) or ' +
        'QUARRY_WEB_BRAVE_API_KEY, or list a keyless HTML engine (duckduckgo, bing, mojeek) in QUARRY_WEB_SEARCH_BACKENDS',
    );
  }
  if (list.includes('searxng') && !settings.SEARXNG_URL) throw unavailable('web.search: the searxng backend needs QUARRY_WEB_SEARXNG_URL');
  if (list.includes('brave') && !settings.BRAVE_API_KEY) throw unavailable('web.search: the brave backend needs QUARRY_WEB_BRAVE_API_KEY');
  return list;
}

/** The web.news backends to try, in order. */
export function newsBackends(settings: SourceContext['settings']): NewsBackend[] {
  const defaults: NewsBackend[] = [...(settings.SEARXNG_URL ? ['searxng' as const] : []), ...(settings.NEWS_FEEDS ? ['feeds' as const] : [])];
  const list = chosen('QUARRY_WEB_NEWS_BACKENDS', settings.NEWS_BACKENDS, NEWS_BACKENDS, defaults);
  if (!list.length) {
    throw unavailable(
      'web.news: no news backend is configured: set QUARRY_WEB_SEARXNG_URL (SearXNG news category) or QUARRY_WEB_NEWS_FEEDS (RSS or Atom ' +
        'feeds), or list google-news in QUARRY_WEB_NEWS_BACKENDS (its feed terms are for personal readers: your call)',
    );
  }
  if (list.includes('searxng') && !settings.SEARXNG_URL) throw unavailable('web.news: the searxng backend needs QUARRY_WEB_SEARXNG_URL');
  if (list.includes('feeds') && !feedUrls(settings).length) throw unavailable('web.news: the feeds backend needs QUARRY_WEB_NEWS_FEEDS');
  return list;
}

function feedUrls(settings: SourceContext['settings']): string[] {
  const urls = (settings.NEWS_FEEDS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const bad = urls.find((u) => !/^https?:\/\/[^\s]+$/i.test(u) || !URL.canParse(u));
  if (bad) throw unavailable(`web.news: QUARRY_WEB_NEWS_FEEDS holds ${bad.slice(0, 100)}, which is not an http(s) address`);
  return urls;
}

/** Errors that another backend may not have: the next one is tried. Drift and the caller's mistakes are not. */
const passOn = (e: unknown): boolean => isQuarryError(e) && (e.code === 'sourceRefused' || e.code === 'sourceUnavailable' || e.code === 'sourceTimeout');

async function firstThatAnswers<B extends string, R>(ctx: SourceContext, what: string, backends: B[], run: (b: B) => Promise<R>): Promise<R> {
  for (const [i, b] of backends.entries()) {
    try {
      return await run(b);
    } catch (e) {
      if (!passOn(e) || i === backends.length - 1) throw e;
      ctx.log.warn({ backend: b, reason: (e as Error).message }, `${what}: backend failed; trying the next one`);
    }
  }
  throw new Error('unreachable: no backend');
}

function filtersOf(input: SearchInput | NewsInput): Filters {
  const f: Filters = { includeDomains: input.includeDomains, excludeDomains: input.excludeDomains, from: input.from, to: input.to, within: input.within };
  dateSpan(f);
  return f;
}

function results(hits: Hit[], limit: number) {
  return hits.slice(0, limit).map((h, i) => ({
    type: 'result' as const,
    position: i + 1,
    url: h.url,
    title: h.title,
    snippet: h.snippet,
    domain: domainOf(h.url),
    publishedAt: h.publishedAt,
    language: h.language,
    thumbnail: h.thumbnail,
    engines: h.engines,
  }));
}

async function runSearch(input: SearchInput, ctx: SourceContext): Promise<OperationResult<OutputOf<typeof WEB.search>>> {
  const backends = searchBackends(ctx.settings);
  const filters = filtersOf(input);
  const q = [input.query, siteTerms(filters)].filter(Boolean).join(' ');
  return firstThatAnswers(ctx, 'web.search', backends, async (backend) => {
    let found: Found;
    if (backend === 'searxng') {
      found = await searxng(
        ctx,
        trimSlash(ctx.settings.SEARXNG_URL!),
        { q, category: 'general', language: searxngLanguage(input.language, input.country), within: input.within, limit: input.limit },
        (hits) => keep(hits, filters, { windowApplied: true }),
      );
    } else if (backend === 'brave') {
      found = await brave(
        ctx,
        ctx.settings.BRAVE_API_KEY!,
        { q, country: input.country, language: input.language, within: input.within, from: input.from, to: input.to, limit: input.limit },
        (hits) => keep(hits, filters, { windowApplied: true }),
      );
    } else {
      const engine = backend as HtmlEngine;
      const page = await htmlEngine(ctx, engine, { q, country: input.country, language: input.language, within: input.within });
      found = { hits: keep(page.hits, filters, { windowApplied: engineWindow(engine, input.within) }) };
    }
    const data = {
      results: results(found.hits, input.limit),
      backend,
      ...(found.suggestions?.length ? { suggestions: found.suggestions.slice(0, 10) } : {}),
      ...(found.corrections?.length ? { corrections: found.corrections.slice(0, 10) } : {}),
    };
    return { data, ...(data.results.length ? {} : { free: true }) };
  });
}

function articleOf(item: FeedItem): Article {
  const sourceUrl = item.source?.url;
  return {
    type: 'article',
    url: item.link,
    title: item.title,
    id: item.id,
    source: item.source ? { name: item.source.name, url: sourceUrl, domain: domainOf(sourceUrl) } : undefined,
    publishedAt: item.publishedAt,
    snippet: clean(item.description, 1000),
    thumbnail: item.thumbnail,
    language: item.language,
  };
}

const checkable = (a: Article) => ({ ...a, sourceUrl: a.source?.url });

async function runNews(input: NewsInput, ctx: SourceContext): Promise<OperationResult<OutputOf<typeof WEB.news>>> {
  const backends = newsBackends(ctx.settings);
  const filters = filtersOf(input);
  const asked = { ...filters, query: input.query, topic: input.topic, country: input.country, language: input.language };
  return firstThatAnswers(ctx, 'web.news', backends, async (backend) => {
    let articles: Article[];
    if (backend === 'google-news') {
      articles = keep((await googleNews(ctx, asked)).map(articleOf).map(checkable), filters, { windowApplied: false });
    } else if (backend === 'feeds') {
      articles = keep((await operatorFeeds(ctx, feedUrls(ctx.settings), asked)).map(articleOf).map(checkable), filters, { windowApplied: false });
    } else {
      const words = input.query ?? input.topic;
      if (!words) throw new QuarryError('invalidRequest', 'query: SearXNG searches news by words: give a query or a topic', { retryable: false });
      const found = await searxng(
        ctx,
        trimSlash(ctx.settings.SEARXNG_URL!),
        { q: [words, siteTerms(filters)].filter(Boolean).join(' '), category: 'news', language: searxngLanguage(input.language, input.country), within: input.within === 'hour' ? 'day' : input.within, limit: input.limit },
        (hits) => keep(hits, filters, { windowApplied: input.within !== 'hour' }),
      );
      articles = found.hits.map((h) => ({ type: 'article', url: h.url, title: h.title, snippet: h.snippet, publishedAt: h.publishedAt, thumbnail: h.thumbnail, source: domainOf(h.url) ? { name: domainOf(h.url)!, domain: domainOf(h.url) } : undefined }));
    }
    const data = { articles: articles.slice(0, input.limit).map(({ sourceUrl: _, ...a }: Article & { sourceUrl?: string }) => a), backend };
    return { data, ...(data.articles.length ? {} : { free: true }) };
  });
}

export const search = operation(WEB.search, { run: runSearch, samples: searchSamples });
export const news = operation(WEB.news, { run: runNews, samples: newsSamples });
