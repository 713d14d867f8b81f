/**
 * The filters web.search and web.news share (SPEC: country, language, includeDomains, excludeDomains, from, to,
 * within), applied twice: asked of the backend where it understands them (`site:` terms, its own time ranges), then
 * checked on what came back, since no backend can be taken at its word (an engine ignores `site:`, a feed has no
 * query at all). A result outside the window is dropped; one without a date is dropped only where the window was not
 * the backend's own (it could not be checked otherwise).
 */
import { QuarryError } from '../../../errors.js';

export type Window = 'hour' | 'day' | 'week' | 'month' | 'year' | 'all';

export interface Filters {
  includeDomains?: string[];
  excludeDomains?: string[];
  from?: string;
  to?: string;
  within: Window;
}

/** What every result or article carries for the checks. */
export interface Checkable {
  url: string;
  publishedAt?: string;
  /** The publisher's address, where it differs from `url` (Google News' links are redirects). */
  sourceUrl?: string;
}

const HOUR = 3_600_000;
const WINDOW_MS: Record<Exclude<Window, 'all'>, number> = { hour: HOUR, day: 24 * HOUR, week: 7 * 24 * HOUR, month: 31 * 24 * HOUR, year: 366 * 24 * HOUR };

/** `https://www.Example.com/path` or `example.com` → `example.com`; what a domain filter compares. */
export function bareDomain(given: string): string {
  const s = given.trim().toLowerCase();
  let host = s;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//.test(s) ? s : `http://${s}`).hostname;
  } catch {
    host = s.split(/[/?#]/)[0];
  }
  return host.replace(/^www\./, '').replace(/\.$/, '');
}

/** The host of an address without `www.`, or undefined for anything that is not an http(s) address. */
export function domainOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.hostname.toLowerCase().replace(/^www\./, '') : undefined;
  } catch {
    return undefined;
  }
}

const within = (host: string, domains: string[]): boolean => domains.some((d) => host === d || host.endsWith(`.${d}`));

/** The domain filters as query operators every engine here understands: `(site:a OR site:b) -site:c`. */
export function siteTerms(f: Pick<Filters, 'includeDomains' | 'excludeDomains'>): string {
  const include = (f.includeDomains ?? []).map(bareDomain).filter(Boolean);
  const exclude = (f.excludeDomains ?? []).map(bareDomain).filter(Boolean);
  const parts: string[] = [];
  if (include.length === 1) parts.push(`site:${include[0]}`);
  else if (include.length > 1) parts.push(`(${include.map((d) => `site:${d}`).join(' OR ')})`);
  for (const d of exclude) parts.push(`-site:${d}`);
  return parts.join(' ');
}

/** from/to as a half-open span of instants (a `to` day is inclusive); a reversed span is the caller's mistake. */
export function dateSpan(f: Pick<Filters, 'from' | 'to'>): { start?: number; end?: number } {
  const start = f.from ? Date.parse(`${f.from}T00:00:00Z`) : undefined;
  const end = f.to ? Date.parse(`${f.to}T00:00:00Z`) + 24 * HOUR : undefined;
  if (start !== undefined && end !== undefined && end <= start) throw new QuarryError('invalidRequest', 'to: must not be before from', { retryable: false });
  return { start, end };
}

export interface KeepOptions {
  /** The backend applied `within` itself: undated results are kept (they cannot be checked, and were not refused). */
  windowApplied: boolean;
  now?: number;
}

/** The items that pass the domain and date filters, each address once, in order. */
export function keep<T extends Checkable>(items: T[], f: Filters, o: KeepOptions): T[] {
  const include = (f.includeDomains ?? []).map(bareDomain).filter(Boolean);
  const exclude = (f.excludeDomains ?? []).map(bareDomain).filter(Boolean);
  const { start, end } = dateSpan(f);
  const since = f.within === 'all' ? undefined : (o.now ?? Date.now()) - WINDOW_MS[f.within];
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = item.url.replace(/#.*$/, '').replace(/\/$/, '');
    if (seen.has(key)) return false;
    const hosts = [domainOf(item.url), domainOf(item.sourceUrl)].filter((h): h is string => Boolean(h));
    if (include.length && !hosts.some((h) => within(h, include))) return false;
    if (exclude.length && hosts.some((h) => within(h, exclude))) return false;
    const at = item.publishedAt ? Date.parse(item.publishedAt) : NaN;
    if (start !== undefined || end !== undefined) {
      if (Number.isNaN(at) || (start !== undefined && at < start) || (end !== undefined && at >= end)) return false;
    }
    if (since !== undefined) {
      if (Number.isNaN(at) ? !o.windowApplied : at < since) return false;
    }
    seen.add(key);
    return true;
  });
}

/** Whitespace collapsed, bounded. */
export function clean(s: string | undefined, max = 2000): string | undefined {
  const t = s?.replace(/\s+/g, ' ').trim();
  return t ? t.slice(0, max) : undefined;
}
