/**
 * The guarded crawl behind web.contacts: the caller's page first, then the best-ranked same-site links (three at a
 * time, the kit's bounded crawler in best-first order) until `maxPages` pages were read. Every request goes through
 * the kit's guarded fetcher (the SSRF guard on each redirect hop, a per-page byte cap and timeout); the whole call has
 * a time and byte budget. Pages the crawler chooses must be allowed by the site's robots.txt; the caller's own
 * address is fetched as asked.
 */
import { intSetting, type SettingDeclaration } from '../../../config.js';
import { QuarryError, isQuarryError } from '../../../errors.js';
import type { SourceContext } from '../../types.js';
import { crawl, Frontier } from '../../kit/web/crawl.js';
import { isOversize, webFetcher } from '../../kit/web/fetch.js';
import { looksLikeHtml, pageText, type Fetched } from '../../kit/web/page.js';
import { robotsPerOrigin } from '../../kit/web/robots-file.js';
import { crawlable, pageKey, sameSite, siteKey } from './address.js';
import { buildRecord, readPage, type PageReading } from './record.js';
import type { ContactsRecord, SkippedPage } from './types.js';
import { linkScore } from './rank.js';

export interface CrawlLimits {
  maxPages: number;
  /** One page (headers and body); undefined leaves the upstream client's QUARRY_UPSTREAM_TIMEOUT_MS. */
  pageTimeoutMs?: number;
  /** The whole crawl. */
  budgetMs: number;
  pageMaxBytes: number;
  totalMaxBytes: number;
}

export const DEFAULT_LIMITS: Omit<CrawlLimits, 'maxPages'> = {
  budgetMs: 30_000,
  pageMaxBytes: 2 * 1024 * 1024,
  totalMaxBytes: 12 * 1024 * 1024,
};

/** Pages fetched at once within one call. */
const PARALLEL = 3;
const MAX_SKIPPED_LISTED = 20;
/** Ranked links kept per call; a page with thousands of contact-looking links offers only its first ones. */
const MAX_CANDIDATES = 500;
const CLIENT_ERRORS = [400, 401, 403, 404, 405, 406, 409, 410, 412, 414, 415, 416, 422, 451];
const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5';

const MS = { min: 100 };
const BYTES = { min: 1024 };

/** The crawl's operator settings (QUARRY_WEB_CONTACTS_*), declared with the web source's others. */
export const CONTACTS_SETTINGS: SettingDeclaration[] = [
  { name: 'CONTACTS_PAGE_TIMEOUT_MS', required: false, purpose: 'timeout of one page of a web.contacts crawl (default QUARRY_UPSTREAM_TIMEOUT_MS)', integer: MS },
  { name: 'CONTACTS_BUDGET_MS', required: false, purpose: 'time budget of a whole web.contacts crawl (default 30000)', integer: MS },
  { name: 'CONTACTS_PAGE_MAX_BYTES', required: false, purpose: 'largest page a crawl reads (default 2097152)', integer: BYTES },
  { name: 'CONTACTS_TOTAL_MAX_BYTES', required: false, purpose: 'bytes read per crawl (default 12582912)', integer: BYTES },
];

export function limitsFrom(settings: Readonly<Record<string, string | undefined>>, maxPages: number): CrawlLimits {
  return {
    maxPages,
    pageTimeoutMs: intSetting(settings, 'CONTACTS_PAGE_TIMEOUT_MS', MS),
    budgetMs: intSetting(settings, 'CONTACTS_BUDGET_MS', MS) ?? DEFAULT_LIMITS.budgetMs,
    pageMaxBytes: intSetting(settings, 'CONTACTS_PAGE_MAX_BYTES', BYTES) ?? DEFAULT_LIMITS.pageMaxBytes,
    totalMaxBytes: intSetting(settings, 'CONTACTS_TOTAL_MAX_BYTES', BYTES) ?? DEFAULT_LIMITS.totalMaxBytes,
  };
}

const mediaType = (res: Fetched): string => res.headers['content-type']?.split(';')[0].trim() || 'without a content type';

export async function crawlContacts(start: URL, limits: CrawlLimits, ctx: SourceContext): Promise<ContactsRecord> {
  const budget = new AbortController();
  const timer = setTimeout(
    () => budget.abort(new QuarryError('sourceTimeout', `web: the site was not read within the ${limits.budgetMs} ms budget`)),
    limits.budgetMs,
  );
  const signal = AbortSignal.any([ctx.signal, budget.signal]);
  const fetch = webFetcher(ctx, { timeoutMs: limits.pageTimeoutMs, signal });
  // Pages the crawler chooses must be allowed by their site's robots.txt (RFC 9309: unreachable means disallowed).
  const robotsFor = robotsPerOrigin(fetch);
  let bytes = 0;

  try {
    // robots.txt is read while the first page loads (the first page itself is the caller's choice, not the crawler's).
    if (limits.maxPages > 1) void robotsFor(start.origin);
    const first = await fetch(start.href, { maxBytes: limits.pageMaxBytes, accept: ACCEPT, answer: [404, 410] }).catch((e: unknown) => {
      if (isOversize(e)) throw new QuarryError('sourceChanged', `web: the page ${start.href} is larger than ${limits.pageMaxBytes} bytes`);
      throw e;
    });
    if (first.status === 404 || first.status === 410) {
      throw new QuarryError('notFound', `url: ${first.url} answered HTTP ${first.status}; give the address of an existing page`);
    }
    if (!looksLikeHtml(first)) {
      throw new QuarryError('invalidRequest', `url: ${first.url} answered ${mediaType(first)}, not an HTML page; give the address of a website`, { retryable: false });
    }
    bytes += first.body.length;
    const firstUrl = new URL(first.url);
    const key = siteKey(firstUrl.hostname);
    const readings: PageReading[] = [readPage(pageText(first), first.url, first.status)];
    const skipped: SkippedPage[] = [];
    // Best first: ranked links, each page once across www/bare host, http/https and a trailing slash.
    const frontier = new Frontier({ order: 'best', capacity: MAX_CANDIDATES, key: pageKey });
    frontier.markSeen(start);
    frontier.markSeen(firstUrl);

    const offer = (url: URL, score: number): void => {
      if (score > 0) frontier.offer(url, { score });
    };
    const offerLinks = (reading: PageReading): void => {
      const base = new URL(reading.page.url);
      for (const link of reading.doc.links) {
        const url = crawlable(link.href, base, key);
        if (url) offer(url, linkScore(url, link.text, link.inFooter));
      }
    };
    offerLinks(readings[0]);
    // A deep start page: the home page usually carries the footer contacts.
    if (firstUrl.pathname !== '/' || firstUrl.search) offer(new URL('/', firstUrl), 60);

    const skip = (s: SkippedPage): void => {
      if (skipped.length < MAX_SKIPPED_LISTED) skipped.push(s);
    };

    const readCandidate = async (target: URL): Promise<PageReading | SkippedPage> => {
      const url = target.href;
      try {
        const res = await fetch(url, { maxBytes: limits.pageMaxBytes, accept: ACCEPT, answer: CLIENT_ERRORS });
        if (res.status >= 400) return { url, reason: res.status === 404 || res.status === 410 ? 'notFound' : 'failed', status: res.status };
        const final = new URL(res.url);
        if (!sameSite(final, key)) return { url, reason: 'offSite' };
        if (!looksLikeHtml(res)) return { url, reason: 'notHtml' };
        bytes += res.body.length;
        return readPage(pageText(res), res.url, res.status);
      } catch (e) {
        if (!isQuarryError(e)) throw e;
        if (e.code === 'sourceTimeout') return { url, reason: 'timeout' };
        if (isOversize(e)) return { url, reason: 'tooLarge' };
        if (e.code === 'invalidRequest') return { url, reason: 'refused' };
        return { url, reason: 'failed' };
      }
    };

    await crawl<PageReading | SkippedPage>({
      frontier,
      parallel: PARALLEL,
      maxFetches: limits.maxPages * 2 + 2,
      wanted: () => limits.maxPages - readings.length,
      stop: () => bytes >= limits.totalMaxBytes || signal.aborted,
      async admit(c) {
        if ((await robotsFor(c.url.origin)).allows(c.url)) return true;
        skip({ url: c.url.href, reason: 'robots' });
        return false;
      },
      visit: (c) => readCandidate(c.url),
      onResult(_, r) {
        if ('reason' in r) return skip(r);
        const final = new URL(r.page.url);
        // Two links that redirect to one page: read once.
        if (readings.some((x) => pageKey(new URL(x.page.url)) === pageKey(final))) return;
        frontier.markSeen(final);
        readings.push(r);
        offerLinks(r);
      },
    });
    return buildRecord(firstUrl.origin, readings, skipped);
  } finally {
    clearTimeout(timer);
    // Stops robots.txt and any page still loading.
    budget.abort(new QuarryError('sourceUnavailable', 'web: crawl finished'));
  }
}
