/**
 * The replay set-up of the indeed source. No Indeed answer is recorded (shared/upstream has no jobboard folder), so
 * every answer is a documented-shape double (test/fixtures/documented/indeed/, written from the query JobSpy sends,
 * the GraphQL specification's error form and schema.org's JobPosting; not recordings), plus the refusal shapes
 * CONTRACT.md names (403 with a challenge page, 401 for a refused key).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UPSTREAM_DIR, type ReplayOptions, type ReplayRoute, type Seen } from '../helpers/replay.js';

const DOCUMENTED = fileURLToPath(new URL('../fixtures/documented/indeed/', import.meta.url));
export const documented = (name: string): string => readFileSync(`${DOCUMENTED}${name}`, 'utf8');
const file = (name: string) => path.relative(UPSTREAM_DIR, `${DOCUMENTED}${name}`);

/** Indeed's cursor of the documented first page (with `-` and `_`, outside base64's alphabet). */
export const PAGE1_NEXT = 'abc-page-2_token';
export const API_KEY = 'replay-app-key';
export const SETTINGS = { API_KEY };

const query = (s: Seen): string => String((s.body as { query?: unknown } | undefined)?.query ?? '');
const graphql = (name: string, match: (s: Seen) => boolean, o: Partial<ReplayRoute> = {}): ReplayRoute => ({
  method: 'POST',
  host: 'apis.indeed.com',
  path: '/graphql',
  file: file(name),
  headers: { 'content-type': 'application/json' },
  match,
  ...o,
});

export const INDEED_ROUTES: ReplayRoute[] = [
  // A query Indeed's schema refuses (the search term "schema drift" stands for it), a refused key, a blocked address.
  graphql('graphql-errors.json', (s) => query(s).includes('what: "schema drift"')),
  { method: 'POST', host: 'apis.indeed.com', path: '/graphql', status: 401, text: '{"message":"Unauthorized"}', match: (s) => s.headers['indeed-api-key'] === 'revoked-key' },
  {
    method: 'POST',
    host: 'apis.indeed.com',
    path: '/graphql',
    status: 403,
    headers: { 'content-type': 'text/html' },
    text: '<html><head><title>Just a moment...</title></head><body><div id="cf-chl-widget"></div></body></html>',
    match: (s) => s.headers['indeed-co'] === 'DE',
  },
  graphql('jobsearch.page2.json', (s) => query(s).includes(`cursor: "${PAGE1_NEXT}"`)),
  graphql('jobsearch.page1.json', (s) => !query(s).includes('cursor:')),
  { method: 'GET', host: 'uk.indeed.com', path: '/viewjob', query: { jk: 'a1b2c3d4e5f60718' }, file: file('viewjob.html'), headers: { 'content-type': 'text/html' } },
  { method: 'GET', host: 'uk.indeed.com', path: '/viewjob', query: { jk: 'ffffffffffffffff' }, status: 404, text: 'Not Found' },
];

export const indeedReplay = (): ReplayOptions => ({ folders: [], routes: INDEED_ROUTES });
