/**
 * The site source (issue 5). SPEC names only what it does ("map a site's pages, check its SEO"); inputs, records and
 * prices are designed here like their neighbours: a `url` field like web.contacts (a domain or a full address),
 * `maxAge` and `tags`, keyed (not keyless) like the other open-web sources.
 */
import { cursor, endpoint, limit, text } from '../fields.js';
import * as R from '../records.js';

/** The position of the next page: `s.` + sitemap path and offset, or `c.` + crawl offset (src/sources/site/map.ts). */
const CURSOR_PATTERN = '^(?:s(?:\\.\\d{1,6}){1,6}|c\\.\\d{1,6})$';

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
    output: R.rec(
      {
        site: R.str,
        source: R.oneOf(['sitemap', 'crawl']),
        pages: R.list(R.rec({ url: R.str }, { lastModified: R.str, changeFrequency: R.str, priority: R.num, sitemap: R.str, depth: R.int, status: R.int, title: R.str })),
      },
      {
        robotsTxt: R.rec({}, { url: R.str, status: R.int, sitemaps: R.list(R.str) }),
        sitemaps: R.list(R.rec({ url: R.str }, { kind: R.str, entries: R.int, lastModified: R.str, truncated: R.bool, error: R.str })),
        pagesFetched: R.int,
        cursor: R.str,
      },
    ),
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
    output: R.rec(
      {
        url: R.str,
        finalUrl: R.str,
        status: R.int,
        checks: R.list(R.rec({ name: R.str, passed: R.bool, message: R.str }), 1),
        score: R.num,
      },
      {
        redirects: R.list(R.rec({ url: R.str, status: R.int })),
        title: R.str,
        description: R.str,
        canonical: R.str,
        robots: R.rec({}, { indexable: R.bool, followable: R.bool }),
        hreflang: R.list(R.rec({ lang: R.str, url: R.str })),
        headings: R.list(R.rec({ level: R.int, text: R.str })),
      },
    ),
  }),
};
