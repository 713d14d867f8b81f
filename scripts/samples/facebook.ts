/**
 * facebook's test-mode samples, made by the live operations against the replay double (scripts/make-samples.ts):
 * ads.search from the one recorded Ad Library API answer, ads.page from the documented-shape doubles (named so).
 */
import { AD_BY_ID, DOCUMENTED_PAGE_ID, DOCUMENTED_SETTINGS, facebookReplay, RECORDED_SETTINGS } from '../../test/sources/facebook-doubles.js';
import { PREVIOUS_CURSOR, recordSamples } from './kit.js';

export async function facebookSamples(): Promise<void> {
  const written = [
    await recordSamples({
      endpoint: 'facebook.ads.search',
      replay: facebookReplay(),
      settings: RECORDED_SETTINGS,
      pages: [{ query: 'zuckerberg', country: 'us', adType: 'politicalAndIssue', status: 'active', limit: 1 }],
      note:
        "Normalised by the live facebook.ads.search from the one real Ad Library API answer recorded (facebookresearch/Radlibrary's " +
        'test response, Graph v5.0, 2019-12; its token removed by the origin): one political ad. Its cursor continues past ' +
        'the recording, so a second test-mode page is empty. Content belongs to Meta and the advertiser; test data only.',
    }),
    await recordSamples({
      endpoint: 'facebook.ads.page',
      replay: facebookReplay(),
      settings: DOCUMENTED_SETTINGS,
      pages: [
        { page: DOCUMENTED_PAGE_ID, country: 'de', status: 'all', limit: 2 },
        { page: DOCUMENTED_PAGE_ID, country: 'de', status: 'all', limit: 2, cursor: PREVIOUS_CURSOR },
      ],
      note:
        "NOT from a recording: no answer of today's ads_archive fields is recorded. Built by the live facebook.ads.page from " +
        "documented-shape doubles written from Meta's Archived Ad reference (test/fixtures/documented/facebook/); " +
        'illustrative values ("Example Shoes").',
    }),
    await recordSamples({
      endpoint: 'facebook.ads.ad',
      replay: facebookReplay(),
      settings: DOCUMENTED_SETTINGS,
      pages: [{ ad: `https://www.facebook.com/ads/library/?id=${AD_BY_ID}` }],
      note:
        "NOT from a recording: no read of one archived ad is recorded. Built by the live facebook.ads.ad from a documented-shape " +
        "double of the Archived Ad node read by its Library ID (test/fixtures/documented/facebook/archived-ad.node.json, written " +
        'from Meta\'s Archived Ad reference); illustrative values ("Example Shoes").',
    }),
  ];
  console.log(`wrote facebook samples: ${written.join(', ')}`);
}
