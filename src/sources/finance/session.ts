/**
 * Yahoo's cookie and crumb: the quote, quoteSummary and screener endpoints answer only a request carrying the
 * session cookies and the matching `crumb` parameter. The session is opened as a browser would:
 * 1. GET a quote page (finance.yahoo.com/quote/AAPL), following its redirects by hand to keep every Set-Cookie;
 * 2. where Yahoo asks for consent (guce.yahoo.com → consent.yahoo.com/v2/collectConsent), the consent form's hidden
 *    fields are posted back with `agree`, and the redirects after it (copyConsent, back to the quote page) followed;
 * 3. GET query1.finance.yahoo.com/v1/test/getcrumb with those cookies: the crumb, as plain text.
 * One session serves the whole process for hours; a crumb Yahoo rejects is replaced once (client.ts). A refusal is
 * remembered for a minute, so calls fall back at once instead of repeating a flow that was just refused.
 */
import { findAll, getAttributeValue } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { QuarryError, isQuarryError } from '../../errors.js';
import type { SourceContext } from '../types.js';
import { CookieJar } from './cookies.js';

/** Honest and browser-compatible: Yahoo's crumb endpoint refuses agents that do not start like a browser's. */
export const YAHOO_USER_AGENT = 'Mozilla/5.0 (compatible; quarry/0.1)';
export const START_URL = 'https://finance.yahoo.com/quote/AAPL';
export const CRUMB_URL = 'https://query1.finance.yahoo.com/v1/test/getcrumb';
const QUERY_URL = 'https://query2.finance.yahoo.com/';
const HTML = 'text/html,application/xhtml+xml,application/xml';
const REDIRECTS = [301, 302, 303, 307, 308];
const MAX_HOPS = 10;
const PAGE_MAX_BYTES = 4 * 1024 * 1024;
const SESSION_TTL_MS = 6 * 60 * 60 * 1000;
const REFUSAL_MEMORY_MS = 60 * 1000;

export interface YahooSession {
  crumb: string;
  /** The Cookie header for the query hosts. */
  cookie?: string;
  expiresAt: number;
}

let current: Promise<YahooSession> | undefined;
let refused: { error: QuarryError; until: number } | undefined;

/** Forgets the process's session and any remembered refusal (tests; an operator's restart does the same). */
export function forgetYahooSession(): void {
  current = undefined;
  refused = undefined;
}

/** The process's session; `stale` is one the upstream just rejected, which is then replaced. */
export async function yahooSession(ctx: SourceContext, stale?: YahooSession): Promise<YahooSession> {
  if (refused && refused.until > Date.now()) throw refused.error;
  if (current) {
    const held = current;
    const s = await held.catch(() => undefined);
    if (s && s !== stale && s.expiresAt > Date.now()) return s;
    if (current === held) current = undefined;
    else return yahooSession(ctx, stale);
  }
  // Not bound to one caller's signal: the session is shared, and the upstream timeout bounds each step.
  const pending = openSession({ ...ctx, signal: new AbortController().signal });
  current = pending;
  pending.catch((e: unknown) => {
    if (current === pending) current = undefined;
    if (isQuarryError(e) && e.code === 'sourceRefused') refused = { error: e, until: Date.now() + REFUSAL_MEMORY_MS };
  });
  return pending;
}

async function openSession(ctx: SourceContext): Promise<YahooSession> {
  const jar = new CookieJar();
  await collectCookies(ctx, jar);
  const cookie = jar.header(CRUMB_URL);
  const res = await ctx.http.request(
    {
      url: CRUMB_URL,
      headers: {
        accept: '*/*',
        'user-agent': YAHOO_USER_AGENT,
        origin: 'https://finance.yahoo.com',
        referer: START_URL,
        ...(cookie ? { cookie } : {}),
      },
      maxBytes: 64 * 1024,
      passStatuses: [400, 401, 404],
    },
    ctx.signal,
  );
  if (res.status !== 200) throw new QuarryError('sourceRefused', `finance: Yahoo handed out no crumb (HTTP ${res.status})`);
  const crumb = res.text().trim();
  // A crumb is a short token; a page here is a wall, not a crumb.
  if (!/^[^\s<>"']{1,64}$/.test(crumb)) throw new QuarryError('sourceRefused', 'finance: Yahoo answered the crumb request with a page, not a crumb');
  const queryCookie = jar.header(QUERY_URL);
  return { crumb, ...(queryCookie ? { cookie: queryCookie } : {}), expiresAt: Date.now() + SESSION_TTL_MS };
}

/** Walks the quote page's redirects (and the consent form, where Yahoo shows one), keeping every cookie set. */
async function collectCookies(ctx: SourceContext, jar: CookieJar): Promise<void> {
  let url = START_URL;
  let body: string | undefined;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const cookie = jar.header(url);
    const res = await ctx.http.request(
      {
        url,
        method: body === undefined ? 'GET' : 'POST',
        idempotent: true,
        headers: {
          accept: HTML,
          'user-agent': YAHOO_USER_AGENT,
          ...(cookie ? { cookie } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
        },
        ...(body === undefined ? {} : { body }),
        maxBytes: PAGE_MAX_BYTES,
        passStatuses: [...REDIRECTS, 404],
      },
      ctx.signal,
    );
    jar.add(res.headers['set-cookie'], res.url);
    body = undefined;
    const location = res.headers.location;
    if (REDIRECTS.includes(res.status) && location) {
      url = new URL(location, res.url).href;
      continue;
    }
    if (res.status === 200 && isConsentPage(res.url)) {
      const fields = consentFields(res.text());
      if (!fields) throw new QuarryError('sourceChanged', 'finance: Yahoo consent page without its form');
      body = `${fields}&agree=agree&agree=agree`;
      url = res.url;
      continue;
    }
    return;
  }
  throw new QuarryError('sourceRefused', `finance: Yahoo redirected more than ${MAX_HOPS} times while opening a session`);
}

const isConsentPage = (url: string): boolean => /(^|\.)consent\.yahoo\.com$/i.test(new URL(url).hostname);

/** The consent form's hidden fields, form-encoded, or undefined when the page has none. */
export function consentFields(html: string): string | undefined {
  const doc = parseDocument(html.slice(0, PAGE_MAX_BYTES));
  const inputs = findAll((el) => el.name === 'input' && (getAttributeValue(el, 'type') ?? '').toLowerCase() === 'hidden', doc.children);
  const pairs = inputs.flatMap((el) => {
    const name = getAttributeValue(el, 'name');
    return name ? [`${encodeURIComponent(name)}=${encodeURIComponent(getAttributeValue(el, 'value') ?? '')}`] : [];
  });
  return pairs.length ? pairs.slice(0, 50).join('&') : undefined;
}
