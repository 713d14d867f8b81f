/**
 * threads samples: there is no recording of the Threads API, so its answers are the documentation's own examples
 * (test/fixtures/documented/threads/, written from developers.facebook.com/docs/threads) and the samples say so.
 */
import type { ReplayOptions, ReplayRoute } from '../../test/helpers/replay.js';
import { documented } from './documented.js';
import { PREVIOUS_CURSOR, recordSamples } from './kit.js';

const G = 'graph.threads.net';
const json = { 'content-type': 'application/json' };
const doc = (name: string) => documented('threads', name);

export const TOKEN = { ACCESS_TOKEN: 'documented-test-token' };

export const ROUTES: ReplayRoute[] = [
  { host: G, path: '/v1.0/profile_lookup', query: { username: 'meta' }, text: doc('profile_lookup.json'), headers: json },
  { host: G, path: '/v1.0/profile_posts', query: { username: 'meta' }, match: (s) => !s.query.has('after'), text: doc('profile_posts.page1.json'), headers: json },
  { host: G, path: '/v1.0/profile_posts', query: { username: 'meta', after: 'AFTER_CURSOR' }, text: doc('profile_posts.page2.json'), headers: json },
  { host: G, path: '/v1.0/1234567', text: doc('media.json'), headers: json },
  { host: G, path: '/v1.0/keyword_search', text: doc('keyword_search.json'), headers: json },
];

export const THREADS_REPLAY: ReplayOptions = { folders: [], routes: ROUTES };

const DOCUMENTED =
  "The Threads API documentation's own example answers (test/fixtures/documented/threads/, written from developers.facebook.com/docs/threads), not recordings: no recording of the Threads API exists.";

export async function threadsSamples(): Promise<void> {
  for (const c of [
    { endpoint: 'threads.profile', pages: [{ profile: 'meta' }] },
    { endpoint: 'threads.posts', pages: [{ profile: 'meta', limit: 2 }, { profile: 'meta', limit: 2, cursor: PREVIOUS_CURSOR }] },
    { endpoint: 'threads.post', pages: [{ post: '1234567' }] },
    { endpoint: 'threads.search', pages: [{ query: 'climate', sort: 'recent', limit: 25 }] },
  ]) {
    console.log(`wrote ${await recordSamples({ ...c, note: DOCUMENTED, replay: THREADS_REPLAY, settings: TOKEN, extraHosts: [G] })}`);
  }
}
