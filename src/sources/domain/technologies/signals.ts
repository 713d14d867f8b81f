/**
 * Collects what a site shows about its technology: the home page (final address, headers, Set-Cookie names, meta
 * tags, script addresses, a bounded slice of HTML) fetched and read with the open-web toolkit (src/sources/kit/web:
 * the guarded fetcher, the SSRF guard on every hop, and the linear tag scanner), and the domain's MX, TXT, NS and
 * CNAME records from the resolvers of QUARRY_DNS_SERVERS.
 */
import { QuarryError, isQuarryError } from '../../../errors.js';
import type { SourceContext } from '../../types.js';
import { webFetcher } from '../../kit/web/fetch.js';
import { pageText } from '../../kit/web/page.js';
import { scanTags } from '../../kit/web/tags.js';
import { dnsClient, lookupRecords, resolvers, type DnsRecord, type Query, type RecordType } from '../dns.js';
import type { DnsSignalType } from './fingerprints.js';
import { LIMITS, type DnsValue, type Signals } from './matcher.js';

/** Largest page read; a larger one fails as sourceChanged (the client does not truncate a 2xx body). */
export const PAGE_MAX_BYTES = 6 * 1024 * 1024;
export const PAGE_TIMEOUT_MS = 10_000;
/** Statuses whose page is still read: an error page shows the server, CDN and cookies just as well. */
const READ_ANYWAY = [401, 403, 404, 410, 451];
const HEAD_SLICE = LIMITS.html - 64 * 1024;
const TAIL_SLICE = 64 * 1024 - 1;

export interface Page {
  url: string;
  status: number;
  headers: Record<string, string>;
  html: string;
}

/** Where to look: the caller's full address as given, or a bare name's home page over https (then http). */
export interface Target {
  domain: string;
  urls: string[];
}

/** GET the page through the kit's guarded fetcher; the first address that connects wins. */
export async function fetchPage(target: Target, ctx: SourceContext): Promise<Page> {
  const fetch = webFetcher(ctx, { timeoutMs: PAGE_TIMEOUT_MS });
  let last: unknown;
  for (const url of target.urls) {
    try {
      const res = await fetch(url, { maxBytes: PAGE_MAX_BYTES, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8', answer: READ_ANYWAY });
      const type = res.headers['content-type'] ?? '';
      const html = !type || /html|xml|text\/plain/i.test(type) ? pageText(res) : '';
      return { url: res.url, status: res.status, headers: res.headers, html };
    } catch (e) {
      last = e;
      // Only "could not connect" tries the next scheme; refusals, timeouts and HTTP errors are the answer.
      if (!(isQuarryError(e) && e.code === 'sourceUnavailable' && /could not be reached/.test(e.message))) break;
    }
  }
  throw asDomainError(last);
}

/** The SSRF guard speaks of `url`; the caller gave `domain`. */
function asDomainError(e: unknown): unknown {
  if (isQuarryError(e) && e.code === 'invalidRequest' && e.message.startsWith('url: ')) {
    const rule = e.message.slice(5);
    const message = rule.startsWith('points to') ? `the site ${rule} (directly or through a redirect)` : `${rule} (the site or one of its redirects)`;
    return new QuarryError('invalidRequest', `domain: ${message}`, { retryable: false });
  }
  return e;
}

/** Set-Cookie names and values. The client joins repeated headers with ", ", and Expires dates contain commas too. */
export function parseSetCookie(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(/,(?=\s*[^;,=\s]{1,200}=)/)) {
    const pair = part.split(';', 1)[0].trim();
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    if (name.length > 200 || Object.keys(out).length >= LIMITS.cookies) continue;
    out[name] = pair.slice(eq + 1).trim().slice(0, LIMITS.cookieValue);
  }
  return out;
}

/** Pure: the page → the page's signals (meta tags, scripts, cookies, a slice of HTML). */
export function pageSignals(page: Page): Omit<Signals, 'dns'> {
  const meta: Signals['meta'] = [];
  const scripts: string[] = [];
  const seen = new Set<string>();
  // The kit's linear tag scanner: a hostile page of unclosed tags costs no more than its length.
  scanTags(page.html, { names: ['meta', 'script'] }, ({ name, attrs }) => {
    if (name === 'meta' && meta.length < LIMITS.meta) {
      const key = (attrs.name ?? attrs.property ?? attrs['http-equiv'] ?? '').trim().toLowerCase();
      if (key && attrs.content !== undefined) meta.push({ name: key.slice(0, 100), content: attrs.content.slice(0, LIMITS.metaContent) });
    } else if (name === 'script' && attrs.src && scripts.length < LIMITS.scripts) {
      const src = absolute(attrs.src.trim().slice(0, LIMITS.script), page.url);
      if (src && !seen.has(src)) {
        seen.add(src);
        scripts.push(src);
      }
    }
  });
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(page.headers)) headers[k.toLowerCase()] = v.slice(0, LIMITS.headerValue);
  return {
    url: page.url.slice(0, LIMITS.url),
    headers,
    cookies: parseSetCookie(page.headers['set-cookie']),
    meta,
    scripts,
    html: htmlSlice(page.html),
  };
}

/** Its start (where the head and its markers are) and its end (where scripts are often appended). */
export function htmlSlice(html: string): string {
  if (html.length <= LIMITS.html) return html;
  return `${html.slice(0, HEAD_SLICE)}\n${html.slice(-TAIL_SLICE)}`;
}

function absolute(src: string, base: string): string | undefined {
  try {
    return new URL(src, base).href.slice(0, LIMITS.script);
  } catch {
    return undefined;
  }
}

/** A leading `www.` is dropped for mail and name servers, which live at the zone's apex. */
export function apex(domain: string): string {
  return domain.startsWith('www.') && domain.split('.').length > 2 ? domain.slice(4) : domain;
}

/** MX, TXT and NS of the apex and the name's own CNAME (a CDN's alias). */
export async function dnsSignals(domain: string, query: Query): Promise<Signals['dns']> {
  const [main, alias] = await Promise.all([
    lookupRecords(apex(domain), ['MX', 'TXT', 'NS'] as RecordType[], query),
    lookupRecords(domain, ['CNAME'] as RecordType[], query),
  ]);
  return dnsValues([...main.records, ...alias.records]);
}

/** The final host's CNAME, when redirects ended on another name (www., a shop's platform host). */
export async function cnameSignals(host: string, query: Query): Promise<Signals['dns']> {
  if (!isName(host)) return {};
  return dnsValues((await lookupRecords(host, ['CNAME'] as RecordType[], query)).records);
}

function dnsValues(records: DnsRecord[]): Signals['dns'] {
  const out: Partial<Record<DnsSignalType, DnsValue[]>> = {};
  for (const r of records) {
    if (r.type !== 'MX' && r.type !== 'TXT' && r.type !== 'NS' && r.type !== 'CNAME') continue;
    const value = (r.type === 'TXT' ? (r.text ?? r.value) : (r.target ?? r.value)).slice(0, LIMITS.dnsValue);
    (out[r.type] ??= []).push({ host: r.name, value });
  }
  return out;
}

const isName = (host: string): boolean => /^[a-z0-9_.-]{1,253}$/i.test(host) && !/^[\d.]+$/.test(host);

export function dnsQuery(ctx: SourceContext): Query {
  return dnsClient(resolvers(ctx.settings.DNS_SERVERS));
}
