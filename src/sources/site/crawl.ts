/**
 * The fallback of site.map when a site has no usable sitemap: a breadth-first crawl (the kit's bounded crawler, in
 * discovery order) of same-site `<a href>` links from the start page, bounded in depth, pages fetched, addresses kept
 * and time, that never fetches what robots.txt disallows, plus the entries of the RSS/Atom feeds the start page
 * announces. Deterministic for a given site: pages are listed in discovery order, so a cursor offset names the same
 * page on the next call.
 */
import { isQuarryError } from '../../errors.js';
import { crawl, Frontier, type Candidate } from '../kit/web/crawl.js';
import { HTML_ACCEPT, type Budget, type Fetcher } from '../kit/web/fetch.js';
import { contentType, pageText } from '../kit/web/page.js';
import type { Robots } from '../kit/web/robots.js';
import { scanTags } from '../kit/web/tags.js';
import { sameSite } from './address.js';
import { parseSitemap, SitemapError } from './sitemap.js';

export const CRAWL_LIMITS = {
  maxDepth: 3,
  maxFetches: 30,
  maxPages: 5000,
  maxFeeds: 2,
  pageBytes: 2 * 1024 * 1024,
  parallel: 4,
};

/** Addresses that are files, not pages: listed when linked, never fetched. */
const ASSET =
  /\.(?:jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|pdf|zip|gz|tgz|rar|7z|mp[34]|m4[av]|mov|avi|webm|ogg|wav|flac|css|js|mjs|json|xml|txt|csv|xlsx?|docx?|pptx?|exe|dmg|apk|woff2?|ttf|eot)$/i;

export interface CrawledPage {
  url: string;
  depth: number;
  status?: number;
  title?: string;
  lastModified?: string;
}

export interface CrawlResult {
  pages: CrawledPage[];
  fetched: number;
}

export interface CrawlOptions {
  start: URL;
  robots?: Robots;
  fetcher: Fetcher;
  budget: Budget;
}

export interface PageLinks {
  links: string[];
  feeds: string[];
  title?: string;
  nofollow: boolean;
}

/** Links, feed addresses, title and meta robots nofollow of one HTML page, read by the kit's linear tag scanner. */
export function readLinks(html: string, pageUrl: string): PageLinks {
  let base = pageUrl;
  const hrefs: string[] = [];
  const feeds: string[] = [];
  let title: string | undefined;
  let nofollow = false;
  scanTags(html, { names: ['base', 'a', 'area', 'link', 'meta', 'title'], withText: ['title'] }, ({ name, attrs: a, text }) => {
    if (name === 'base' && a.href && URL.canParse(a.href, pageUrl)) base = new URL(a.href, pageUrl).href;
    else if ((name === 'a' || name === 'area') && a.href && !/\bnofollow\b/i.test(a.rel ?? '')) hrefs.push(a.href);
    else if (name === 'link' && /\balternate\b/i.test(a.rel ?? '') && /(rss|atom)\+xml/i.test(a.type ?? '') && a.href) feeds.push(a.href);
    else if (name === 'meta' && /^robots$/i.test(a.name ?? '') && /\b(nofollow|none)\b/i.test(a.content ?? '')) nofollow = true;
    else if (name === 'title' && title === undefined) title = text;
  });
  const resolve = (h: string) => absolute(h.trim(), base);
  return {
    links: hrefs.map(resolve).filter((u): u is string => !!u),
    feeds: feeds.map(resolve).filter((u): u is string => !!u),
    ...(title?.trim() ? { title: title.replace(/\s+/g, ' ').trim() } : {}),
    nofollow,
  };
}

function absolute(href: string, base: string): string | undefined {
  if (!href || href.startsWith('#') || /^(?:javascript|mailto|tel|data):/i.test(href)) return undefined;
  try {
    const url = new URL(href, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

export async function crawlSite({ start, robots, fetcher, budget }: CrawlOptions): Promise<CrawlResult> {
  const L = CRAWL_LIMITS;
  // The frontier is the listing: every address found, in discovery order; what a fetch learnt is kept beside it.
  const frontier = new Frontier({ order: 'discovery', capacity: L.maxPages, key: (u) => u.href });
  const facts = new Map<string, Omit<CrawledPage, 'url' | 'depth'>>();
  const site = new URL(start.href);
  frontier.offer(new URL(start.href), { depth: 0 });
  let feeds: string[] = [];
  const { fetched } = await crawl<PageAnswer | undefined>({
    frontier,
    parallel: L.parallel,
    maxFetches: L.maxFetches,
    stop: () => budget.spent(),
    admit: (c) => c.depth < L.maxDepth && !ASSET.test(c.url.pathname) && (!robots || robots.allows(c.url)),
    visit: (c) => fetchPage(c, fetcher, facts),
    onResult(page, answer) {
      if (!answer) return;
      if (answer.error && page.depth === 0) throw answer.error; // the start page itself cannot be reached
      if (page.depth === 0 && answer.finalUrl && sameSite(new URL(answer.finalUrl), site)) {
        // http → https or apex → www: links are judged against the site the start page landed on.
        site.protocol = new URL(answer.finalUrl).protocol;
        site.hostname = new URL(answer.finalUrl).hostname;
      }
      if (!answer.links) return;
      if (page.depth === 0) feeds = answer.links.feeds;
      if (answer.links.nofollow) return;
      for (const link of answer.links.links) if (sameSite(new URL(link), site)) frontier.offer(new URL(link), { depth: page.depth + 1 });
    },
  });
  let feedsRead = 0;
  for (const feed of feeds.slice(0, L.maxFeeds)) {
    if (budget.spent() || !sameSite(new URL(feed), site)) continue;
    feedsRead++;
    for (const entry of await readFeed(feed, fetcher)) {
      if (!sameSite(new URL(entry.url), site)) continue;
      const page = frontier.offer(new URL(entry.url), { depth: 1 });
      if (!page || !entry.lastModified) continue;
      const known = facts.get(page.key) ?? {};
      if (!known.lastModified) facts.set(page.key, { ...known, lastModified: entry.lastModified });
    }
  }
  const pages = frontier.all().map((c) => ({ url: c.url.href, depth: c.depth, ...facts.get(c.key) }));
  return { pages, fetched: fetched + feedsRead };
}

interface PageAnswer {
  finalUrl?: string;
  links?: PageLinks;
  error?: unknown;
}

async function fetchPage(page: Candidate, fetcher: Fetcher, facts: Map<string, Omit<CrawledPage, 'url' | 'depth'>>): Promise<PageAnswer | undefined> {
  try {
    const res = await fetcher(page.url.href, { maxBytes: CRAWL_LIMITS.pageBytes, accept: HTML_ACCEPT });
    const learnt: Omit<CrawledPage, 'url' | 'depth'> = { status: res.status };
    facts.set(page.key, learnt);
    const modified = res.headers['last-modified'] && Date.parse(res.headers['last-modified']);
    if (modified) learnt.lastModified = new Date(modified).toISOString();
    if (res.status !== 200 || !/html/.test(contentType(res.headers) || 'text/html')) return { finalUrl: res.url };
    const links = readLinks(pageText(res), res.url);
    if (links.title) learnt.title = links.title;
    return { finalUrl: res.url, links };
  } catch (e) {
    // A refused or unreachable start page fails the call; an oversized one, or any later page, is just listed
    // without a status.
    if (page.depth === 0 && !(isQuarryError(e) && e.code === 'sourceChanged')) return { error: e };
    return undefined;
  }
}

async function readFeed(url: string, fetcher: Fetcher): Promise<{ url: string; lastModified?: string }[]> {
  try {
    const res = await fetcher(url, { maxBytes: CRAWL_LIMITS.pageBytes, accept: 'application/rss+xml,application/atom+xml;q=0.9,*/*;q=0.1' });
    if (res.status !== 200) return [];
    return (await parseSitemap(res.body, res.url)).pages;
  } catch (e) {
    if (e instanceof SitemapError || isQuarryError(e)) return [];
    throw e;
  }
}
