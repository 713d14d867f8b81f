/**
 * The fallback of site.map when a site has no usable sitemap: a breadth-first crawl of same-site `<a href>` links
 * from the start page, bounded in depth, pages fetched, addresses kept and time, that never fetches what robots.txt
 * disallows, plus the entries of the RSS/Atom feeds the start page announces. Deterministic for a given site: pages
 * are listed in discovery order, so a cursor offset names the same page on the next call.
 */
import { isQuarryError } from '../../errors.js';
import { Parser } from 'htmlparser2';
import { contentType, sameSite, type Budget, type Fetcher } from './fetch.js';
import { isAllowed, type Robots } from './robots.js';
import { parseSitemap, SitemapError } from './sitemap.js';

export const CRAWL_LIMITS = {
  maxDepth: 3,
  maxFetches: 30,
  maxPages: 5000,
  maxFeeds: 2,
  pageBytes: 2 * 1024 * 1024,
  parallel: 4,
};
/** The token our crawler answers to in robots.txt (falls back to the `*` group). */
export const CRAWLER_TOKEN = 'quarrybot';

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

/** Links, feed addresses, title and meta robots nofollow of one HTML page, read in one streaming pass. */
export function readLinks(html: string, pageUrl: string): PageLinks {
  let base = pageUrl;
  const hrefs: string[] = [];
  const feeds: string[] = [];
  let title: string | undefined;
  let inTitle = false;
  let nofollow = false;
  const parser = new Parser(
    {
      onopentag(name, a) {
        if (name === 'base' && a.href && URL.canParse(a.href, pageUrl)) base = new URL(a.href, pageUrl).href;
        else if ((name === 'a' || name === 'area') && a.href && !/\bnofollow\b/i.test(a.rel ?? '')) hrefs.push(a.href);
        else if (name === 'link' && /\balternate\b/i.test(a.rel ?? '') && /(rss|atom)\+xml/i.test(a.type ?? '') && a.href) feeds.push(a.href);
        else if (name === 'meta' && /^robots$/i.test(a.name ?? '') && /\b(nofollow|none)\b/i.test(a.content ?? '')) nofollow = true;
        else if (name === 'title' && title === undefined) inTitle = true;
      },
      ontext(text) {
        if (inTitle) title = (title ?? '') + text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
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
  const pages: CrawledPage[] = [];
  const byUrl = new Map<string, CrawledPage>();
  const allowed = (url: URL) => !robots || isAllowed(robots, CRAWLER_TOKEN, url.pathname + url.search);
  const add = (url: string, depth: number): CrawledPage | undefined => {
    if (byUrl.has(url) || pages.length >= L.maxPages) return byUrl.get(url);
    const page: CrawledPage = { url, depth };
    byUrl.set(url, page);
    pages.push(page);
    return page;
  };
  const site = new URL(start.href);
  add(site.href, 0);
  let fetched = 0;
  let feeds: string[] = [];
  // The queue is the page list itself: pages are fetched in discovery order, a batch at a time.
  let cursor = 0;
  while (cursor < pages.length && fetched < L.maxFetches && !budget.spent()) {
    const batch: CrawledPage[] = [];
    for (; cursor < pages.length && batch.length < Math.min(L.parallel, L.maxFetches - fetched); cursor++) {
      const p = pages[cursor];
      const url = new URL(p.url);
      if (p.depth < L.maxDepth && !ASSET.test(url.pathname) && allowed(url)) batch.push(p);
    }
    if (!batch.length) continue;
    fetched += batch.length;
    const answers = await Promise.all(batch.map((p) => fetchPage(p, fetcher)));
    for (let i = 0; i < batch.length; i++) {
      const page = batch[i];
      const answer = answers[i];
      if (!answer) continue;
      if (answer.error && page.depth === 0) throw answer.error; // the start page itself cannot be reached
      if (page.depth === 0 && answer.finalUrl && sameSite(new URL(answer.finalUrl), site)) {
        // http → https or apex → www: links are judged against the site the start page landed on.
        site.protocol = new URL(answer.finalUrl).protocol;
        site.hostname = new URL(answer.finalUrl).hostname;
      }
      if (!answer.links) continue;
      if (page.depth === 0) feeds = answer.links.feeds;
      if (answer.links.nofollow) continue;
      for (const link of answer.links.links) if (sameSite(new URL(link), site)) add(link, page.depth + 1);
    }
  }
  for (const feed of feeds.slice(0, L.maxFeeds)) {
    if (budget.spent() || !sameSite(new URL(feed), site)) continue;
    fetched++;
    for (const entry of await readFeed(feed, fetcher)) {
      if (!sameSite(new URL(entry.url), site)) continue;
      const page = add(entry.url, 1);
      if (page && entry.lastModified && !page.lastModified) page.lastModified = entry.lastModified;
    }
  }
  return { pages, fetched };
}

interface PageAnswer {
  finalUrl?: string;
  links?: PageLinks;
  error?: unknown;
}

async function fetchPage(page: CrawledPage, fetcher: Fetcher): Promise<PageAnswer | undefined> {
  try {
    const res = await fetcher(page.url, { maxBytes: CRAWL_LIMITS.pageBytes, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1' });
    page.status = res.status;
    const modified = res.headers['last-modified'] && Date.parse(res.headers['last-modified']);
    if (modified) page.lastModified = new Date(modified).toISOString();
    if (res.status !== 200 || !/html/.test(contentType(res.headers) || 'text/html')) return { finalUrl: res.url };
    const links = readLinks(res.body.toString('utf8'), res.url);
    if (links.title) page.title = links.title;
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
