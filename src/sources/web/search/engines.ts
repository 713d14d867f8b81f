/**
 * Keyless HTML result pages, used only when the operator lists them in QUARRY_WEB_SEARCH_BACKENDS: their terms do not
 * invite automated use, and they answer data-centre addresses with bot checks. One page each (about ten results), no
 * paging. A bot check is sourceRefused, never an empty result; a page without its result list is sourceChanged.
 * - DuckDuckGo: `GET html.duckduckgo.com/html/?q&kl=<cc>-<lang>&df=d|w|m|y`; links are `/l/?uddg=<target>` redirects.
 * - Bing: `GET www.bing.com/search?q&cc&setlang`; links are `/ck/a?…&u=a1<base64url target>`; dates in `.news_dt`.
 * - Mojeek: `GET www.mojeek.com/search?q`; direct links.
 */
import type { Element } from 'domhandler';
import { QuarryError } from '../../../errors.js';
import { isoFromText } from '../../kit/read.js';
import type { SourceContext } from '../../types.js';
import { clean, type Window } from './filters.js';
import { findAllIn, firstIn, hasClass, parsePage, textOf } from './html.js';
import type { Found, Hit } from './types.js';

export type HtmlEngine = 'duckduckgo' | 'bing' | 'mojeek';

export interface EngineQuery {
  q: string;
  country?: string;
  language?: string;
  within: Window;
}

/** Whether the engine applies `within` itself for this window (else the dates found are checked). */
export function engineWindow(engine: HtmlEngine, w: Window): boolean {
  if (engine === 'duckduckgo') return w === 'day' || w === 'week' || w === 'month' || w === 'year';
  if (engine === 'bing') return w === 'day' || w === 'week' || w === 'month';
  return false;
}

const DDG_TIME: Partial<Record<Window, string>> = { day: 'd', week: 'w', month: 'm', year: 'y' };
const BING_TIME: Partial<Record<Window, string>> = { day: 'ex1:"ez1"', week: 'ex1:"ez2"', month: 'ex1:"ez3"' };

export function engineUrl(engine: HtmlEngine, q: EngineQuery): string {
  const query = new URLSearchParams({ q: q.q });
  const lang = q.language?.split('-')[0];
  if (engine === 'duckduckgo') {
    // DuckDuckGo's regions are country-language pairs, the United Kingdom spelt `uk`.
    if (q.country) query.set('kl', `${q.country === 'gb' ? 'uk' : q.country}-${lang ?? 'en'}`);
    if (DDG_TIME[q.within]) query.set('df', DDG_TIME[q.within]!);
    return `https://html.duckduckgo.com/html/?${query}`;
  }
  if (engine === 'bing') {
    if (q.country) query.set('cc', q.country.toUpperCase());
    if (lang) query.set('setlang', lang);
    if (BING_TIME[q.within]) query.set('filters', BING_TIME[q.within]!);
    return `https://www.bing.com/search?${query}`;
  }
  return `https://www.mojeek.com/search?${query}`;
}

export async function htmlEngine(ctx: SourceContext, engine: HtmlEngine, q: EngineQuery): Promise<Found> {
  const res = await ctx.http.request(
    {
      url: engineUrl(engine, q),
      headers: { accept: 'text/html,application/xhtml+xml', ...(q.language ? { 'accept-language': q.language } : {}) },
      maxBytes: 4 * 1024 * 1024,
    },
    ctx.signal,
  );
  return { hits: readResultPage(engine, res.text()) };
}

/** A DuckDuckGo bot check: its anomaly challenge form (served to Lite and HTML searches alike). */
export function isDuckDuckGoChallenge(html: string): boolean {
  return /anomaly\.js\?|id=["']?challenge-form|cc=botnet/i.test(html.slice(0, 200_000));
}

export function readResultPage(engine: HtmlEngine, html: string): Hit[] {
  if (engine === 'duckduckgo' && isDuckDuckGoChallenge(html)) throw new QuarryError('sourceRefused', 'web: DuckDuckGo answered with its bot check');
  const doc = parsePage(html);
  if (engine === 'duckduckgo') return duckduckgo(doc.children);
  if (engine === 'bing') return bing(doc.children, html);
  return mojeek(doc.children);
}

const changed = (what: string) => new QuarryError('sourceChanged', `web: ${what}`);

/** `//duckduckgo.com/l/?uddg=<target>&rut=…` → the target. */
function ddgTarget(href: string | undefined): string | undefined {
  if (!href) return undefined;
  try {
    const u = new URL(href, 'https://duckduckgo.com');
    const target = u.pathname === '/l/' ? u.searchParams.get('uddg') : u.href;
    return target && /^https?:\/\//i.test(target) ? target : undefined;
  } catch {
    return undefined;
  }
}

function duckduckgo(doc: Element['children']): Hit[] {
  const links = firstIn(doc, (el) => el.attribs.id === 'links');
  if (!links) throw changed('DuckDuckGo page without its result list');
  const results = findAllIn(links, (el) => el.name === 'div' && hasClass(el, 'result') && !hasClass(el, 'result--ad'));
  return results.flatMap((r) => {
    const a = firstIn(r, (el) => el.name === 'a' && hasClass(el, 'result__a'));
    const url = ddgTarget(a?.attribs.href);
    const title = textOf(a);
    if (!url || !title) return [];
    const extras = firstIn(r, (el) => hasClass(el, 'result__extras__url'));
    const dated = extras && findAllIn(extras, (el) => el.name === 'span' && !hasClass(el, 'result__icon')).map(textOf).find((t) => t && /^\d{4}-\d{2}-\d{2}/.test(t));
    return [{ url, title, snippet: textOf(firstIn(r, (el) => hasClass(el, 'result__snippet'))), publishedAt: isoFromText(dated?.replace(/\.\d+$/, 'Z')) }];
  });
}

/** `https://www.bing.com/ck/a?…&u=a1<base64url>` → the target. */
function bingTarget(href: string | undefined): string | undefined {
  if (!href) return undefined;
  try {
    const u = new URL(href, 'https://www.bing.com');
    if (u.hostname.endsWith('bing.com') && u.pathname === '/ck/a') {
      const packed = u.searchParams.get('u');
      if (!packed?.startsWith('a1')) return undefined;
      const target = Buffer.from(packed.slice(2).replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
      return /^https?:\/\//i.test(target) ? target : undefined;
    }
    return /^https?:$/.test(u.protocol) ? u.href : undefined;
  } catch {
    return undefined;
  }
}

function bing(doc: Element['children'], html: string): Hit[] {
  const list = firstIn(doc, (el) => el.attribs.id === 'b_results');
  if (!list) {
    if (/captcha|verify you are a human/i.test(html.slice(0, 200_000))) throw new QuarryError('sourceRefused', 'web: Bing answered with a bot check');
    throw changed('Bing page without its result list');
  }
  return findAllIn(list, (el) => el.name === 'li' && hasClass(el, 'b_algo')).flatMap((r) => {
    const a = firstIn(firstIn(r, (el) => el.name === 'h2') ?? r, (el) => el.name === 'a');
    const url = bingTarget(a?.attribs.href);
    const title = textOf(a);
    if (!url || !title) return [];
    const caption = firstIn(r, (el) => hasClass(el, 'b_caption'));
    const p = caption && firstIn(caption, (el) => el.name === 'p');
    const date = textOf(p && firstIn(p, (el) => hasClass(el, 'news_dt')));
    let snippet = textOf(p);
    if (snippet && date && snippet.startsWith(date)) snippet = clean(snippet.slice(date.length).replace(/^\s*·\s*/, ''));
    return [{ url, title, snippet, publishedAt: isoFromText(date) }];
  });
}

function mojeek(doc: Element['children']): Hit[] {
  const list = firstIn(doc, (el) => el.name === 'ul' && hasClass(el, 'results-standard'));
  if (!list) throw changed('Mojeek page without its result list');
  return findAllIn(list, (el) => el.name === 'li').flatMap((r) => {
    const a = firstIn(r, (el) => el.name === 'a' && hasClass(el, 'title'));
    const url = a?.attribs.href;
    const title = textOf(a);
    if (!url || !title || !/^https?:\/\//i.test(url)) return [];
    return [{ url, title, snippet: textOf(firstIn(r, (el) => el.name === 'p' && hasClass(el, 's'))) }];
  });
}
