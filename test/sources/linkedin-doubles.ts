/**
 * The replay set-up of the linkedin source: the recorded guest job answers of ../shared/upstream/professional, plus
 * routes for what no recording holds. Company, profile and post pages are documented-shape doubles
 * (test/fixtures/documented/linkedin/, written from schema.org, not recordings); the refusal shapes are LinkedIn's
 * recorded 429 challenge page and the wall answers CONTRACT.md names (a redirect to /authwall, HTTP 999).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UPSTREAM_DIR, type ReplayOptions, type ReplayRoute } from '../helpers/replay.js';

const DOCUMENTED = fileURLToPath(new URL('../fixtures/documented/linkedin/', import.meta.url));
const HOST = 'www.linkedin.com';
const HTML = { 'content-type': 'text/html; charset=utf-8' };

export const documented = (name: string): string => readFileSync(`${DOCUMENTED}${name}`, 'utf8');

/** Served as a file (so `mutate` and provenance see it), named by its path from the recordings' folder. */
const page = (at: string, name: string): ReplayRoute => ({
  method: 'GET',
  host: HOST,
  path: at,
  file: path.relative(UPSTREAM_DIR, `${DOCUMENTED}${name}`),
  headers: HTML,
});

/** The documented company, profile and post pages. */
export const DOCUMENTED_ROUTES: ReplayRoute[] = [
  page('/company/example-robotics/', 'company-page.html'),
  page('/in/ada-example/', 'profile-page.html'),
  page('/posts/example-robotics_warehouse-launch-activity-7200000000000000001-AbCd/', 'post-7200000000000000001.html'),
  page('/posts/example-robotics_hiring-activity-7200000000000000002-EfGh/', 'post-7200000000000000002.html'),
  // A post the page still links to but LinkedIn no longer serves.
  { method: 'GET', host: HOST, path: '/feed/update/urn:li:activity:7200000000000000003/', status: 404, text: 'Not Found' },
];

/** Refusals: a sign-in wall redirect, LinkedIn's 999, a missing company, and the recorded 429 challenge page. */
export const REFUSAL_ROUTES: ReplayRoute[] = [
  {
    method: 'GET',
    host: HOST,
    path: '/in/walled/',
    status: 302,
    headers: { location: 'https://www.linkedin.com/authwall?trk=gf&sessionRedirect=https%3A%2F%2Fwww.linkedin.com%2Fin%2Fwalled%2F' },
  },
  { method: 'GET', host: HOST, path: '/authwall', text: '<html><head><title>Sign Up | LinkedIn</title></head></html>', headers: HTML },
  { method: 'GET', host: HOST, path: '/in/blocked/', status: 999, text: '', headers: HTML },
  { method: 'GET', host: HOST, path: '/company/gone/', status: 404, text: 'Not Found', headers: HTML },
  {
    method: 'GET',
    host: HOST,
    path: '/jobs-guest/jobs/api/jobPosting/3915648739',
    status: 429,
    file: 'professional/job-view-blocked-429.html',
    headers: HTML,
  },
];

/**
 * The search recording's sidecar does not record its keywords, and names its place only in words ("Zurich; 107814425
 * per the typeahead capture"): those two fields cannot identify it, `start` does.
 */
export const linkedinReplay = (): ReplayOptions => ({
  folders: ['professional'],
  ignoreQuery: ['keywords', 'geoId', 'location'],
  routes: [...DOCUMENTED_ROUTES, ...REFUSAL_ROUTES],
});
