/**
 * The guarded crawl behind web.contacts: the caller's page first, then the best-ranked same-site links (three at a
 * time) until `maxPages` pages were read. Every request goes through the shared upstream client with the SSRF guard
 * (each redirect hop re-checked), a per-page byte cap and timeout; the whole call has a time and byte budget.
 * Pages the crawler chooses must be allowed by the site's robots.txt; the caller's own address is fetched as asked.
 */
import { QuarryError, isQuarryError } from '../../../errors.js';
import type { SourceContext } from '../../types.js';
import type { UpstreamResponse } from '../../../upstream/types.js';
import { crawlable, pageKey, sameSite, siteKey } from './address.js';
import { decodePage } from './page.js';
import { buildRecord, readPage, type ContactsRecord, type PageReading, type SkippedPage } from './record.js';
import { linkScore } from './rank.js';
import { ALLOW_ALL, DISALLOW_ALL, parseRobots, type Robots } from './robots.js';

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
const ROBOTS_MAX_BYTES = 512 * 1024;
const MAX_SKIPPED_LISTED = 20;
/** Ranked links kept per call; a page with thousands of contact-looking links offers only its first ones. */
const MAX_CANDIDATES = 500;
const CLIENT_ERRORS = [400, 401, 403, 404, 405, 406, 409, 410, 412, 414, 415, 416, 422, 451];
const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5';

interface Candidate {
  url: URL;
  score: number;
  seq: number;
}

export function limitsFrom(settings: Readonly<Record<string, string | undefined>>, maxPages: number): CrawlLimits {
  const int = (name: string, fallback: number | undefined, min: number): number | undefined => {
    const n = Number(settings[name]);
    return settings[name] && Number.isInteger(n) && n >= min ? n : fallback;
  };
  return {
    maxPages,
    pageTimeoutMs: int('CONTACTS_PAGE_TIMEOUT_MS', undefined, 100),
    budgetMs: int('CONTACTS_BUDGET_MS', DEFAULT_LIMITS.budgetMs, 100)!,
    pageMaxBytes: int('CONTACTS_PAGE_MAX_BYTES', DEFAULT_LIMITS.pageMaxBytes, 1024)!,
    totalMaxBytes: int('CONTACTS_TOTAL_MAX_BYTES', DEFAULT_LIMITS.totalMaxBytes, 1024)!,
  };
}

function looksLikeHtml(res: UpstreamResponse): boolean {
  const type = (res.headers['content-type'] ?? '').toLowerCase();
  if (type.includes('html')) return true;
  if (type && !/^(?:text\/plain|application\/octet-stream|binary\/octet-stream)/.test(type)) return false;
  return /<!doctype html|<html[\s>]|<head[\s>]|<body[\s>]/i.test(res.body.subarray(0, 2048).toString('latin1'));
}

const mediaType = (res: UpstreamResponse): string => res.headers['content-type']?.split(';')[0].trim() || 'without a content type';

export async function crawlContacts(start: URL, limits: CrawlLimits, ctx: SourceContext): Promise<ContactsRecord> {
  const budget = new AbortController();
  const timer = setTimeout(
    () => budget.abort(new QuarryError('sourceTimeout', `web: the site was not read within the ${limits.budgetMs} ms budget`)),
    limits.budgetMs,
  );
  const signal = AbortSignal.any([ctx.signal, budget.signal]);
  const robotsByOrigin = new Map<string, Promise<Robots>>();
  let bytes = 0;

  const fetchPage = (url: URL, passStatuses: number[]): Promise<UpstreamResponse> =>
    ctx.http.request(
      {
        url: url.href,
        headers: { accept: ACCEPT },
        userSupplied: true,
        maxBytes: limits.pageMaxBytes,
        timeoutMs: limits.pageTimeoutMs,
        passStatuses,
      },
      signal,
    );

  const robotsFor = (origin: string): Promise<Robots> => {
    let robots = robotsByOrigin.get(origin);
    if (!robots) {
      robots = ctx.http
        .request({ url: `${origin}/robots.txt`, userSupplied: true, maxBytes: ROBOTS_MAX_BYTES, timeoutMs: limits.pageTimeoutMs, passStatuses: CLIENT_ERRORS }, signal)
        .then((res) => (res.status >= 400 ? ALLOW_ALL : parseRobots(res.text())))
        .catch(() => DISALLOW_ALL);
      robotsByOrigin.set(origin, robots);
    }
    return robots;
  };

  try {
    // robots.txt is read while the first page loads (the first page itself is the caller's choice, not the crawler's).
    if (limits.maxPages > 1) void robotsFor(start.origin);
    const first = await fetchPage(start, [404, 410]).catch((e: unknown) => {
      if (isQuarryError(e) && e.code === 'sourceChanged' && /larger than/.test(e.message)) {
        throw new QuarryError('sourceChanged', `web: the page ${start.href} is larger than ${limits.pageMaxBytes} bytes`);
      }
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
    const readings: PageReading[] = [readPage(decodePage(first.body, first.headers['content-type']), first.url, first.status)];
    const skipped: SkippedPage[] = [];
    const seen = new Set([pageKey(start), pageKey(firstUrl)]);
    const candidates = new Map<string, Candidate>();
    let seq = 0;

    const offer = (url: URL, score: number): void => {
      const k = pageKey(url);
      if (score <= 0 || seen.has(k)) return;
      const known = candidates.get(k);
      if (!known && candidates.size < MAX_CANDIDATES) candidates.set(k, { url, score, seq: seq++ });
      else if (known && score > known.score) known.score = score;
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

    const readCandidate = async (c: Candidate): Promise<PageReading | SkippedPage> => {
      const url = c.url.href;
      try {
        const res = await fetchPage(c.url, CLIENT_ERRORS);
        if (res.status >= 400) return { url, reason: res.status === 404 || res.status === 410 ? 'notFound' : 'failed', status: res.status };
        const final = new URL(res.url);
        if (!sameSite(final, key)) return { url, reason: 'offSite' };
        if (!looksLikeHtml(res)) return { url, reason: 'notHtml' };
        bytes += res.body.length;
        return readPage(decodePage(res.body, res.headers['content-type']), res.url, res.status);
      } catch (e) {
        if (!isQuarryError(e)) throw e;
        if (e.code === 'sourceTimeout') return { url, reason: 'timeout' };
        if (/larger than/.test(e.message)) return { url, reason: 'tooLarge' };
        if (e.code === 'invalidRequest') return { url, reason: 'refused' };
        return { url, reason: 'failed' };
      }
    };

    let attempts = 0;
    const maxAttempts = limits.maxPages * 2 + 2;
    while (readings.length < limits.maxPages && attempts < maxAttempts && bytes < limits.totalMaxBytes && !signal.aborted) {
      const ranked = [...candidates.values()].sort((a, b) => b.score - a.score || a.seq - b.seq);
      const batch: Candidate[] = [];
      for (const c of ranked) {
        if (batch.length >= Math.min(PARALLEL, limits.maxPages - readings.length)) break;
        candidates.delete(pageKey(c.url));
        seen.add(pageKey(c.url));
        if (!(await robotsFor(c.url.origin)).allows(c.url)) skip({ url: c.url.href, reason: 'robots' });
        else batch.push(c);
      }
      if (!batch.length) break;
      attempts += batch.length;
      const results = await Promise.all(batch.map(readCandidate));
      for (const r of results) {
        if ('reason' in r) {
          skip(r);
          continue;
        }
        const k = pageKey(new URL(r.page.url));
        // Two links that redirect to one page: read once.
        if (readings.some((x) => pageKey(new URL(x.page.url)) === k)) continue;
        seen.add(k);
        readings.push(r);
        offerLinks(r);
      }
    }
    return buildRecord(firstUrl.origin, readings, skipped);
  } finally {
    clearTimeout(timer);
    // Stops robots.txt and any page still loading.
    budget.abort(new QuarryError('sourceUnavailable', 'web: crawl finished'));
  }
}
