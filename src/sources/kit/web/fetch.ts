/**
 * The guarded page fetcher of the open-web sources. Every request goes through the source's `ctx.http` (timeouts,
 * the SSRF guard on the address and on every redirect hop, proxies, QUARRY_UPSTREAM_OVERRIDES), with a byte cap per
 * page and a timeout cut to what is left of the call's time budget; error statuses are handed back as pages when
 * asked (a missing robots.txt is an answer, not a failure), and the redirect chain and the time taken are recorded.
 *
 *   const fetch = webFetcher(ctx, { budget: new Budget(25_000), timeoutMs: 10_000 });
 *   const page = await fetch('https://example.com/', { maxBytes: 2 << 20, accept: HTML_ACCEPT });
 *   const html = pageText(page);   // ./page.ts: decoded by its charset
 *
 * `userSupplied` is on by default: open-web sources fetch addresses that callers or pages name.
 */
import { isQuarryError } from '../../../errors.js';
import type { SourceContext } from '../../types.js';
import type { Fetched } from './page.js';

export interface FetchOptions {
  /** Largest body read; a larger answer fails as `sourceChanged` ("larger than", see `isOversize`). */
  maxBytes: number;
  /** The Accept header. */
  accept?: string;
  /** Error statuses answered as pages instead of failing the request; every 4xx and 5xx when absent. */
  answer?: readonly number[];
}

/** Fetches one address; a test or a sample builder may stand in for it with recorded answers. */
export type Fetcher = (url: string, options: FetchOptions) => Promise<Fetched>;

export interface FetcherOptions {
  /** The call's deadline: each request's timeout is cut to what is left of it (never under a second). */
  budget?: Budget;
  /** Ceiling of one request (headers and body); the upstream client's QUARRY_UPSTREAM_TIMEOUT_MS when absent. */
  timeoutMs?: number;
  /** Aborts every request (default `ctx.signal`). */
  signal?: AbortSignal;
  /** Apply the SSRF guard to the address and every redirect (default true: the address came from a caller or a page). */
  userSupplied?: boolean;
}

export const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';

/** Every 4xx and 5xx. */
export const ERROR_STATUSES: readonly number[] = Array.from({ length: 200 }, (_, i) => 400 + i);

/** A deadline shared by every request of one call. */
export class Budget {
  private readonly until: number;
  constructor(ms: number, private readonly now: () => number = Date.now) {
    this.until = now() + ms;
  }
  left(): number {
    return this.until - this.now();
  }
  /** Less than a quarter second left: not worth starting another request. */
  spent(): boolean {
    return this.left() <= 250;
  }
}

export function webFetcher(ctx: SourceContext, options: FetcherOptions = {}): Fetcher {
  const { budget, timeoutMs, signal = ctx.signal, userSupplied = true } = options;
  return async (url, { maxBytes, accept, answer = ERROR_STATUSES }) => {
    const started = Date.now();
    const res = await ctx.http.request(
      {
        url,
        userSupplied,
        maxBytes,
        timeoutMs: budget ? Math.max(1000, Math.min(timeoutMs ?? 10_000, budget.left())) : timeoutMs,
        passStatuses: [...answer],
        ...(accept ? { headers: { accept } } : {}),
      },
      signal,
    );
    return { status: res.status, url: res.url, headers: res.headers, body: res.body, redirects: res.redirects ?? [], elapsedMs: Date.now() - started };
  };
}

/** Whether a request failed because the answer was larger than its `maxBytes`. */
export function isOversize(e: unknown): boolean {
  return isQuarryError(e) && e.code === 'sourceChanged' && /larger than/.test(e.message);
}

/** A failed request's message without the `source: ` prefix the upstream client adds (for a record that says why). */
export function failureReason(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return message.replace(/^[a-z][a-z0-9]*: /, '');
}
