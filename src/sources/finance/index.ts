/**
 * The finance source, on Yahoo Finance's public JSON endpoints (keyless). Where Yahoo refuses the crumb-guarded quote
 * endpoint, quotes fall back to the crumb-free chart endpoint (`via: chart`), and profiles to the crumb-free search
 * (`via: search`); history, news and trending never need the crumb. Movers have no crumb-free source.
 */
import { FINANCE } from '../../catalogue/endpoints/finance.js';
import type { InputOf } from '../../catalogue/types.js';
import { QuarryError, isQuarryError } from '../../errors.js';
import { operation } from '../kit/operation.js';
import type { SourceContext, SourceModule } from '../types.js';
import { SCREENS, chart, failOn, quoteSummary, quotes, screener, search, trending } from './client.js';
import {
  assetProfile,
  normaliseHistory,
  normaliseNews,
  normaliseProfile,
  normaliseQuotes,
  normaliseScreener,
  normaliseTrending,
  ordered,
  quoteFromChart,
  searchQuote,
  type Quote,
} from './normalise.js';
import historySamples from './samples/history.json' with { type: 'json' };
import moversSamples from './samples/movers.json' with { type: 'json' };
import newsSamples from './samples/news.json' with { type: 'json' };
import profileSamples from './samples/profile.json' with { type: 'json' };
import quoteSamples from './samples/quote.json' with { type: 'json' };
import trendingSamples from './samples/trending.json' with { type: 'json' };

const refused = (e: unknown): boolean => isQuarryError(e) && e.code === 'sourceRefused';

/** Quotes from each symbol's chart (no crumb needed): the fallback when the quote endpoint refuses. */
async function chartQuotes(ctx: SourceContext, symbols: string[]) {
  const found = new Map<string, Quote>();
  await Promise.all(
    symbols.map(async (symbol) => {
      const answer = await chart(ctx, symbol, { range: '1d', interval: '1d', includePrePost: false });
      if (answer.status === 404) return;
      failOn(answer, 'chart', symbol);
      const q = quoteFromChart(answer.body);
      if (q) found.set(symbol.toUpperCase(), q);
    }),
  );
  return ordered(found, symbols);
}

const quote = operation(FINANCE.quote, {
  async run(input, ctx) {
    const symbols = [...new Set(input.symbols.map((s) => s.toUpperCase()))];
    let via: 'quote' | 'chart' = 'quote';
    let found: { quotes: Quote[]; unknownSymbols: string[] };
    try {
      const answer = await quotes(ctx, symbols);
      failOn(answer, 'finance', 'symbols');
      found = normaliseQuotes(answer.body, symbols);
    } catch (e) {
      if (!refused(e)) throw e;
      ctx.log.warn({ reason: (e as Error).message }, 'finance: quote endpoint refused; answering from charts');
      via = 'chart';
      found = await chartQuotes(ctx, symbols);
    }
    if (!found.quotes.length) throw new QuarryError('notFound', `symbols: no quote for ${symbols.join(', ')}`);
    return { data: { quotes: found.quotes, via, ...(found.unknownSymbols.length ? { unknownSymbols: found.unknownSymbols } : {}) } };
  },
  samples: quoteSamples,
});

/** Yahoo's names for the catalogue's windows and intervals. */
const RANGES: Record<NonNullable<InputOf<typeof FINANCE.history>['within']>, string> = {
  day: '1d',
  week: '5d',
  month: '1mo',
  threeMonths: '3mo',
  sixMonths: '6mo',
  year: '1y',
  twoYears: '2y',
  fiveYears: '5y',
  tenYears: '10y',
  yearToDate: 'ytd',
  max: 'max',
};
const INTERVALS: Record<InputOf<typeof FINANCE.history>['interval'], string> = {
  minute: '1m',
  twoMinutes: '2m',
  fiveMinutes: '5m',
  fifteenMinutes: '15m',
  thirtyMinutes: '30m',
  hour: '60m',
  day: '1d',
  week: '1wk',
  month: '1mo',
  quarter: '3mo',
};

const isDay = (s: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(s);
const unix = (ms: number): number => Math.floor(ms / 1000);

/** The chart window: a relative range, or from/to (a `to` day is inclusive: the window ends at its midnight after). */
export function historyWindow(input: InputOf<typeof FINANCE.history>, now = Date.now()): { range?: string; period1?: number; period2?: number } {
  if (input.within && (input.from || input.to)) {
    throw new QuarryError('invalidRequest', 'within: give either within or from/to, not both', { retryable: false });
  }
  if (!input.from) {
    if (input.to) throw new QuarryError('invalidRequest', 'from: required with to', { retryable: false });
    return { range: RANGES[input.within ?? 'month'] };
  }
  const period1 = unix(Date.parse(input.from));
  const period2 = input.to ? unix(Date.parse(input.to)) + (isDay(input.to) ? 86400 : 0) : unix(now);
  if (period2 <= period1) throw new QuarryError('invalidRequest', 'to: must be after from', { retryable: false });
  return { period1, period2 };
}

const history = operation(FINANCE.history, {
  async run(input, ctx) {
    const window = historyWindow(input);
    const symbol = input.symbol.toUpperCase();
    const answer = await chart(ctx, symbol, { ...window, interval: INTERVALS[input.interval], includePrePost: input.includePrePost });
    failOn(answer, 'chart', `symbol ${symbol}`);
    const h = normaliseHistory(answer.body, input.limit);
    return { data: { ...h, interval: input.interval }, ...(h.candles.length ? {} : { free: true }) };
  },
  samples: historySamples,
});

const profile = operation(FINANCE.profile, {
  async run(input, ctx) {
    const symbol = input.symbol.toUpperCase();
    let summary: ReturnType<typeof assetProfile> | undefined;
    let via: 'quoteSummary' | 'search' = 'quoteSummary';
    try {
      const answer = await quoteSummary(ctx, symbol, ['assetProfile']);
      failOn(answer, 'quoteSummary', `symbol ${symbol}`);
      summary = assetProfile(answer.body);
    } catch (e) {
      if (!refused(e)) throw e;
      ctx.log.warn({ reason: (e as Error).message }, 'finance: quoteSummary refused; profile from search');
      via = 'search';
    }
    const found = await search(ctx, symbol, 6, 0);
    failOn(found, 'finance', 'symbol');
    const match = searchQuote(found.body, symbol);
    if (!summary && !match) throw new QuarryError('notFound', `symbol: no profile for ${symbol}`);
    return { data: { profile: normaliseProfile(symbol, summary, match), via } };
  },
  samples: profileSamples,
});

const news = operation(FINANCE.news, {
  async run(input, ctx) {
    const answer = await search(ctx, input.query, 0, input.limit);
    failOn(answer, 'finance', 'query');
    const articles = normaliseNews(answer.body).slice(0, input.limit);
    return { data: { articles }, ...(articles.length ? {} : { free: true }) };
  },
  samples: newsSamples,
});

const movers = operation(FINANCE.movers, {
  async run(input, ctx) {
    const answer = await screener(ctx, SCREENS[input.list], input.limit);
    failOn(answer, 'finance', 'list');
    const screen = normaliseScreener(answer.body);
    const quotes = screen.quotes.slice(0, input.limit);
    return {
      data: { list: input.list, ...(screen.title ? { title: screen.title } : {}), ...(screen.total !== undefined ? { total: screen.total } : {}), quotes },
      ...(quotes.length ? {} : { free: true }),
    };
  },
  samples: moversSamples,
});

const trendingOp = operation(FINANCE.trending, {
  async run(input, ctx) {
    const answer = await trending(ctx, input.country, input.limit);
    failOn(answer, 'finance', 'country');
    const list = normaliseTrending(answer.body);
    const symbols = list.symbols.slice(0, input.limit);
    return { data: { country: input.country, symbols, ...(list.updatedAt ? { updatedAt: list.updatedAt } : {}) }, ...(symbols.length ? {} : { free: true }) };
  },
  samples: trendingSamples,
});

const finance: SourceModule = {
  id: 'finance',
  needs: { proxy: 'advised' },
  operations: [quote, history, profile, news, movers, trendingOp],
};

export default finance;
