/**
 * indeed's test-mode samples, made by the live operations against the replay double (scripts/make-samples.ts). No
 * Indeed answer is recorded: both come from documented-shape doubles, and their notes say so.
 */
import { indeedReplay, SETTINGS } from '../../test/sources/indeed-doubles.js';
import { PREVIOUS_CURSOR, recordSamples } from './kit.js';

const NOTE =
  'NOT from a recording: no Indeed answer is recorded in shared/upstream. Built by the live operation from ' +
  "documented-shape doubles (test/fixtures/documented/indeed/: the fields JobSpy's jobSearch query asks, and a " +
  "job page's schema.org JobPosting); illustrative values such as \"Example Health\".";

export async function indeedSamples(): Promise<void> {
  const written = [
    await recordSamples({
      endpoint: 'indeed.search',
      replay: indeedReplay(),
      settings: SETTINGS,
      pages: [
        { query: 'nurse', location: 'London', country: 'gb', limit: 2 },
        { query: 'nurse', location: 'London', country: 'gb', limit: 2, cursor: PREVIOUS_CURSOR },
      ],
      note: NOTE,
    }),
    await recordSamples({ endpoint: 'indeed.job', replay: indeedReplay(), pages: [{ job: 'a1b2c3d4e5f60718', country: 'gb' }], note: NOTE }),
  ];
  console.log(`wrote indeed samples: ${written.join(', ')}`);
}
