/**
 * hackernews samples: the live operations against the replay double (test/sources/hackernews-doubles.ts): the
 * recorded Firebase answers (szymanskir/hackeRnews, MIT, 2019) and, where nothing was recorded, answers written from
 * the documented interface, which the notes name.
 */
import { HN_HOSTS, hackernewsReplay } from '../../test/sources/hackernews-doubles.js';
import { PREVIOUS_CURSOR, recordSamples, type SampleCase } from './kit.js';

const ORIGIN = 'szymanskir/hackeRnews httptest mocks (MIT, 2019)';
const TEST_DATA = 'Content belongs to Hacker News and its users; test data only.';

const CASES: Omit<SampleCase, 'replay'>[] = [
  {
    endpoint: 'hackernews.stories',
    pages: [
      { list: 'top', limit: 3 },
      { list: 'top', limit: 3, cursor: PREVIOUS_CURSOR },
    ],
    note:
      `The recorded top-stories list (${ORIGIN}), read three ids a page; the items of those ids were not recorded and ` +
      'are written from the documented item shape (test/fixtures/documented/hackernews/stories-items.json, values ' +
      'illustrative): the second page holds a deleted item, which is not a story. ' + TEST_DATA,
  },
  {
    endpoint: 'hackernews.item',
    pages: [{ item: 'https://news.ycombinator.com/item?id=21500569' }],
    note: `A recorded story and its recorded thread, three levels deep, the last comment deleted (${ORIGIN}). ${TEST_DATA}`,
  },
  {
    endpoint: 'hackernews.user',
    pages: [{ user: 'tomek' }],
    note: `A recorded user (${ORIGIN}). ${TEST_DATA}`,
  },
  {
    endpoint: 'hackernews.search',
    pages: [
      { query: 'rust async', kind: 'story', limit: 2 },
      { query: 'rust async', kind: 'story', limit: 2, cursor: PREVIOUS_CURSOR },
    ],
    note:
      'Written from the HN Search API documentation (https://hn.algolia.com/api; test/fixtures/documented/hackernews/' +
      'search.*.json), not a recording: no licensed recording of an HN Search answer exists. Values are illustrative.',
  },
  {
    endpoint: 'hackernews.updates',
    pages: [{}],
    note: `The recorded updates and maxitem answers (${ORIGIN}), recorded at different times in 2019. ${TEST_DATA}`,
  },
];

export async function hackernewsSamples(): Promise<void> {
  for (const c of CASES) console.log(`wrote ${await recordSamples({ ...c, replay: hackernewsReplay(), extraHosts: HN_HOSTS })}`);
}
