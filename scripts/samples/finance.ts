/**
 * finance samples: each endpoint's live operation against the Yahoo Finance recorder cassettes (shared/upstream/
 * finance/yahoo, gadicc/node-yahoo-finance2 tests, MIT, recorded Feb-Mar 2025), served on loopback as replay routes
 * (test/helpers/finance-upstream.ts), through the real session flow, client and normaliser.
 */
import { HAVE_YAHOO, yahooRoutes } from '../../test/helpers/finance-upstream.js';
import { forgetYahooSession } from '../../src/sources/finance/session.js';
import { recordSamples, type SampleCase } from './kit.js';

const NOTE =
  'Normalised by src/sources/finance from Yahoo Finance recorder cassettes (shared/upstream/finance/yahoo: gadicc/node-yahoo-finance2 @ ' +
  'c9dbcb6f7dea4c52ceef67472ad2af357eaa156b tests/fixtures/http, MIT; recorded 16 Feb to 24 Mar 2025), through the real cookie and crumb ' +
  'flow (its consent-form steps are not recorded and come from test/fixtures/documented/finance/consent-flow.json, written from documentation). ' +
  'Market data belongs to Yahoo and its providers; test data only.';

const cases: Array<Omit<SampleCase, 'replay' | 'note'> & { what: string }> = [
  { endpoint: 'finance.quote', pages: [{ symbols: ['AAPL', 'BABA'] }], what: 'quote-AAPL-BABA.json (two equities in one call)' },
  {
    endpoint: 'finance.history',
    pages: [{ symbol: 'AAPL', from: '2020-08-31', to: '2020-11-06', interval: 'day' }],
    what: 'chart-AAPL-2020-08-31-to-2020-11-07.json (daily candles with the 4:1 split of 2020-08-31 and a dividend); the example asks threeMonths, the sample answers this recorded window',
  },
  { endpoint: 'finance.profile', pages: [{ symbol: 'AAPL' }], what: 'quoteSummary-assetProfile-AAPL.json with search-AAPL.json (names and exchange)' },
  { endpoint: 'finance.news', pages: [{ query: 'AAPL', limit: 10 }], what: 'search-AAPL.json (4 articles: Yahoo returned 4 for newsCount=4)' },
  { endpoint: 'finance.movers', pages: [{ list: 'gainers', limit: 25 }], what: 'dailyGainers.json (5 quotes: recorded with count=5)' },
  { endpoint: 'finance.trending', pages: [{ country: 'us', limit: 20 }], what: 'trendingSymbols-US.json (5 symbols: recorded with count=5)' },
];

export async function financeSamples(): Promise<void> {
  if (!HAVE_YAHOO) {
    console.log('finance samples skipped: shared/upstream/finance/yahoo not found');
    return;
  }
  for (const c of cases) {
    forgetYahooSession();
    const target = await recordSamples({
      endpoint: c.endpoint,
      pages: c.pages,
      replay: { folders: [], routes: yahooRoutes() },
      note: `${NOTE} Built from ${c.what}.`,
    });
    console.log(`wrote ${target}`);
  }
}
