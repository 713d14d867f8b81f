/**
 * appstore samples: the app from the recorded Lookup answers (fastlane's fixtures); search and reviews from answers
 * written from Apple's documented interfaces (test/fixtures/documented/appstore/), since none of those is recorded.
 */
import type { ReplayOptions, ReplayRoute } from '../../test/helpers/replay.js';
import { documented } from './documented.js';
import { PREVIOUS_CURSOR, recordSamples } from './kit.js';

const I = 'itunes.apple.com';
const json = { 'content-type': 'text/javascript; charset=utf-8' };
const feed = (page: number, id = '284882215', sort = 'mostrecent') => `/us/rss/customerreviews/page=${page}/id=${id}/sortby=${sort}/json`;

export const APPSTORE_ROUTES: ReplayRoute[] = [
  { host: I, path: '/search', query: { term: 'weather' }, text: documented('appstore', 'search.weather.json'), headers: json, name: 'documented/appstore/search.weather.json' },
  { host: I, path: feed(1), text: documented('appstore', 'reviews.page1.json'), headers: json, name: 'documented/appstore/reviews.page1.json' },
  { host: I, path: feed(2), text: documented('appstore', 'reviews.page2.json'), headers: json, name: 'documented/appstore/reviews.page2.json' },
];

export const APPSTORE_REPLAY: ReplayOptions = { folders: ['appstore'], routes: APPSTORE_ROUTES };

const RECORDED =
  'Normalised from the recorded iTunes Lookup answer (shared/upstream/appstore, from fastlane/fastlane, MIT; captured about 2014-2016, so it lacks fields Apple added since, such as currentVersionReleaseDate).';
const DOCUMENTED =
  'Written from the documented interface, not a recording (test/fixtures/documented/appstore/: the iTunes Search API documentation and the customer-review feed’s JSON shape); apps, authors and texts are illustrative.';

export async function appstoreSamples(): Promise<void> {
  for (const c of [
    { endpoint: 'appstore.app', pages: [{ app: '284882215' }], note: RECORDED },
    { endpoint: 'appstore.search', pages: [{ query: 'weather', country: 'us', limit: 2 }, { query: 'weather', country: 'us', limit: 2, cursor: PREVIOUS_CURSOR }], note: DOCUMENTED },
    { endpoint: 'appstore.reviews', pages: [{ app: '284882215', country: 'us', limit: 3 }, { app: '284882215', country: 'us', limit: 3, cursor: PREVIOUS_CURSOR }], note: DOCUMENTED },
  ]) {
    console.log(`wrote ${await recordSamples({ ...c, replay: APPSTORE_REPLAY, extraHosts: [I] })}`);
  }
}
