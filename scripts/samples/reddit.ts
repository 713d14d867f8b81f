/**
 * reddit.search and reddit.post samples: the live operations (app-only OAuth mode, the mode the recordings were made
 * in) against the replay double serving ../shared/upstream/forum (see test/helpers/reddit-upstream.ts `redditReplay`).
 * reddit.subforum's sample is cut from one recorded listing in scripts/make-samples.ts.
 */
import { redditReplay } from '../../test/helpers/reddit-upstream.js';
import { recordSamples, type SampleCase } from './kit.js';

const settings = { CLIENT_ID: 'samples-app', CLIENT_SECRET: 'samples-secret' };
const TEST_DATA = 'Content belongs to Reddit and its users; test data only.';

const CASES: SampleCase[] = [
  {
    endpoint: 'reddit.search',
    name: 'search.posts',
    replay: redditReplay(),
    settings,
    pages: [{ query: 'test', type: 'posts' }],
    note:
      'One recorded search answer for "test" (vartanbeno/go-reddit testdata, MIT, 2020), two posts; the recording ' +
      'holds one page, so the page its cursor names answers empty. ' + TEST_DATA,
  },
  {
    endpoint: 'reddit.search',
    name: 'search.subforums',
    replay: redditReplay(),
    settings,
    pages: [{ query: 'go', type: 'subforums' }],
    note:
      'No subreddit search was recorded: the two recorded subreddit about answers (t5: r/golang from go-reddit, MIT; ' +
      "PRAW's test subreddit, BSD-2-Clause) served in Reddit's documented Listing envelope. " + TEST_DATA,
  },
  {
    endpoint: 'reddit.search',
    name: 'search.users',
    replay: redditReplay(),
    settings,
    pages: [{ query: 'keyboards', type: 'users' }],
    note:
      'WRITTEN FROM THE DOCUMENTED INTERFACE, NOT A RECORDING: no user search was recorded; the answer is ' +
      'test/fixtures/documented/reddit/users-search.json (see its .note.txt), fictional users.',
  },
  {
    endpoint: 'reddit.post',
    replay: redditReplay(),
    settings,
    pages: [{ post: 'https://www.reddit.com/r/WouldYouRather/comments/g9zfex/' }],
    note:
      'A recorded poll post with its three comments (praw-dev/praw cassette, BSD-2-Clause, 2020), read through ' +
      'GET /comments/{id}/. No recording holds a "more" stub. ' + TEST_DATA,
  },
];

export async function redditSamples(): Promise<void> {
  for (const c of CASES) console.log(`wrote ${await recordSamples(c)}`);
}
