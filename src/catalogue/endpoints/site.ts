/**
 * The site source (issue 5). SPEC names only what it does ("map a site's pages, check its SEO"); inputs, records and
 * prices are designed here like their neighbours: a `url` field like web.contacts (a domain or a full address),
 * `maxAge` and `tags`, keyed (not keyless) like the other open-web sources.
 */
import { cursor, endpoint, limit, text } from '../fields.js';
import * as R from '../records.js';

/** The position of the next page: `s.` + sitemap path and offset, or `c.` + crawl offset (src/sources/site/map.ts). */
const CURSOR_PATTERN = '^(?:s(?:\\.\\d{1,6}){1,6}|c\\.\\d{1,6})$';

/** One page of a site: from a sitemap (with what the sitemap says of it) or found by the crawl (with what it answered). */
const MAP_PAGE = R.rec(
  { url: R.str },
  {
    /** ISO 8601 (a date alone where the sitemap gives only a date). */
    lastModified: R.str,
    changeFrequency: R.str,
    priority: R.num,
    /** The sitemap file that listed it (sitemap mode). */
    sitemap: R.str,
    /** Links from the start page (crawl mode). */
    depth: R.int,
    /** HTTP status, for the pages the crawl fetched. */
    status: R.int,
    title: R.str,
  },
);

/** A sitemap file this call read: its kind and entry count, or why it was skipped. */
const SITEMAP_FILE = R.rec(
  { url: R.str },
  { kind: R.oneOf(['urlset', 'index', 'rss', 'atom', 'text']), entries: R.int, lastModified: R.str, truncated: R.bool, error: R.str },
);

/**
 * site.map's record. Every answer says which site, how its pages were found and what its robots.txt answered
 * (`status` absent when it could not be fetched, `error` when it was unusable); `pages` is the priced list.
 */
export const SITE_MAP = R.rec(
  {
    site: R.str,
    source: R.oneOf(['sitemap', 'crawl']),
    robotsTxt: R.rec({ url: R.str }, { status: R.int, sitemaps: R.list(R.str), error: R.str }),
    pages: R.list(MAP_PAGE),
  },
  {
    /** The sitemap files read by this call, in order. */
    sitemaps: R.list(SITEMAP_FILE),
    /** Pages the crawl fetched (crawl mode). */
    pagesFetched: R.int,
    cursor: R.str,
  },
);

/** A named check of site.seo, passed or failed with the reason (src/sources/site/checks.ts). */
export const SEO_CHECK = R.rec({ name: R.str, passed: R.bool, message: R.str });

/**
 * site.seo's record: what every check of a page that answered gives (status, sizes, the robots verdicts, link and
 * image counts, the checks and the score), then what the page may or may not carry.
 */
export const SEO_RECORD = R.rec(
  {
    /** The address asked for, and where it landed after redirects. */
    url: R.str,
    finalUrl: R.str,
    status: R.int,
    /** Bytes of the HTML. */
    bytes: R.int,
    https: R.bool,
    /** A Strict-Transport-Security header on an HTTPS page. */
    hsts: R.bool,
    titleLength: R.int,
    descriptionLength: R.int,
    robots: R.rec(
      {
        indexable: R.bool,
        followable: R.bool,
        /** robots.txt of the final host: whether every crawler (`*`) and googlebot may fetch the page, and the deciding rule. */
        robotsTxt: R.rec(
          { url: R.str, allowed: R.bool, googlebotAllowed: R.bool },
          { status: R.int, rule: R.str, sitemaps: R.list(R.str), error: R.str },
        ),
      },
      /** The meta robots / googlebot contents and the X-Robots-Tag header, as written. */
      { meta: R.list(R.str), header: R.list(R.str) },
    ),
    links: R.rec(
      { total: R.int, internal: R.int, external: R.int, nofollow: R.int, javascript: R.int, withoutText: R.int },
      /** Link texts that say nothing about their target ("click here"), up to 20. */
      { vagueText: R.list(R.str) },
    ),
    images: R.rec({ total: R.int, withoutAlt: R.int }, { withoutAltSources: R.list(R.str) }),
    checks: R.list(SEO_CHECK, 1),
    /** 0-100: the share of check weight passed. */
    score: R.num,
  },
  {
    redirects: R.list(R.rec({ url: R.str, status: R.int })),
    contentType: R.str,
    /** Milliseconds to the whole page, redirects included. */
    responseTimeMs: R.int,
    lang: R.str,
    title: R.str,
    description: R.str,
    canonical: R.str,
    hreflang: R.list(R.rec({ lang: R.str, url: R.str })),
    /** Open Graph properties by name without `og:` (`title`, `image`, `image:width`…), the first of each. */
    openGraph: R.dict(R.str),
    /** Twitter card properties by name without `twitter:`. */
    twitterCard: R.dict(R.str),
    /** Each JSON-LD block (parsed or not, with its types) and the page's microdata item types. */
    structuredData: R.list(R.rec({ format: R.oneOf(['json-ld', 'microdata']), types: R.list(R.str), valid: R.bool }, { error: R.str })),
    headings: R.list(R.rec({ level: R.int, text: R.str })),
    viewport: R.str,
    favicon: R.str,
  },
);

export const SITE = {
  map: endpoint({
    id: 'site.map',
    title: 'Site map',
    summary:
      "Lists a site's pages from its robots.txt sitemaps (indexes and gzipped files included) with last-modified dates, or from a bounded crawl when it has none.",
    // Priced per 100 pages like a search result page costs per 10: an address is a small record.
    credits: 1,
    perItems: 100,
    // A day, like the other site facts (web.contacts, shopify.store); maxAge 0 re-reads the sitemaps.
    cacheTtlSeconds: 86400,
    fields: {
      url: text(1, 2048, 'the site, a domain or an address (a crawl starts from it when the site has no sitemap)'),
      limit: limit(1, 1000, 100),
      cursor: cursor(CURSOR_PATTERN, '`s.` or `c.` followed by dot-separated numbers', 48),
    },
    required: ['url'],
    itemsField: 'pages',
    example: { url: 'https://www.example.com', limit: 100 },
    output: SITE_MAP,
  }),
  seo: endpoint({
    id: 'site.seo',
    title: 'SEO check of a page',
    summary:
      "Checks one page's SEO: status, redirects, title, description, canonical, robots rules, hreflang, Open Graph, structured data, headings, links and images, as named checks and a score.",
    credits: 1,
    perItems: null,
    // An hour: someone fixing a page re-checks it with maxAge 0.
    cacheTtlSeconds: 3600,
    fields: {
      url: text(1, 2048, 'the page, an address or a domain (its home page)'),
    },
    required: ['url'],
    example: { url: 'https://www.example.com/pricing' },
    output: SEO_RECORD,
  }),
};
