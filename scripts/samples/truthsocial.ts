/**
 * truthsocial samples: the live operations against answers written from the documented interface (no Truth Social
 * answer is recorded; test/sources/truthsocial-doubles.ts serves test/fixtures/documented/truthsocial/).
 */
import { TRUTH_HOST, truthsocialReplay } from '../../test/sources/truthsocial-doubles.js';
import { PREVIOUS_CURSOR, recordSamples, type SampleCase } from './kit.js';

const DOCUMENTED =
  "Written from the documented interface, not a recording: Mastodon's API entities as Truth Social serves them, with the " +
  "fields and endpoints its reference client (stanfordio/truthbrush) shows (test/fixtures/documented/truthsocial/). " +
  'No licensed recording of a Truth Social answer exists; the accounts and values are illustrative.';

const CASES: Omit<SampleCase, 'replay' | 'note'>[] = [
  { endpoint: 'truthsocial.profile', pages: [{ profile: 'ExampleTruther' }] },
  {
    endpoint: 'truthsocial.posts',
    pages: [
      { profile: 'ExampleTruther', limit: 20 },
      { profile: 'ExampleTruther', limit: 20, cursor: PREVIOUS_CURSOR },
    ],
  },
  { endpoint: 'truthsocial.post', pages: [{ post: 'https://truthsocial.com/@ExampleTruther/114500000000000005' }] },
  {
    endpoint: 'truthsocial.search',
    pages: [
      { query: 'example', type: 'posts', limit: 20 },
      { query: 'example', type: 'posts', limit: 20, cursor: PREVIOUS_CURSOR },
    ],
  },
  { endpoint: 'truthsocial.search', name: 'search.users', pages: [{ query: 'example', type: 'users' }] },
  { endpoint: 'truthsocial.search', name: 'search.hashtags', pages: [{ query: 'example', type: 'hashtags' }] },
];

export async function truthsocialSamples(): Promise<void> {
  for (const c of CASES) {
    console.log(`wrote ${await recordSamples({ ...c, note: DOCUMENTED, replay: truthsocialReplay(), extraHosts: [TRUTH_HOST], settings: { ACCESS_TOKEN: 'documented-example-token' } })}`);
  }
}
