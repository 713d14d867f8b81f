/**
 * Yahoo Finance's JSON endpoints (query2.finance.yahoo.com), keyless:
 * - chart v8 (history, and quotes when the quote endpoint refuses), search v1 (news, names) and trending v1 need no
 *   crumb;
 * - quote v7, quoteSummary v10 and the predefined screener need the session crumb (./session.ts).
 * Errors come as `{<root>: {result: null, error: {code, description}}}` with a status: 404 an unknown symbol,
 * 400/422 a range or interval the symbol does not have, 401 a rejected crumb.
 */
import { QuarryError } from '../../errors.js';
import type { SourceContext } from '../types.js';
import { obj, str } from '../kit/read.js';
import { YAHOO_USER_AGENT, yahooSession, type YahooSession } from './session.js';

export const QUERY_BASE = 'https://query2.finance.yahoo.com';
const JSON_MAX_BYTES = 8 * 1024 * 1024;
/** Statuses whose body says what went wrong (inspected here rather than mapped generically). */
const EXPLAINED = [400, 404, 422];

/** A symbol as a path segment: `=` and `^` stay as Yahoo writes them (EURUSD=X, ^GSPC). */
const segment = (symbol: string): string => encodeURIComponent(symbol).replace(/%3D/gi, '=').replace(/%5E/gi, '^');

export interface YahooAnswer {
  status: number;
  body: unknown;
}

/** A GET of a Yahoo JSON endpoint; with `crumb`, through the session, replacing a rejected crumb once. */
export async function yahooGet(ctx: SourceContext, path: string, query: URLSearchParams, crumb: boolean): Promise<YahooAnswer> {
  if (!crumb) return send(ctx, path, query);
  let session: YahooSession = await yahooSession(ctx);
  for (let attempt = 0; ; attempt++) {
    query.set('crumb', session.crumb);
    const answer = await send(ctx, path, query, session.cookie, [401]);
    if (answer.status !== 401) return answer;
    if (attempt > 0) throw new QuarryError('sourceRefused', 'finance: Yahoo rejected a fresh crumb (HTTP 401)');
    session = await yahooSession(ctx, session);
  }
}

async function send(ctx: SourceContext, path: string, query: URLSearchParams, cookie?: string, pass: number[] = []): Promise<YahooAnswer> {
  const res = await ctx.http.request(
    {
      url: `${QUERY_BASE}${path}?${query}`,
      headers: { accept: 'application/json', 'user-agent': YAHOO_USER_AGENT, ...(cookie ? { cookie } : {}) },
      maxBytes: JSON_MAX_BYTES,
      passStatuses: [...EXPLAINED, ...pass],
    },
    ctx.signal,
  );
  if (res.status === 401) return { status: 401, body: undefined };
  return { status: res.status, body: res.json() };
}

/** Yahoo's error description under `root` (chart, quoteSummary, finance), if the answer carries one. */
export function yahooError(body: unknown, root: string): string | undefined {
  const error = obj(obj(obj(body)?.[root])?.error);
  return error ? (str(error.description) ?? str(error.code) ?? 'error') : undefined;
}

/** Maps an explained failure status onto the caller's error: unknown symbol, or a request the symbol cannot answer. */
export function failOn(answer: YahooAnswer, root: string, what: string): void {
  if (answer.status === 200) return;
  const why = yahooError(answer.body, root) ?? `HTTP ${answer.status}`;
  if (answer.status === 404) throw new QuarryError('notFound', `${what}: ${why}`);
  throw new QuarryError('invalidRequest', `${what}: ${why}`, { retryable: false });
}

// ---- the requests ------------------------------------------------------------------------------------------------

export const quotes = (ctx: SourceContext, symbols: string[]) =>
  yahooGet(ctx, '/v7/finance/quote', new URLSearchParams({ symbols: symbols.join(',') }), true);

export interface ChartQuery {
  interval: string;
  includePrePost: boolean;
  range?: string;
  period1?: number;
  period2?: number;
}

export function chart(ctx: SourceContext, symbol: string, q: ChartQuery): Promise<YahooAnswer> {
  const query = new URLSearchParams({ interval: q.interval, includePrePost: String(q.includePrePost), events: 'div|split' });
  if (q.range) query.set('range', q.range);
  if (q.period1 !== undefined) query.set('period1', String(q.period1));
  if (q.period2 !== undefined) query.set('period2', String(q.period2));
  return yahooGet(ctx, `/v8/finance/chart/${segment(symbol)}`, query, false);
}

export const quoteSummary = (ctx: SourceContext, symbol: string, modules: string[]) =>
  yahooGet(ctx, `/v10/finance/quoteSummary/${segment(symbol)}`, new URLSearchParams({ formatted: 'false', modules: modules.join(',') }), true);

export const search = (ctx: SourceContext, q: string, quotesCount: number, newsCount: number) =>
  yahooGet(
    ctx,
    '/v1/finance/search',
    new URLSearchParams({ q, quotesCount: String(quotesCount), newsCount: String(newsCount), enableFuzzyQuery: 'false' }),
    false,
  );

export const SCREENS = { gainers: 'day_gainers', losers: 'day_losers', mostActive: 'most_actives' } as const;

export const screener = (ctx: SourceContext, screen: string, count: number) =>
  yahooGet(ctx, '/v1/finance/screener/predefined/saved', new URLSearchParams({ scrIds: screen, count: String(count), lang: 'en-US', region: 'US' }), true);

export const trending = (ctx: SourceContext, country: string, count: number) =>
  yahooGet(ctx, `/v1/finance/trending/${encodeURIComponent(country.toUpperCase())}`, new URLSearchParams({ count: String(count), lang: 'en-US' }), false);
