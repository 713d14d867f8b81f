/**
 * site.seo: what an SEO audit reads from one page, computed from the fetched answer (status, redirects, headers,
 * HTML, parsed once with htmlparser2) and the site's robots.txt; the named checks and the score are in ./checks.ts.
 */
import { SEO_RECORD } from '../../catalogue/endpoints/site.js';
import type { TypeOf } from '../../catalogue/types.js';
import type { Document, Element } from 'domhandler';
import { findAll, getAttributeValue as readAttribute, textContent } from 'domutils';
import { trimEndOf } from '../../lib/strings.js';
import { QuarryError, isQuarryError } from '../../errors.js';
import type { UpstreamRedirect } from '../../upstream/types.js';
import { parseHtml } from '../kit/web/dom.js';
import { HTML_ACCEPT, type Fetcher } from '../kit/web/fetch.js';
import { contentType, pageText } from '../kit/web/page.js';
import { readRobots } from '../kit/web/robots-file.js';
import { verdict } from '../kit/web/robots.js';
import { sameSite } from './address.js';
import { robotsAnswer, type RobotsAnswer } from './map.js';
import { seoChecks, seoScore, type CheckFacts, type SeoCheck } from './checks.js';

export type { SeoCheck };

export interface SeoPage {
  /** The address asked for. */
  url: string;
  finalUrl: string;
  status: number;
  headers: Record<string, string>;
  html: string;
  bytes: number;
  redirects: UpstreamRedirect[];
  elapsedMs?: number;
  robots: RobotsAnswer;
}

const LIMITS = { headings: 200, examples: 20, text: 300 };
/** Link texts that say nothing about the target (Lighthouse's list, English, plus a few common ones). */
const VAGUE = new Set([
  'click here', 'click this', 'go', 'here', 'information', 'learn more', 'more', 'more info', 'more information',
  'right here', 'read more', 'see more', 'start', 'this', 'link', 'this page', 'continue',
]);
const LANG = /^(?:[a-z]{2,3}(?:-[a-z]{4})?(?:-(?:[a-z]{2}|\d{3}))?(?:-[a-z0-9]{5,8})*|x-default)$/i;

const clip = (s: string, n = LIMITS.text) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** domutils' reader, tolerating a missing element. */
const getAttributeValue = (el: Element | undefined, name: string): string | undefined => (el ? readAttribute(el, name) : undefined);

function insideSvg(el: Element): boolean {
  for (let p = el.parent; p; p = p.parent) if ((p as Element).name === 'svg') return true;
  return false;
}

function absolute(href: string | undefined, base: string): string | undefined {
  if (!href?.trim()) return undefined;
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Robots directives of a meta content or X-Robots-Tag value, for every crawler (`*`) or a named one. */
export function robotsDirectives(values: string[], agent: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const value of values) {
    let current: string | undefined;
    for (const part of value.split(',')) {
      const token = part.trim().toLowerCase();
      const m = /^([a-z0-9_-]+)\s*:\s*(.*)$/.exec(token);
      let directive = token;
      // `googlebot: noindex` names an agent; `unavailable_after: date` and `max-snippet: 20` are directives.
      if (m && !/^(unavailable_after|max-snippet|max-image-preview|max-video-preview)$/.test(m[1])) {
        current = m[1];
        directive = m[2].trim();
      }
      if (!directive || (current && current !== agent)) continue;
      if (directive === 'none') out.add('noindex').add('nofollow');
      else out.add(directive.split(':')[0].trim());
    }
  }
  return out;
}

/** site.seo's record, read off its declaration (src/catalogue/endpoints/site.ts). */
export type SeoRecord = TypeOf<typeof SEO_RECORD>;
/** What a check builds: the record with its lists always there (empty ones are pruned from the answer). */
export type SeoAnalysis = SeoRecord & Required<Pick<SeoRecord, 'redirects' | 'hreflang' | 'openGraph' | 'twitterCard' | 'structuredData' | 'headings'>>;
type StructuredData = NonNullable<SeoRecord['structuredData']>;
type LinkCounts = SeoRecord['links'];

export function analysePage(page: SeoPage): SeoAnalysis {
  const doc: Document = parseHtml(page.html);
  const all = findAll(() => true, doc.children);
  const byName = (name: string) => all.filter((e) => e.name === name);
  const base = absolute(getAttributeValue(byName('base')[0], 'href'), page.finalUrl) ?? page.finalUrl;
  const final = new URL(page.finalUrl);
  const https = final.protocol === 'https:';

  const metas = byName('meta');
  const meta = (key: string) =>
    metas.filter((m) => getAttributeValue(m, 'name')?.trim().toLowerCase() === key).map((m) => getAttributeValue(m, 'content') ?? '');
  const titleEl = byName('title').find((e) => !insideSvg(e));
  const title = titleEl ? squash(textContent(titleEl)) : undefined;
  const description = meta('description')[0] !== undefined ? squash(meta('description')[0]) : undefined;
  const lang = getAttributeValue(byName('html')[0], 'lang')?.trim();
  const viewport = meta('viewport')[0];

  const linkEls = byName('link');
  const canonicals = linkEls.filter((e) => rels(e).includes('canonical')).map((e) => getAttributeValue(e, 'href') ?? '');
  const canonical = canonicals.length === 1 ? absolute(canonicals[0], base) : undefined;
  const favicon = absolute(getAttributeValue(linkEls.find((e) => rels(e).includes('icon')), 'href'), base);
  const hreflang = linkEls
    .filter((e) => rels(e).includes('alternate') && getAttributeValue(e, 'hreflang'))
    .map((e) => ({ lang: getAttributeValue(e, 'hreflang')!.trim(), href: getAttributeValue(e, 'href') ?? '' }));

  // Robots: meta robots / googlebot, the X-Robots-Tag header, robots.txt (for every crawler and for googlebot).
  const forGooglebot = meta('googlebot').map((c) => `googlebot: ${c}`);
  const header = page.headers['x-robots-tag'] ? [page.headers['x-robots-tag']] : [];
  const generic = robotsDirectives([...meta('robots'), ...header], undefined);
  const google = robotsDirectives([...meta('robots'), ...forGooglebot, ...header], 'googlebot');
  const path = final.pathname + final.search;
  const txt = page.robots.robots;
  const forAll = txt ? verdict(txt, '*', path) : { allowed: true };
  const forGoogle = txt ? verdict(txt, 'googlebot', path) : { allowed: true };
  const decisive = !forAll.allowed ? forAll.rule : !forGoogle.allowed ? forGoogle.rule : (forAll.rule ?? forGoogle.rule);

  const headingEls = all.filter((e) => /^h[1-6]$/.test(e.name));
  const levels = headingEls.map((e) => Number(e.name[1]));
  const imgs = byName('img');
  const noAlt = imgs.filter((e) => getAttributeValue(e, 'alt') === undefined);
  const structuredData = readStructuredData(all);
  const links = readLinks(byName('a'), base, final);
  const openGraph = prefixed(metas, 'og:');
  const robotsTxt: SeoRecord['robots']['robotsTxt'] = {
    url: page.robots.summary.url,
    ...(page.robots.summary.status !== undefined ? { status: page.robots.summary.status } : {}),
    allowed: forAll.allowed,
    googlebotAllowed: forGoogle.allowed,
    ...(decisive ? { rule: `${decisive.allow ? 'Allow' : 'Disallow'}: ${decisive.path}` } : {}),
    sitemaps: page.robots.summary.sitemaps.slice(0, LIMITS.examples),
    ...(page.robots.summary.error ? { error: page.robots.summary.error } : {}),
  };

  const record: Omit<SeoAnalysis, 'checks' | 'score'> = {
    url: page.url,
    finalUrl: page.finalUrl,
    status: page.status,
    redirects: page.redirects,
    ...(page.headers['content-type'] ? { contentType: page.headers['content-type'] } : {}),
    bytes: page.bytes,
    ...(page.elapsedMs !== undefined ? { responseTimeMs: page.elapsedMs } : {}),
    https,
    hsts: https && !!page.headers['strict-transport-security'],
    ...(lang ? { lang } : {}),
    ...(title ? { title: clip(title, 1000) } : {}),
    titleLength: title?.length ?? 0,
    ...(description ? { description: clip(description, 2000) } : {}),
    descriptionLength: description?.length ?? 0,
    ...(canonical ? { canonical } : {}),
    robots: {
      meta: [...meta('robots'), ...forGooglebot].map((c) => clip(c, 200)),
      header: header.map((c) => clip(c, 500)),
      indexable: !generic.has('noindex') && !google.has('noindex'),
      followable: !generic.has('nofollow') && !google.has('nofollow'),
      robotsTxt,
    },
    hreflang: hreflang.map((h) => ({ lang: h.lang, url: absolute(h.href, base) ?? h.href })),
    openGraph,
    twitterCard: prefixed(metas, 'twitter:'),
    structuredData,
    headings: headingEls.slice(0, LIMITS.headings).map((e, i) => ({ level: levels[i], text: clip(squash(textContent(e)), 200) })),
    links,
    images: {
      total: imgs.length,
      withoutAlt: noAlt.length,
      withoutAltSources: [...new Set(noAlt.map((e) => absolute(getAttributeValue(e, 'src'), base) ?? getAttributeValue(e, 'src') ?? ''))]
        .filter(Boolean)
        .slice(0, LIMITS.examples),
    },
    ...(viewport ? { viewport } : {}),
    ...(favicon ? { favicon } : {}),
  };

  const checks = seoChecks({
    status: page.status,
    redirects: page.redirects,
    finalUrl: page.finalUrl,
    https,
    hsts: record.hsts,
    insecureResources: https ? all.filter(loadsOverHttp).length : 0,
    noindex: { all: generic.has('noindex'), googlebot: google.has('noindex') },
    robotsTxt: {
      found: !!txt,
      status: page.robots.summary.status,
      allowed: forAll.allowed,
      googlebotAllowed: forGoogle.allowed,
      rule: robotsTxt.rule,
      sitemaps: page.robots.summary.sitemaps.length,
    },
    title,
    description,
    h1Count: levels.filter((l) => l === 1).length,
    skippedLevel: levels.find((level, i) => i > 0 && level > levels[i - 1] + 1),
    canonical: canonicalFacts(canonicals, base, page.finalUrl),
    lang,
    validLang: !!lang && LANG.test(lang),
    viewport,
    hreflang: hreflangVerdict(hreflang, base, page.finalUrl, canonical),
    images: { total: imgs.length, withoutAlt: noAlt.length },
    links,
    structuredData: {
      count: structuredData.length,
      invalid: structuredData.filter((s) => !s.valid).length,
      types: [...new Set(structuredData.flatMap((s) => s.types))],
    },
    openGraphMissing: ['title', 'image'].filter((k) => !openGraph[k]),
    favicon: !!favicon,
    bytes: page.bytes,
    elapsedMs: page.elapsedMs,
  });
  return { ...record, checks, score: seoScore(checks) };
}

const rels = (e: Element) => (getAttributeValue(e, 'rel') ?? '').toLowerCase().split(/\s+/);

/** `og:*` or `twitter:*` meta tags (by property or name), the first of each key, without the prefix. */
function prefixed(metas: Element[], prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of metas) {
    const key = (getAttributeValue(m, 'property') ?? getAttributeValue(m, 'name') ?? '').trim().toLowerCase();
    const content = getAttributeValue(m, 'content');
    if (content === undefined || !key.startsWith(prefix)) continue;
    const name = key.slice(prefix.length);
    if (!(name in out)) out[name] = clip(squash(content));
  }
  return out;
}

/** JSON-LD blocks (each parsed, with its types) and the microdata item types. */
function readStructuredData(all: Element[]): StructuredData {
  const out: StructuredData = [];
  for (const s of all.filter((e) => e.name === 'script' && /^application\/ld\+json$/i.test((getAttributeValue(e, 'type') ?? '').trim()))) {
    try {
      out.push({ format: 'json-ld', types: ldTypes(JSON.parse(textContent(s))), valid: true });
    } catch (e) {
      out.push({ format: 'json-ld', types: [], valid: false, error: clip((e as Error).message, 200) });
    }
  }
  const itemTypes = new Set(all.flatMap((e) => getAttributeValue(e, 'itemtype')?.trim().split(/\s+/).filter(Boolean) ?? []));
  if (itemTypes.size) out.push({ format: 'microdata', types: [...itemTypes].map(shortType), valid: true });
  return out;
}

/** Counts of `<a href>` by kind, links without any text, and the vague link texts found. */
function readLinks(anchors: Element[], base: string, final: URL): Required<LinkCounts> {
  const links: Required<LinkCounts> = { total: 0, internal: 0, external: 0, nofollow: 0, javascript: 0, withoutText: 0, vagueText: [] };
  for (const a of anchors) {
    const href = getAttributeValue(a, 'href')?.trim();
    if (href === undefined) continue;
    links.total++;
    if (/^javascript:/i.test(href)) {
      links.javascript++;
      continue;
    }
    const target = absolute(href, base);
    if (target) {
      if (sameSite(new URL(target), final)) links.internal++;
      else links.external++;
    }
    if (/\b(nofollow|ugc|sponsored)\b/i.test(getAttributeValue(a, 'rel') ?? '')) links.nofollow++;
    const text = squash(textContent(a));
    const imageAlt = findAll((e) => e.name === 'img' && !!getAttributeValue(e, 'alt')?.trim(), a.children).length > 0;
    if (!text && !getAttributeValue(a, 'aria-label')?.trim() && !getAttributeValue(a, 'title')?.trim() && !imageAlt) links.withoutText++;
    else if (VAGUE.has(trimEndOf(text.toLowerCase(), '.!…»›→').trim()) && !links.vagueText.includes(text) && links.vagueText.length < LIMITS.examples) {
      links.vagueText.push(text);
    }
  }
  return links;
}

/** Mixed content: a sub-resource (image, script, frame, media, style sheet) addressed over plain HTTP. */
function loadsOverHttp(e: Element): boolean {
  const src =
    e.name === 'link' && rels(e).includes('stylesheet') ? getAttributeValue(e, 'href') : MEDIA.has(e.name) ? getAttributeValue(e, 'src') : undefined;
  return !!src && /^http:\/\//i.test(src.trim());
}
const MEDIA = new Set(['img', 'script', 'iframe', 'audio', 'video', 'source', 'embed']);

function canonicalFacts(canonicals: string[], base: string, finalUrl: string): CheckFacts['canonical'] {
  if (canonicals.length === 0) return { verdict: 'missing' };
  if (canonicals.length > 1 && new Set(canonicals.map((c) => absolute(c, base))).size > 1) return { verdict: 'conflicting', value: String(canonicals.length) };
  const raw = canonicals[0].trim();
  const abs = absolute(raw, base);
  if (!abs) return { verdict: 'invalid', value: clip(raw, 100) };
  if (!/^https?:\/\//i.test(raw)) return { verdict: 'relative', value: clip(raw, 100) };
  if (!sameSite(new URL(abs), new URL(finalUrl))) return { verdict: 'otherSite', value: new URL(abs).hostname };
  return stripSlash(abs) === stripSlash(finalUrl) ? { verdict: 'self' } : { verdict: 'other', value: abs };
}

function stripSlash(u: string): string {
  const url = new URL(u);
  url.hash = '';
  return url.href.replace(/\/$/, '');
}

function hreflangVerdict(list: { lang: string; href: string }[], base: string, finalUrl: string, canonical: string | undefined): [boolean, string] {
  if (!list.length) return [true, 'no hreflang links (only multilingual pages need them)'];
  const bad = list.filter((h) => !LANG.test(h.lang)).map((h) => h.lang);
  if (bad.length) return [false, `invalid hreflang code(s): ${bad.slice(0, 5).join(', ')}`];
  const relative = list.filter((h) => !/^https?:\/\//i.test(h.href.trim()) || !absolute(h.href, base));
  if (relative.length) return [false, `${relative.length} hreflang link(s) without an absolute address`];
  const selves = new Set([stripSlash(finalUrl), ...(canonical ? [stripSlash(canonical)] : [])]);
  const self = list.some((h) => selves.has(stripSlash(absolute(h.href, base)!)));
  if (!self) return [false, `${list.length} hreflang links, none pointing back to this page`];
  const xDefault = list.some((h) => h.lang.toLowerCase() === 'x-default');
  return [true, `${list.length} hreflang links including this page${xDefault ? ' and x-default' : '; no x-default'}`];
}

function shortType(t: string): string {
  return t.replace(/^https?:\/\/(www\.)?schema\.org\//i, '');
}

/** Every `@type` of a JSON-LD value (top level, `@graph`, nested objects), schema.org prefix dropped. */
function ldTypes(value: unknown, out = new Set<string>(), depth = 0): string[] {
  if (depth > 8 || out.size > 50) return [...out];
  if (Array.isArray(value)) for (const v of value) ldTypes(v, out, depth + 1);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '@type') for (const t of Array.isArray(v) ? v : [v]) if (typeof t === 'string') out.add(shortType(t));
      if (typeof v === 'object') ldTypes(v, out, depth + 1);
    }
  }
  return [...out];
}

/** Largest page read; larger answers fail as sourceChanged (the upstream client's byte cap). */
export const PAGE_MAX_BYTES = 5 * 1024 * 1024;

/** Fetches the page (redirects followed, each checked by the SSRF guard) and the robots.txt of where it landed. */
export async function checkPage(start: URL, fetcher: Fetcher): Promise<SeoAnalysis> {
  const res = await fetcher(start.href, { maxBytes: PAGE_MAX_BYTES, accept: HTML_ACCEPT });
  if (res.status === 403 || res.status === 429) {
    throw new QuarryError('sourceRefused', `site: the site refused the request (HTTP ${res.status})`);
  }
  if (res.status >= 500) throw new QuarryError('sourceUnavailable', `site: the page answered HTTP ${res.status}`);
  const type = contentType(res.headers);
  const head = res.body.subarray(0, 1024).toString('latin1');
  if (type && !/html/.test(type) && !/^\s*(?:<!doctype html|<html)/i.test(head)) {
    throw new QuarryError('invalidRequest', `url: answered ${type}, not an HTML page`, { retryable: false });
  }
  // robots.txt of where the page landed; a site that does not answer it still gets its page checked.
  const file = await readRobots(fetcher, new URL(res.url).origin);
  if (file.failure !== undefined && !isQuarryError(file.failure)) throw file.failure;
  const robots: RobotsAnswer = robotsAnswer(file);
  return analysePage({
    url: start.href,
    finalUrl: res.url,
    status: res.status,
    headers: res.headers,
    html: pageText(res),
    bytes: res.body.length,
    redirects: res.redirects,
    ...(res.elapsedMs !== undefined ? { elapsedMs: res.elapsedMs } : {}),
    robots,
  });
}
