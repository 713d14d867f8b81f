/**
 * The replay set-up of the zillow source. The one recording (a rental search page of ZIP 04011, shared/upstream/zillow)
 * has no concrete URL in its sidecar, so a route serves it at the address the search box gives that search; home pages
 * are documented-shape doubles (test/fixtures/documented/zillow/, not recordings); plus the refusal shapes: a
 * PerimeterX "Press & Hold" page and Zillow's 404.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UPSTREAM_DIR, type ReplayOptions, type ReplayRoute } from '../helpers/replay.js';

const DOCUMENTED = fileURLToPath(new URL('../fixtures/documented/zillow/', import.meta.url));
const documented = (name: string) => path.relative(UPSTREAM_DIR, `${DOCUMENTED}${name}`);
export const SEARCH_RECORDING = 'zillow/search-page.rent.04011.html';
const HTML = { 'content-type': 'text/html; charset=utf-8' };

export const PX_WALL =
  '<!DOCTYPE html><html lang="en"><head><title>Access to this page has been denied</title></head><body>' +
  '<div id="px-captcha"></div><p>Press &amp; Hold to confirm you are a human (and not a bot).</p></body></html>';

export const ZILLOW_ROUTES: ReplayRoute[] = [
  { method: 'GET', host: 'www.zillow.com', path: '/homes/for_rent/04011_rb/', file: SEARCH_RECORDING, headers: HTML },
  { method: 'GET', host: 'www.zillow.com', path: /^\/homes\/for_sale\/walled_rb\//, status: 403, text: PX_WALL, headers: HTML },
  { method: 'GET', host: 'www.zillow.com', path: /^\/homes\/for_sale\/walled-ok_rb\//, status: 200, text: PX_WALL, headers: HTML },
  { method: 'GET', host: 'www.zillow.com', path: '/homedetails/2087654321_zpid/', file: documented('home-page.2087654321.html'), headers: HTML },
  { method: 'GET', host: 'www.zillow.com', path: '/homedetails/2087654322_zpid/', file: documented('home-page.2087654322.apollo.html'), headers: HTML },
  { method: 'GET', host: 'www.zillow.com', path: '/homedetails/1_zpid/', status: 404, text: '<html><title>Page not found | Zillow</title></html>', headers: HTML },
];

/** Origin of the recording served by route (its sidecar has no concrete URL). */
export const SEARCH_ORIGIN = {
  repo: 'MaineDSA/zillow_scraper',
  commit: 'c774396fe05d1f842164f35b42d1a8e9fd430c97',
  path: 'tests/vendored/zillow-search-04011-20250601.html',
  licence: 'MIT',
};

export const zillowReplay = (): ReplayOptions => ({ folders: [], routes: ZILLOW_ROUTES });
