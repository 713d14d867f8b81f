/**
 * googleplay samples: the app from a recorded details page (larryaasen/upgrader's fixtures); search and reviews from
 * answers written from google-play-scraper's reading of the store (test/fixtures/documented/googleplay/), since none
 * of those is recorded.
 */
import type { ReplayOptions, ReplayRoute, Seen } from '../../test/helpers/replay.js';
import { documented } from './documented.js';
import { PREVIOUS_CURSOR, recordSamples } from './kit.js';

const P = 'play.google.com';
const html = { 'content-type': 'text/html; charset=utf-8' };
const rpc = { 'content-type': 'application/json; charset=utf-8' };
export const PAGE2_TOKEN = 'CsYBCsMBQUZfMXR6ZXhhbXBsZTI';

/** The RPC request's own JSON (`f.req` form field, then the UsvDTd frame's string). */
export function reviewsRequest(s: Seen): unknown[] | undefined {
  if (typeof s.body !== 'string') return undefined;
  try {
    const outer = JSON.parse(new URLSearchParams(s.body).get('f.req') ?? '');
    return JSON.parse(outer[0][0][1]) as unknown[];
  } catch {
    return undefined;
  }
}
const asks = (pkg: string, token: string | null) => (s: Seen) => {
  const r = reviewsRequest(s) as [unknown, unknown, [number, number, [number, null, string | null]], [string, number]] | undefined;
  return !!r && r[3]?.[0] === pkg && (r[2]?.[2]?.[2] ?? null) === token;
};

export const GOOGLEPLAY_ROUTES: ReplayRoute[] = [
  { host: P, path: '/work/search', query: { q: 'budget tracker' }, text: documented('googleplay', 'search.budget-tracker.html'), headers: html, name: 'documented/googleplay/search.budget-tracker.html' },
  { host: P, path: '/work/search', query: { q: 'nothing at all' }, text: documented('googleplay', 'search.nothing.html'), headers: html, name: 'documented/googleplay/search.nothing.html' },
  { method: 'POST', host: P, path: '/_/PlayStoreUi/data/batchexecute', match: asks('com.raiseright.edumarketapp', null), text: documented('googleplay', 'reviews.page1.txt'), headers: rpc, name: 'documented/googleplay/reviews.page1.txt' },
  { method: 'POST', host: P, path: '/_/PlayStoreUi/data/batchexecute', match: asks('com.raiseright.edumarketapp', PAGE2_TOKEN), text: documented('googleplay', 'reviews.page2.txt'), headers: rpc, name: 'documented/googleplay/reviews.page2.txt' },
  { method: 'POST', host: P, path: '/_/PlayStoreUi/data/batchexecute', match: asks('com.example.quiet', null), text: documented('googleplay', 'reviews.none.txt'), headers: rpc, name: 'documented/googleplay/reviews.none.txt' },
];

export const GOOGLEPLAY_REPLAY: ReplayOptions = { folders: ['googleplay'], routes: GOOGLEPLAY_ROUTES };

const RECORDED =
  'Normalised from a recorded details page (shared/upstream/googleplay/app-details.com.raiseright.edumarketapp.html, from larryaasen/upgrader, MIT; saved 2025-10). Test data only.';
const DOCUMENTED =
  'Written from google-play-scraper’s reading of Google Play (test/fixtures/documented/googleplay/), not a recording: no search page or reviews RPC answer is recorded; apps, reviewers and texts are illustrative.';

export async function googleplaySamples(): Promise<void> {
  for (const c of [
    { endpoint: 'googleplay.app', pages: [{ app: 'com.raiseright.edumarketapp' }], note: RECORDED },
    { endpoint: 'googleplay.search', pages: [{ query: 'budget tracker', country: 'us', limit: 10 }], note: DOCUMENTED },
    {
      endpoint: 'googleplay.reviews',
      pages: [{ app: 'com.raiseright.edumarketapp', limit: 3 }, { app: 'com.raiseright.edumarketapp', limit: 3, cursor: PREVIOUS_CURSOR }],
      note: DOCUMENTED,
    },
  ]) {
    console.log(`wrote ${await recordSamples({ ...c, replay: GOOGLEPLAY_REPLAY, extraHosts: [P] })}`);
  }
}
