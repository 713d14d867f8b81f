/**
 * airbnb's test-mode samples, made by the live operations against the replay double (scripts/make-samples.ts). No
 * Airbnb answer is recorded: every sample comes from documented-shape doubles, and their notes say so.
 */
import { AIRBNB_HOSTS, airbnbReplay } from '../../test/sources/airbnb-doubles.js';
import { PREVIOUS_CURSOR, recordSamples, type SampleCase } from './kit.js';

const NOTE =
  'NOT from a recording: no Airbnb answer is recorded in shared/upstream. Built by the live operation from ' +
  'documented-shape doubles (test/fixtures/documented/airbnb/: the page layouts scrapfly-scrapers reads and the web ' +
  'API answers pyairbnb reads); illustrative values such as "Sunny loft near the river".';

const search = { location: 'Lisbon, Portugal', checkIn: '2027-06-10', checkOut: '2027-06-14', adults: 2, limit: 3 };
const cases: SampleCase[] = [
  { endpoint: 'airbnb.search', replay: airbnbReplay(), extraHosts: AIRBNB_HOSTS, pages: [search, { ...search, cursor: PREVIOUS_CURSOR }], note: NOTE },
  { endpoint: 'airbnb.listing', replay: airbnbReplay(), extraHosts: AIRBNB_HOSTS, pages: [{ listing: '1234567890123456789' }], note: NOTE },
  {
    endpoint: 'airbnb.reviews',
    replay: airbnbReplay(),
    extraHosts: AIRBNB_HOSTS,
    pages: [{ listing: '1234567890123456789', limit: 2 }, { listing: '1234567890123456789', limit: 2, cursor: PREVIOUS_CURSOR }],
    note: NOTE,
  },
  { endpoint: 'airbnb.calendar', replay: airbnbReplay(), extraHosts: AIRBNB_HOSTS, pages: [{ listing: '1234567890123456789', from: '2027-06-01', months: 2 }], note: NOTE },
];

export async function airbnbSamples(): Promise<void> {
  const written: string[] = [];
  for (const c of cases) written.push(await recordSamples(c));
  console.log(`wrote airbnb samples: ${written.join(', ')}`);
}
