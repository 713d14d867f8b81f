/**
 * zillow's test-mode samples, made by the live operations against the replay double (scripts/make-samples.ts). The
 * search pages are the one recorded rental search of ZIP 04011, cut by `limit` into two pages as the live skip cursor
 * cuts it; the home is a documented-shape double, and its note says so.
 */
import { SEARCH_ORIGIN, SEARCH_RECORDING, zillowReplay } from '../../test/sources/zillow-doubles.js';
import { PREVIOUS_CURSOR, recordSamples } from './kit.js';

export async function zillowSamples(): Promise<void> {
  const written = [
    await recordSamples({
      endpoint: 'zillow.search',
      replay: zillowReplay(),
      pages: [
        { location: '04011', status: 'forRent', limit: 20 },
        { location: '04011', status: 'forRent', limit: 20, cursor: PREVIOUS_CURSOR },
      ],
      origins: { [SEARCH_RECORDING]: SEARCH_ORIGIN },
      note:
        'Normalised from a real recorded Zillow rental search page (ZIP 04011, 2025-06-01; MaineDSA/zillow_scraper, MIT), ' +
        'read twice with limit 20: the second page is the rest of the same recorded page, as the skip cursor N~page asks. ' +
        'Content belongs to Zillow and its listers; test data only.',
    }),
    await recordSamples({
      endpoint: 'zillow.property',
      replay: zillowReplay(),
      pages: [{ property: '2087654321' }],
      note:
        'NOT from a recording: no Zillow home page is recorded. Built by the live operation from a documented-shape double ' +
        '(test/fixtures/documented/zillow/home-page.2087654321.html: the gdpClientCache property shape scrapfly/scrapfly-scrapers ' +
        'reads); illustrative values such as "12 Example Ave".',
    }),
  ];
  console.log(`wrote zillow samples: ${written.join(', ')}`);
}
