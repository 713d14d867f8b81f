/**
 * pinterest samples: the recorded pin page (and the recorded oEmbed behind it) through the live operation; the web
 * resource API (search, boards, board feed) has no recording, so its answers are written from the public shape
 * (test/fixtures/documented/pinterest/) and the samples say so.
 */
import type { ReplayOptions, ReplayRoute, Seen } from '../../test/helpers/replay.js';
import { documented } from './documented.js';
import { PREVIOUS_CURSOR, recordSamples } from './kit.js';

const W = 'www.pinterest.com';
const json = { 'content-type': 'application/json' };
const doc = (name: string) => documented('pinterest', name);

/** The bookmark a resource call asks for (none on a first page). */
export function bookmarkOf(s: Seen): string | undefined {
  try {
    return (JSON.parse(s.query.get('data') ?? '{}') as { options?: { bookmarks?: string[] } }).options?.bookmarks?.[0];
  } catch {
    return undefined;
  }
}

const SEARCH_NEXT = JSON.parse(doc('search.page1.json')).resource_response.bookmark as string;
const FEED_NEXT = JSON.parse(doc('board-feed.page1.json')).resource_response.bookmark as string;

/** Written from the public shape, not recordings. */
export const DOCUMENTED_ROUTES: ReplayRoute[] = [
  { host: W, path: '/resource/BaseSearchResource/get/', match: (s) => bookmarkOf(s) === undefined, text: doc('search.page1.json'), headers: json },
  { host: W, path: '/resource/BaseSearchResource/get/', match: (s) => bookmarkOf(s) === SEARCH_NEXT, text: doc('search.page2.json'), headers: json },
  { host: W, path: '/resource/BoardsResource/get/', text: doc('boards.json'), headers: json },
  { host: W, path: '/resource/BoardResource/get/', text: doc('board.json'), headers: json },
  { host: W, path: '/resource/BoardFeedResource/get/', match: (s) => bookmarkOf(s) === undefined, text: doc('board-feed.page1.json'), headers: json },
  { host: W, path: '/resource/BoardFeedResource/get/', match: (s) => bookmarkOf(s) === FEED_NEXT, text: doc('board-feed.page2.json'), headers: json },
];

export const PINTEREST_REPLAY: ReplayOptions = { folders: ['pinterest'], routes: DOCUMENTED_ROUTES };

const DOCUMENTED =
  "Written from the public shape of Pinterest's resource API (test/fixtures/documented/pinterest/), not a recording: no licensed recording of it exists; values are illustrative.";

export async function pinterestSamples(): Promise<void> {
  const cases = [
    {
      endpoint: 'pinterest.pin',
      pages: [{ pin: 'https://www.pinterest.com/pin/106890191127977979/' }],
      note: 'The recorded logged-out pin page (oscarotero/Embed, MIT, 2024-06): its relay JSON and JSON-LD. Content belongs to Pinterest and its users; test data only.',
    },
    { endpoint: 'pinterest.search', pages: [{ query: 'vegan recipes', limit: 25 }, { query: 'vegan recipes', limit: 25, cursor: PREVIOUS_CURSOR }], note: DOCUMENTED },
    { endpoint: 'pinterest.boards', pages: [{ profile: 'thesearchguru', limit: 25 }], note: DOCUMENTED },
    {
      endpoint: 'pinterest.board',
      pages: [{ board: 'https://www.pinterest.com/thesearchguru/icons/', limit: 25 }, { board: 'https://www.pinterest.com/thesearchguru/icons/', limit: 25, cursor: PREVIOUS_CURSOR }],
      note: DOCUMENTED,
    },
  ];
  for (const c of cases) console.log(`wrote ${await recordSamples({ ...c, replay: PINTEREST_REPLAY })}`);
}
