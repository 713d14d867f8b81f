/**
 * The replay set-up of the facebook source: the one recorded `ads_archive` answer (shared/upstream/adlib, Graph v5.0)
 * and, for what it cannot show (today's fields, a second page, page look-ups, Graph errors), documented-shape doubles
 * written from Meta's reference (test/fixtures/documented/facebook/, not recordings).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UPSTREAM_DIR, type ReplayOptions, type ReplayRoute } from '../helpers/replay.js';

const DOCUMENTED = fileURLToPath(new URL('../fixtures/documented/facebook/', import.meta.url));
const HOST = 'graph.facebook.com';
const JSON_TYPE = { 'content-type': 'application/json; charset=UTF-8' };
export const documented = (name: string): string => readFileSync(`${DOCUMENTED}${name}`, 'utf8');

/** Graph's `after` of the documented first page (standard base64 with +, / and =). */
export const PAGE1_AFTER = 'QVFIUmFmdGVyMDE+/=';
export const DOCUMENTED_PAGE_ID = '100000000000042';
/** Page ids whose searches answer the documented Graph errors. */
export const EXPIRED_TOKEN_PAGE = '100000000000190';
export const THROTTLED_PAGE = '100000000000613';
/** Archived ads: one Meta serves by its id, one only through its page's archive, one it has nowhere. */
export const AD_BY_ID = '1000000000000001';
export const AD_IN_PAGE_ONLY = '1000000000000003';
export const AD_NOWHERE = '1000000000009999';

/** Served as a file (so `mutate` and provenance see it), named by its path from the recordings' folder. */
const json = (at: string, name: string, o: Partial<ReplayRoute> = {}): ReplayRoute => ({
  method: 'GET',
  host: HOST,
  path: at,
  file: path.relative(UPSTREAM_DIR, `${DOCUMENTED}${name}`),
  headers: JSON_TYPE,
  ...o,
});

export const DOCUMENTED_ROUTES: ReplayRoute[] = [
  json('/v24.0/ads_archive', 'ads-archive.page2.json', { query: { search_page_ids: `['${DOCUMENTED_PAGE_ID}']`, after: PAGE1_AFTER } }),
  json('/v24.0/ads_archive', 'ads-archive.page1.json', { query: { search_page_ids: `['${DOCUMENTED_PAGE_ID}']` } }),
  json('/v24.0/ads_archive', 'error-token.json', { query: { search_page_ids: `['${EXPIRED_TOKEN_PAGE}']` }, status: 400 }),
  json('/v24.0/ads_archive', 'error-rate-limit.json', { query: { search_page_ids: `['${THROTTLED_PAGE}']` }, status: 400 }),
  json('/v24.0/example.shoes', 'page-lookup.json', { query: { fields: 'id,name' } }),
  json('/v24.0/no.such.page', 'error-alias.json', { status: 404 }),
  json(`/v24.0/${AD_BY_ID}`, 'archived-ad.node.json'),
  json(`/v24.0/${AD_IN_PAGE_ONLY}`, 'error-unsupported-get.json', { status: 400 }),
  json(`/v24.0/${AD_NOWHERE}`, 'error-unsupported-get.json', { status: 400 }),
];

/**
 * The recording was made with Graph v5.0's spellings: `publisher_platform` (today `publisher_platforms`),
 * `impression_condition` (no longer documented) and its own `fields` list; those do not identify it.
 */
export const facebookReplay = (): ReplayOptions => ({
  folders: ['adlib'],
  ignoreQuery: ['fields', 'impression_condition', 'publisher_platform'],
  routes: DOCUMENTED_ROUTES,
});

/** Settings of a live call against the recording (made with Graph v5.0; the origin removed its token). */
export const RECORDED_SETTINGS = { ACCESS_TOKEN: 'replay-token', API_VERSION: 'v5.0' };
export const DOCUMENTED_SETTINGS = { ACCESS_TOKEN: 'replay-token' };
