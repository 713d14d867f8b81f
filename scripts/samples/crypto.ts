/**
 * crypto samples: each endpoint's live operation against the replay double (test/sources/crypto-doubles.ts). CoinGecko
 * endpoints run on the recorded answers in shared/upstream/crypto/coingecko; every other upstream has no recording and
 * runs on answers written from its documentation (test/fixtures/documented/crypto), which each note says.
 */
import { COINGECKO_FILES, HAVE_CRYPTO, PEPE_WETH, PUMP_MINT, USDC, VITALIK, WIF, coingeckoRoutes, documentedRoutes, outgoing } from '../../test/sources/crypto-doubles.js';
import { PREVIOUS_CURSOR, recordSamples, type SampleCase } from './kit.js';

const RECORDED =
  'Normalised by src/sources/crypto from CoinGecko API answers recorded in JKorf/CoinGecko.Net @ e5711289dfbd2fbfad8f15eea4b1a9c1c6a41566 ' +
  '(CoinGecko.Net.UnitTests/Endpoints/*.txt, MIT; shared/upstream/crypto/coingecko). Market data belongs to CoinGecko; test data only.';
const DOCUMENTED =
  'NOT from a recording: no recorded answer of this upstream exists, so the live code ran on answers written by hand from its documentation ' +
  '(test/fixtures/documented/crypto, each with a .about.json naming the document). Field names and shapes are documented; values are illustrative.';
const PRO = { COINGECKO_KEY: 'sample-key', COINGECKO_PLAN: 'pro' };

const origins = Object.fromEntries(
  COINGECKO_FILES.map((f) => [
    `crypto/coingecko/${f}`,
    { repository: 'JKorf/CoinGecko.Net', commit: 'e5711289dfbd2fbfad8f15eea4b1a9c1c6a41566', path: `CoinGecko.Net.UnitTests/Endpoints/${f}`, licence: 'MIT' },
  ]),
);

const cases: Array<Omit<SampleCase, 'replay' | 'origins'>> = [
  { endpoint: 'crypto.trending', pages: [{}], note: `${RECORDED} GetTrendingSearches (a live capture, ~April 2025) and GetGlobalData.` },
  {
    endpoint: 'crypto.categories',
    pages: [{ sort: 'change', order: 'desc', limit: 20 }],
    note: `${RECORDED} GetMarketDataCategories is CoinGecko's documentation-sized sample: one category.`,
  },
  {
    endpoint: 'crypto.movers',
    pages: [{ within: 'day', limit: 10 }],
    note: `${RECORDED} GetMarkets is a one-coin documentation sample recorded without price_change_percentage, so only the daily change ranks it; the example asks a week, this answers a day.`,
  },
  {
    endpoint: 'crypto.new',
    pages: [{ limit: 50 }],
    settings: PRO,
    note: `/coins/list/new: ${DOCUMENTED} (docs.coingecko.com/reference/coins-list-new; a paid-plan endpoint). Prices: the recorded GetMarkets (JKorf/CoinGecko.Net, MIT), which prices only bitcoin.`,
  },
  { endpoint: 'crypto.coin', pages: [{ coin: 'bitcoin' }], note: `${RECORDED} GetAssetDetails (bitcoin, 2024-04-07).` },
  {
    endpoint: 'crypto.coin.history',
    pages: [{ coin: 'bitcoin', from: '2024-03-01', to: '2024-04-02T00:00:00Z', includeCandles: true }],
    settings: PRO,
    note: `${RECORDED} GetMarketChart and GetOhlc are documentation samples (3 points, 3 candles of March 2024); the example asks the last month, this answers the recorded range.`,
  },
  { endpoint: 'crypto.dex.search', pages: [{ query: 'PEPE/WETH', limit: 10 }], note: `DexScreener: ${DOCUMENTED}` },
  { endpoint: 'crypto.dex.pairs', pages: [{ chain: 'ethereum', pair: PEPE_WETH }], note: `DexScreener: ${DOCUMENTED}` },
  { endpoint: 'crypto.dex.token', pages: [{ chain: 'solana', token: WIF, limit: 20 }], note: `DexScreener: ${DOCUMENTED}` },
  { endpoint: 'crypto.dex.new', pages: [{ type: 'boosts', chain: 'solana', limit: 20 }], note: `DexScreener: ${DOCUMENTED}` },
  {
    endpoint: 'crypto.pumpfun.coins',
    pages: [{ sort: 'marketCap', limit: 3 }, { sort: 'marketCap', limit: 3, cursor: PREVIOUS_CURSOR }],
    note: `pump.fun: ${DOCUMENTED} pump.fun publishes no API documentation: field names come from the notes and from public 2026 captures read, not copied.`,
  },
  { endpoint: 'crypto.pumpfun.coin', pages: [{ coin: PUMP_MINT }], note: `pump.fun: ${DOCUMENTED}` },
  {
    endpoint: 'crypto.pumpfun.trades',
    pages: [{ coin: PUMP_MINT, limit: 2 }, { coin: PUMP_MINT, limit: 2, cursor: PREVIOUS_CURSOR }],
    note: `pump.fun swap API: ${DOCUMENTED}`,
  },
  {
    endpoint: 'crypto.wallet',
    pages: [{ chain: 'ethereum', wallet: VITALIK, limit: 3 }, { chain: 'ethereum', wallet: VITALIK, limit: 3, cursor: PREVIOUS_CURSOR }],
    note: `Blockscout (eth.blockscout.com API v2): ${DOCUMENTED} Pages are shortened to 3 transactions (Blockscout pages by 50).`,
  },
  {
    endpoint: 'crypto.token.holders',
    pages: [{ chain: 'ethereum', token: USDC, limit: 2 }, { chain: 'ethereum', token: USDC, limit: 2, cursor: PREVIOUS_CURSOR }],
    note: `Blockscout (eth.blockscout.com API v2): ${DOCUMENTED} Pages are shortened to 2 holders (Blockscout pages by 50).`,
  },
  {
    endpoint: 'crypto.binance.announcements',
    pages: [{ category: 'listings', limit: 20 }, { category: 'listings', limit: 20, cursor: PREVIOUS_CURSOR }],
    note: `Binance CMS article list: ${DOCUMENTED}`,
  },
];

export async function cryptoSamples(): Promise<void> {
  if (!HAVE_CRYPTO) {
    console.log('crypto samples skipped: shared/upstream/crypto/coingecko not found');
    return;
  }
  for (const c of cases) {
    const target = await recordSamples({ ...c, origins, replay: { folders: [], routes: [...coingeckoRoutes(), ...documentedRoutes()], mutate: outgoing() } });
    console.log(`wrote ${target}`);
  }
}

/** Run alone: npx tsx scripts/samples/crypto.ts */
if (import.meta.url === `file://${process.argv[1]}`) await cryptoSamples();
