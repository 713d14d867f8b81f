/**
 * site.map: robots.txt `Sitemap:` lines (else the usual sitemap addresses), sitemap indexes walked depth-first in
 * document order, pages taken up to `limit`; no usable sitemap → a bounded same-site crawl (./crawl.ts).
 *
 * Paging: the cursor is the position of the next page in that walk, `s.<root>.<child>…<offset>` (which sitemap of
 * robots.txt, which child of each index on the way, how many entries of the file were read), so the next call
 * fetches only the files on that path instead of everything before it; `c.<offset>` pages a crawl. Per call at most
 * MAX_FILES sitemap files are read; when that or the time budget runs out first, the page is shorter and the
 * cursor continues from there.
 */
import { SITE_MAP } from '../../catalogue/endpoints/site.js';
import type { TypeOf } from '../../catalogue/types.js';
import { isQuarryError } from '../../errors.js';
import { failureReason, type Budget, type Fetcher } from '../kit/web/fetch.js';
import { readRobots, type RobotsFile } from '../kit/web/robots-file.js';
import type { Robots } from '../kit/web/robots.js';
import { crawlSite } from './crawl.js';
import { MAX_INFLATED_BYTES, parseSitemap, SitemapError, type SitemapEntry, type SitemapKind } from './sitemap.js';

export const MAX_FILES = 50;
/** Indexes inside indexes: sitemaps.org forbids nesting, real sites do it; this many levels are followed. */
const MAX_NESTING = 3;
/** Where sites usually put a sitemap when robots.txt names none; the first that parses is used. */
export const FALLBACK_PATHS = ['/sitemap.xml', '/sitemap_index.xml', '/sitemap.xml.gz', '/wp-sitemap.xml', '/sitemap-index.xml'];
/** Raw sitemap bytes accepted over the wire (a gzipped body is then inflated to at most MAX_INFLATED_BYTES). */
const SITEMAP_WIRE_BYTES = MAX_INFLATED_BYTES;
const SITEMAP_ACCEPT = 'application/xml,text/xml;q=0.9,application/rss+xml;q=0.8,application/atom+xml;q=0.8,text/plain;q=0.5,*/*;q=0.1';

/** site.map's record, read off its declaration (src/catalogue/endpoints/site.ts). */
export type MapData = TypeOf<typeof SITE_MAP>;
export type MapPage = MapData['pages'][number];
export type SitemapFile = NonNullable<MapData['sitemaps']>[number];
/** What robots.txt answered; its sitemap list always there (an empty one is pruned from the answer). */
export type RobotsSummary = MapData['robotsTxt'] & { sitemaps: string[] };

export interface RobotsAnswer {
  summary: RobotsSummary;
  robots?: Robots;
}

/** robots.txt of `origin`; 4xx/5xx and unreadable files count as "none". Refusals of the address itself propagate. */
export async function fetchRobots(origin: string, fetcher: Fetcher): Promise<RobotsAnswer> {
  const file = await readRobots(fetcher, origin);
  // An oversized or undecodable file is "no robots.txt"; an unreachable or refused site fails the call here.
  if (file.failure !== undefined && !(isQuarryError(file.failure) && file.failure.code === 'sourceChanged')) throw file.failure;
  return robotsAnswer(file);
}

/** The robots.txt summary a record shows, and the rules. */
export function robotsAnswer(file: RobotsFile): RobotsAnswer {
  const summary: RobotsSummary = {
    url: file.url,
    ...(file.status !== undefined ? { status: file.status } : {}),
    sitemaps: file.robots?.sitemaps ?? [],
    ...(file.error ? { error: file.error } : {}),
  };
  return file.robots ? { summary, robots: file.robots } : { summary };
}

export interface MapOptions {
  start: URL;
  limit: number;
  cursor?: string;
  fetcher: Fetcher;
  budget: Budget;
}

export async function mapSite(options: MapOptions): Promise<MapData> {
  const { start, limit, fetcher, budget } = options;
  const origin = start.origin;
  const position = options.cursor?.split('.');
  const robots = await fetchRobots(origin, fetcher);
  const base: Omit<MapData, 'source' | 'pages'> = { site: origin, robotsTxt: robots.summary, sitemaps: [] };

  if (position?.[0] !== 'c') {
    const walker = new Walker(limit, fetcher, budget);
    const resume = position?.slice(1).map(Number);
    let roots = robots.summary.sitemaps;
    if (!roots.length) roots = await walker.probeFallbacks(origin);
    for (let i = resume?.[0] ?? 0; i < roots.length; i++) {
      const stop = await walker.visit(roots[i], [i], i === resume?.[0] ? resume.slice(1) : undefined, 0);
      if (stop) break;
    }
    // Sitemaps that yield no page at all (missing, broken, empty) fall back to the crawl; a later page of a sitemap
    // walk, or a walk cut short by its budget, stays in sitemap mode.
    if (walker.pages.length > 0 || walker.next || position) {
      return { ...base, source: 'sitemap', sitemaps: walker.files, pages: walker.pages, ...(walker.next ? { cursor: `s.${walker.next.join('.')}` } : {}) };
    }
    base.sitemaps = walker.files;
  }

  const offset = position?.[0] === 'c' ? Number(position[1]) : 0;
  const crawl = await crawlSite({ start, robots: robots.robots, fetcher, budget });
  const pages: MapPage[] = crawl.pages.slice(offset, offset + limit);
  const more = offset + limit < crawl.pages.length;
  return { ...base, source: 'crawl', pages, pagesFetched: crawl.fetched, ...(more ? { cursor: `c.${offset + limit}` } : {}) };
}

/** Depth-first walk of sitemap files, in document order, until `limit` pages, MAX_FILES files or the budget. */
class Walker {
  readonly pages: MapPage[] = [];
  readonly files: SitemapFile[] = [];
  /** Position to continue from, when the walk stopped early. */
  next: number[] | undefined;
  private readonly seenFiles = new Set<string>();
  private readonly seenPages = new Set<string>();

  constructor(
    private readonly limit: number,
    private readonly fetcher: Fetcher,
    private readonly budget: Budget,
  ) {}

  /** The first usual sitemap address that answers with a sitemap; the misses are listed too. */
  async probeFallbacks(origin: string): Promise<string[]> {
    for (const path of FALLBACK_PATHS) {
      const url = `${origin}${path}`;
      const file = await this.read(url);
      if (file && !file.error) return [url];
      if (file?.error && !/^HTTP 404$|^HTTP 410$/.test(file.error)) this.files.push(file);
      if (this.budget.spent()) break;
    }
    return [];
  }

  private cache = new Map<string, { file: SitemapFile; pages: SitemapEntry[]; children: SitemapEntry[] }>();

  /** Fetches and parses one file (at most once per call); undefined when the file budget is spent. */
  private async read(url: string): Promise<SitemapFile | undefined> {
    const cached = this.cache.get(url);
    if (cached) return cached.file;
    if (this.cache.size >= MAX_FILES || this.budget.spent()) return undefined;
    const file: SitemapFile = { url };
    let pages: SitemapEntry[] = [];
    let children: SitemapEntry[] = [];
    try {
      const res = await this.fetcher(url, { maxBytes: SITEMAP_WIRE_BYTES, accept: SITEMAP_ACCEPT });
      if (res.status !== 200) file.error = `HTTP ${res.status}`;
      else {
        const parsed = await parseSitemap(res.body, res.url, { stop: () => this.budget.spent() });
        file.kind = parsed.kind;
        file.entries = parsed.total;
        if (parsed.truncated) file.truncated = true;
        pages = parsed.pages;
        children = parsed.sitemaps;
      }
    } catch (e) {
      if (!(e instanceof SitemapError) && !isQuarryError(e)) throw e;
      file.error = e instanceof SitemapError ? `not read: ${e.message}` : failureReason(e);
    }
    this.cache.set(url, { file, pages, children });
    return file;
  }

  /** Visits one file at `pos`; `resume` is the rest of a cursor inside it. True when the page is complete. */
  async visit(url: string, pos: number[], resume: number[] | undefined, nesting: number, lastModified?: string): Promise<boolean> {
    if (this.seenFiles.has(url)) return false; // an index listing itself, or a file listed twice
    const file = await this.read(url);
    if (!file) {
      this.next = [...pos, ...(resume ?? [])];
      return true;
    }
    if (lastModified) file.lastModified = lastModified;
    this.seenFiles.add(url);
    if (!this.files.includes(file)) this.files.push(file);
    if (file.error) return false;
    const { pages, children } = this.cache.get(url)!;
    if (file.kind === 'index') {
      if (nesting >= MAX_NESTING) {
        file.error = `not read: index nested more than ${MAX_NESTING} levels deep`;
        return false;
      }
      for (let i = resume?.[0] ?? 0; i < children.length; i++) {
        const child = children[i];
        const stop = await this.visit(child.url, [...pos, i], i === resume?.[0] ? resume.slice(1) : undefined, nesting + 1, child.lastModified);
        if (stop) return true;
      }
      return false;
    }
    let i = resume?.[0] ?? 0;
    for (; i < pages.length && this.pages.length < this.limit; i++) {
      const entry = pages[i];
      if (this.seenPages.has(entry.url)) continue;
      this.seenPages.add(entry.url);
      this.pages.push({ ...entry, sitemap: url });
    }
    if (this.pages.length >= this.limit) {
      this.next = [...pos, i];
      return true;
    }
    return false;
  }
}
