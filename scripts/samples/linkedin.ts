/**
 * linkedin's test-mode samples, made by the live operations against the replay double (scripts/make-samples.ts).
 * Jobs come from the recorded guest answers (shared/upstream/professional); company, profile and posts from the
 * documented-shape doubles of test/fixtures/documented/linkedin (schema.org data, not recordings).
 */
import type { SampleSet } from '../../src/sources/kit/samples.js';
import { startReplay } from '../../test/helpers/replay.js';
import { liveContext, runLive } from '../../test/helpers/source-kit.js';
import { AD_IMAGE, linkedinAdsReplay, SEARCH } from '../../test/sources/linkedin-ads-doubles.js';
import { linkedinReplay } from '../../test/sources/linkedin-doubles.js';
import { PREVIOUS_CURSOR, recordSamples, writeSampleSet } from './kit.js';

const DOCUMENTED_NOTE =
  'NOT from a recording: no LinkedIn company, profile or post page is recorded in shared/upstream. Built by the live ' +
  'operation from documented-shape doubles (test/fixtures/documented/linkedin/, schema.org JSON-LD written from ' +
  'schema.org; illustrative values such as "Example Robotics").';

const AD_LIBRARY_NOTE =
  "NOT from a recording: no answer of LinkedIn's Ad Library is recorded in shared/upstream. Built by the live operation " +
  'from documented-shape doubles (test/fixtures/documented/linkedin/ad-*.html, written from the page shape that ' +
  'open-source readers of these pages agree on: ifccod/social-media-research-cli, favstats/metatargetr, ' +
  'vladimirgromozdin/apify-linkedin-ads-library-scraper; see that folder\'s README.md); illustrative values such as "Example Cloud".';

/**
 * linkedin.jobs.search: the one recorded search page (10 cards, Zurich) read live, served as two pages of 5 cut
 * where LinkedIn's `start` offset would cut them (start=5 answers the cards from the sixth on).
 */
async function jobsSearch(): Promise<void> {
  const replay = await startReplay(linkedinReplay());
  const live = liveContext('linkedin', replay);
  try {
    const out = await runLive('linkedin.jobs.search', { query: 'engineer', location: 'Zurich', limit: 10 }, live.ctx);
    const jobs = out.data.jobs as unknown[];
    const size = 5;
    const pages: SampleSet['pages'] = [];
    for (let at = 0; at < jobs.length; at += size) {
      const next = at + size;
      pages.push({
        ...(at ? { request: { cursor: String(at) } } : {}),
        data: { jobs: jobs.slice(at, next), ...(next < jobs.length || out.data.cursor ? { cursor: String(next) } : {}) },
      });
    }
    writeSampleSet('src/sources/linkedin/samples/jobs.search.json', {
      _provenance: {
        note:
          'Normalised by the live linkedin.jobs.search (typeahead place → geoId, then the guest search fragment) from ' +
          `real recordings; the one recorded page of ${jobs.length} cards is served as pages of ${size}, cut where ` +
          "LinkedIn's start offset would cut. Its keywords were not recorded. Content belongs to LinkedIn and its users; test data only.",
        recordings: replay.served().map((r) => `shared/upstream/${r}`),
        origin: replay.recordings.filter((r) => replay.served().includes(r.name)).map((r) => ({ recording: r.name, ...r.origin })),
      },
      pages,
    });
  } finally {
    await live.close();
    await replay.close();
  }
}

export async function linkedinSamples(): Promise<void> {
  await jobsSearch();
  const written = [
    await recordSamples({
      endpoint: 'linkedin.jobs.job',
      replay: linkedinReplay(),
      pages: [{ job: 'https://ch.linkedin.com/jobs/view/technical-requirements-engineer-80-100%25-at-fides-treasury-services-4417627058' }],
      note: 'Normalised by the live linkedin.jobs.job from the real recorded guest posting fragment (shared/upstream/professional). Test data only.',
    }),
    await recordSamples({ endpoint: 'linkedin.company', replay: linkedinReplay(), pages: [{ company: 'example-robotics' }], note: DOCUMENTED_NOTE }),
    await recordSamples({ endpoint: 'linkedin.profile', replay: linkedinReplay(), pages: [{ profile: 'ada-example' }], note: DOCUMENTED_NOTE }),
    await recordSamples({ endpoint: 'linkedin.posts', replay: linkedinReplay(), pages: [{ company: 'example-robotics', limit: 10 }], note: DOCUMENTED_NOTE }),
    await recordSamples({
      endpoint: 'linkedin.ads.search',
      replay: linkedinAdsReplay(),
      pages: [
        { ...SEARCH, limit: 3 },
        { ...SEARCH, limit: 3, cursor: PREVIOUS_CURSOR },
      ],
      note: AD_LIBRARY_NOTE,
    }),
    await recordSamples({ endpoint: 'linkedin.ads.ad', replay: linkedinAdsReplay(), pages: [{ ad: AD_IMAGE }], note: AD_LIBRARY_NOTE }),
  ];
  console.log(`wrote linkedin samples: jobs.search, ${written.join(', ')}`);
}
