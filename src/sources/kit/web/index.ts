/**
 * The open-web toolkit every source that reads web pages uses (site, web.contacts, domain.technologies): the guarded
 * page fetcher, page decoding, the linear tag scanner, a bounded DOM, the robots.txt parser and matcher with the
 * reading of a site's file, and the bounded crawler. Data embedded in pages (script islands, JSON-LD) is read with
 * ../embedded.ts, which sits beside it on the same tag scanner.
 */
export { Budget, ERROR_STATUSES, failureReason, HTML_ACCEPT, isOversize, webFetcher, type FetchOptions, type Fetcher, type FetcherOptions } from './fetch.js';
export { contentType, decodePage, looksLikeHtml, pageText, type Fetched } from './page.js';
export { findTags, scanTags, type ScanOptions, type ScannedTag } from './tags.js';
export { boundNesting, MAX_DEPTH, parseHtml } from './dom.js';
export { ALLOW_ALL, CRAWLER_TOKEN, DISALLOW_ALL, crawlDelay, isAllowed, parseRobots, verdict, type Robots, type RobotsGroup, type RobotsRule } from './robots.js';
export { crawlRules, readRobots, robotsPerOrigin, type RobotsFile } from './robots-file.js';
export { crawl, Frontier, type Candidate, type CrawlOptions, type FrontierOptions } from './crawl.js';
