/**
 * The one way crypto upstreams are asked: JSON over ctx.http at the upstream's real address (tests and mirrors
 * redirect hosts with QUARRY_UPSTREAM_OVERRIDES). Statuses a module wants to judge itself (404 for "no such coin",
 * 400/422 for a cursor the upstream refused) are handed back; every other failure is mapped by the upstream client.
 */
import { QuarryError } from '../../errors.js';
import type { SourceContext } from '../types.js';

export interface JsonAnswer {
  status: number;
  /** The parsed body; undefined when a passed-through status carried no JSON. */
  body: unknown;
  headers: Record<string, string>;
}

export interface JsonRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Statuses handed back instead of failing (2xx always are). */
  pass?: number[];
}

export async function getJson(ctx: SourceContext, req: JsonRequest): Promise<JsonAnswer> {
  const res = await ctx.http.request(
    {
      url: req.url,
      method: req.method ?? 'GET',
      headers: { accept: 'application/json', ...(req.body ? { 'content-type': 'application/json' } : {}), ...req.headers },
      ...(req.body ? { body: req.body, idempotent: true } : {}),
      passStatuses: req.pass ?? [],
    },
    ctx.signal,
  );
  // AWS WAF (in front of Binance) answers its challenge as a 2xx with an empty body and this header.
  if (res.headers['x-amzn-waf-action']) throw refused(`${new URL(req.url).host} answered with its WAF challenge`);
  if (res.status >= 200 && res.status < 300 && !req.pass?.includes(res.status)) return { status: res.status, body: res.json(), headers: res.headers };
  let body: unknown;
  try {
    body = JSON.parse(res.text());
  } catch {
    body = undefined;
  }
  return { status: res.status, body, headers: res.headers };
}

/** The caller's input names something the upstream does not know. */
export const notFound = (message: string): QuarryError => new QuarryError('notFound', message);

/** Bad input, named by its field. */
export const invalid = (field: string, why: string): QuarryError =>
  new QuarryError('invalidRequest', `${field}: ${why}`, { retryable: false });

/** A cursor this endpoint never answered, or one the upstream refused: the caller's 400, never a 5xx. */
export const badCursor = (why = 'not a cursor this endpoint answered; send back the cursor of the previous page unchanged'): QuarryError =>
  invalid('cursor', why);

/** The operator has to configure something before this works. */
export const needsSetting = (message: string): QuarryError => new QuarryError('sourceUnavailable', `crypto: ${message}`, { retryable: false });

/** The upstream blocked or throttled us in its own words (a JSON error or a WAF challenge it answers 2xx). */
export const refused = (message: string): QuarryError => new QuarryError('sourceRefused', `crypto: ${message}`);
