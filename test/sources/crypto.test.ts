/**
 * The crypto source against its upstreams on the replay double: CoinGecko from the recorded answers in
 * ../shared/upstream/crypto/coingecko (every file is read here), every other upstream from answers written from its
 * documentation (test/fixtures/documented/crypto, named "documented" in each test title). Gateway, billing, test
 * mode and drift over HTTP: crypto-gateway.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { failure } from '../helpers/failure.js';
import type { Replay } from '../helpers/replay.js';
import { liveContext, runLive, type LiveContext } from '../helpers/source-kit.js';
import {
  BTC_WALLET,
  COINGECKO_FILES,
  CRYPTO_HOSTS,
  CRYPTO_SKIP,
  HAVE_CRYPTO,
  PEPE_WETH,
  PUMP_MINT,
  SOL_WALLET,
  TRADES_CURSOR,
  USDC,
  VITALIK,
  WIF,
  coingeckoJson,
  documented,
  outgoing,
  startCryptoReplay,
} from './crypto-doubles.js';

const PRO = { COINGECKO_KEY: 'pro-key-1', COINGECKO_PLAN: 'pro' };

describe.skipIf(!HAVE_CRYPTO)(`crypto: CoinGecko endpoints against the recordings${CRYPTO_SKIP}`, () => {
  let replay: Replay;
  let live: LiveContext;
  let pro: LiveContext;
  let demo: LiveContext;
  beforeAll(async () => {
    replay = await startCryptoReplay();
    live = liveContext('crypto', replay);
    pro = liveContext('crypto', replay, PRO);
    demo = liveContext('crypto', replay, { COINGECKO_KEY: 'demo-key-1' });
  });
  afterAll(async () => {
    await Promise.all([live.close(), pro.close(), demo.close()]);
    await replay.close();
  });
  afterEach(() => {
    replay.mutate = outgoing();
  });
  const asked = () => replay.seen.map((s) => `${s.host}${s.path}?${s.query}`);
  const since = (n: number) => replay.seen.slice(n);

  it('crypto.trending: GetTrendingSearches + GetGlobalData → 15 coins, 6 categories, 7 NFT collections and the market', async () => {
    const { data } = await runLive('crypto.trending', {}, live.ctx);
    const answer = coingeckoJson('GetTrendingSearches.txt');
    expect(data.coins).toHaveLength(answer.coins.length);
    expect(data.categories).toHaveLength(answer.categories.length);
    expect(data.nfts).toHaveLength(answer.nfts.length);
    expect(data.coins[0]).toEqual({
      type: 'coin',
      id: 'qubic-network',
      symbol: 'QUBIC',
      name: 'Qubic',
      url: 'https://www.coingecko.com/en/coins/qubic',
      image: 'https://coin-images.coingecko.com/coins/images/32949/large/QubicLogo-Token.png?1731185925',
      rank: 368,
      price: { amount: 9.04766669820536e-7, currency: 'USD' },
      priceBtc: 1.1792020782950375e-11,
      marketCap: { amount: 104127324, currency: 'USD' },
      volume: { currency: 'USD', day: 3463333 },
      priceChangePercent: { day: -6.386464466210091 },
      sparkline: 'https://www.coingecko.com/coins/32949/sparkline.svg',
    });
    expect(data.categories[0]).toMatchObject({
      type: 'category',
      id: 'chaingpt-pad',
      name: 'ChainGPT Launchpad',
      coins: 11,
      marketCap: { amount: 95999175.78764266, currency: 'USD' },
      marketCapChangePercent: { hour: -0.15451615389241194, day: -11.706392797861957 },
    });
    expect(data.nfts[0]).toMatchObject({
      type: 'nft',
      id: 'runestone',
      symbol: 'RUNESTONE',
      floorPrice: { amount: 0.00168, symbol: 'BTC' },
      floorPriceChangePercent: { day: -7.340129332743706 },
      volume24h: { amount: 0.24, symbol: 'BTC' },
    });
    const global = coingeckoJson('GetGlobalData.txt').data;
    expect(data.market).toMatchObject({
      marketCap: { amount: global.total_market_cap.usd, currency: 'USD' },
      volume: { currency: 'USD', day: global.total_volume.usd },
      coins: global.active_cryptocurrencies,
      markets: global.markets,
    });
    expect(data.market.dominancePercent[0]).toEqual({ symbol: 'BTC', percent: global.market_cap_percentage.btc });
    // Every coin has a number price: trending's "$1,234" strings became numbers.
    for (const c of data.coins) expect(typeof c.marketCap?.amount === 'number' || c.marketCap === undefined).toBe(true);
  });

  it('crypto.categories: sort and order → CoinGecko order; GetMarketDataCategories → the category record', async () => {
    const n = replay.seen.length;
    const { data } = await runLive('crypto.categories', { sort: 'change', order: 'desc', limit: 20 }, live.ctx);
    expect(since(n)[0].query.get('order')).toBe('market_cap_change_24h_desc');
    expect(data.categories).toEqual([
      {
        type: 'category',
        id: 'layer-1',
        name: 'Layer 1 (L1)',
        url: 'https://www.coingecko.com/en/categories/layer-1',
        marketCap: { amount: 2061406861196.14, currency: 'USD' },
        marketCapChangePercent: { day: -0.66091235190398 },
        volume: { currency: 'USD', day: 61146432400.1739 },
        topCoins: ['bitcoin', 'ethereum', 'binancecoin'],
        updatedAt: '2024-04-06T08:25:46.402Z',
      },
    ]);
    await runLive('crypto.categories', { sort: 'name' }, live.ctx);
    expect(replay.seen.at(-1)!.query.get('order')).toBe('name_asc');
  });

  it('crypto.categories: a list of the wrong kind (GetAssetCategories: category_id, no id) → sourceChanged', async () => {
    const wrong = await startCryptoReplay([{ host: 'api.coingecko.com', path: '/api/v3/coins/categories', file: 'crypto/coingecko/GetAssetCategories.txt' }]);
    const ctx = liveContext('crypto', wrong);
    try {
      const e = await failure(runLive('crypto.categories', {}, ctx.ctx));
      expect(e.code).toBe('sourceChanged');
      expect(e.message).toMatch(/category without an id/);
      expect(wrong.served()).toEqual(['crypto/coingecko/GetAssetCategories.txt']);
    } finally {
      await ctx.close();
      await wrong.close();
    }
  });

  it('crypto.movers: GetMarkets (one coin, +3.1 % in a day) → a gainer and no losers; one page of 100 asked', async () => {
    const n = replay.seen.length;
    const { data } = await runLive('crypto.movers', { within: 'day', limit: 5 }, live.ctx);
    const q = since(n)[0].query;
    expect(Object.fromEntries(q)).toEqual({
      vs_currency: 'usd',
      order: 'market_cap_desc',
      per_page: '100',
      page: '1',
      price_change_percentage: '1h,24h,7d,30d',
    });
    expect(data).toMatchObject({ within: 'day', rankUpTo: 100, losers: [] });
    expect(data.gainers).toHaveLength(1);
    expect(data.gainers[0]).toMatchObject({
      id: 'bitcoin',
      symbol: 'BTC',
      rank: 1,
      price: { amount: 70187, currency: 'USD' },
      priceChangePercent: { day: 3.12502 },
      allTimeHigh: { price: { amount: 73738, currency: 'USD' }, at: '2024-03-14T07:10:36.635Z', changePercent: -4.77063 },
      circulatingSupply: 19675987,
    });
    // The recording was made without price_change_percentage: no weekly change to rank by.
    const week = await runLive('crypto.movers', { within: 'week', rankUpTo: 500 }, live.ctx);
    expect(week.data).toMatchObject({ gainers: [], losers: [], rankUpTo: 500 });
    expect(replay.seen.slice(-2).map((s) => [s.query.get('per_page'), s.query.get('page')])).toEqual([
      ['250', '1'],
      ['250', '2'],
    ]);
  });

  it('crypto.coin: GetAssetDetails → price, market data, supply, extremes, text description and links', async () => {
    const n = replay.seen.length;
    const { data } = await runLive('crypto.coin', { coin: 'bitcoin' }, live.ctx);
    expect(since(n).map((s) => s.path)).toEqual(['/api/v3/coins/bitcoin']);
    expect(since(n)[0].query.get('tickers')).toBe('false');
    const c = data.coin;
    expect(c).toMatchObject({
      type: 'coin',
      id: 'bitcoin',
      symbol: 'BTC',
      name: 'Bitcoin',
      url: 'https://www.coingecko.com/en/coins/bitcoin',
      rank: 1,
      price: { amount: 69840, currency: 'USD' },
      marketCap: { amount: 1373546629363, currency: 'USD' },
      fullyDilutedValuation: { amount: 1465975550097, currency: 'USD' },
      volume: { currency: 'USD', day: 18867210007 },
      high24h: { amount: 69805, currency: 'USD' },
      priceChangePercent: { hour: 0.79523, day: 2.37311, week: -0.89706, twoWeeks: 6.36178, month: 1.81171, twoMonths: 62.54292, year: 149.76989 },
      circulatingSupply: 19675962,
      maxSupply: 21000000,
      allTimeLow: { price: { amount: 67.81, currency: 'USD' }, at: '2013-07-06T00:00:00.000Z', changePercent: 102843.21661 },
      categories: ['FTX Holdings', 'Cryptocurrency', 'Proof of Work (PoW)', 'Layer 1 (L1)'],
      genesisDate: '2009-01-03',
      hashingAlgorithm: 'SHA-256',
      sentimentUpPercent: 84.07,
      watchlists: 1541900,
      updatedAt: '2024-04-07T15:24:51.021Z',
    });
    expect(c.description).toMatch(/^Bitcoin is the first successful internet money based on peer-to-peer technology/);
    expect(c.description).not.toMatch(/<a|href/);
    expect(c.links).toEqual(
      expect.arrayContaining([
        { url: 'http://www.bitcoin.org', type: 'website' },
        { url: 'https://bitcoin.org/bitcoin.pdf', type: 'whitepaper' },
        { url: 'https://mempool.space/', type: 'explorer' },
        { url: 'https://x.com/bitcoin', type: 'twitter' },
        { url: 'https://www.facebook.com/bitcoins', type: 'facebook' },
        { url: 'https://www.reddit.com/r/Bitcoin/', type: 'reddit' },
        { url: 'https://github.com/bitcoin/bitcoin', type: 'github' },
      ]),
    );
    // Empty homepage slots and the empty telegram id leave nothing behind; the "" platform is no platform.
    expect(c.links.some((l: { url: string }) => l.url === '')).toBe(false);
    expect(c.platforms).toBeUndefined();
  });

  it('crypto.coin with a date: GetAssetHistory → the day price at 00:00 UTC (dd-mm-yyyy asked)', async () => {
    const day = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
    const n = replay.seen.length;
    const { data } = await runLive('crypto.coin', { coin: 'bitcoin', date: day }, live.ctx);
    expect(since(n)[0].path).toBe('/api/v3/coins/bitcoin/history');
    expect(since(n)[0].query.get('date')).toBe(`${day.slice(8, 10)}-${day.slice(5, 7)}-${day.slice(0, 4)}`);
    expect(data.coin).toEqual({
      type: 'coin',
      id: 'bitcoin',
      symbol: 'BTC',
      name: 'Bitcoin',
      url: 'https://www.coingecko.com/en/coins/bitcoin',
      image: 'https://assets.coingecko.com/coins/images/1/small/bitcoin.png?1696501400',
      price: { amount: 42074.7071561885, currency: 'USD' },
      marketCap: { amount: 822933961870.542, currency: 'USD' },
      volume: { currency: 'USD', day: 24832397519.0506 },
      updatedAt: `${day}T00:00:00.000Z`,
    });
    expect((await failure(runLive('crypto.coin', { coin: 'bitcoin', date: '2999-01-01' }, live.ctx))).message).toBe('date: must not be in the future');
    const old = await failure(runLive('crypto.coin', { coin: 'bitcoin', date: '2013-05-01' }, live.ctx));
    expect([old.code, old.status]).toEqual(['invalidRequest', 400]);
    expect(old.message).toMatch(/^date: must be within the last 365 days/);
  });

  it('crypto.coin: a symbol is resolved through /search (Search.txt: ETH → ethereum, the best-ranked match)', async () => {
    const n = replay.seen.length;
    const e = await failure(runLive('crypto.coin', { coin: 'ETH' }, live.ctx));
    // ethereum has no recorded /coins answer (GetAssetDetails is bitcoin's): the double's 404 is CoinGecko's "coin not found".
    expect(e.code).toBe('notFound');
    expect(since(n).map((s) => `${s.path}?${s.query}`)).toEqual(['/api/v3/search?query=ETH', '/api/v3/coins/ethereum?localization=false&tickers=false&market_data=true&community_data=false&developer_data=false&sparkline=false']);
  });

  it('crypto.coin: an unknown coin → 404 from CoinGecko, then /search finds nothing → notFound', async () => {
    const e = await failure(runLive('crypto.coin', { coin: 'no-such-coin' }, live.ctx));
    expect([e.code, e.status, e.message]).toEqual(['notFound', 404, 'coin: no coin "no-such-coin" on CoinGecko']);
  });

  it('crypto.coin.history: within → market_chart/range over the window; GetMarketChart → points joined by time', async () => {
    const n = replay.seen.length;
    const { data } = await runLive('crypto.coin.history', { coin: 'bitcoin', within: 'week' }, live.ctx);
    const [req] = since(n);
    expect(req.path).toBe('/api/v3/coins/bitcoin/market_chart/range');
    const from = Number(req.query.get('from'));
    const to = Number(req.query.get('to'));
    expect(to - from).toBe(7 * 86_400);
    expect(data).toMatchObject({ coin: 'bitcoin', currency: 'USD' });
    expect(data.points).toEqual([
      { at: '2024-03-31T00:00:00.000Z', price: 69702.3087473573, marketCap: 1370247487960.09, volume24h: 16408802301.8374 },
      { at: '2024-04-01T00:00:00.000Z', price: 71246.9514406015, marketCap: 1401370211582.37, volume24h: 19723005998.215 },
      { at: '2024-04-01T15:01:22.000Z', price: 68887.7495158568, marketCap: 1355701979725.16, volume24h: coingeckoJson('GetMarketChart.txt').total_volumes[2][1] },
    ]);
    expect(data.candles).toBeUndefined();
  });

  it('crypto.coin.history: from/to with candles on the paid plan → pro host and key; GetOhlc candles inside the range', async () => {
    const n = replay.seen.length;
    const { data } = await runLive(
      'crypto.coin.history',
      { coin: 'bitcoin', from: '2024-03-01', to: '2024-04-02T00:00:00Z', includeCandles: true },
      pro.ctx,
    );
    const reqs = since(n);
    expect(reqs.map((s) => s.host)).toEqual(['pro-api.coingecko.com', 'pro-api.coingecko.com']);
    expect(reqs.every((s) => s.headers['x-cg-pro-api-key'] === 'pro-key-1' && !s.headers['x-cg-demo-api-key'])).toBe(true);
    const range = reqs.find((s) => s.path.endsWith('/range'))!;
    expect([range.query.get('from'), range.query.get('to')]).toEqual([String(Date.parse('2024-03-01') / 1000), String(Date.parse('2024-04-02') / 1000)]);
    expect(reqs.find((s) => s.path.endsWith('/ohlc'))!.query.get('days')).toBe('max');
    expect(data).toMatchObject({ from: '2024-03-01T00:00:00.000Z', to: '2024-04-02T00:00:00.000Z' });
    expect(data.candles).toEqual([
      { at: '2024-03-02T16:00:00.000Z', open: 61942, high: 62211, low: 61721, close: 61845 },
      { at: '2024-03-02T20:00:00.000Z', open: 61828, high: 62139, low: 61726, close: 62139 },
      { at: '2024-03-03T00:00:00.000Z', open: 62171, high: 62210, low: 61821, close: 62068 },
    ]);
    expect(data.points).toHaveLength(3);
  });

  it('crypto.coin.history: an id-like symbol (eth) 404s as an id, then /search resolves it to ethereum', async () => {
    const n = replay.seen.length;
    const { data } = await runLive('crypto.coin.history', { coin: 'eth', within: 'day' }, live.ctx);
    expect(since(n).map((s) => s.path)).toEqual(['/api/v3/coins/eth/market_chart/range', '/api/v3/search', '/api/v3/coins/ethereum/market_chart/range']);
    expect(data.coin).toBe('ethereum');
  });

  it('crypto.coin.history: range rules are 400s naming the field; old history needs the paid plan', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ coin: 'bitcoin', within: 'week', from: '2024-01-01' }, /^within: send within, or from and to, not both/],
      [{ coin: 'bitcoin', from: '2024-03-02', to: '2024-03-01' }, /^from: must be before to/],
      [{ coin: 'bitcoin', from: '2999-01-01' }, /^from: must not be in the future/],
      [{ coin: 'bitcoin', from: '2020-01-01', to: '2020-02-01' }, /^from: must be within the last 365 days/],
    ];
    for (const [body, message] of cases) {
      const e = await failure(runLive('crypto.coin.history', body, live.ctx));
      expect([e.code, e.status]).toEqual(['invalidRequest', 400]);
      expect(e.message).toMatch(message);
    }
  });

  it('a demo key goes to the public host in x-cg-demo-api-key', async () => {
    const n = replay.seen.length;
    await runLive('crypto.categories', {}, demo.ctx);
    expect(since(n).map((s) => [s.host, s.headers['x-cg-demo-api-key']])).toEqual([['api.coingecko.com', 'demo-key-1']]);
    expect(asked().length).toBeGreaterThan(0);
  });

  it('crypto.new on the paid plan: documented /coins/list/new, newest first; prices joined from GetMarkets', async () => {
    const n = replay.seen.length;
    const { data, items } = await runLive('crypto.new', { limit: 5 }, pro.ctx);
    expect(since(n).map((s) => `${s.host}${s.path}`)).toEqual(['pro-api.coingecko.com/api/v3/coins/list/new', 'pro-api.coingecko.com/api/v3/coins/markets']);
    expect(since(n)[1].query.get('ids')).toBe('long-johnson,mpx6900,bitcoin');
    expect(items).toBe(3);
    expect(data.coins.map((c: { id: string }) => c.id)).toEqual(['long-johnson', 'mpx6900', 'bitcoin']);
    expect(data.coins[0]).toEqual({
      type: 'coin',
      id: 'long-johnson',
      symbol: 'OLONG',
      name: 'Long Johnson',
      url: 'https://www.coingecko.com/en/coins/long-johnson',
      listedAt: '2024-04-08T07:47:10.000Z',
    });
    expect(data.coins[2]).toMatchObject({ id: 'bitcoin', listedAt: '2013-04-28T00:00:00.000Z', price: { amount: 70187, currency: 'USD' } });
  });

  it('crypto.new without the paid plan → 503 sourceUnavailable naming the settings, nothing asked', async () => {
    const n = replay.seen.length;
    for (const ctx of [live.ctx, demo.ctx]) {
      const e = await failure(runLive('crypto.new', {}, ctx));
      expect([e.code, e.status, e.retryable]).toEqual(['sourceUnavailable', 503, false]);
      expect(e.message).toMatch(/QUARRY_CRYPTO_COINGECKO_KEY and QUARRY_CRYPTO_COINGECKO_PLAN=pro/);
    }
    const bad = liveContext('crypto', replay, { COINGECKO_PLAN: 'pro' });
    expect((await failure(runLive('crypto.trending', {}, bad.ctx))).message).toMatch(/PLAN is pro but QUARRY_CRYPTO_COINGECKO_KEY is not set/);
    await bad.close();
    expect(replay.seen.length).toBe(n);
  });

  it('drift: a coin of /coins/markets without its symbol → sourceChanged naming it', async () => {
    replay.mutate = outgoing((name, body) => (name.endsWith('GetMarkets.txt') ? body.replace('"symbol": "btc",', '') : body));
    const e = await failure(runLive('crypto.movers', {}, live.ctx));
    expect([e.code, e.status]).toEqual(['sourceChanged', 502]);
    expect(e.message).toBe('crypto: CoinGecko market coin bitcoin without a symbol');
  });

  it('throttling: CoinGecko 429 → sourceRefused with Retry-After', async () => {
    const r = await startCryptoReplay([{ host: 'api.coingecko.com', path: '/api/v3/search/trending', status: 429, text: '{"status":{"error_code":429,"error_message":"You\'ve exceeded the Rate Limit."}}', headers: { 'retry-after': '60' } }]);
    const ctx = liveContext('crypto', r);
    try {
      const e = await failure(runLive('crypto.trending', {}, ctx.ctx));
      expect([e.code, e.status]).toEqual(['sourceRefused', 502]);
      expect(e.extras.retryAfterSeconds).toBe(60);
    } finally {
      await ctx.close();
      await r.close();
    }
  });

  it('reads every CoinGecko recording', () => {
    const served = new Set(replay.served().map((s) => s.replace('crypto/coingecko/', '')));
    // GetAssetCategories answered the wrong-kind test on its own double.
    expect(COINGECKO_FILES.filter((f) => !served.has(f) && f !== 'GetAssetCategories.txt')).toEqual([]);
  });
});

describe('crypto: DEX, launchpad, exchange and explorer endpoints against documented answers (no recording exists)', () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startCryptoReplay();
    // Every crypto host goes to the double; a path no route answers gets its 404 (Blockscout's "never seen").
    live = liveContext('crypto', replay, {}, CRYPTO_HOSTS);
  });
  afterAll(async () => {
    await live.close();
    await replay.close();
  });
  const since = (n: number) => replay.seen.slice(n);
  const run = (id: string, body: Record<string, unknown>) => runLive(id, body, live.ctx);
  const fails = async (id: string, body: Record<string, unknown>) => failure(run(id, body));

  it('documented DexScreener search → pairs in the pair record (prices as numbers, windows named, links typed)', async () => {
    const n = replay.seen.length;
    const { data } = await run('crypto.dex.search', { query: 'PEPE/WETH', limit: 10 });
    expect(since(n)[0].query.get('q')).toBe('PEPE/WETH');
    expect(data.pairs).toHaveLength(2);
    expect(data.pairs[0]).toEqual({
      type: 'pair',
      id: '0xA43fe16908251ee70EF74718545e4FE6C5cCEc9f',
      chain: 'ethereum',
      dex: 'uniswap',
      address: '0xA43fe16908251ee70EF74718545e4FE6C5cCEc9f',
      url: `https://dexscreener.com/ethereum/${PEPE_WETH}`,
      baseToken: { type: 'token', id: '0x6982508145454Ce325dDbE47a25d4ec3d2311933', chain: 'ethereum', address: '0x6982508145454Ce325dDbE47a25d4ec3d2311933', symbol: 'PEPE', name: 'Pepe' },
      quoteToken: { type: 'token', id: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', chain: 'ethereum', address: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', symbol: 'WETH', name: 'Wrapped Ether' },
      priceInQuote: { amount: 3.912e-9, symbol: 'WETH' },
      price: { amount: 0.00001021, currency: 'USD' },
      transactions: { fiveMinutes: { buys: 4, sells: 2 }, hour: { buys: 61, sells: 48 }, sixHours: { buys: 402, sells: 377 }, day: { buys: 1688, sells: 1540 } },
      volume: { currency: 'USD', fiveMinutes: 8120.9, hour: 170230.4, sixHours: 1003412.55, day: 4120334.18 },
      priceChangePercent: { fiveMinutes: 0.12, hour: -0.84, sixHours: 2.31, day: -3.05 },
      liquidity: { amount: 38211456.71, currency: 'USD' },
      reserves: { base: 1871236523310.2, quote: 7319.44 },
      fullyDilutedValuation: { amount: 4295112300, currency: 'USD' },
      marketCap: { amount: 4295112300, currency: 'USD' },
      createdAt: '2023-04-11T10:33:19.000Z',
      labels: ['v2'],
      image: 'https://dd.dexscreener.com/ds-data/tokens/ethereum/0x6982508145454ce325ddbe47a25d4ec3d2311933.png',
      links: [
        { url: 'https://www.pepe.vip/', type: 'website', title: 'Website' },
        { url: 'https://x.com/pepecoineth', type: 'twitter' },
      ],
      boosts: 0,
    });
    expect((await run('crypto.dex.search', { query: 'PEPE', limit: 1 })).data.pairs).toHaveLength(1);
  });

  it('documented DexScreener pairs: by chain and address; without a chain by search, keeping the pool itself', async () => {
    let n = replay.seen.length;
    const byChain = await run('crypto.dex.pairs', { chain: 'ethereum', pair: PEPE_WETH });
    expect(since(n).map((s) => s.path)).toEqual([`/latest/dex/pairs/ethereum/${PEPE_WETH}`]);
    expect(byChain.data.pairs.map((p: { dex: string }) => p.dex)).toEqual(['uniswap']);
    n = replay.seen.length;
    const unchained = await run('crypto.dex.pairs', { pair: PEPE_WETH });
    expect(since(n).map((s) => `${s.path}?${s.query}`)).toEqual([`/latest/dex/search?q=${PEPE_WETH}`]);
    expect(unchained.data.pairs.map((p: { address: string }) => p.address)).toEqual(['0xA43fe16908251ee70EF74718545e4FE6C5cCEc9f']);
    const none = await fails('crypto.dex.pairs', { chain: 'ethereum', pair: '0x0000000000000000000000000000000000000001' });
    expect([none.code, none.status]).toEqual(['notFound', 404]);
    const many = Array.from({ length: 6 }, (_, i) => `pool${i}address`).join(',');
    expect((await fails('crypto.dex.pairs', { pair: many })).message).toBe('pair: at most 5 addresses in one call');
    expect((await fails('crypto.dex.pairs', { chain: 'ethereum', pair: 'not an address!' })).message).toMatch(/^pair: "not an address!" is not an address/);
  });

  it('documented DexScreener token pairs: /token-pairs/v1 with a chain, the legacy tokens endpoint without; none → notFound', async () => {
    let n = replay.seen.length;
    const { data } = await run('crypto.dex.token', { chain: 'solana', token: WIF, limit: 20 });
    expect(since(n).map((s) => s.path)).toEqual([`/token-pairs/v1/solana/${WIF}`]);
    expect(data.pairs.map((p: { dex: string; quoteToken: { symbol: string } }) => `${p.dex}:${p.quoteToken.symbol}`)).toEqual(['raydium:SOL', 'orca:USDC']);
    expect(data.pairs[0].baseToken).toMatchObject({ chain: 'solana', address: WIF, symbol: '$WIF' });
    n = replay.seen.length;
    expect((await run('crypto.dex.token', { token: WIF, limit: 1 })).data.pairs).toHaveLength(1);
    expect(since(n).map((s) => s.path)).toEqual([`/latest/dex/tokens/${WIF}`]);
    const none = await fails('crypto.dex.token', { chain: 'solana', token: 'So11111111111111111111111111111111111111112' });
    expect(none.code).toBe('notFound');
  });

  it('documented DexScreener boosts: one entry per token, chain filter, pairs attached from /tokens/v1 by chain', async () => {
    const n = replay.seen.length;
    const { data } = await run('crypto.dex.new', { type: 'boosts', chain: 'solana', limit: 20 });
    expect(since(n).map((s) => s.path)).toEqual([
      '/token-boosts/latest/v1',
      '/tokens/v1/solana/7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr,HeLp6NuQkmYB4pYWo2zYs22mESHXPQYzXbB8n4V98jwC',
    ]);
    expect(data.tokens.map((t: { address: string }) => t.address)).toEqual(['7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr', 'HeLp6NuQkmYB4pYWo2zYs22mESHXPQYzXbB8n4V98jwC']);
    expect(data.tokens[0]).toMatchObject({
      type: 'token',
      chain: 'solana',
      symbol: 'EXC',
      name: 'Example Community',
      boosts: 10,
      totalBoosts: 30,
      description: 'A community token.',
      links: [
        { url: 'https://example.org/', type: 'website', title: 'Website' },
        { url: 'https://x.com/example', type: 'twitter' },
      ],
    });
    expect(data.tokens[0].pairs).toHaveLength(1);
    expect(data.tokens[0].pairs[0]).toMatchObject({ dex: 'pumpswap', boosts: 30, price: { amount: 0.00003127, currency: 'USD' } });
    // DexScreener lists no pair of the second token: nothing is said, so nothing is answered.
    expect(data.tokens[1].pairs).toBeUndefined();
    const m = replay.seen.length;
    const bare = await run('crypto.dex.new', { type: 'profiles', includePairs: false });
    expect(since(m).map((s) => s.path)).toEqual(['/token-profiles/latest/v1']);
    expect(bare.data.tokens[0]).toMatchObject({ address: 'HeLp6NuQkmYB4pYWo2zYs22mESHXPQYzXbB8n4V98jwC', links: [{ url: 'https://t.me/example', type: 'telegram' }] });
    expect(bare.data.tokens[0].pairs).toBeUndefined();
  });

  it('documented pump.fun coins: sort → created/market_cap/…, offset cursors over two pages, the launchpad fields', async () => {
    const n = replay.seen.length;
    const first = await run('crypto.pumpfun.coins', { sort: 'marketCap', limit: 3 });
    expect(Object.fromEntries(since(n)[0].query)).toEqual({ offset: '0', limit: '3', includeNsfw: 'false', sort: 'market_cap', order: 'DESC' });
    expect(first.items).toBe(3);
    expect(first.data.cursor).toBe('3');
    const [graduated, young] = first.data.coins;
    expect(graduated).toMatchObject({
      type: 'token',
      id: PUMP_MINT,
      chain: 'solana',
      address: PUMP_MINT,
      symbol: 'Fartcoin',
      url: `https://pump.fun/coin/${PUMP_MINT}`,
      decimals: 6,
      totalSupply: 1_000_000_000,
      marketCap: { amount: 812345678.9, currency: 'USD' },
      marketCapInQuote: { amount: 5010000.2, symbol: 'SOL' },
      createdAt: '2024-10-18T06:28:39.000Z',
      isGraduated: true,
      bondingCurvePercent: 100,
      pool: 'Bzc9NZfMqkXR6fz1DBph7BDf9BroyEf6pnzESP7v5iiw',
      replies: 3,
      links: [{ url: 'https://x.com/fartcoin', type: 'twitter' }],
    });
    expect(graduated.price.amount).toBeCloseTo(0.8123456789, 12);
    expect(young).toMatchObject({ isGraduated: false, bondingCurvePercent: 3.45, isLive: false, isNsfw: false });
    const second = await run('crypto.pumpfun.coins', { sort: 'marketCap', limit: 3, cursor: first.data.cursor });
    expect(replay.seen.at(-1)!.query.get('offset')).toBe('3');
    expect(second.data.coins.map((c: { symbol: string }) => c.symbol)).toEqual(['SEC']);
    expect(second.data.cursor).toBeUndefined();
    const live_ = await run('crypto.pumpfun.coins', { sort: 'live' });
    expect(replay.seen.at(-1)!.path).toBe('/coins/currently-live');
    expect(replay.seen.at(-1)!.query.get('sort')).toBeNull();
    expect(live_.data.coins).toHaveLength(1);
    const tilde = await fails('crypto.pumpfun.coins', { cursor: '12~345' });
    expect([tilde.code, tilde.status]).toEqual(['invalidRequest', 400]);
    expect(tilde.message).toMatch(/^cursor: /);
  });

  it('documented pump.fun coin: by mint or pump.fun address; junk → 400; unknown → notFound', async () => {
    const byMint = await run('crypto.pumpfun.coin', { coin: PUMP_MINT });
    const byUrl = await run('crypto.pumpfun.coin', { coin: `https://pump.fun/coin/${PUMP_MINT}` });
    expect(byUrl.data).toEqual(byMint.data);
    expect(byMint.data.coin).toMatchObject({ name: 'Fartcoin', creator: '6v7YH3nbRfenJao9LjVaYSR5BgHsiGsojtZ4a8bvQK79' });
    expect((await fails('crypto.pumpfun.coin', { coin: 'hello' })).message).toMatch(/^coin: must be a Solana mint address/);
    expect((await fails('crypto.pumpfun.coin', { coin: 'So11111111111111111111111111111111111111112' })).code).toBe('notFound');
  });

  it('documented pump.fun trades: the swap API seek cursor is SPEC’s cursor; limit above a page follows it', async () => {
    const first = await run('crypto.pumpfun.trades', { coin: PUMP_MINT, limit: 2 });
    expect(replay.seen.at(-1)!.query.get('limit')).toBe('2');
    expect(first.data.cursor).toBe(TRADES_CURSOR);
    expect(first.data.trades[0]).toEqual({
      type: 'trade',
      id: '5MsLypxbmXBgRkUkoy3WXE2VCqhKsUzZsi225rScLsW5pfzEm8ut27vuo7e2Q2324F4a3s8XfGf1hyFGPrSNwST7',
      chain: 'solana',
      side: 'sell',
      createdAt: '2026-09-12T08:39:58.000Z',
      trader: '6J3EmwYPg7r4ZvQCDV7zTtNxYusPzK9aGn2h1jFG6apD',
      tokenAmount: 11180981.448742,
      url: 'https://solscan.io/tx/5MsLypxbmXBgRkUkoy3WXE2VCqhKsUzZsi225rScLsW5pfzEm8ut27vuo7e2Q2324F4a3s8XfGf1hyFGPrSNwST7',
      hash: '5MsLypxbmXBgRkUkoy3WXE2VCqhKsUzZsi225rScLsW5pfzEm8ut27vuo7e2Q2324F4a3s8XfGf1hyFGPrSNwST7',
      token: PUMP_MINT,
      quoteAmount: { amount: 0.5483, symbol: 'SOL' },
      value: { amount: 55.75, currency: 'USD' },
      price: { amount: 55.75 / 11180981.448742, currency: 'USD' },
      priceInQuote: { amount: 0.5483 / 11180981.448742, symbol: 'SOL' },
      venue: 'pump_amm',
    });
    const second = await run('crypto.pumpfun.trades', { coin: PUMP_MINT, limit: 2, cursor: first.data.cursor });
    expect(replay.seen.at(-1)!.query.get('cursor')).toBe(TRADES_CURSOR);
    expect(second.data.trades.map((t: { side: string }) => t.side)).toEqual(['buy']);
    expect(second.data.cursor).toBeUndefined();
    const n = replay.seen.length;
    const both = await run('crypto.pumpfun.trades', { coin: PUMP_MINT, limit: 150 });
    expect(since(n).map((s) => s.query.get('cursor'))).toEqual([null, TRADES_CURSOR]);
    expect(both.items).toBe(3);
  });

  it('documented Binance announcements: 20-article pages, limit-cut pages continue as skip~page, the end has no cursor', async () => {
    const n = replay.seen.length;
    const a = await run('crypto.binance.announcements', { category: 'listings', limit: 2 });
    expect(Object.fromEntries(since(n)[0].query)).toEqual({ type: '1', catalogId: '48', pageNo: '1', pageSize: '20' });
    expect(since(n)[0].headers.lang).toBe('en');
    expect(a.data.announcements[0]).toEqual({
      type: 'announcement',
      id: '252001',
      title: 'Binance Will List Example (EXA) with Seed Tag Applied',
      url: 'https://www.binance.com/en/support/announcement/a1b2c3d4e5f60718293a4b5c6d7e8f90',
      publishedAt: '2026-09-12T08:00:00.000Z',
      category: 'New Cryptocurrency Listing',
    });
    expect(a.data.cursor).toBe('2~1');
    const b = await run('crypto.binance.announcements', { category: 'listings', limit: 19, cursor: a.data.cursor });
    expect(b.data.announcements.map((x: { id: string }) => x.id).slice(0, 2)).toEqual(['251901', '251700']);
    expect(b.data.announcements.at(-1).id).toBe('251850');
    expect(b.data.cursor).toBe('1~2');
    const c = await run('crypto.binance.announcements', { category: 'listings', limit: 20, cursor: b.data.cursor });
    expect(c.data.announcements.map((x: { id: string }) => x.id)).toEqual(['251777', '250001']);
    expect(c.data.cursor).toBeUndefined();
    const whole = await run('crypto.binance.announcements', {});
    expect([whole.data.announcements.length, whole.data.cursor]).toEqual([20, '2']);
    expect((await run('crypto.binance.announcements', { cursor: '2' })).data.announcements).toHaveLength(3);
    await run('crypto.binance.announcements', { category: 'delistings' });
    expect(replay.seen.at(-1)!.query.get('catalogId')).toBe('161');
    const tampered = await fails('crypto.binance.announcements', { cursor: '25~1' });
    expect([tampered.code, tampered.status]).toEqual(['invalidRequest', 400]);
  });

  it('documented Blockscout wallet: balance in ETH and USD, transfers seen from the wallet, keyset cursor from the last one', async () => {
    const { data, items } = await run('crypto.wallet', { chain: 'ethereum', wallet: VITALIK });
    expect(items).toBe(4);
    expect(data.wallet).toEqual({
      chain: 'ethereum',
      address: VITALIK,
      url: `https://eth.blockscout.com/address/${VITALIK}`,
      balance: { amount: 1.2345, symbol: 'ETH' },
      value: { amount: 1.2345 * 2437.86, currency: 'USD' },
      isContract: false,
    });
    const [out, incoming, failed, self] = data.transactions;
    expect(out).toEqual({
      type: 'transfer',
      id: '0x4977f90355aafb39be7af9e6cbafb1867889726ba8c4321defb20f63330392f9',
      chain: 'ethereum',
      hash: '0x4977f90355aafb39be7af9e6cbafb1867889726ba8c4321defb20f63330392f9',
      url: 'https://eth.blockscout.com/tx/0x4977f90355aafb39be7af9e6cbafb1867889726ba8c4321defb20f63330392f9',
      createdAt: '2026-09-01T17:54:27.000Z',
      block: 23101122,
      status: 'success',
      from: VITALIK,
      to: '0xe341f3da256C38356bce4Afd456d7fa36E356E94',
      direction: 'out',
      amount: { amount: 0.000502629185005232, symbol: 'ETH' },
      fee: { amount: 0.000003660258, symbol: 'ETH' },
      kinds: ['coin_transfer'],
    });
    expect(incoming).toMatchObject({ direction: 'in', amount: { amount: 0.22, symbol: 'ETH' } });
    expect(failed).toMatchObject({ status: 'failed', method: 'transfer', kinds: ['contract_call', 'token_transfer'], amount: { amount: 0, symbol: 'ETH' } });
    expect(self).toMatchObject({ direction: 'self', block: 23098000 });
    expect(data.cursor).toBeUndefined();
    // The second upstream page was asked with Blockscout's own next_page_params.
    expect(replay.seen.filter((s) => s.path.endsWith('/transactions')).at(-1)!.query.get('block_number')).toBe('23099001');

    const cut = await run('crypto.wallet', { chain: 'ethereum', wallet: VITALIK, limit: 2 });
    expect(cut.data.cursor).toBe('e~23100010~9~2');
    await run('crypto.wallet', { chain: 'ethereum', wallet: VITALIK, limit: 2, cursor: cut.data.cursor });
    expect(Object.fromEntries(replay.seen.at(-1)!.query)).toEqual({ block_number: '23100010', index: '9', items_count: '2' });
    expect((await fails('crypto.wallet', { chain: 'ethereum', wallet: VITALIK, cursor: 'b~abc' })).message).toBe('cursor: not a cursor of a ethereum wallet');
    expect((await fails('crypto.wallet', { chain: 'ethereum', wallet: 'vitalik.eth' })).message).toBe('wallet: must be 0x followed by 40 hex digits on ethereum');
  });

  it('documented Blockscout wallet: an address the chain never saw (404) → an empty wallet, answered free', async () => {
    const out = await run('crypto.wallet', { chain: 'base', wallet: '0x0000000000000000000000000000000000000002' });
    expect(out).toMatchObject({ free: true, data: { wallet: { balance: { amount: 0, symbol: 'ETH' } }, transactions: [] } });
  });

  it('documented Esplora wallet: BTC balance from chain and mempool stats, net amount per transaction, txid cursor', async () => {
    const { data } = await run('crypto.wallet', { chain: 'bitcoin', wallet: BTC_WALLET.toUpperCase() });
    expect(data.wallet).toEqual({ chain: 'bitcoin', address: BTC_WALLET, url: `https://mempool.space/address/${BTC_WALLET}`, balance: { amount: 1.1, symbol: 'BTC' }, transactions: 3 });
    expect(data.transactions.map((t: { direction: string; amount: { amount: number } }) => [t.direction, t.amount.amount])).toEqual([
      ['in', 1],
      ['out', 0.4],
    ]);
    expect(data.transactions[0]).toMatchObject({ status: 'success', block: 862001, createdAt: '2024-09-10T20:26:40.000Z', fee: { amount: 0.0001, symbol: 'BTC' } });
    expect(data.cursor).toBeUndefined();
    const one = await run('crypto.wallet', { chain: 'bitcoin', wallet: BTC_WALLET, limit: 1 });
    expect(one.data.cursor).toBe(`b~${'3f'.repeat(32)}`);
    expect((await fails('crypto.wallet', { chain: 'bitcoin', wallet: '0xabc' })).message).toMatch(/^wallet: must be a Bitcoin address/);
  });

  it('documented Solana RPC wallet: lamports → SOL, signatures → transfers, `before` cursor', async () => {
    const { data } = await run('crypto.wallet', { chain: 'solana', wallet: SOL_WALLET, limit: 2 });
    const calls = replay.seen.filter((s) => s.host === 'api.mainnet-beta.solana.com').slice(-2);
    expect(calls.map((s) => (s.body as { method: string }).method).sort()).toEqual(['getBalance', 'getSignaturesForAddress']);
    expect(data.wallet.balance).toEqual({ amount: 2.5, symbol: 'SOL' });
    expect(data.transactions[1]).toMatchObject({ status: 'failed', memo: 'hello', block: 110, createdAt: '2024-09-10T17:40:00.000Z' });
    expect(data.cursor).toBe(`s~${data.transactions[1].hash}`);
    await run('crypto.wallet', { chain: 'solana', wallet: SOL_WALLET, limit: 2, cursor: data.cursor });
    const asked = replay.seen.filter((s) => (s.body as { method?: string })?.method === 'getSignaturesForAddress').at(-1)!;
    expect((asked.body as { params: [string, { before: string }] }).params[1].before).toBe(data.transactions[1].hash);
  });

  it('documented Solana RPC errors: invalid params → 400 naming the field; the RPC address is the operator’s setting', async () => {
    const r = await startCryptoReplay([
      { host: 'rpc.example.test', path: '/', method: 'POST', text: documented('solana/invalid-params.json'), headers: { 'content-type': 'application/json' } },
    ]);
    const ctx = liveContext('crypto', r, { SOLANA_RPC_URL: 'https://rpc.example.test/?api-key=secret' });
    try {
      const e = await failure(runLive('crypto.wallet', { chain: 'solana', wallet: SOL_WALLET }, ctx.ctx));
      expect([e.code, e.message]).toEqual(['invalidRequest', 'wallet: the Solana RPC refused this address']);
      expect(r.seen.every((s) => s.host === 'rpc.example.test' && s.query.get('api-key') === 'secret')).toBe(true);
    } finally {
      await ctx.close();
      await r.close();
    }
  });

  it('documented Blockscout holders: ranks, balances in whole tokens, share of supply, SPEC cursor count:value:address', async () => {
    const { data } = await run('crypto.token.holders', { chain: 'ethereum', token: USDC, limit: 50 });
    expect(data.token).toEqual({
      type: 'token',
      id: USDC,
      chain: 'ethereum',
      address: USDC,
      symbol: 'USDC',
      name: 'USDC',
      url: `https://eth.blockscout.com/token/${USDC}`,
      image: 'https://assets.coingecko.com/coins/images/6319/small/usdc.png',
      decimals: 6,
      totalSupply: 43210987654.321,
      holders: 3912345,
      price: { amount: 0.9998, currency: 'USD' },
      marketCap: { amount: 73451239123.12, currency: 'USD' },
    });
    expect(data.holders.map((h: { rank: number; balance: number }) => [h.rank, h.balance])).toEqual([
      [1, 2_500_000_000],
      [2, 1_300_000_000],
      [3, 900_000_000],
    ]);
    expect(data.holders[0]).toMatchObject({ isContract: true, name: 'SkyUsdcVault', sharePercent: 5.785565 });
    expect(data.cursor).toBeUndefined();
    // Page two was asked with the value read from the item's string (next_page_params carries it as a JSON number).
    expect(Object.fromEntries(replay.seen.filter((s) => s.path.endsWith('/holders')).at(-1)!.query)).toEqual({
      address_hash: '0x28C6c06298d514Db089934071355E5743bf21d60',
      items_count: '2',
      value: '1300000000000000',
    });
    const one = await run('crypto.token.holders', { chain: 'ethereum', token: USDC, limit: 1 });
    expect(one.data.cursor).toBe('1:2500000000000000:0x37305B1cD40574E4C5Ce33f8e8306Be057fD7341');
    const next = await run('crypto.token.holders', { chain: 'ethereum', token: USDC, limit: 1, cursor: one.data.cursor });
    expect(replay.seen.at(-1)!.query.get('value')).toBe('2500000000000000');
    expect(next.data.holders[0].rank).toBe(2);
  });

  it('documented Blockscout holders: an unknown token → notFound; a cursor Blockscout refuses (422) → 400', async () => {
    const r = await startCryptoReplay([
      { host: 'eth.blockscout.com', path: `/api/v2/tokens/${USDC}/holders`, query: { value: '1' }, status: 422, text: '{"errors":[{"title":"Invalid value"}]}', headers: { 'content-type': 'application/json' } },
      { host: 'eth.blockscout.com', path: '/api/v2/tokens/0x000000000000000000000000000000000000dEaD', status: 404, text: '{"message":"Not found"}', headers: { 'content-type': 'application/json' } },
    ]);
    const ctx = liveContext('crypto', r);
    try {
      const missing = await failure(runLive('crypto.token.holders', { chain: 'ethereum', token: '0x000000000000000000000000000000000000dEaD' }, ctx.ctx));
      expect([missing.code, missing.status]).toEqual(['notFound', 404]);
      const tampered = await failure(runLive('crypto.token.holders', { chain: 'ethereum', token: USDC, cursor: `9:1:${VITALIK}` }, ctx.ctx));
      expect([tampered.code, tampered.status, tampered.message]).toEqual(['invalidRequest', 400, 'cursor: Blockscout refused this cursor']);
    } finally {
      await ctx.close();
      await r.close();
    }
  });

  it('walls: pump.fun’s Cloudflare challenge and Binance’s WAF → sourceRefused, never an empty success', async () => {
    const r = await startCryptoReplay([
      {
        host: 'frontend-api-v3.pump.fun',
        path: '/coins',
        status: 403,
        text: '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></body></html>',
        headers: { 'content-type': 'text/html; charset=UTF-8', 'cf-mitigated': 'challenge' },
      },
      { host: 'www.binance.com', path: '/bapi/composite/v1/public/cms/article/list/query', status: 202, text: '', headers: { 'x-amzn-waf-action': 'challenge' } },
    ]);
    const ctx = liveContext('crypto', r);
    try {
      for (const [id, body] of [['crypto.pumpfun.coins', {}], ['crypto.binance.announcements', {}]] as const) {
        const e = await failure(runLive(id, body, ctx.ctx));
        expect([id, e.code, e.status]).toEqual([id, 'sourceRefused', 502]);
      }
    } finally {
      await ctx.close();
      await r.close();
    }
  });
});
