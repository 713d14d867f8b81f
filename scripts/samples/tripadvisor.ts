/**
 * tripadvisor's test-mode samples, made by the live operations against the replay double (scripts/make-samples.ts).
 * No Content API answer is recorded: every sample comes from documented-shape doubles, and their notes say so.
 */
import { SETTINGS, TRIPADVISOR_HOSTS, tripadvisorReplay } from '../../test/sources/tripadvisor-doubles.js';
import { PREVIOUS_CURSOR, recordSamples, type SampleCase } from './kit.js';

const NOTE =
  'NOT from a recording: no Tripadvisor Content API answer is recorded in shared/upstream. Built by the live operation ' +
  'from documented-shape doubles (test/fixtures/documented/tripadvisor/, written from the Content API documentation); ' +
  'illustrative values such as "Example Harbour Hotel".';

const base = { replay: tripadvisorReplay(), extraHosts: TRIPADVISOR_HOSTS, settings: SETTINGS, note: NOTE };
const cases: SampleCase[] = [
  { ...base, endpoint: 'tripadvisor.search', pages: [{ query: 'Example Harbour' }] },
  { ...base, endpoint: 'tripadvisor.place', pages: [{ place: '1234567' }] },
  { ...base, endpoint: 'tripadvisor.reviews', pages: [{ place: '1234567' }, { place: '1234567', cursor: PREVIOUS_CURSOR }] },
];

export async function tripadvisorSamples(): Promise<void> {
  const written: string[] = [];
  for (const c of cases) written.push(await recordSamples(c));
  console.log(`wrote tripadvisor samples: ${written.join(', ')}`);
}
