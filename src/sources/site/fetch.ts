/**
 * How the site source reaches a site: every request goes through the shared upstream client with the SSRF guard on
 * (checked again on every redirect), a byte cap and a timeout cut to what is left of the call's time budget. Kept
 * behind a small `Fetcher` so the sample builder can answer from recordings through the same code.
 */
import { QuarryError } from '../../errors.js';
import type { SourceContext } from '../types.js';
import type { UpstreamRedirect } from '../../upstream/types.js';

export interface Fetched {
  status: number;
  /** Final address, after redirects. */
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  redirects: UpstreamRedirect[];
  /** Milliseconds from the request to the whole body (redirects included). */
  elapsedMs?: number;
}

export type Fetcher = (url: string, options: { maxBytes: number; accept?: string }) => Promise<Fetched>;

/** Every 4xx and 5xx is handed back: a missing robots.txt or sitemap is an answer, not a failure of the call. */
const ANSWERED = [...Array.from({ length: 100 }, (_, i) => 400 + i), ...Array.from({ length: 100 }, (_, i) => 500 + i)];

/** Per-request ceiling; the call's remaining budget cuts it further. */
const REQUEST_TIMEOUT_MS = 10_000;

/** A deadline shared by every request of one call. */
export class Budget {
  private readonly until: number;
  constructor(ms: number, private readonly now: () => number = Date.now) {
    this.until = now() + ms;
  }
  left(): number {
    return this.until - this.now();
  }
  spent(): boolean {
    return this.left() <= 250;
  }
}

export function liveFetcher(ctx: SourceContext, budget: Budget): Fetcher {
  return async (url, { maxBytes, accept }) => {
    const started = Date.now();
    const res = await ctx.http.request(
      {
        url,
        userSupplied: true,
        maxBytes,
        timeoutMs: Math.max(1000, Math.min(REQUEST_TIMEOUT_MS, budget.left())),
        passStatuses: ANSWERED,
        ...(accept ? { headers: { accept } } : {}),
      },
      ctx.signal,
    );
    return { status: res.status, url: res.url, headers: res.headers, body: res.body, redirects: res.redirects ?? [], elapsedMs: Date.now() - started };
  };
}

const HOST = /^(?=.{1,253}$)(?:[a-z0-9_](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.?$/;

/**
 * The address to start from: a bare domain (optionally with a path) → `https://domain/path`; a full http(s)
 * address is kept. `field` names the request field in errors.
 */
export function siteAddress(value: string, field = 'url'): URL {
  const raw = value.trim();
  const bad = (rule: string) => new QuarryError('invalidRequest', `${field}: ${rule}`, { retryable: false });
  let url: URL;
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw) && !/^[^/:]+:\d+(?:[/?#]|$)/.test(raw)) {
    if (!URL.canParse(raw)) throw bad('not a valid address');
    url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad('only http and https addresses are allowed');
  } else {
    if (!URL.canParse(`https://${raw}`)) throw bad('not a domain or an address');
    url = new URL(`https://${raw}`);
  }
  if (url.username || url.password) throw bad('must not contain credentials');
  const host = url.hostname.replace(/\.$/, '');
  if (!HOST.test(host) && !/^\[[0-9a-f:.]+\]$/.test(host) && !/^\d+\.\d+\.\d+\.\d+$/.test(host)) throw bad('not a domain name');
  url.hash = '';
  return url;
}

/** Same site: the same host, `www.` or not. */
export function sameSite(a: URL, b: URL): boolean {
  const bare = (h: string) => h.toLowerCase().replace(/^www\./, '');
  return bare(a.hostname) === bare(b.hostname);
}

export function contentType(headers: Record<string, string>): string {
  return (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

/** The error message of a failed request, without the source prefix the client adds. */
export function reason(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return message.replace(/^site: /, '');
}
