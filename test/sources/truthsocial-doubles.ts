/**
 * The replay double for truthsocial: no Truth Social answer is recorded, so every answer is written from the documented
 * interface (test/fixtures/documented/truthsocial/, each file's .about.json says from what) and served by route at
 * the address the client asks.
 */
import { documented } from '../../scripts/samples/documented.js';
import type { ReplayOptions, ReplayRoute } from '../helpers/replay.js';

export const TRUTH_HOST = 'truthsocial.com';
export const ACCOUNT_ID = '110000000000000001';
export const FIRST_PAGE_LAST = '114500000000000003';
const json = { 'content-type': 'application/json; charset=utf-8' };

const doc = (name: string, extra: Partial<ReplayRoute> & Pick<ReplayRoute, 'path'>): ReplayRoute => ({
  host: TRUTH_HOST,
  text: documented('truthsocial', name),
  headers: json,
  name: `documented: truthsocial/${name}`,
  ...extra,
});

export const ROUTES: ReplayRoute[] = [
  doc('account.json', { path: '/api/v1/accounts/lookup', query: { acct: 'ExampleTruther' } }),
  doc('error.not-found.json', { path: '/api/v1/accounts/lookup', status: 404 }),
  doc('statuses.page2.json', { path: `/api/v1/accounts/${ACCOUNT_ID}/statuses`, query: { max_id: FIRST_PAGE_LAST } }),
  doc('statuses.end.json', { path: `/api/v1/accounts/${ACCOUNT_ID}/statuses`, match: (s) => s.query.has('max_id') }),
  doc('statuses.page1.json', { path: `/api/v1/accounts/${ACCOUNT_ID}/statuses` }),
  doc('status.json', { path: '/api/v1/statuses/114500000000000005' }),
  doc('descendants.json', { path: '/api/v1/statuses/114500000000000005/context/descendants', query: { sort: 'oldest' } }),
  doc('error.not-found.json', { path: /^\/api\/v1\/statuses\/\d+(\/context\/descendants)?$/, status: 404 }),
  doc('search.statuses.json', { path: '/api/v2/search', query: { type: 'statuses', offset: '0' } }),
  doc('search.statuses.page2.json', { path: '/api/v2/search', query: { type: 'statuses', offset: '2' } }),
  doc('search.accounts.json', { path: '/api/v2/search', query: { type: 'accounts' } }),
  doc('search.hashtags.json', { path: '/api/v2/search', query: { type: 'hashtags' } }),
  { host: TRUTH_HOST, path: '/api/v2/search', text: '{"accounts":[],"statuses":[],"hashtags":[]}', headers: json, name: 'documented: an empty search page' },
];

/** Test routes first: a wall or a refusal a test sets up wins over the documented answers. */
export const truthsocialReplay = (routes: ReplayRoute[] = []): ReplayOptions => ({ folders: [], routes: [...routes, ...ROUTES] });
