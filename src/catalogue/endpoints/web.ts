import { choice, country, date, endpoint, integer, language, limit, list, text, within } from '../fields.js';
import * as R from '../records.js';

// SPEC: "array of strings, max 10"; item bounds not stated; chosen 1-253 (the longest DNS name).
const domains = () => list(text(1, 253, 'a domain, e.g. example.com'), 10);

/** A tiny HTML document, base64: `<html><body><h1>Hello</h1><p>Quarry</p></body></html>`. */
const TINY_HTML = 'PGh0bWw+PGJvZHk+PGgxPkhlbGxvPC9oMT48cD5RdWFycnk8L3A+PC9ib2R5PjwvaHRtbD4=';

/** The filters web.search and web.news share (SPEC lists the same ones for both). */
const searchFilters = () => ({
  country: country(),
  language: language(),
  includeDomains: domains(),
  excludeDomains: domains(),
  from: date(),
  to: date(),
  limit: limit(1, 100, 10),
});

/** Where web.search results come from: the operator's SearXNG, the Brave Search API, or an opted-in HTML engine. */
export const SEARCH_BACKENDS = ['searxng', 'brave', 'duckduckgo', 'bing', 'mojeek'] as const;
/** Where web.news articles come from: SearXNG's news category, Google News' RSS, or the operator's own feeds. */
export const NEWS_BACKENDS = ['searxng', 'google-news', 'feeds'] as const;

/** One web search result, in rank order (`position` from 1); `domain` is the result's host. */
export const SEARCH_RESULT = R.rec(
  { type: R.literal('result'), position: R.int, url: R.str, title: R.str },
  { snippet: R.str, domain: R.str, publishedAt: R.str, language: R.str, thumbnail: R.str, engines: R.list(R.str) },
);

/** One news article; `source` is the publisher, `url` the address the index gives (Google News' is a redirect). */
export const NEWS_ARTICLE = R.rec(
  { type: R.literal('article'), url: R.str, title: R.str },
  {
    id: R.str,
    source: R.rec({ name: R.str }, { url: R.str, domain: R.str }),
    publishedAt: R.str,
    snippet: R.str,
    thumbnail: R.str,
    language: R.str,
  },
);

/** Platforms whose profile links web.contacts recognises (src/sources/web/contacts/socials.ts). */
export const SOCIAL_PLATFORMS = [
  'linkedin', 'x', 'facebook', 'instagram', 'youtube', 'github', 'tiktok', 'pinterest', 'telegram', 'threads',
  'bluesky', 'snapchat', 'whatsapp', 'discord', 'medium', 'twitch', 'vimeo', 'reddit',
] as const;

/** Why a candidate page of a contacts crawl was not read (not billed). */
export const SKIP_REASONS = [
  'robots', // disallowed by robots.txt
  'notFound', // 404 or 410
  'failed', // another HTTP or network failure
  'timeout',
  'tooLarge',
  'notHtml',
  'offSite', // redirected to another site
  'refused', // redirected to a private or reserved address
] as const;

/**
 * web.contacts' record: the site's origin after the first page's redirects and the pages read (best first, the
 * priced count), then every contact found, once, with the pages it was found on.
 */
export const CONTACTS_RECORD = R.rec(
  { url: R.str, pages: R.list(R.rec({ url: R.str, status: R.int }, { title: R.str }), 1) },
  {
    emails: R.list(R.rec({ value: R.str, sources: R.list(R.str, 1) })),
    /** `value` is E.164; `raw` as written on the page; `type` libphonenumber's line type (fixedLine, mobile, tollFree…). */
    phones: R.list(
      R.rec({ value: R.str, raw: R.str, sources: R.list(R.str, 1) }, { country: R.str, type: R.str, extension: R.str, fax: R.bool }),
    ),
    /** One canonical profile address per profile (https, the platform's main host). */
    socials: R.list(R.rec({ platform: R.oneOf(SOCIAL_PLATFORMS), url: R.str, sources: R.list(R.str, 1) }, { handle: R.str })),
    skipped: R.list(R.rec({ url: R.str, reason: R.oneOf(SKIP_REASONS) }, { status: R.int })),
  },
);

export const WEB = {
  search: endpoint({
    id: 'web.search',
    title: 'Web search',
    summary: 'Searches the web and returns ranked result pages with title, address and snippet.',
    credits: 1,
    keyless: true,
    perItems: 10,
    cacheTtlSeconds: 3600,
    fields: {
      query: text(1, 400, 'search terms'),
      ...searchFilters(),
      within: within(['day', 'week', 'month', 'year', 'all'], 'all'),
    },
    required: ['query'],
    cacheControls: false, // SPEC: "No maxAge or tags."
    itemsField: 'results',
    example: { query: 'open source vector database', country: 'us', limit: 10 },
    output: R.rec({ results: R.list(SEARCH_RESULT), backend: R.oneOf(SEARCH_BACKENDS) }, { suggestions: R.list(R.str), corrections: R.list(R.str) }),
  }),
  news: endpoint({
    id: 'web.news',
    title: 'News search',
    summary: 'Searches news sites and returns recent articles with headline, source, date and address.',
    credits: 2,
    perItems: 10,
    cacheTtlSeconds: 900,
    fields: {
      query: text(1, 400, 'search terms'),
      topic: choice(['world', 'nation', 'business', 'technology', 'entertainment', 'sports', 'science', 'health']),
      ...searchFilters(),
      within: within(['hour', 'day', 'week', 'month', 'year', 'all'], 'all'),
    },
    cacheControls: false, // SPEC: "No maxAge or tags."
    itemsField: 'articles',
    example: { query: 'semiconductor export rules', topic: 'business', within: 'week', limit: 20 },
    output: R.rec({ articles: R.list(NEWS_ARTICLE), backend: R.oneOf(NEWS_BACKENDS) }),
  }),
  contacts: endpoint({
    id: 'web.contacts',
    title: 'Website contacts',
    summary: 'Crawls a website and returns the e-mail addresses, phone numbers and social profiles found on its pages.',
    credits: 2,
    perItems: 5,
    cacheTtlSeconds: 86400,
    fields: {
      // SPEC: "url string, required"; bounds not stated; chosen 1-2048 (a bare domain or a full address).
      url: text(1, 2048, 'the website, a domain or an address'),
      maxPages: integer(1, 10, 5),
    },
    required: ['url'],
    // Priced per 5 pages crawled (perItems 5, maxPages default 5): the page count is the result count.
    itemsField: 'pages',
    example: { url: 'https://example.com', maxPages: 5 },
    output: CONTACTS_RECORD,
    // No `limit` here: `maxPages` bounds the priced count, so it drives the reserved price.
    limitField: 'maxPages',
  }),
  parse: endpoint({
    id: 'web.parse',
    title: 'Parse a document',
    summary:
      'Converts an uploaded PDF, Word .docx, Excel .xlsx, PowerPoint .pptx or HTML file (base64) to markdown with its metadata.',
    credits: 1,
    keyless: true,
    perItems: null,
    // SPEC: cacheTtlSeconds "not stated"; parse results are never cached (0), so it takes no maxAge or tags.
    cacheTtlSeconds: 0,
    fields: {
      file: {
        type: 'string',
        minLength: 1,
        maxLength: 10 * 1024 * 1024,
        description: "the file's bytes as base64, up to 10 MB; PDF, .docx, .xlsx, .pptx or HTML",
      },
      filename: text(1, 255, 'only a hint; the type is read from the file itself'),
      maxPages: {
        ...integer(1, 100, 100),
        description: 'at most this many PDF pages, sheets or slides are read',
      },
    },
    required: ['file'],
    cacheControls: false,
    bodyLimitBytes: 11 * 1024 * 1024,
    example: { file: TINY_HTML, filename: 'hello.html' },
    output: R.rec({
      markdown: R.str,
      isTruncated: R.bool,
      metadata: R.rec({ contentType: R.str }, { title: R.str, numPages: R.int }),
    }),
  }),
};
