/**
 * The crypto source's upstream doubles, all on the replay double (test/helpers/replay.ts):
 * - CoinGecko: the recordings in ../shared/upstream/crypto/coingecko/*.txt (JKorf/CoinGecko.Net test files, MIT).
 *   They carry no sidecars, so routes answer them; each file opens with three lines (method, path, "needs a key")
 *   before its JSON body, which the double strips on the way out.
 * - Every other crypto upstream (DexScreener, pump.fun, Binance CMS, Blockscout, Esplora, Solana RPC, CoinGecko's
 *   paid /coins/list/new) has no recording: test/fixtures/documented/crypto/ holds answers written from their
 *   documentation, each with a NAME.about.json saying so. They are named "documented" wherever they answer.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { haveRecordings, skipReason, startReplay, type Replay, type ReplayOptions, type ReplayRoute } from '../helpers/replay.js';

export const CRYPTO_FOLDER = 'crypto';
export const HAVE_CRYPTO = haveRecordings(`${CRYPTO_FOLDER}/coingecko`);
export const CRYPTO_SKIP = skipReason(`${CRYPTO_FOLDER}/coingecko`);

const DOCUMENTED = fileURLToPath(new URL('../fixtures/documented/crypto/', import.meta.url));

/** A documented (hand-written, not recorded) answer. */
export const documented = (name: string): string => readFileSync(`${DOCUMENTED}${name}`, 'utf8');
export const documentedJson = (name: string): any => JSON.parse(documented(name));

/** The three-line preamble of CoinGecko.Net's endpoint files: HTTP method, path, whether a key is needed. */
const PREAMBLE = /^(?:GET|POST)\r?\n\/[^\r\n]*\r?\n(?:true|false)\r?\n/;

/** A CoinGecko recording's JSON body, without its preamble. */
export function coingeckoBody(file: string): string {
  return readFileSync(fileURLToPath(new URL(`../../../shared/upstream/crypto/coingecko/${file}`, import.meta.url)), 'utf8').replace(PREAMBLE, '');
}
export const coingeckoJson = (file: string): any => JSON.parse(coingeckoBody(file));

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };
const CG_HOSTS = ['api.coingecko.com', 'pro-api.coingecko.com'];

/**
 * The recorded CoinGecko answers by path. Bodies are what the files hold: GetAssetDetails and GetAssetHistory are
 * bitcoin's (their preamble names /coins/ethereum), so they answer bitcoin's paths; the chart and OHLC files are
 * documentation samples with bitcoin's values, answered for bitcoin and ethereum.
 */
export function coingeckoRoutes(): ReplayRoute[] {
  const files: Array<[string | RegExp, string]> = [
    ['/api/v3/search/trending', 'GetTrendingSearches.txt'],
    ['/api/v3/global', 'GetGlobalData.txt'],
    ['/api/v3/coins/categories', 'GetMarketDataCategories.txt'],
    ['/api/v3/coins/categories/list', 'GetAssetCategories.txt'],
    ['/api/v3/coins/markets', 'GetMarkets.txt'],
    ['/api/v3/coins/bitcoin', 'GetAssetDetails.txt'],
    ['/api/v3/coins/bitcoin/history', 'GetAssetHistory.txt'],
    ['/api/v3/search', 'Search.txt'],
    [/^\/api\/v3\/coins\/(?:bitcoin|ethereum)\/market_chart\/range$/, 'GetMarketChart.txt'],
    [/^\/api\/v3\/coins\/(?:bitcoin|ethereum)\/ohlc$/, 'GetOhlc.txt'],
  ];
  return CG_HOSTS.flatMap((host) => files.map(([path, file]) => ({ host, path, file: `crypto/coingecko/${file}`, headers: JSON_TYPE })));
}

const doc = (host: string, path: string | RegExp, name: string, more: Partial<ReplayRoute> = {}): ReplayRoute => ({
  host,
  path,
  text: documented(name),
  headers: JSON_TYPE,
  name: `documented/crypto/${name}`,
  ...more,
});

export const WIF = 'EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm';
export const PEPE_WETH = '0xa43fe16908251ee70ef74718545e4fe6c5ccec9f';
export const PUMP_MINT = '9BB6NFEcjBCtnNLFko2FqVQBq8HHM13kCyYcdQbgpump';
export const VITALIK = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
export const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
export const BTC_WALLET = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
export const SOL_WALLET = 'vines1vzrYbzLMRdu58ou5XTby4qAqVRLmqo36NKPTg';
export const TRADES_CURSOR = '00044638522300078900000802-1789202083000';

/** Answers written from each upstream's documentation (none of these upstreams has a recording). */
export function documentedRoutes(): ReplayRoute[] {
  const DS = 'api.dexscreener.com';
  const PF = 'frontend-api-v3.pump.fun';
  const SW = 'swap-api.pump.fun';
  const BN = 'www.binance.com';
  const BS = 'eth.blockscout.com';
  const MS = 'mempool.space';
  const SOL = 'api.mainnet-beta.solana.com';
  const cms = '/bapi/composite/v1/public/cms/article/list/query';
  return [
    doc('pro-api.coingecko.com', '/api/v3/coins/list/new', 'coingecko/coins-list-new.json'),
    doc(DS, '/latest/dex/search', 'dexscreener/search.json'),
    doc(DS, `/latest/dex/pairs/ethereum/${PEPE_WETH}`, 'dexscreener/pairs.json'),
    doc(DS, /^\/latest\/dex\/pairs\/ethereum\//, 'dexscreener/pairs-none.json'),
    doc(DS, `/token-pairs/v1/solana/${WIF}`, 'dexscreener/token-pairs.json'),
    doc(DS, '/token-pairs/v1/solana/So11111111111111111111111111111111111111112', 'dexscreener/token-pairs.json', { text: '[]', name: 'documented: an empty list' }),
    doc(DS, `/latest/dex/tokens/${WIF}`, 'dexscreener/token-pairs.json', {
      text: JSON.stringify({ schemaVersion: '1.0.0', pairs: documentedJson('dexscreener/token-pairs.json') }),
      name: 'documented/crypto/dexscreener/token-pairs.json (in the legacy {schemaVersion, pairs} envelope)',
    }),
    doc(DS, '/token-boosts/latest/v1', 'dexscreener/token-boosts-latest.json'),
    doc(DS, '/token-profiles/latest/v1', 'dexscreener/token-profiles-latest.json'),
    doc(DS, /^\/tokens\/v1\/solana\//, 'dexscreener/tokens-v1.json'),
    doc(DS, /^\/tokens\/v1\//, 'dexscreener/tokens-v1.json', { text: '[]', name: 'documented: an empty list' }),
    doc(PF, '/coins', 'pumpfun/coins-page2.json', { query: { offset: '3' } }),
    doc(PF, '/coins', 'pumpfun/coins-page1.json'),
    doc(PF, '/coins/currently-live', 'pumpfun/coins-page2.json'),
    doc(PF, `/coins/${PUMP_MINT}`, 'pumpfun/coin.json'),
    doc(SW, `/v2/coins/${PUMP_MINT}/trades`, 'pumpfun/trades-page2.json', { query: { cursor: TRADES_CURSOR } }),
    doc(SW, `/v2/coins/${PUMP_MINT}/trades`, 'pumpfun/trades-page1.json'),
    doc(BN, cms, 'binance/listings-page2.json', { query: { pageNo: '2' } }),
    doc(BN, cms, 'binance/listings-page1.json', { query: { pageNo: '1' } }),
    doc(BN, cms, 'binance/listings-page1.json', { text: JSON.stringify({ code: '000000', data: { catalogs: [] }, success: true }), name: 'documented: past the last page' }),
    doc(BS, `/api/v2/addresses/${VITALIK}`, 'blockscout/address.json'),
    doc(BS, `/api/v2/addresses/${VITALIK}/transactions`, 'blockscout/address-transactions-page2.json', { query: { block_number: '23099001', index: '19' } }),
    doc(BS, `/api/v2/addresses/${VITALIK}/transactions`, 'blockscout/address-transactions-page1.json'),
    doc(BS, `/api/v2/tokens/${USDC}`, 'blockscout/token.json'),
    doc(BS, `/api/v2/tokens/${USDC}/holders`, 'blockscout/token-holders-page2.json', { query: { value: '1300000000000000' } }),
    doc(BS, `/api/v2/tokens/${USDC}/holders`, 'blockscout/token-holders-page1.json'),
    doc(MS, `/api/address/${BTC_WALLET}`, 'esplora/address.json'),
    doc(MS, `/api/address/${BTC_WALLET}/txs`, 'esplora/address-txs.json'),
    doc(SOL, '/', 'solana/getBalance.json', { method: 'POST', body: { method: 'getBalance' } }),
    doc(SOL, '/', 'solana/getSignaturesForAddress.json', { method: 'POST', body: { method: 'getSignaturesForAddress' } }),
  ];
}

/** Strips the CoinGecko preamble, then applies `drift` (a test's rewrite of a recording). */
export function outgoing(drift?: (name: string, body: string) => string): (name: string, body: string) => string {
  return (name, body) => {
    const clean = name.startsWith('crypto/coingecko/') ? body.replace(PREAMBLE, '') : body;
    return drift ? drift(name, clean) : clean;
  };
}

/** The replay double's options with every crypto route; `routes` come first, so a test can answer a path its own way. */
export function cryptoReplay(routes: ReplayRoute[] = []): ReplayOptions {
  return { folders: [], routes: [...routes, ...coingeckoRoutes(), ...documentedRoutes()], mutate: outgoing() };
}

/** The replay double with every crypto route (`cryptoReplay`), started. */
export async function startCryptoReplay(routes: ReplayRoute[] = []): Promise<Replay> {
  return startReplay(cryptoReplay(routes));
}

/** Every host the crypto routes answer for (the overrides a gateway needs). */
export const CRYPTO_HOSTS = [
  'api.coingecko.com',
  'pro-api.coingecko.com',
  'api.dexscreener.com',
  'frontend-api-v3.pump.fun',
  'swap-api.pump.fun',
  'www.binance.com',
  'eth.blockscout.com',
  'base.blockscout.com',
  'mempool.space',
  'api.mainnet-beta.solana.com',
];

/** The recordings every test must read: each CoinGecko file. */
export const COINGECKO_FILES = [
  'GetAssetCategories.txt',
  'GetAssetDetails.txt',
  'GetAssetHistory.txt',
  'GetGlobalData.txt',
  'GetMarketChart.txt',
  'GetMarketDataCategories.txt',
  'GetMarkets.txt',
  'GetOhlc.txt',
  'GetTrendingSearches.txt',
  'Search.txt',
];
