/**
 * The replay set-up of LinkedIn's Ad Library: no answer of it is recorded, so the search page, its paging fragment
 * and two ads' pages are documented-shape doubles (test/fixtures/documented/linkedin/, written from the public shape
 * open-source readers of these pages agree on, not recordings; see its README.md). The refusals are the walls
 * CONTRACT.md names: a redirect to /authwall, HTTP 999.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UPSTREAM_DIR, type ReplayOptions, type ReplayRoute } from '../helpers/replay.js';

const DOCUMENTED = fileURLToPath(new URL('../fixtures/documented/linkedin/', import.meta.url));
const HOST = 'www.linkedin.com';
const HTML = { 'content-type': 'text/html; charset=utf-8' };

/** The token the documented first page hands on, and the search it answers. */
export const PAGE1_TOKEN = '1452369333-1784563519937';
export const SEARCH = { advertiser: 'Example Cloud', countries: ['de', 'at'] };
export const AD_IMAGE = '1452369111';
export const AD_VIDEO = '1452369222';

/** Served as a file (so `mutate` and provenance see it), named by its path from the recordings' folder. */
const page = (at: string, name: string, query?: Record<string, string>): ReplayRoute => ({
  method: 'GET',
  host: HOST,
  path: at,
  ...(query ? { query } : {}),
  file: path.relative(UPSTREAM_DIR, `${DOCUMENTED}${name}`),
  headers: HTML,
});

export const AD_LIBRARY_ROUTES: ReplayRoute[] = [
  page('/ad-library/searchPaginationFragment', 'ad-search.page2.fragment.html', { accountOwner: 'Example Cloud', paginationToken: PAGE1_TOKEN }),
  page('/ad-library/search', 'ad-search.page1.html', { accountOwner: 'Example Cloud', countries: 'DE,AT' }),
  page(`/ad-library/detail/${AD_IMAGE}`, `ad-detail.${AD_IMAGE}.html`),
  page(`/ad-library/detail/${AD_VIDEO}`, `ad-detail.${AD_VIDEO}.html`),
  {
    method: 'GET',
    host: HOST,
    path: '/ad-library/search',
    query: { keyword: 'nothing at all' },
    text: '<html><head><title>LinkedIn Ad Library</title></head><body><h1>0 ads match your search criteria</h1><ul class="search-results-container"></ul></body></html>',
    headers: HTML,
  },
];

/** Refusals: a sign-in wall redirect (search), LinkedIn's 999 and an ad it does not know. */
export const AD_LIBRARY_REFUSALS: ReplayRoute[] = [
  {
    method: 'GET',
    host: HOST,
    path: '/ad-library/search',
    query: { keyword: 'walled' },
    status: 302,
    headers: { location: 'https://www.linkedin.com/authwall?trk=ad_library&sessionRedirect=https%3A%2F%2Fwww.linkedin.com%2Fad-library%2F' },
  },
  { method: 'GET', host: HOST, path: '/authwall', text: '<html><head><title>Sign Up | LinkedIn</title></head></html>', headers: HTML },
  { method: 'GET', host: HOST, path: '/ad-library/detail/999999999', status: 999, text: '', headers: HTML },
  { method: 'GET', host: HOST, path: '/ad-library/detail/404404404', status: 404, text: 'Not Found', headers: HTML },
];

export const linkedinAdsReplay = (): ReplayOptions => ({ folders: [], routes: [...AD_LIBRARY_ROUTES, ...AD_LIBRARY_REFUSALS] });
export const AD_LIBRARY_HOSTS = [HOST];
