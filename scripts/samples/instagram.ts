/**
 * instagram samples: the recordings of ../shared/upstream/instagram through the live operations. Their sidecars record
 * placeholder addresses (`?username=<username>`, `/media/<mediaId>/info/`), so each is served by a route naming the
 * request it answers; the search box answer has no recording and is written from its public shape.
 */
import type { ReplayOptions, ReplayRoute } from '../../test/helpers/replay.js';
import { QUERY_HASHES } from '../../src/sources/instagram/client.js';
import { documented } from './documented.js';
import { recordSamples } from './kit.js';

const I = 'i.instagram.com';
const W = 'www.instagram.com';
const graph = (name: keyof typeof QUERY_HASHES): Pick<ReplayRoute, 'host' | 'path' | 'query'> => ({
  host: W,
  path: '/graphql/query/',
  query: { query_hash: QUERY_HASHES[name].value },
});

export const RECORDED_ROUTES: ReplayRoute[] = [
  { host: I, path: '/api/v1/users/web_profile_info/', query: { username: 'robertdowneyjr' }, file: 'instagram/web_profile_info.json' },
  { ...graph('tagged'), file: 'instagram/graphql-tagged.json' },
  { ...graph('comments'), file: 'instagram/graphql-comments.json' },
  { ...graph('hashtag'), file: 'instagram/graphql-hashtag-paris.json' },
  { host: I, path: '/api/v1/media/2317006284167526179/info/', file: 'instagram/media-info.json' },
  { method: 'POST', host: I, path: '/api/v1/clips/user/', file: 'instagram/clips-user.json' },
];

/** Written from the public shape (test/fixtures/documented/instagram/), not a recording. */
export const DOCUMENTED_ROUTES: ReplayRoute[] = [
  { host: W, path: '/api/v1/web/search/topsearch/', query: { query: 'nasa' }, text: documented('instagram', 'topsearch.json'), headers: { 'content-type': 'application/json' } },
];

export const INSTAGRAM_REPLAY: ReplayOptions = { folders: ['instagram'], routes: [...RECORDED_ROUTES, ...DOCUMENTED_ROUTES] };
/** A logged-in session, as the operator would set it (the recordings of media info and reels needed one). */
export const SESSION = { SESSION_COOKIE: 'sessionid=recorded-session; csrftoken=recorded-csrf' };

const CONTENT = 'Content belongs to Instagram and its users; test data only.';

export async function instagramSamples(): Promise<void> {
  const cases = [
    {
      endpoint: 'instagram.profile',
      pages: [{ profile: 'robertdowneyjr' }],
      note: `Normalised from the recorded web_profile_info answer (pgrimaud/instagram-user-feed, MIT, 2023). ${CONTENT}`,
    },
    {
      endpoint: 'instagram.posts',
      pages: [{ profile: 'robertdowneyjr', type: 'tagged', limit: 12 }],
      note:
        'web_profile_info for the account id, then the recorded GraphQL page of posts the account is tagged in (2021); ' +
        `its cursor points past the recordings, so the next test-mode page is empty. ${CONTENT}`,
    },
    {
      endpoint: 'instagram.post',
      pages: [{ post: 'https://www.instagram.com/p/CAnqPB-Jzcj/' }],
      settings: SESSION,
      note: `The recorded app-API media info of a carousel (logged-in session, 2022). ${CONTENT}`,
    },
    {
      endpoint: 'instagram.comments',
      pages: [{ post: 'CIvZJcurJaW', limit: 20 }],
      note: `The recorded GraphQL comments page (2021); the next page was not recorded. ${CONTENT}`,
    },
    {
      endpoint: 'instagram.hashtag',
      pages: [{ hashtag: 'paris', sort: 'recent', limit: 25 }],
      note: `The recorded GraphQL #paris page (2021) cut to 25 posts; the next page was not recorded. ${CONTENT}`,
    },
    {
      endpoint: 'instagram.search',
      pages: [{ query: 'nasa', type: 'users', limit: 10 }],
      note:
        'Written from the public shape of the search box answer (test/fixtures/documented/instagram/topsearch.json), not a ' +
        'recording: no licensed recording of it exists. Values are illustrative.',
    },
  ];
  for (const c of cases) console.log(`wrote ${await recordSamples({ ...c, replay: INSTAGRAM_REPLAY })}`);
}
