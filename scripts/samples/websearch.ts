/**
 * web.search and web.news samples: the live operations against recorded answers on loopback (shared/upstream/web):
 * a SearXNG JSON answer (stevezau/shortlist tests, MIT) and a Google News RSS search feed (desimoose/celina tests,
 * MIT). README "Added: web search, news" has their provenance.
 */
import { haveRecordings } from '../../test/helpers/replay.js';
import { recordSamples } from './kit.js';

export const SEARXNG_HOST = 'searxng.internal.test';
export const SEARXNG_QUERY = 'what to watch next if you liked Severance — similar recent, well-reviewed movies and TV shows';

export async function webSearchSamples(): Promise<void> {
  if (!haveRecordings('web/search') || !haveRecordings('web/news')) {
    console.log('web.search/web.news samples skipped: shared/upstream/web/{search,news} not found');
    return;
  }
  const search = await recordSamples({
    endpoint: 'web.search',
    replay: {
      folders: [],
      routes: [
        {
          method: 'GET',
          host: SEARXNG_HOST,
          path: '/search',
          file: 'web/search/searxng/search-json.general.json',
          name: 'shared/upstream/web/search/searxng/search-json.general.json (stevezau/shortlist @ 1eaabae3, MIT)',
        },
      ],
    },
    settings: { SEARXNG_URL: `https://${SEARXNG_HOST}` },
    pages: [{ query: SEARXNG_QUERY, limit: 10 }],
    note:
      'Normalised by src/sources/web/search from a real SearXNG JSON answer (shared/upstream/web/search/searxng/search-json.general.json: ' +
      'an operator instance, 6 results from Google CSE, recorded 2026). The catalogue example asks another query; test mode answers this ' +
      'recorded one. Result content belongs to the sites and engines; test data only.',
  });
  console.log(`wrote ${search}`);
  const news = await recordSamples({
    endpoint: 'web.news',
    replay: { folders: ['web/news/google-news'] },
    settings: { NEWS_BACKENDS: 'google-news' },
    pages: [{ query: 'caffeine sleep', limit: 20 }],
    note:
      'Normalised by src/sources/web/search from a real Google News RSS search feed (shared/upstream/web/news/google-news/' +
      'rss-search.q-caffeine-sleep.xml, 100 items, built Jul 2026), first 20 items. The catalogue example asks another query and topic; ' +
      'test mode answers this recorded search. Google News feed terms apply to the content; test data only.',
  });
  console.log(`wrote ${news}`);
}
