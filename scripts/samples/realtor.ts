/**
 * realtor's test-mode samples, made by the live operations against the replay double (scripts/make-samples.ts). No
 * Realtor.com answer is recorded: both come from documented-shape doubles, and their notes say so.
 */
import { REALTOR_HOSTS, realtorReplay } from '../../test/sources/realtor-doubles.js';
import { PREVIOUS_CURSOR, recordSamples } from './kit.js';

const NOTE =
  'NOT from a recording: no Realtor.com answer is recorded in shared/upstream. Built by the live operation from ' +
  'documented-shape doubles (test/fixtures/documented/realtor/: the suggester and home_search/home GraphQL answers ' +
  'HomeHarvest reads); illustrative values such as "101 Example St".';

export async function realtorSamples(): Promise<void> {
  const written = [
    await recordSamples({
      endpoint: 'realtor.search',
      replay: realtorReplay(),
      extraHosts: REALTOR_HOSTS,
      pages: [
        { location: 'Austin, TX', status: 'forSale', limit: 3 },
        { location: 'Austin, TX', status: 'forSale', limit: 3, cursor: PREVIOUS_CURSOR },
      ],
      note: NOTE,
    }),
    await recordSamples({ endpoint: 'realtor.property', replay: realtorReplay(), extraHosts: REALTOR_HOSTS, pages: [{ property: '9876543210' }], note: NOTE }),
  ];
  console.log(`wrote realtor samples: ${written.join(', ')}`);
}
