import {
  boolean,
  choice,
  cursor,
  date,
  dateOrDateTime,
  endpoint,
  limit,
  numberChoice,
  pattern,
  text,
  within,
} from '../fields.js';
import { bool, int, list, literal, num, oneOf, rec, str } from '../records.js';
import { MONEY } from '../vocabulary.js';

/*
 * The crypto records, shared by every crypto endpoint: one coin (a market-listed asset, CoinGecko's id space), one
 * token (an on-chain contract or mint: chain + address), one pair (a DEX pool), one trade and one transfer. Prices in
 * a fiat currency are MONEY ({amount, currency}, ISO 4217: the markets answer in USD); amounts of a crypto asset are
 * ASSET_AMOUNT ({amount, symbol}: 1.5 ETH, never wei); percentage changes are plain numbers (2.5 means +2.5 %);
 * instants are ISO 8601; a chain is a lower-case id; addresses are strings as the chain writes them.
 */

/** An amount of a crypto asset in whole units (1.5, not 1500000000000000000) and the asset's ticker symbol. */
export const ASSET_AMOUNT = rec({ amount: num, symbol: str });

/** Percentage changes over the usual windows (2.5 means +2.5 %); each upstream gives some of them. */
export const PERCENT_CHANGES = rec(
  {},
  { fiveMinutes: num, hour: num, sixHours: num, day: num, week: num, twoWeeks: num, month: num, twoMonths: num, year: num },
);

/** USD amounts summed over the usual windows (trading volume); `currency` is always USD. */
export const USD_BY_WINDOW = rec({ currency: str }, { fiveMinutes: num, hour: num, sixHours: num, day: num });

const BUYS_SELLS = rec({ buys: int, sells: int });
/** Buy and sell transactions counted over the usual windows. */
export const TRANSACTION_COUNTS = rec({}, { fiveMinutes: BUYS_SELLS, hour: BUYS_SELLS, sixHours: BUYS_SELLS, day: BUYS_SELLS });

/** A link of a coin or token: `type` says what it is (website, whitepaper, explorer, twitter, telegram, ...). */
export const LINK = rec({ url: str }, { type: str, title: str });

/** An all-time high or low: the price, when it was reached, and how far the price is from it now. */
const EXTREME = rec({ price: MONEY }, { at: str, changePercent: num });

/** A market-listed coin (ids are CoinGecko's: bitcoin, ethereum, ...). */
export const COIN = rec(
  { type: literal('coin'), id: str, symbol: str, name: str, url: str },
  {
    image: str,
    /** Rank by market capitalisation. */
    rank: int,
    price: MONEY,
    priceBtc: num,
    marketCap: MONEY,
    fullyDilutedValuation: MONEY,
    volume: USD_BY_WINDOW,
    high24h: MONEY,
    low24h: MONEY,
    priceChangePercent: PERCENT_CHANGES,
    marketCapChangePercent: PERCENT_CHANGES,
    circulatingSupply: num,
    totalSupply: num,
    maxSupply: num,
    allTimeHigh: EXTREME,
    allTimeLow: EXTREME,
    description: str,
    categories: list(str),
    links: list(LINK),
    /** Contract addresses of the coin on other chains. */
    platforms: list(rec({ chain: str, address: str }, { decimals: int })),
    /** Calendar day YYYY-MM-DD. */
    genesisDate: str,
    hashingAlgorithm: str,
    sentimentUpPercent: num,
    /** Users who watch the coin on the market site. */
    watchlists: int,
    /** Address of a 7-day price chart image. */
    sparkline: str,
    /** When the market site listed the coin. */
    listedAt: str,
    updatedAt: str,
  },
);

const TOKEN_ALWAYS = { type: literal('token'), id: str, chain: str, address: str };
const TOKEN_SOMETIMES = {
  symbol: str,
  name: str,
  url: str,
  image: str,
  header: str,
  description: str,
  links: list(LINK),
  decimals: int,
  totalSupply: num,
  /** Addresses holding the token. */
  holders: int,
  price: MONEY,
  marketCap: MONEY,
  /** Market cap in the launchpad's quote asset (SOL on pump.fun). */
  marketCapInQuote: ASSET_AMOUNT,
  allTimeHighMarketCap: MONEY,
  creator: str,
  createdAt: str,
  lastTradeAt: str,
  replies: int,
  lastReplyAt: str,
  isNsfw: bool,
  isLive: bool,
  /** The launchpad's bonding curve is complete and the token trades on a DEX pool. */
  isGraduated: bool,
  bondingCurve: str,
  /** How far the bonding curve has been bought, 0-100. */
  bondingCurvePercent: num,
  pool: str,
  /** Boosts bought on the DEX screener: in this order, and active in total. */
  boosts: int,
  totalBoosts: int,
  /** When a community took the token over. */
  claimedAt: str,
};
/** An on-chain token: a contract (EVM) or a mint (Solana), identified by chain and address (`id` is the address). */
export const TOKEN = rec(TOKEN_ALWAYS, TOKEN_SOMETIMES);

/** A decentralised-exchange pool trading a base token against a quote token (`id` is the pool address). */
export const PAIR = rec(
  {
    type: literal('pair'),
    id: str,
    chain: str,
    dex: str,
    address: str,
    url: str,
    baseToken: TOKEN,
    quoteToken: TOKEN,
    /** Price of one base token in the quote token. */
    priceInQuote: ASSET_AMOUNT,
  },
  {
    price: MONEY,
    transactions: TRANSACTION_COUNTS,
    volume: USD_BY_WINDOW,
    priceChangePercent: PERCENT_CHANGES,
    liquidity: MONEY,
    /** Base and quote tokens held by the pool. */
    reserves: rec({}, { base: num, quote: num }),
    fullyDilutedValuation: MONEY,
    marketCap: MONEY,
    createdAt: str,
    labels: list(str),
    image: str,
    header: str,
    links: list(LINK),
    boosts: int,
  },
);

/** A token listed on a DEX screener, with the pairs that trade it when asked. */
export const LISTED_TOKEN = rec(TOKEN_ALWAYS, { ...TOKEN_SOMETIMES, pairs: list(PAIR) });

/** One trade of a token (`id` is the transaction signature or hash). */
export const TRADE = rec(
  {
    type: literal('trade'),
    id: str,
    chain: str,
    side: oneOf(['buy', 'sell']),
    createdAt: str,
    /** The trader's wallet address. */
    trader: str,
    /** Tokens bought or sold, in whole units. */
    tokenAmount: num,
  },
  {
    url: str,
    hash: str,
    /** Address of the token traded. */
    token: str,
    /** What the trader paid or received in the quote asset. */
    quoteAmount: ASSET_AMOUNT,
    /** The trade's value. */
    value: MONEY,
    /** Price of one token. */
    price: MONEY,
    priceInQuote: ASSET_AMOUNT,
    /** The program or pool the trade went through. */
    venue: str,
  },
);

/** One transaction of a wallet, as a transfer of the chain's native asset (`id` is the transaction hash). */
export const TRANSFER = rec(
  { type: literal('transfer'), id: str, chain: str, hash: str, url: str },
  {
    createdAt: str,
    block: int,
    status: oneOf(['success', 'failed', 'pending']),
    from: str,
    to: str,
    /** Seen from the wallet asked about: received, sent, or to itself. */
    direction: oneOf(['in', 'out', 'self']),
    /** Native asset moved (for Bitcoin: the wallet's net change). */
    amount: ASSET_AMOUNT,
    fee: ASSET_AMOUNT,
    /** The contract method called, where the explorer decoded it. */
    method: str,
    /** What the transaction did, as the explorer classifies it (coin_transfer, token_transfer, contract_call, ...). */
    kinds: list(str),
    memo: str,
  },
);

/** A wallet on one chain: its native balance. */
export const WALLET = rec(
  { chain: str, address: str, url: str, balance: ASSET_AMOUNT },
  { value: MONEY, transactions: int, isContract: bool, name: str },
);

/** A holder of a token, ranked by balance. */
export const HOLDER = rec(
  { type: literal('holder'), rank: int, address: str, balance: num },
  { sharePercent: num, isContract: bool, name: str, url: str },
);

/** A coin category of a market site (layer-1, meme, ...). */
export const COIN_CATEGORY = rec(
  { type: literal('category'), id: str, name: str, url: str },
  {
    marketCap: MONEY,
    marketCapChangePercent: PERCENT_CHANGES,
    volume: USD_BY_WINDOW,
    /** Coins in the category. */
    coins: int,
    /** Ids of its largest coins. */
    topCoins: list(str),
    description: str,
    sparkline: str,
    updatedAt: str,
  },
);

/** An NFT collection on a market site. */
export const NFT_COLLECTION = rec(
  { type: literal('nft'), id: str, name: str, url: str },
  { symbol: str, image: str, floorPrice: ASSET_AMOUNT, floorPriceChangePercent: PERCENT_CHANGES, volume24h: ASSET_AMOUNT, sparkline: str },
);

/** The whole crypto market: capitalisation, volume and the largest coins' shares of it. */
export const MARKET = rec(
  { marketCap: MONEY, volume: USD_BY_WINDOW },
  {
    marketCapChangePercent: PERCENT_CHANGES,
    dominancePercent: list(rec({ symbol: str, percent: num })),
    coins: int,
    markets: int,
    updatedAt: str,
  },
);

/** An exchange announcement. */
export const ANNOUNCEMENT = rec(
  { type: literal('announcement'), id: str, title: str, url: str, publishedAt: str },
  { category: str },
);

/** A point of a price history; `price`, `marketCap` and `volume24h` are in the history's currency. */
export const PRICE_POINT = rec({ at: str, price: num }, { marketCap: num, volume24h: num });
/** An OHLC candle starting at `at`. */
export const CANDLE = rec({ at: str, open: num, high: num, low: num, close: num });

const CHAIN_RULE = '2-30 lower-case letters or digits (a chain id, e.g. solana, ethereum, base)';
const chain = () => pattern('^[a-z0-9]{2,30}$', CHAIN_RULE, 30);
const EVM_ADDRESS = '0x[0-9a-fA-F]{40}';
// SPEC: `pair`, `token` (DEX), `coin` and `wallet` bounds not stated; chosen 1-200 (addresses are at most ~90).
const address = (what: string) => text(1, 200, what);

export const CRYPTO = {
  trending: endpoint({
    id: 'crypto.trending',
    title: 'Trending coins',
    summary:
      "Returns the coins, coin categories and NFT collections trending on CoinGecko right now, with the whole market's capitalisation and volume.",
    credits: 1,
    cacheTtlSeconds: 300,
    fields: {},
    example: {},
    output: rec(
      { coins: list(COIN), categories: list(COIN_CATEGORY), nfts: list(NFT_COLLECTION) },
      { market: MARKET },
    ),
  }),
  categories: endpoint({
    id: 'crypto.categories',
    title: 'Coin categories',
    summary: 'Returns coin categories (layer 1, meme, AI, ...) with their market capitalisation, 24-hour change, volume and top coins.',
    credits: 1,
    cacheTtlSeconds: 600,
    fields: {
      sort: choice(['marketCap', 'change', 'name'], 'marketCap'),
      order: choice(['asc', 'desc']),
      limit: limit(1, 1000, 100),
    },
    example: { sort: 'change', order: 'desc', limit: 20 },
    output: rec({ categories: list(COIN_CATEGORY) }),
  }),
  movers: endpoint({
    id: 'crypto.movers',
    title: 'Top movers',
    summary: 'Returns the coins that gained and lost the most over an hour, day, week or month, among the top 100, 200 or 500 coins.',
    credits: 1,
    cacheTtlSeconds: 300,
    fields: {
      within: within(['hour', 'day', 'week', 'month'], 'day'),
      rankUpTo: numberChoice([100, 200, 500]),
      limit: limit(5, 30, 30),
    },
    example: { within: 'week', rankUpTo: 200, limit: 10 },
    // SPEC: rankUpTo has no default; the source reads the top 100 when it is absent (one upstream page).
    output: rec({ within: str, rankUpTo: int, gainers: list(COIN), losers: list(COIN) }),
  }),
  new: endpoint({
    id: 'crypto.new',
    title: 'New coins',
    summary: "Returns the coins CoinGecko listed most recently, with listing time and price (needs the operator's paid CoinGecko plan).",
    credits: 1,
    perItems: 50,
    cacheTtlSeconds: 300,
    fields: { limit: limit(5, 200, 100) },
    itemsField: 'coins',
    example: { limit: 50 },
    output: rec({ coins: list(COIN) }),
  }),
  dexSearch: endpoint({
    id: 'crypto.dex.search',
    title: 'DEX pair search',
    summary: 'Searches decentralised-exchange pairs by token name, symbol or address and returns price, liquidity and volume.',
    credits: 1,
    cacheTtlSeconds: 60,
    fields: {
      query: text(1, 100, 'token name, symbol or address'),
      limit: limit(1, 100, 100),
    },
    required: ['query'],
    example: { query: 'PEPE/WETH', limit: 10 },
    output: rec({ pairs: list(PAIR) }),
  }),
  dexPairs: endpoint({
    id: 'crypto.dex.pairs',
    title: 'DEX pair',
    summary: 'Returns live price, liquidity, volume and transaction counts of one or more decentralised-exchange pairs, by pool address.',
    credits: 1,
    cacheTtlSeconds: 30,
    fields: {
      chain: chain(),
      pair: address('pair address; several may be joined by commas'),
    },
    required: ['pair'],
    cacheControls: false, // SPEC: "no maxAge or tags"
    example: { chain: 'ethereum', pair: '0xa43fe16908251ee70ef74718545e4fe6c5ccec9f' },
    output: rec({ pairs: list(PAIR) }),
  }),
  dexToken: endpoint({
    id: 'crypto.dex.token',
    title: 'DEX pairs of a token',
    summary: 'Returns the decentralised-exchange pairs that trade a token, with price, liquidity and volume.',
    credits: 1,
    cacheTtlSeconds: 30,
    fields: {
      chain: chain(),
      token: address('token address'),
      limit: limit(1, 100, 100),
    },
    required: ['token'],
    cacheControls: false, // SPEC: "no maxAge or tags"
    example: { chain: 'solana', token: 'EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm', limit: 20 },
    output: rec({ pairs: list(PAIR) }),
  }),
  dexNew: endpoint({
    id: 'crypto.dex.new',
    title: 'New DEX token profiles and boosts',
    summary: 'Returns the latest token profiles, boosts, top boosts or community takeovers listed on a DEX screener.',
    credits: 1,
    cacheTtlSeconds: 60,
    fields: {
      type: choice(['profiles', 'boosts', 'topBoosts', 'takeovers'], 'profiles'),
      chain: chain(),
      includePairs: boolean(true),
      limit: limit(1, 100, 100),
    },
    example: { type: 'boosts', chain: 'solana', limit: 20 },
    output: rec({ tokens: list(LISTED_TOKEN) }),
  }),
  pumpfunCoins: endpoint({
    id: 'crypto.pumpfun.coins',
    title: 'pump.fun coins',
    summary: 'Returns coins launched on pump.fun, newest or sorted by last trade, market cap or last reply.',
    credits: 1,
    perItems: 50,
    cacheTtlSeconds: 15,
    fields: {
      sort: choice(['newest', 'lastTrade', 'marketCap', 'lastReply', 'live'], 'newest'),
      includeNsfw: boolean(false),
      limit: limit(1, 200, 50),
      cursor: cursor(
        '^(?:[0-9]{0,4}~[0-9]{0,7}|[0-9]{1,7})$',
        'optional 1-4 digits, ~ and optionally up to 7 digits; or up to 7 digits',
        12,
      ),
    },
    itemsField: 'coins',
    example: { sort: 'marketCap', limit: 50 },
    output: rec({ coins: list(TOKEN) }, { cursor: str }),
  }),
  pumpfunCoin: endpoint({
    id: 'crypto.pumpfun.coin',
    title: 'pump.fun coin',
    summary: 'Returns one pump.fun coin with its creator, market cap, bonding-curve progress and links.',
    credits: 1,
    cacheTtlSeconds: 15,
    fields: { coin: address('coin mint address or pump.fun address') },
    required: ['coin'],
    example: { coin: '9BB6NFEcjBCtnNLFko2FqVQBq8HHM13kCyYcdQbgpump' },
    output: rec({ coin: TOKEN }),
  }),
  pumpfunTrades: endpoint({
    id: 'crypto.pumpfun.trades',
    title: 'pump.fun trades',
    summary: 'Returns the latest trades of a pump.fun coin with side, amounts, price, trader and time.',
    credits: 1,
    perItems: 100,
    cacheTtlSeconds: 15,
    fields: {
      coin: address('coin mint address or pump.fun address'),
      limit: limit(1, 500, 100),
      cursor: cursor('^[0-9]{1,40}-[0-9]{1,15}$', '1-40 digits, -, then 1-15 digits', 56),
    },
    required: ['coin'],
    itemsField: 'trades',
    example: { coin: '9BB6NFEcjBCtnNLFko2FqVQBq8HHM13kCyYcdQbgpump', limit: 100 },
    output: rec({ trades: list(TRADE) }, { cursor: str }),
  }),
  wallet: endpoint({
    id: 'crypto.wallet',
    title: 'Wallet transactions',
    summary: "Returns a wallet's native balance and its transactions, newest first, on an EVM chain, Bitcoin or Solana.",
    credits: 1,
    perItems: 25,
    cacheTtlSeconds: 30,
    fields: {
      chain: choice(['ethereum', 'base', 'arbitrum', 'optimism', 'polygon', 'gnosis', 'bitcoin', 'solana']),
      wallet: address('wallet address'),
      limit: limit(1, 100, 25),
      cursor: cursor('^[A-Za-z0-9_~]{1,128}$', '1-128 letters, digits, _ or ~', 128),
    },
    required: ['chain', 'wallet'],
    itemsField: 'transactions',
    example: { chain: 'ethereum', wallet: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', limit: 25 },
    output: rec({ wallet: WALLET, transactions: list(TRANSFER) }, { cursor: str }),
  }),
  tokenHolders: endpoint({
    id: 'crypto.token.holders',
    title: 'Token holders',
    summary: 'Returns the largest holders of an EVM token with their balance and share of supply.',
    credits: 1,
    perItems: 50,
    cacheTtlSeconds: 300,
    fields: {
      chain: choice(['ethereum', 'base', 'arbitrum', 'optimism', 'polygon', 'gnosis']),
      token: pattern(`^${EVM_ADDRESS}$`, '0x followed by 40 hex digits (a token contract address)', 42),
      limit: limit(1, 250, 50),
      cursor: cursor(
        `^[0-9]{1,7}:[0-9]{1,80}:${EVM_ADDRESS}$`,
        '1-7 digits, :, 1-80 digits, :, then 0x and 40 hex digits',
        131,
      ),
    },
    required: ['chain', 'token'],
    itemsField: 'holders',
    example: { chain: 'ethereum', token: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', limit: 50 },
    output: rec({ token: TOKEN, holders: list(HOLDER) }, { cursor: str }),
  }),
  binanceAnnouncements: endpoint({
    id: 'crypto.binance.announcements',
    title: 'Binance announcements',
    summary: 'Returns Binance announcements of one category (listings, delistings, news, ...), newest first.',
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 300,
    fields: {
      category: choice(
        ['listings', 'delistings', 'news', 'activities', 'airdrops', 'maintenance', 'api'],
        'listings',
      ),
      limit: limit(1, 100, 20),
      cursor: cursor(
        '^(?:[0-9]{0,4}~(?:[1-9][0-9]{0,4})?|[1-9][0-9]{0,4})$',
        'optional 1-4 digits, ~ and optionally a 1-5 digit number without leading zero; or such a number alone',
        10,
      ),
    },
    itemsField: 'announcements',
    example: { category: 'listings', limit: 20 },
    output: rec({ announcements: list(ANNOUNCEMENT) }, { cursor: str }),
  }),
  coin: endpoint({
    // Not in SPEC: its "coin prices" (the crypto source summary). Priced like crypto.trending; cached a minute, as
    // CoinGecko refreshes a coin's data every 60 seconds.
    id: 'crypto.coin',
    title: 'Coin price and market data',
    summary:
      "Returns a coin's price, market cap, volume, supply, changes, all-time high and low, description and links; or its price on a past day.",
    credits: 1,
    cacheTtlSeconds: 60,
    fields: {
      coin: text(1, 200, 'coin id, symbol or name, e.g. bitcoin, BTC or Bitcoin'),
      date: { ...date(), description: 'a past calendar day YYYY-MM-DD: the price, market cap and volume at 00:00 UTC that day' },
    },
    required: ['coin'],
    example: { coin: 'bitcoin' },
    output: rec({ coin: COIN }),
  }),
  coinHistory: endpoint({
    // SPEC: "a further crypto endpoint", id, path and price not shown; named crypto.coin.history, priced like the
    // other crypto reads (1 credit, keyed, fixed), cacheTtlSeconds 300 (= its maxAge bound).
    id: 'crypto.coin.history',
    title: 'Coin price history',
    summary: "Returns a coin's price history (price, market cap and volume over time, optionally OHLC candles) for a window or date range.",
    credits: 1,
    keyless: false,
    perItems: null,
    cacheTtlSeconds: 300,
    fields: {
      // SPEC: bounds not stated; chosen 1-200 (a coin id such as bitcoin, or a contract address).
      coin: text(1, 200, 'coin id, e.g. bitcoin'),
      // SPEC: no default stated; none set (the source picks its window when neither within nor from/to is sent).
      within: within(['day', 'week', 'twoWeeks', 'month', 'threeMonths', 'sixMonths', 'year']),
      from: dateOrDateTime(),
      to: dateOrDateTime(),
      includeCandles: boolean(false),
    },
    required: ['coin'],
    example: { coin: 'bitcoin', within: 'month', includeCandles: true },
    output: rec({ coin: str, currency: str, from: str, to: str, points: list(PRICE_POINT) }, { candles: list(CANDLE) }),
  }),
};
