/**
 * Yahoo Finance answers → finance records. Pure functions; types read off the declarations.
 * Money is `{amount, currency}` in ISO 4217: Yahoo quotes London, Johannesburg and Tel Aviv listings in minor units
 * (GBp, ZAc, ILA), which are converted to GBP, ZAR and ILS. Market value is already in the major unit.
 */
import type { TypeOf } from '../../catalogue/types.js';
import type { CANDLE, COMPANY_PROFILE, DIVIDEND, FINANCE_ARTICLE, INSTRUMENTS, QUOTE, SPLIT, TRENDING_SYMBOL } from '../../catalogue/endpoints/finance.js';
import { arr, compact, int, isoFromMillis, isoFromSeconds, need, num, obj, objs, str, type Obj } from '../kit/read.js';

export type Quote = TypeOf<typeof QUOTE>;
export type Candle = TypeOf<typeof CANDLE>;
export type Dividend = TypeOf<typeof DIVIDEND>;
export type Split = TypeOf<typeof SPLIT>;
export type CompanyProfile = TypeOf<typeof COMPANY_PROFILE>;
export type FinanceArticle = TypeOf<typeof FINANCE_ARTICLE>;
export type TrendingSymbol = TypeOf<typeof TRENDING_SYMBOL>;
type Money = { amount: number; currency: string };
type Instrument = (typeof INSTRUMENTS)[number];

const SOURCE = 'finance';
/** Minor-unit codes Yahoo uses, with the ISO currency and the divisor to it. */
const MINOR_UNITS: Record<string, [string, number]> = { GBp: ['GBP', 100], GBX: ['GBP', 100], ZAc: ['ZAR', 100], ZAC: ['ZAR', 100], ILA: ['ILS', 100] };

export interface CurrencyUnit {
  code: string;
  divisor: number;
}

/**
 * The ISO currency and divisor for a Yahoo currency string. Without one (an index level Yahoo gives no currency
 * for), XXX: ISO 4217's code for "no currency involved".
 */
export function currencyUnit(given: unknown): CurrencyUnit {
  const s = str(given);
  if (s && MINOR_UNITS[s]) return { code: MINOR_UNITS[s][0], divisor: MINOR_UNITS[s][1] };
  if (s && /^[A-Za-z]{3}$/.test(s)) return { code: s.toUpperCase(), divisor: 1 };
  return { code: 'XXX', divisor: 1 };
}

/** An amount in `unit`, converted to the major unit (floating-point noise of the division rounded off). */
export function money(v: unknown, unit: CurrencyUnit): Money | undefined {
  const n = num(v);
  if (n === undefined) return undefined;
  return { amount: unit.divisor === 1 ? n : Number((n / unit.divisor).toFixed(10)), currency: unit.code };
}

const major = (unit: CurrencyUnit): CurrencyUnit => ({ code: unit.code, divisor: 1 });
const positive = (v: unknown): number | undefined => {
  const n = num(v);
  return n !== undefined && n > 0 ? n : undefined;
};

const INSTRUMENT_OF: Record<string, Instrument> = {
  EQUITY: 'equity',
  ETF: 'etf',
  MUTUALFUND: 'mutualFund',
  INDEX: 'index',
  CURRENCY: 'currency',
  CRYPTOCURRENCY: 'cryptocurrency',
  FUTURE: 'future',
  OPTION: 'option',
};

export function instrumentOf(v: unknown): Instrument | undefined {
  const s = str(v);
  return s ? (INSTRUMENT_OF[s.toUpperCase()] ?? 'other') : undefined;
}

const MARKET_STATES: Record<string, string> = { REGULAR: 'open', CLOSED: 'closed', PRE: 'preMarket', PREPRE: 'closed', POST: 'postMarket', POSTPOST: 'closed' };
const marketState = (v: unknown): string | undefined => {
  const s = str(v);
  return s ? (MARKET_STATES[s.toUpperCase()] ?? s.toLowerCase()) : undefined;
};

function sessionPrice(q: Obj, prefix: 'preMarket' | 'postMarket', unit: CurrencyUnit) {
  const price = money(q[`${prefix}Price`], unit);
  if (!price) return undefined;
  return compact({
    price,
    change: money(q[`${prefix}Change`], unit),
    changePercent: num(q[`${prefix}ChangePercent`]),
    quotedAt: isoFromSeconds(q[`${prefix}Time`]),
  });
}

/** One quote of the v7 quote endpoint, a screener or quoteSummary's price module (same names); undefined without a symbol. */
export function normaliseQuote(raw: unknown): Quote | undefined {
  const q = obj(raw);
  const symbol = str(q?.symbol);
  if (!q || !symbol) return undefined;
  const unit = currencyUnit(q.currency);
  // A listed symbol always has a last price and its time: without them the format changed.
  const price = need(money(q.regularMarketPrice, unit), SOURCE, `quote ${symbol} without regularMarketPrice`);
  const quotedAt = need(isoFromSeconds(q.regularMarketTime), SOURCE, `quote ${symbol} without regularMarketTime`);
  const financial = q.financialCurrency === undefined ? major(unit) : major(currencyUnit(q.financialCurrency));
  return compact({
    type: 'quote' as const,
    symbol,
    name: str(q.longName) ?? str(q.shortName) ?? str(q.displayName),
    instrument: instrumentOf(q.quoteType),
    exchange: str(q.fullExchangeName),
    exchangeCode: str(q.exchange),
    marketState: marketState(q.marketState),
    price,
    change: money(q.regularMarketChange, unit),
    changePercent: num(q.regularMarketChangePercent),
    previousClose: money(q.regularMarketPreviousClose, unit),
    open: money(q.regularMarketOpen, unit),
    dayLow: money(q.regularMarketDayLow, unit),
    dayHigh: money(q.regularMarketDayHigh, unit),
    yearLow: money(q.fiftyTwoWeekLow, unit),
    yearHigh: money(q.fiftyTwoWeekHigh, unit),
    // Yahoo writes 0 for "no order on that side".
    bid: money(positive(q.bid), unit),
    ask: money(positive(q.ask), unit),
    volume: int(q.regularMarketVolume),
    averageVolume: int(q.averageDailyVolume3Month),
    marketCap: money(q.marketCap, major(unit)),
    sharesOutstanding: int(q.sharesOutstanding),
    peRatio: num(q.trailingPE),
    eps: money(q.epsTrailingTwelveMonths, financial),
    dividendYield: num(q.dividendYield),
    preMarket: sessionPrice(q, 'preMarket', unit),
    postMarket: sessionPrice(q, 'postMarket', unit),
    quotedAt,
    delayMinutes: int(q.exchangeDataDelayedBy),
  });
}

/** The quotes of a v7 quote answer, in the order asked, and the symbols it did not know. */
export function normaliseQuotes(body: unknown, asked: string[]): { quotes: Quote[]; unknownSymbols: string[] } {
  const response = need(obj(obj(body)?.quoteResponse), SOURCE, 'quote answer without quoteResponse');
  const results = need(Array.isArray(response.result) ? response.result : undefined, SOURCE, 'quote answer without result');
  const bySymbol = new Map<string, Quote>();
  for (const raw of results) {
    const q = normaliseQuote(raw);
    if (q) bySymbol.set(q.symbol.toUpperCase(), q);
  }
  return ordered(bySymbol, asked);
}

export function ordered(bySymbol: Map<string, Quote>, asked: string[]): { quotes: Quote[]; unknownSymbols: string[] } {
  const quotes: Quote[] = [];
  const unknownSymbols: string[] = [];
  for (const s of asked) {
    const q = bySymbol.get(s.toUpperCase());
    if (q) quotes.push(q);
    else unknownSymbols.push(s);
  }
  return { quotes, unknownSymbols };
}

/** The first result of a chart answer. */
export function chartResult(body: unknown): Obj {
  const result = obj(arr(obj(obj(body)?.chart)?.result)[0]);
  return need(result, SOURCE, 'chart answer without a result');
}

/**
 * A quote from a chart answer's `meta`: the fallback when the quote endpoint refuses. It has the last price, the
 * day's range and volume; the previous close only where Yahoo states it (`previousClose`), never the chart's own.
 */
export function quoteFromChart(body: unknown): Quote | undefined {
  const meta = obj(chartResult(body).meta);
  const symbol = str(meta?.symbol);
  if (!meta || !symbol) return undefined;
  const unit = currencyUnit(meta.currency);
  const price = need(money(meta.regularMarketPrice, unit), SOURCE, `chart meta of ${symbol} without regularMarketPrice`);
  const quotedAt = need(isoFromSeconds(meta.regularMarketTime), SOURCE, `chart meta of ${symbol} without regularMarketTime`);
  const previousClose = money(meta.previousClose, unit);
  const change = previousClose ? { amount: Number((price.amount - previousClose.amount).toFixed(10)), currency: unit.code } : undefined;
  return compact({
    type: 'quote' as const,
    symbol,
    name: str(meta.longName) ?? str(meta.shortName),
    instrument: instrumentOf(meta.instrumentType),
    exchange: str(meta.fullExchangeName),
    exchangeCode: str(meta.exchangeName),
    price,
    change,
    changePercent: change && previousClose!.amount ? Number(((change.amount / previousClose!.amount) * 100).toFixed(6)) : undefined,
    previousClose,
    dayLow: money(meta.regularMarketDayLow, unit),
    dayHigh: money(meta.regularMarketDayHigh, unit),
    yearLow: money(meta.fiftyTwoWeekLow, unit),
    yearHigh: money(meta.fiftyTwoWeekHigh, unit),
    volume: int(meta.regularMarketVolume),
    quotedAt,
  });
}

/** The calendar day of a Unix time at the exchange's UTC offset (seconds). */
function exchangeDay(seconds: number, offset: number): string {
  return new Date((seconds + offset) * 1000).toISOString().slice(0, 10);
}

export interface History {
  symbol: string;
  currency: string;
  exchange?: string;
  timezone?: string;
  candles: Candle[];
  dividends: Dividend[];
  splits: Split[];
  isTruncated?: boolean;
}

/** A chart answer as candles (the latest `limit`), dividends and splits, in the major currency unit. */
export function normaliseHistory(body: unknown, limit: number): History {
  const result = chartResult(body);
  const meta = need(obj(result.meta), SOURCE, 'chart answer without meta');
  const symbol = need(str(meta.symbol), SOURCE, 'chart meta without symbol');
  const unit = currencyUnit(meta.currency);
  const offset = num(meta.gmtoffset) ?? 0;
  const indicators = obj(result.indicators);
  const ohlc = obj(arr(indicators?.quote)[0]) ?? {};
  const adjusted = arr(obj(arr(indicators?.adjclose)[0])?.adjclose);
  const at = (series: unknown, i: number): number | undefined => {
    const n = num(arr(series)[i]);
    // Chart values are single-precision floats (129.04 arrives as 129.0399932861328): seven digits are all they hold.
    return n === undefined ? undefined : Number((n / unit.divisor).toPrecision(7));
  };
  const candles: Candle[] = [];
  const stamps = arr(result.timestamp);
  for (let i = 0; i < stamps.length; i++) {
    const startsAt = isoFromSeconds(stamps[i]);
    const close = at(ohlc.close, i);
    // Yahoo leaves a bar's values null where nothing traded (a halt, a holiday row).
    if (!startsAt || close === undefined) continue;
    candles.push(
      compact({
        startsAt,
        open: at(ohlc.open, i),
        high: at(ohlc.high, i),
        low: at(ohlc.low, i),
        close,
        adjustedClose: at(adjusted, i),
        volume: int(arr(ohlc.volume)[i]),
      }),
    );
  }
  const events = obj(result.events);
  const dividends = Object.values(obj(events?.dividends) ?? {})
    .flatMap((d) => {
      const date = num(obj(d)?.date);
      const amount = money(obj(d)?.amount, unit);
      return date !== undefined && amount ? [{ date, dividend: { exDate: exchangeDay(date, offset), amount } }] : [];
    })
    .sort((a, b) => a.date - b.date)
    .map((d) => d.dividend);
  const splits = Object.values(obj(events?.splits) ?? {})
    .flatMap((s) => {
      const o = obj(s);
      const date = num(o?.date);
      const numerator = num(o?.numerator);
      const denominator = num(o?.denominator);
      return date !== undefined && numerator && denominator
        ? [{ date, split: compact({ date: exchangeDay(date, offset), numerator, denominator, ratio: str(o?.splitRatio) }) }]
        : [];
    })
    .sort((a, b) => a.date - b.date)
    .map((s) => s.split);
  const truncated = candles.length > limit;
  return {
    symbol,
    currency: unit.code,
    exchange: str(meta.fullExchangeName) ?? str(meta.exchangeName),
    timezone: str(meta.exchangeTimezoneName),
    candles: truncated ? candles.slice(candles.length - limit) : candles,
    dividends,
    splits,
    ...(truncated ? { isTruncated: true } : {}),
  };
}

/** The quote of a search answer whose symbol is the one asked, if the search found it. */
export function searchQuote(body: unknown, symbol: string): Obj | undefined {
  return objs(obj(body)?.quotes).find((q) => str(q.symbol)?.toUpperCase() === symbol.toUpperCase());
}

/** The company module of a quoteSummary answer: assetProfile, or summaryProfile (its subset without officers). */
export function assetProfile(body: unknown): Obj {
  const result = need(obj(arr(obj(obj(body)?.quoteSummary)?.result)[0]), SOURCE, 'quoteSummary answer without a result');
  return need(obj(result.assetProfile) ?? obj(result.summaryProfile), SOURCE, 'quoteSummary answer without assetProfile');
}

/** A profile from the assetProfile module (when the crumb was granted) and the search's quote (names, exchange). */
export function normaliseProfile(symbol: string, profile: Obj | undefined, found: Obj | undefined): CompanyProfile {
  const p = profile ?? {};
  const street = [str(p.address1), str(p.address2), str(p.address3)].filter(Boolean).join(', ') || undefined;
  const city = str(p.city);
  const state = str(p.state);
  const postalCode = str(p.zip);
  const country = str(p.country);
  const full = [street, city, [state, postalCode].filter(Boolean).join(' ') || undefined, country].filter(Boolean).join(', ') || undefined;
  return compact({
    type: 'profile' as const,
    symbol: str(found?.symbol) ?? symbol,
    name: str(found?.longname) ?? str(found?.shortname) ?? str(p.name),
    instrument: instrumentOf(found?.quoteType),
    exchange: str(found?.exchDisp),
    description: str(p.longBusinessSummary) ?? str(p.description),
    sector: str(p.sectorDisp) ?? str(p.sector) ?? str(found?.sectorDisp) ?? str(found?.sector),
    industry: str(p.industryDisp) ?? str(p.industry) ?? str(found?.industryDisp) ?? str(found?.industry),
    website: str(p.website),
    investorWebsite: str(p.irWebsite),
    phone: str(p.phone),
    address: compact({ full, street, city, state, postalCode, country }),
    employees: int(p.fullTimeEmployees),
    officers: objs(p.companyOfficers)
      .slice(0, 50)
      .flatMap((o) => {
        const name = str(o.name);
        return name ? [compact({ name, title: str(o.title), yearBorn: int(o.yearBorn) })] : [];
      }),
    startedOn: str(p.startDate),
  });
}

function thumbnail(v: unknown) {
  const sizes = objs(obj(v)?.resolutions).filter((r) => str(r.url));
  const best = sizes.find((r) => r.tag === 'original') ?? sizes.sort((a, b) => (num(b.width) ?? 0) - (num(a.width) ?? 0))[0];
  return best ? compact({ url: str(best.url)!, width: int(best.width), height: int(best.height) }) : undefined;
}

/** The news of a search answer. */
export function normaliseNews(body: unknown): FinanceArticle[] {
  const news = need(Array.isArray(obj(body)?.news) ? (obj(body)!.news as unknown[]) : undefined, SOURCE, 'search answer without news');
  return objs(news).flatMap((n) => {
    const id = str(n.uuid);
    const url = str(n.link);
    const title = str(n.title);
    if (!id || !url || !title) return [];
    const kind = str(n.type)?.toUpperCase();
    return [
      compact({
        type: 'article' as const,
        id,
        url,
        title,
        publisher: str(n.publisher),
        publishedAt: isoFromSeconds(n.providerPublishTime),
        format: kind === 'VIDEO' ? ('video' as const) : kind === 'STORY' ? ('story' as const) : undefined,
        thumbnail: thumbnail(n.thumbnail),
        symbols: arr(n.relatedTickers).flatMap((t) => (str(t) ? [str(t)!] : [])),
      }),
    ];
  });
}

/** A predefined screener's list: its title, how many match in all, and the quotes of this page. */
export function normaliseScreener(body: unknown): { title?: string; total?: number; quotes: Quote[] } {
  const result = obj(arr(obj(obj(body)?.finance)?.result)[0]);
  const screen = need(result, SOURCE, 'screener answer without a result');
  const quotes = need(Array.isArray(screen.quotes) ? screen.quotes : undefined, SOURCE, 'screener answer without quotes');
  return { title: str(screen.title), total: int(screen.total), quotes: quotes.flatMap((q) => normaliseQuote(q) ?? []) };
}

/** The trending list: symbols in rank order, and when Yahoo computed it. */
export function normaliseTrending(body: unknown): { symbols: TrendingSymbol[]; updatedAt?: string } {
  const result = obj(arr(obj(obj(body)?.finance)?.result)[0]);
  const list = need(result, SOURCE, 'trending answer without a result');
  const quotes = need(Array.isArray(list.quotes) ? list.quotes : undefined, SOURCE, 'trending answer without quotes');
  const symbols = objs(quotes).flatMap((q) => (str(q.symbol) ? [str(q.symbol)!] : []));
  return { symbols: symbols.map((symbol, i) => ({ type: 'symbol' as const, symbol, rank: i + 1 })), updatedAt: isoFromMillis(list.jobTimestamp) };
}
