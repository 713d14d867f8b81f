/**
 * finance: stock, fund, index, currency, future and crypto-pair quotes, price history, company profiles, news,
 * movers and trending symbols (SPEC.md's "stock quotes, price history, profiles, news"). Not priced by the spec;
 * priced like their neighbours: 1 credit a call, per item where a call returns a list the caller sizes.
 */
import { boolean, choice, countryAmong, dateOrDateTime, endpoint, limit, list as inputList, pattern, text, within } from '../fields.js';
import { bool, int, list, literal, num, oneOf, rec, str } from '../records.js';
import { ADDRESS, IMAGE, MONEY } from '../vocabulary.js';

/** A ticker as Yahoo Finance writes it: AAPL, BRK-B, OCDO.L, EURUSD=X, GC=F, ^GSPC, BTC-USD. */
const SYMBOL_RULE = 'a ticker symbol such as AAPL, BRK-B, OCDO.L, EURUSD=X, GC=F, ^GSPC or BTC-USD';
export const SYMBOL_PATTERN = '^[A-Za-z0-9^][A-Za-z0-9.=^&_-]{0,31}$';
const symbol = () => pattern(SYMBOL_PATTERN, SYMBOL_RULE, 32);

/** Kinds of instrument, from the upstream's quote type. */
export const INSTRUMENTS = ['equity', 'etf', 'mutualFund', 'index', 'currency', 'cryptocurrency', 'future', 'option', 'other'] as const;

/** A price moment outside regular hours. */
const SESSION_PRICE = rec({ price: MONEY }, { change: MONEY, changePercent: num, quotedAt: str });

/**
 * One quote. Prices are money in the instrument's trading currency, converted from minor units (London quotes in
 * pence, GBp, are answered in GBP); `changePercent` and `dividendYield` are percentages (1.5 = 1.5 %).
 */
export const QUOTE = rec(
  { type: literal('quote'), symbol: str, price: MONEY, quotedAt: str },
  {
    name: str,
    instrument: oneOf(INSTRUMENTS),
    exchange: str,
    exchangeCode: str,
    marketState: str,
    change: MONEY,
    changePercent: num,
    previousClose: MONEY,
    open: MONEY,
    dayLow: MONEY,
    dayHigh: MONEY,
    yearLow: MONEY,
    yearHigh: MONEY,
    bid: MONEY,
    ask: MONEY,
    volume: int,
    averageVolume: int,
    marketCap: MONEY,
    sharesOutstanding: int,
    peRatio: num,
    eps: MONEY,
    dividendYield: num,
    preMarket: SESSION_PRICE,
    postMarket: SESSION_PRICE,
    delayMinutes: int,
  },
);

/** One bar of a price history: the interval starting at `startsAt`, values in the history's `currency`. */
export const CANDLE = rec({ startsAt: str, close: num }, { open: num, high: num, low: num, adjustedClose: num, volume: int });

export const DIVIDEND = rec({ exDate: str, amount: MONEY });
export const SPLIT = rec({ date: str, numerator: num, denominator: num }, { ratio: str });

/** A company (or fund, coin) as the market data site describes it. */
export const COMPANY_PROFILE = rec(
  { type: literal('profile'), symbol: str },
  {
    name: str,
    instrument: oneOf(INSTRUMENTS),
    exchange: str,
    description: str,
    sector: str,
    industry: str,
    website: str,
    investorWebsite: str,
    phone: str,
    address: ADDRESS,
    employees: int,
    officers: list(rec({ name: str }, { title: str, yearBorn: int })),
    startedOn: str,
  },
);

/** A news article about a symbol. */
export const FINANCE_ARTICLE = rec(
  { type: literal('article'), id: str, url: str, title: str },
  { publisher: str, publishedAt: str, format: oneOf(['story', 'video']), thumbnail: IMAGE, symbols: list(str) },
);

export const TRENDING_SYMBOL = rec({ type: literal('symbol'), symbol: str, rank: int });

const VIA = oneOf(['quote', 'chart']);

/** Yahoo's trending lists exist per regional site; these are the regions we know it serves. */
export const TRENDING_COUNTRIES = ['us', 'gb', 'ca', 'au', 'nz', 'in', 'sg', 'hk', 'tw', 'de', 'fr', 'it', 'es', 'br'] as const;

export const HISTORY_WINDOWS = ['day', 'week', 'month', 'threeMonths', 'sixMonths', 'year', 'twoYears', 'fiveYears', 'tenYears', 'yearToDate', 'max'] as const;
export const INTERVALS = ['minute', 'twoMinutes', 'fiveMinutes', 'fifteenMinutes', 'thirtyMinutes', 'hour', 'day', 'week', 'month', 'quarter'] as const;

export const FINANCE = {
  quote: endpoint({
    id: 'finance.quote',
    title: 'Market quotes',
    summary: 'Returns the latest price, change, day range, volume and market value of up to 25 stocks, funds, indices, currencies or coins.',
    // One price for the up to 25 symbols of a call (the catalogue prices per item only by a numeric `limit`).
    credits: 1,
    cacheTtlSeconds: 60,
    fields: {
      symbols: { ...inputList(symbol(), 25), minItems: 1, description: 'one to 25 ticker symbols' },
    },
    required: ['symbols'],
    example: { symbols: ['AAPL', 'BABA'] },
    output: rec({ quotes: list(QUOTE), via: VIA }, { unknownSymbols: list(str) }),
  }),
  history: endpoint({
    id: 'finance.history',
    title: 'Price history',
    summary: "Returns a symbol's open-high-low-close candles over a window or between dates, with its dividends and splits.",
    credits: 1,
    perItems: 500,
    cacheTtlSeconds: 3600,
    fields: {
      symbol: symbol(),
      within: { ...within(HISTORY_WINDOWS), description: 'relative time window up to now (default month); not with from/to' },
      from: dateOrDateTime(),
      to: { ...dateOrDateTime(), description: 'YYYY-MM-DD (inclusive) or an ISO 8601 UTC date-time; default now' },
      interval: choice(INTERVALS, 'day'),
      includePrePost: { ...boolean(false), description: 'intraday intervals only: include pre- and post-market trading' },
      limit: { ...limit(1, 5000, 1000), description: 'most candles returned (the latest ones); fewer cost less' },
    },
    required: ['symbol'],
    itemsField: 'candles',
    example: { symbol: 'AAPL', within: 'threeMonths', interval: 'day' },
    output: rec(
      { symbol: str, currency: str, interval: str, candles: list(CANDLE) },
      { exchange: str, timezone: str, dividends: list(DIVIDEND), splits: list(SPLIT), isTruncated: bool },
    ),
  }),
  profile: endpoint({
    id: 'finance.profile',
    title: 'Company profile',
    summary: "Returns a listed company's (or fund's, coin's) description, sector, industry, address, website, staff count and officers.",
    credits: 1,
    cacheTtlSeconds: 86400,
    fields: { symbol: symbol() },
    required: ['symbol'],
    example: { symbol: 'AAPL' },
    output: rec({ profile: COMPANY_PROFILE, via: oneOf(['quoteSummary', 'search']) }),
  }),
  news: endpoint({
    id: 'finance.news',
    title: 'Market news',
    summary: 'Returns recent news articles about a ticker symbol or company, with publisher, date and related symbols.',
    credits: 1,
    perItems: 10,
    cacheTtlSeconds: 900,
    fields: {
      query: text(1, 100, 'a ticker symbol or a company name'),
      limit: limit(1, 50, 10),
    },
    required: ['query'],
    itemsField: 'articles',
    example: { query: 'AAPL', limit: 10 },
    output: rec({ articles: list(FINANCE_ARTICLE) }),
  }),
  movers: endpoint({
    id: 'finance.movers',
    title: 'Market movers',
    summary: "Returns today's biggest gainers, biggest losers or most active stocks on US exchanges, with their quotes.",
    credits: 1,
    cacheTtlSeconds: 300,
    fields: {
      list: choice(['gainers', 'losers', 'mostActive'], 'gainers'),
      limit: limit(1, 100, 25),
    },
    example: { list: 'gainers', limit: 10 },
    output: rec({ list: str, quotes: list(QUOTE) }, { title: str, total: int }),
  }),
  trending: endpoint({
    id: 'finance.trending',
    title: 'Trending symbols',
    summary: 'Returns the ticker symbols people look up most on a market data site right now, by country.',
    credits: 1,
    cacheTtlSeconds: 300,
    fields: {
      country: countryAmong(TRENDING_COUNTRIES, 'us', 'the market data site'),
      limit: limit(1, 50, 20),
    },
    example: { country: 'us', limit: 10 },
    output: rec({ country: str, symbols: list(TRENDING_SYMBOL) }, { updatedAt: str }),
  }),
};
