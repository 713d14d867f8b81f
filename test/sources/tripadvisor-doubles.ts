/**
 * The replay set-up of the tripadvisor source. No Content API answer is recorded: every answer is a documented-shape
 * double (test/fixtures/documented/tripadvisor/, written from the API's documentation; not recordings), plus the
 * refusal shapes: an invalid location (400), a refused key (401), throttling (429).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UPSTREAM_DIR, type ReplayOptions, type ReplayRoute } from '../helpers/replay.js';

const DOCUMENTED = fileURLToPath(new URL('../fixtures/documented/tripadvisor/', import.meta.url));
const file = (name: string) => path.relative(UPSTREAM_DIR, `${DOCUMENTED}${name}`);
const JSON_TYPE = { 'content-type': 'application/json' };
const HOST = 'api.content.tripadvisor.com';
export const API_KEY = 'replay-content-key';
export const SETTINGS = { API_KEY };

const route = (p: string | RegExp, name: string, o: Partial<ReplayRoute> = {}): ReplayRoute => ({ method: 'GET', host: HOST, path: p, file: file(name), headers: JSON_TYPE, ...o });

export const TRIPADVISOR_ROUTES: ReplayRoute[] = [
  route(/^\/api\/v1\//, 'error.unauthorized.json', { status: 401, match: (s) => s.query.get('key') === 'revoked' }),
  { method: 'GET', host: HOST, path: /^\/api\/v1\//, status: 429, text: '{"message":"Too Many Requests"}', headers: JSON_TYPE, match: (s) => s.query.get('searchQuery') === 'throttled' },
  route('/api/v1/location/search', 'location-search.json', { query: { searchQuery: 'Example Harbour' } }),
  route('/api/v1/location/1234567/details', 'details.1234567.json'),
  route('/api/v1/location/1234567/photos', 'photos.1234567.json'),
  route('/api/v1/location/1234567/reviews', 'reviews.1234567.offset5.json', { query: { offset: '5' } }),
  route('/api/v1/location/1234567/reviews', 'reviews.1234567.json', { match: (s) => !s.query.has('offset') }),
  route(/^\/api\/v1\/location\/9999999\//, 'error.invalid-location.json', { status: 400 }),
];

export const tripadvisorReplay = (): ReplayOptions => ({ folders: [], routes: TRIPADVISOR_ROUTES });
export const TRIPADVISOR_HOSTS = [HOST];
