/**
 * bluesky samples: the live operations against the replay double (test/sources/bluesky-doubles.ts): the recorded
 * AppView answers (christopherkenny/bskyr vcr cassettes, MIT, 2025-05), recorded on bsky.social and served on the
 * keyless AppView by route; post search signed in with the documented session answer; account search written from
 * the lexicon.
 */
import { documented } from './documented.js';
import { APPVIEW, BSKY_HOSTS, SETTINGS, blueskyReplay } from '../../test/sources/bluesky-doubles.js';
import { PREVIOUS_CURSOR, recordSamples, type SampleCase } from './kit.js';

const ORIGIN = 'christopherkenny/bskyr vcr cassettes (MIT, recorded 2025-05-19 on bsky.social; the AppView serves the same lexicon)';
const TEST_DATA = 'Content belongs to Bluesky and its users; test data only.';
const POST = 'at://did:plc:ic6zqvuw5ulmfpjiwnhsr2ns/app.bsky.feed.post/3k7qmjev5lr2s';
const FEED = 'at://did:plc:z72i7hdynmk6r22z27h6tvur/app.bsky.feed.generator/bsky-team';

const searchActors = {
  host: APPVIEW,
  path: '/xrpc/app.bsky.actor.searchActors',
  text: documented('bluesky', 'search-actors.json'),
  headers: { 'content-type': 'application/json' },
  name: 'documented: bluesky/search-actors.json',
  match: (s: { query: URLSearchParams }) => !s.query.has('cursor'),
};

const CASES: Omit<SampleCase, 'replay'>[] = [
  { endpoint: 'bluesky.profile', pages: [{ profile: 'chriskenny.bsky.social' }], note: `A recorded getProfiles answer (${ORIGIN}). ${TEST_DATA}` },
  {
    endpoint: 'bluesky.posts',
    pages: [
      { profile: 'chriskenny.bsky.social', filter: 'replies', limit: 25 },
      { profile: 'chriskenny.bsky.social', filter: 'replies', limit: 25, cursor: PREVIOUS_CURSOR },
    ],
    note: `One recorded getAuthorFeed page of 50 (with replies, the AppView's default; ${ORIGIN}), answered as two pages of 25: the first cursor owes the rest of that page (25~). ${TEST_DATA}`,
  },
  { endpoint: 'bluesky.post', pages: [{ post: POST }], note: `A recorded getPostThread answer (a post with images and links, no replies; ${ORIGIN}). ${TEST_DATA}` },
  {
    endpoint: 'bluesky.search',
    pages: [
      { query: 'redistricting', type: 'posts', limit: 12 },
      { query: 'redistricting', type: 'posts', limit: 12, cursor: PREVIOUS_CURSOR },
    ],
    settings: SETTINGS,
    note:
      `One recorded searchPosts page of 25 (${ORIGIN}; signed in, as Bluesky's post search now requires), as two pages. ` +
      'The session itself is the documented createSession answer (test/fixtures/documented/bluesky/), not a recording. ' + TEST_DATA,
  },
  {
    endpoint: 'bluesky.search',
    name: 'search.users',
    pages: [{ query: 'political science', type: 'users', limit: 25 }],
    note: 'Written from the app.bsky.actor.searchActors lexicon (test/fixtures/documented/bluesky/search-actors.json), not a recording: values are illustrative.',
  },
  {
    endpoint: 'bluesky.followers',
    pages: [
      { profile: 'chriskenny.bsky.social', type: 'followers', limit: 24 },
      { profile: 'chriskenny.bsky.social', type: 'followers', limit: 24, cursor: PREVIOUS_CURSOR },
    ],
    note: `One recorded getFollowers page of 48 (${ORIGIN}), as two pages of 24. ${TEST_DATA}`,
  },
  {
    endpoint: 'bluesky.feed',
    pages: [
      { feed: FEED, limit: 3 },
      { feed: FEED, limit: 3, cursor: PREVIOUS_CURSOR },
    ],
    note: `One recorded getFeed page of 7 (the bsky-team feed; ${ORIGIN}), as two pages of 3; the seventh post was recorded too but is beyond the second page. ${TEST_DATA}`,
  },
];

export async function blueskySamples(): Promise<void> {
  for (const c of CASES) console.log(`wrote ${await recordSamples({ ...c, replay: blueskyReplay([searchActors]), extraHosts: BSKY_HOSTS })}`);
}

export { searchActors as SEARCH_ACTORS_ROUTE };
