/**
 * The replay double for hackernews: the recorded Firebase answers of ../shared/upstream/hackernews (recorded with
 * `print=pretty`, which does not change what an answer holds, so that parameter is ignored), and routes answering
 * what no recording holds from the documented interface (test/fixtures/documented/hackernews/, each file's
 * .about.json says what it was written from): the items of the recorded top-stories list, and HN Search (Algolia).
 */
import { documented } from '../../scripts/samples/documented.js';
import type { ReplayOptions, ReplayRoute } from '../helpers/replay.js';

const json = { 'content-type': 'application/json; charset=utf-8' };
const FIREBASE = 'hacker-news.firebaseio.com';
const ALGOLIA = 'hn.algolia.com';

/** The items of the first six ids of the recorded topstories.json, written from the documented item shape. */
export const LIST_ITEMS: Record<string, unknown> = JSON.parse(documented('hackernews', 'stories-items.json'));

const itemRoutes: ReplayRoute[] = Object.entries(LIST_ITEMS).map(([id, item]) => ({
  host: FIREBASE,
  path: `/v0/item/${id}.json`,
  text: JSON.stringify(item),
  headers: json,
  name: `documented: hackernews/stories-items.json#${id}`,
}));

const searchRoutes: ReplayRoute[] = [
  { host: ALGOLIA, path: '/api/v1/search', query: { tags: 'comment' }, text: documented('hackernews', 'search.comments.json'), headers: json, name: 'documented: hackernews/search.comments.json' },
  { host: ALGOLIA, path: '/api/v1/search', query: { page: '0' }, text: documented('hackernews', 'search.page1.json'), headers: json, name: 'documented: hackernews/search.page1.json' },
  { host: ALGOLIA, path: '/api/v1/search', query: { page: '1' }, text: documented('hackernews', 'search.page2.json'), headers: json, name: 'documented: hackernews/search.page2.json' },
];

/** Every host the source asks, for QUARRY_UPSTREAM_OVERRIDES. */
export const HN_HOSTS = [FIREBASE, ALGOLIA];

export const hackernewsReplay = (routes: ReplayRoute[] = []): ReplayOptions => ({
  folders: ['hackernews'],
  ignoreQuery: ['print'],
  // Documented answers first: a test's catch-all (unknown ids answer null) must not shadow them.
  routes: [...itemRoutes, ...searchRoutes, ...routes],
});
