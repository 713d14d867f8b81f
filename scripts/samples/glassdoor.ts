/**
 * glassdoor's test-mode samples, made by the live operations against the replay double (scripts/make-samples.ts). No
 * Glassdoor answer is recorded: every sample comes from documented-shape doubles, and their notes say so.
 */
import { GLASSDOOR_HOSTS, glassdoorReplay } from '../../test/sources/glassdoor-doubles.js';
import { PREVIOUS_CURSOR, recordSamples, type SampleCase } from './kit.js';

const NOTE =
  'NOT from a recording: no Glassdoor answer is recorded in shared/upstream. Built by the live operation from ' +
  "documented-shape doubles (test/fixtures/documented/glassdoor/: JobSpy's job search GraphQL, the Apollo caches and " +
  'reviews BFF scrapfly-scrapers reads); illustrative values such as "Example Corp". Job dates are relative to the ' +
  'day the sample was made.';

const base = { replay: glassdoorReplay(), extraHosts: GLASSDOOR_HOSTS, note: NOTE };
const jobs = { query: 'data engineer', location: 'Austin, TX', limit: 3 };
const cases: SampleCase[] = [
  { ...base, endpoint: 'glassdoor.jobs.search', pages: [jobs, { ...jobs, cursor: PREVIOUS_CURSOR }] },
  { ...base, endpoint: 'glassdoor.company', pages: [{ company: '1000001' }] },
  { ...base, endpoint: 'glassdoor.reviews', pages: [{ company: '1000001', limit: 2 }, { company: '1000001', limit: 2, cursor: PREVIOUS_CURSOR }] },
  { ...base, endpoint: 'glassdoor.salaries', pages: [{ company: '1000001', limit: 2 }, { company: '1000001', limit: 2, cursor: PREVIOUS_CURSOR }] },
];

export async function glassdoorSamples(): Promise<void> {
  const written: string[] = [];
  for (const c of cases) written.push(await recordSamples(c));
  console.log(`wrote glassdoor samples: ${written.join(', ')}`);
}
