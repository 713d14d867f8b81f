/**
 * x.post and x.search samples: the live operations with a (placeholder) session against the replay double serving
 * the logged-in recordings of ../shared/upstream/microblog (routes in test/sources/x-doubles.ts).
 */
import { SESSION, xReplay } from '../../test/sources/x-doubles.js';
import { recordSamples, type SampleCase } from './kit.js';

const TEST_DATA = 'Content belongs to X and its users; test data only.';

const CASES: SampleCase[] = [
  {
    endpoint: 'x.post',
    replay: xReplay(),
    settings: SESSION,
    pages: [{ post: 'https://x.com/XDevelopers/status/1649191520250245121' }],
    note:
      'A recorded TweetDetail answer (vladkens/twscrape tests, MIT, 2026): the post and its first page of replies. ' +
      'The next page of replies was not recorded, so the cursor it answers leads to an empty page. ' + TEST_DATA,
  },
  {
    endpoint: 'x.search',
    replay: xReplay(),
    settings: SESSION,
    pages: [{ query: 'tesla', limit: 20 }],
    note: 'A recorded SearchTimeline answer (Latest, vladkens/twscrape tests, MIT, 2026), twenty posts. ' + TEST_DATA,
  },
];

export async function xSamples(): Promise<void> {
  for (const c of CASES) console.log(`wrote ${await recordSamples(c)}`);
}
