/**
 * The named checks of site.seo, each passed or failed with the reason, and the 0-100 score: the share of check
 * weight passed. The checks mirror Lighthouse's SEO category plus crawler basics (status, redirects, HTTPS).
 */
import { SEO_CHECK } from '../../catalogue/endpoints/site.js';
import type { TypeOf } from '../../catalogue/types.js';

/** One named check, as site.seo's record declares it. */
export type SeoCheck = TypeOf<typeof SEO_CHECK>;

/** What the checks read: the page record plus a few facts the record does not keep. */
export interface CheckFacts {
  status: number;
  redirects: { url: string; status: number }[];
  finalUrl: string;
  https: boolean;
  hsts: boolean;
  /** Sub-resources loaded over plain HTTP by an HTTPS page. */
  insecureResources: number;
  /** noindex for every crawler / for googlebot only. */
  noindex: { all: boolean; googlebot: boolean };
  robotsTxt: { found: boolean; status?: number; allowed: boolean; googlebotAllowed: boolean; rule?: string; sitemaps: number };
  title?: string;
  description?: string;
  h1Count: number;
  /** First heading level reached without the level above it. */
  skippedLevel?: number;
  canonical: { verdict: 'missing' | 'conflicting' | 'invalid' | 'relative' | 'otherSite' | 'self' | 'other'; value?: string };
  lang?: string;
  validLang: boolean;
  viewport?: string;
  hreflang: [boolean, string];
  images: { total: number; withoutAlt: number };
  links: { javascript: number; withoutText: number; vagueText: string[] };
  structuredData: { count: number; invalid: number; types: string[] };
  openGraphMissing: string[];
  favicon: boolean;
  bytes: number;
  elapsedMs?: number;
}

/** Checks that weigh more than 1: what decides whether the page can appear in results at all. */
const WEIGHTS: Record<string, number> = { status: 3, indexable: 3, crawlable: 3, title: 3, description: 2, https: 2 };

const TITLE = { min: 10, max: 60 };
const DESCRIPTION = { min: 50, max: 160 };
const PAGE_BYTES = 1024 * 1024;
const SLOW_MS = 1000;

export function seoChecks(f: CheckFacts): SeoCheck[] {
  const checks: SeoCheck[] = [];
  const check = (name: string, passed: boolean, message: string) => checks.push({ name, passed, message });

  check('status', f.status === 200, f.status === 200 ? 'the page answers 200 OK' : `the page answers HTTP ${f.status}; search engines index only 200 answers`);
  const hops = f.redirects.length;
  check(
    'redirects',
    hops <= 1,
    hops === 0
      ? 'no redirect'
      : hops === 1
        ? `one redirect (${f.redirects[0].status}) before the page`
        : `${hops} redirects before the page; link to the final address to save crawlers the round trips`,
  );
  check('https', f.https, f.https ? 'served over HTTPS' : 'served over plain HTTP; browsers mark it not secure and search engines prefer HTTPS');
  if (f.https) {
    check('hsts', f.hsts, f.hsts ? 'Strict-Transport-Security is set' : 'no Strict-Transport-Security header: browsers may still try plain HTTP first');
    check(
      'mixedContent',
      f.insecureResources === 0,
      f.insecureResources === 0
        ? 'no sub-resource is loaded over plain HTTP'
        : `${f.insecureResources} sub-resource(s) (images, scripts, frames, style sheets) are loaded over plain HTTP`,
    );
  }

  const indexable = !f.noindex.all && !f.noindex.googlebot;
  check(
    'indexable',
    indexable,
    indexable
      ? 'no noindex directive in meta robots or X-Robots-Tag'
      : `the page asks not to be indexed (${f.noindex.all ? 'meta/header noindex' : 'noindex for googlebot'})`,
  );
  const r = f.robotsTxt;
  const crawlable = r.allowed && r.googlebotAllowed;
  check(
    'crawlable',
    crawlable,
    !crawlable
      ? `robots.txt blocks this page (${r.rule}${r.allowed ? ', for googlebot' : ''})`
      : r.found
        ? 'robots.txt allows crawling this page'
        : `no robots.txt rules apply (${r.status ? `HTTP ${r.status}` : 'not readable'}): crawling is allowed`,
  );
  check('sitemap', r.sitemaps > 0, r.sitemaps ? `robots.txt lists ${r.sitemaps} sitemap(s)` : 'robots.txt lists no sitemap');

  check('title', !!f.title, f.title ? 'the page has a <title>' : 'no <title>: search results will show a made-up one');
  if (f.title) check('titleLength', ...lengthVerdict('title', f.title.length, TITLE, 'results cut it after about 60'));
  const noDescription = 'no meta description: results will show an excerpt chosen by the engine';
  check('description', !!f.description, f.description ? 'the page has a meta description' : noDescription);
  if (f.description) {
    check('descriptionLength', ...lengthVerdict('description', f.description.length, DESCRIPTION, 'results cut it after about 160'));
  }

  check(
    'h1',
    f.h1Count === 1,
    f.h1Count === 1 ? 'exactly one <h1>' : f.h1Count === 0 ? 'no <h1>: the page has no main heading' : `${f.h1Count} <h1> elements: one main heading is clearer`,
  );
  const skipped = f.skippedLevel;
  check('headingOrder', skipped === undefined, skipped === undefined ? 'headings never skip a level' : `a heading jumps to <h${skipped}> without the level above it`);
  check('canonical', ...canonicalVerdict(f.canonical));
  const langMessage = !f.lang ? 'no lang attribute on <html>' : `<html lang="${f.lang}">${f.validLang ? '' : ' is not a valid language tag'}`;
  check('lang', !!f.lang && f.validLang, langMessage);
  const viewportOk = !!f.viewport && /width\s*=/.test(f.viewport);
  check(
    'viewport',
    viewportOk,
    !f.viewport ? 'no viewport meta tag: the page is not mobile-friendly' : viewportOk ? 'a mobile viewport is declared' : 'the viewport meta tag sets no width',
  );
  check('hreflang', ...f.hreflang);

  const img = f.images;
  check(
    'imageAlt',
    img.withoutAlt === 0,
    img.total === 0
      ? 'no images'
      : img.withoutAlt === 0
        ? `all ${img.total} images have an alt attribute`
        : `${img.withoutAlt} of ${img.total} images have no alt attribute`,
  );
  const l = f.links;
  const vague = l.vagueText.slice(0, 3).map((t) => `"${t}"`).join(', ') || 'none';
  const linksOk = l.vagueText.length === 0 && l.withoutText === 0;
  check('linkText', linksOk, linksOk ? 'every link has descriptive text' : `${l.withoutText} link(s) without text, ${l.vagueText.length} with vague text (${vague})`);
  check(
    'crawlableLinks',
    l.javascript === 0,
    l.javascript ? `${l.javascript} link(s) use javascript: addresses crawlers cannot follow` : 'every link has a crawlable address',
  );

  const sd = f.structuredData;
  check(
    'structuredData',
    sd.count > 0 && sd.invalid === 0,
    sd.count === 0
      ? 'no structured data (JSON-LD or microdata): no rich results'
      : sd.invalid
        ? `${sd.invalid} JSON-LD block(s) do not parse`
        : `structured data: ${sd.types.slice(0, 8).join(', ') || 'untyped'}`,
  );
  const og = f.openGraphMissing;
  const ogMissing = og.map((k) => `og:${k}`).join(' and ');
  check('openGraph', og.length === 0, og.length ? `Open Graph ${ogMissing} missing: shared links show no proper preview` : 'og:title and og:image are set');
  check('favicon', f.favicon, f.favicon ? 'a favicon is declared' : 'no <link rel="icon">');
  const kb = Math.round(f.bytes / 1024);
  check('pageSize', f.bytes <= PAGE_BYTES, `the HTML is ${kb} KB${f.bytes > PAGE_BYTES ? ': over 1 MB slows the first render' : ''}`);
  if (f.elapsedMs !== undefined) {
    check('responseTime', f.elapsedMs <= SLOW_MS, `the page took ${f.elapsedMs} ms to download${f.elapsedMs > SLOW_MS ? ': over 1 s' : ''}`);
  }
  return checks;
}

/** Share of the checks' weight that passed, 0-100. */
export function seoScore(checks: SeoCheck[]): number {
  const weight = (c: SeoCheck) => WEIGHTS[c.name] ?? 1;
  const total = checks.reduce((s, c) => s + weight(c), 0);
  const got = checks.reduce((s, c) => s + (c.passed ? weight(c) : 0), 0);
  return total ? Math.round((100 * got) / total) : 0;
}

function lengthVerdict(what: string, n: number, range: { min: number; max: number }, tooLong: string): [boolean, string] {
  const bounds = `${range.min}-${range.max}`;
  if (n < range.min) return [false, `the ${what} is ${n} characters: too short to describe the page (${bounds})`];
  if (n > range.max) return [false, `the ${what} is ${n} characters: ${tooLong}`];
  return [true, `the ${what} is ${n} characters (${bounds})`];
}

function canonicalVerdict(c: CheckFacts['canonical']): [boolean, string] {
  switch (c.verdict) {
    case 'missing':
      return [false, 'no canonical link: duplicates of this page (parameters, http/https, www) compete with it'];
    case 'conflicting':
      return [false, `${c.value} conflicting canonical links`];
    case 'invalid':
      return [false, `the canonical link "${c.value}" is not a valid address`];
    case 'relative':
      return [false, `the canonical link "${c.value}" is relative; use an absolute address`];
    case 'otherSite':
      return [false, `the canonical link points to another site (${c.value})`];
    case 'self':
      return [true, 'the canonical link points to this page'];
    case 'other':
      return [true, `the canonical link points to ${c.value}: this address is marked a duplicate of it`];
  }
}
