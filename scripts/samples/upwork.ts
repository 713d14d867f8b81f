/**
 * upwork's test-mode samples, made by the live operations against the replay double (scripts/make-samples.ts). No
 * Upwork answer is recorded: both come from documented-shape doubles, and their notes say so.
 */
import { UPWORK_HOSTS, upworkReplay } from '../../test/sources/upwork-doubles.js';
import { PREVIOUS_CURSOR, recordSamples, type SampleCase } from './kit.js';

const NOTE =
  'NOT from a recording: no Upwork answer is recorded in shared/upstream. Built by the live operation from ' +
  'documented-shape doubles (test/fixtures/documented/upwork/: the visitor GraphQL answers public clients read); ' +
  'illustrative values such as "React developer for a booking dashboard".';

const base = { replay: upworkReplay(), extraHosts: UPWORK_HOSTS, note: NOTE };
const search = { query: 'react developer', limit: 3 };
const cases: SampleCase[] = [
  { ...base, endpoint: 'upwork.jobs.search', pages: [search, { ...search, cursor: PREVIOUS_CURSOR }] },
  { ...base, endpoint: 'upwork.jobs.job', pages: [{ job: '~01a1b2c3d4e5f6a7b8' }] },
];

export async function upworkSamples(): Promise<void> {
  const written: string[] = [];
  for (const c of cases) written.push(await recordSamples(c));
  console.log(`wrote upwork samples: ${written.join(', ')}`);
}
