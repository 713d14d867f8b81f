/**
 * finance against the Yahoo Finance recorder cassettes (shared/upstream/finance/yahoo), replayed on loopback through
 * the real upstream client: the cookie and crumb flow, every endpoint's record, the fallbacks when Yahoo refuses the
 * crumb, refusals and drift, and the gateway (billing, test mode). Every cassette is read here.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FINANCE } from '../../src/catalogue/endpoints/finance.js';
import { historyWindow } from '../../src/sources/finance/index.js';
import { currencyUnit, money, normaliseQuote } from '../../src/sources/finance/normalise.js';
import { CookieJar, splitSetCookie } from '../../src/sources/finance/cookies.js';
import { consentFields, forgetYahooSession } from '../../src/sources/finance/session.js';
import { failure } from '../helpers/failure.js';
import { cassetteFiles, cassetteRoute, errorRoute, HAVE_YAHOO, readCassette, YAHOO_SKIP, yahooRoutes } from '../helpers/finance-upstream.js';
import { startReplay, type Replay, type ReplayRoute } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';

const body = (file: string): any => JSON.parse(readCassette(file).body);
const CRUMB_STEPS = [
  'getCrumb-quote-AAPL.json',
  'getCrumb-quote-AAPL-consent.html.json',
  'consent-flow.json GET consent.yahoo.com/v2/collectConsent',
  'consent-flow.json POST consent.yahoo.com/v2/collectConsent',
  'consent-flow.json GET guce.yahoo.com/copyConsent',
  'consent-flow.json GET finance.yahoo.com/quote/AAPL',
  'getCrumb-getcrumb.json',
];

describe('finance pure parts (no recordings needed)', () => {
  it('minor currency units become ISO codes; a missing currency is XXX', () => {
    expect(money(308.8, currencyUnit('GBp'))).toEqual({ amount: 3.088, currency: 'GBP' });
    expect(money(1250, currencyUnit('ZAc'))).toEqual({ amount: 12.5, currency: 'ZAR' });
    expect(money(990, currencyUnit('ILA'))).toEqual({ amount: 9.9, currency: 'ILS' });
    expect(money(1.5, currencyUnit('usd'))).toEqual({ amount: 1.5, currency: 'USD' });
    expect(currencyUnit(undefined)).toEqual({ code: 'XXX', divisor: 1 });
    expect(money('n/a', currencyUnit('USD'))).toBeUndefined();
  });

  it('windows: within or from/to, a `to` day inclusive, nonsense refused naming the field', async () => {
    const base = { symbol: 'AAPL', interval: 'day' as const, includePrePost: false, limit: 1000 };
    expect(historyWindow(base)).toEqual({ range: '1mo' });
    expect(historyWindow({ ...base, within: 'yearToDate' })).toEqual({ range: 'ytd' });
    expect(historyWindow({ ...base, from: '2020-01-01', to: '2020-01-02' })).toEqual({ period1: 1577836800, period2: 1578009600 });
    expect(historyWindow({ ...base, from: '2020-01-01T12:00:00Z', to: '2020-01-02T00:00:00Z' })).toEqual({ period1: 1577880000, period2: 1577923200 });
    expect(historyWindow({ ...base, from: '2020-01-01' }, Date.UTC(2020, 0, 5))).toEqual({ period1: 1577836800, period2: 1578182400 });
    for (const [bad, field] of [
      [{ within: 'year', from: '2020-01-01' }, 'within'],
      [{ to: '2020-01-01' }, 'from'],
      [{ from: '2020-01-02', to: '2020-01-01T00:00:00Z' }, 'to'],
    ] as const) {
      const e = await failure(() => historyWindow({ ...base, ...bad }));
      expect(e.code).toBe('invalidRequest');
      expect(e.message.startsWith(`${field}:`)).toBe(true);
    }
  });

  it('cookies: repeated Set-Cookie headers joined by the client are split back, domains respected', () => {
    const joined = 'A=1; Expires=Tue, 17 Feb 2026 00:39:40 GMT; Domain=.yahoo.com; Path=/, B=2; Domain=consent.yahoo.com, C=3';
    expect(splitSetCookie(joined)).toHaveLength(3);
    const jar = new CookieJar();
    jar.add(joined, 'https://consent.yahoo.com/v2/collectConsent');
    jar.add('EVIL=1; Domain=example.com', 'https://finance.yahoo.com/');
    expect(jar.header('https://query1.finance.yahoo.com/v1/test/getcrumb')).toBe('A=1');
    expect(jar.header('https://consent.yahoo.com/x')).toBe('A=1; B=2; C=3');
    expect(jar.header('https://finance.yahoo.com/')).toBe('A=1');
    expect(jar.header('https://example.com/')).toBeUndefined();
  });

  it('the consent form is read by its hidden fields, entities decoded, whatever the attribute order', () => {
    const html = '<form><input value="a&amp;b" type="hidden" name="csrfToken"><input type="HIDDEN" name="sessionId" value="s 1"><input type="text" name="q" value="x"></form>';
    expect(consentFields(html)).toBe('csrfToken=a%26b&sessionId=s%201');
    expect(consentFields('<p>no form</p>')).toBeUndefined();
  });

  it('test mode answers every finance example from the committed samples', async () => {
    for (const def of Object.values(FINANCE)) {
      const out = await runSample(def.id, def.example ?? {});
      expect(Object.keys(out.data).length, def.id).toBeGreaterThan(0);
    }
    const quotes = await runSample('finance.quote', { symbols: ['AAPL'] });
    expect(quotes.data.quotes[0]).toMatchObject({ symbol: 'AAPL', price: { currency: 'USD' } });
  });
});

describe.skipIf(!HAVE_YAHOO)(`finance against the recorded Yahoo answers${YAHOO_SKIP}`, () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay({ folders: [], routes: yahooRoutes() });
    live = liveContext('finance', replay);
  });
  afterAll(async () => {
    await live?.close();
    await replay?.close();
  });
  beforeEach(() => forgetYahooSession());

  const run = (id: string, input: Record<string, unknown>) => runLive(id, input, live.ctx);
  const servedSince = (from: number) => replay.seen.slice(from).map((s) => s.answeredBy ?? `MISS ${s.method} ${s.host}${s.path}`);

  it('opens the session as a browser: quote page, consent, getcrumb; then reuses it', async () => {
    const from = replay.seen.length;
    const out = await run('finance.quote', { symbols: ['AAPL', 'BABA'] });
    const served = servedSince(from);
    expect(served.slice(0, CRUMB_STEPS.length).map((s, i) => s.includes(CRUMB_STEPS[i]))).toEqual(CRUMB_STEPS.map(() => true));
    expect(served.at(-1)).toContain('quote-AAPL-BABA.json');
    expect(replay.seen.at(-1)?.query.get('crumb')).toBe('haT3oykhHqZ');
    expect(out.data.via).toBe('quote');
    const again = replay.seen.length;
    await run('finance.quote', { symbols: ['QQQ'] });
    expect(servedSince(again)).toEqual([expect.stringContaining('quote-QQQ.json')]);
  });

  it.each([
    ['quote-AAPL.json', ['aapl'], { symbol: 'AAPL', instrument: 'equity', exchange: 'NasdaqGS', marketState: 'closed', price: { amount: 244.6, currency: 'USD' }, quotedAt: '2025-02-14T21:00:00.000Z', marketCap: { amount: 3674405863424, currency: 'USD' }, dividendYield: 0.41 }],
    ['quote-OCDO.L.json', ['OCDO.L'], { symbol: 'OCDO.L', name: 'Ocado Group plc', price: { amount: 3.088, currency: 'GBP' }, previousClose: { amount: 3.152, currency: 'GBP' }, marketCap: { amount: 2554603520, currency: 'GBP' }, eps: { amount: -0.26, currency: 'GBP' }, marketState: 'open', delayMinutes: 15 }],
    ['quote-EURUSD=X.json', ['EURUSD=X'], { symbol: 'EURUSD=X', instrument: 'currency', price: { amount: 1.0489877, currency: 'USD' } }],
    ['quote-GC=F.json', ['GC=F'], { symbol: 'GC=F', instrument: 'future', price: { amount: 2910.3, currency: 'USD' } }],
    ['quote-BTC-USD.json', ['BTC-USD'], { symbol: 'BTC-USD', instrument: 'cryptocurrency', price: { amount: 96077.45, currency: 'USD' } }],
    ['quote-QQQ.json', ['QQQ'], { symbol: 'QQQ', instrument: 'etf', name: 'Invesco QQQ Trust' }],
  ])('finance.quote %s', async (file, symbols, expected) => {
    const out = await run('finance.quote', { symbols });
    expect(out.data.quotes).toHaveLength(1);
    expect(out.data.quotes[0]).toMatchObject(expected);
    expect(body(file).quoteResponse.result[0].symbol).toBe(expected.symbol);
  });

  it('finance.quote keeps the order asked; eps in the company’s reporting currency', async () => {
    const out = await run('finance.quote', { symbols: ['AAPL', 'BABA'] });
    expect(out.data.quotes.map((q: any) => q.symbol)).toEqual(['AAPL', 'BABA']);
    expect(out.data.quotes[1]).toMatchObject({ price: { amount: 124.73, currency: 'USD' }, eps: { amount: 4.81, currency: 'CNY' } });
    expect(out.data.unknownSymbols).toBeUndefined();
  });

  it('finance.history: daily candles with the 2020 split and dividend', async () => {
    const out = await run('finance.history', { symbol: 'AAPL', from: '2020-08-31', to: '2020-11-06' });
    const raw = body('chart-AAPL-2020-08-31-to-2020-11-07.json').chart.result[0];
    expect(out.data).toMatchObject({ symbol: 'AAPL', currency: 'USD', interval: 'day', exchange: 'NasdaqGS', timezone: 'America/New_York' });
    expect(out.data.candles).toHaveLength(raw.timestamp.length);
    expect(out.items).toBe(raw.timestamp.length);
    expect(out.data.candles[0]).toEqual({ startsAt: '2020-08-31T13:30:00.000Z', open: 127.58, high: 131, low: 126, close: 129.04, adjustedClose: 125.8267, volume: 225702700 });
    expect(out.data.splits).toEqual([{ date: '2020-08-31', numerator: 4, denominator: 1, ratio: '4:1' }]);
    expect(out.data.dividends).toEqual([{ exDate: '2020-11-06', amount: { amount: 0.205, currency: 'USD' } }]);
  });

  it.each([
    ['chart-BTC-USD-2020-01-01-to-2020-01-03.json', { symbol: 'BTC-USD', from: '2020-01-01', to: '2020-01-02' }, 'USD', 3, 7200.174],
    ['chart-EURUSD=X-2020-01-01-to-2020-01-03.json', { symbol: 'EURUSD=X', from: '2020-01-01', to: '2020-01-02' }, 'USD', 3, 1.122083],
    ['chart-OCDO.L-2020-01-01-to-2020-01-03.json', { symbol: 'OCDO.L', from: '2020-01-01', to: '2020-01-02' }, 'GBP', 1, 12.595],
    ['chart-WSU.DE-2023-08-04-to-2023-08-09.json', { symbol: 'WSU.DE', from: '2023-08-04', to: '2023-08-08' }, 'EUR', 3, 34.45],
    ['chart-AAPL.json', { symbol: 'AAPL', from: '2022-02-22', to: '2022-02-22' }, 'USD', 1, 164.32],
  ])('finance.history %s', async (file, input, currency, count, firstClose) => {
    const out = await run('finance.history', input);
    expect(out.data.currency).toBe(currency);
    expect(out.data.candles).toHaveLength(count);
    expect(out.data.candles[0].close).toBe(firstClose);
    expect(replay.served().at(-1)).toContain(file);
  });

  it('finance.history: a day with no trading answers no candles, free; limit keeps the latest', async () => {
    const weekend = await run('finance.history', { symbol: 'AAPL', from: '2025-02-01', to: '2025-02-01', interval: 'minute' });
    expect(replay.served().at(-1)).toContain('chart-AAPL-2025-02-01-to-2025-02-02-includePrePost-false-interval-1m.json');
    expect(replay.seen.at(-1)?.query.get('includePrePost')).toBe('false');
    expect(weekend.data.candles).toEqual([]);
    expect(weekend.free).toBe(true);
    const cut = await run('finance.history', { symbol: 'AAPL', from: '2020-08-31', to: '2020-11-06', limit: 2 });
    expect(cut.data.candles.map((c: any) => c.startsAt.slice(0, 10))).toEqual(['2020-11-05', '2020-11-06']);
    expect(cut.data.isTruncated).toBe(true);
  });

  it.each([
    ['AAPL', { name: 'Apple Inc.', exchange: 'NASDAQ', sector: 'Technology', industry: 'Consumer Electronics', employees: 150000, website: 'https://www.apple.com', address: { street: 'One Apple Park Way', city: 'Cupertino', state: 'CA', postalCode: '95014', country: 'United States' } }],
    ['OCDO.L', { name: 'Ocado Group plc', exchange: 'London', sector: 'Consumer Defensive', address: { city: 'Hatfield', country: 'United Kingdom' } }],
    ['BTC-USD', { name: 'Bitcoin USD', instrument: 'cryptocurrency', startedOn: '2010-07-13' }],
  ])('finance.profile %s (quoteSummary assetProfile + search)', async (symbol, expected) => {
    const out = await run('finance.profile', { symbol });
    expect(out.data.via).toBe('quoteSummary');
    expect(out.data.profile).toMatchObject({ type: 'profile', symbol, ...expected });
    expect(out.data.profile.description).toBeTruthy();
  });

  it('finance.profile lists officers by name and title', async () => {
    const out = await run('finance.profile', { symbol: 'AAPL' });
    expect(out.data.profile.officers[0]).toEqual({ name: 'Mr. Timothy D. Cook', title: 'CEO & Director', yearBorn: 1961 });
  });

  it.each([
    ['AAPL', 'search-AAPL.json'],
    ['BTC-USD', 'search-BTC-USD.json'],
    ['OCDO.L', 'search-OCDO.L.json'],
  ])('finance.news %s', async (query, file) => {
    const out = await run('finance.news', { query, limit: 3 });
    const news = body(file).news;
    expect(out.data.articles).toHaveLength(Math.min(3, news.length));
    expect(out.data.articles[0]).toMatchObject({ type: 'article', id: news[0].uuid, url: news[0].link, title: news[0].title, publisher: news[0].publisher });
    expect(out.data.articles[0].publishedAt).toBe(new Date(news[0].providerPublishTime * 1000).toISOString());
  });

  it.each([
    ['gainers', 'dailyGainers.json', 'Day Gainers'],
    ['losers', 'dailyLosers.json', 'Day Losers'],
  ])('finance.movers %s', async (list, file, title) => {
    const out = await run('finance.movers', { list, limit: 25 });
    const raw = body(file).finance.result[0];
    expect(out.data).toMatchObject({ list, title, total: raw.total });
    expect(out.data.quotes.map((q: any) => q.symbol)).toEqual(raw.quotes.map((q: any) => q.symbol));
  });

  it('finance.trending us', async () => {
    const out = await run('finance.trending', { country: 'US', limit: 3 });
    expect(replay.seen.at(-1)?.path).toBe('/v1/finance/trending/US');
    expect(out.data).toEqual({
      country: 'us',
      symbols: [
        { type: 'symbol', symbol: 'BTC-USD', rank: 1 },
        { type: 'symbol', symbol: 'PLTR', rank: 2 },
        { type: 'symbol', symbol: 'MSTR', rank: 3 },
      ],
      updatedAt: '2025-02-25T11:07:00.968Z',
    });
  });

  it('quoteSummary’s other modules: summaryProfile reads as a profile; price reads as a quote; summaryDetail gives yields as fractions', () => {
    const summary = body('quoteSummary-summaryProfile-AAPL.json').quoteSummary.result[0].summaryProfile;
    expect(summary).toMatchObject({ city: 'Cupertino', sector: 'Technology', fullTimeEmployees: 150000 });
    const price = normaliseQuote(body('quoteSummary-price-AAPL.json').quoteSummary.result[0].price);
    expect(price).toMatchObject({ symbol: 'AAPL', price: { amount: 245.55, currency: 'USD' }, marketState: 'preMarket', preMarket: { price: { amount: 245.24 } } });
    // The quote record's dividendYield is the v7 quote's percent (0.41), not summaryDetail's fraction (0.0041).
    expect(body('quoteSummary-summaryDetail-AAPL.json').quoteSummary.result[0].summaryDetail.dividendYield).toBe(0.0041);
    expect(body('quote-AAPL.json').quoteResponse.result[0].dividendYield).toBe(0.41);
  });

  it('every finance cassette is one of the routes this suite serves', () => {
    const names = yahooRoutes().map((r) => r.name ?? '');
    for (const f of cassetteFiles()) expect(names.some((n) => n.includes(`/${f} `)), f).toBe(true);
  });
});

describe.skipIf(!HAVE_YAHOO)(`finance when Yahoo refuses or drifts${YAHOO_SKIP}`, () => {
  let replay: Replay | undefined;
  let live: LiveContext | undefined;
  const start = async (extra: ReplayRoute[]) => {
    forgetYahooSession();
    replay = await startReplay({ folders: [], routes: yahooRoutes(extra) });
    live = liveContext('finance', replay);
    return (id: string, input: Record<string, unknown>) => runLive(id, input, live!.ctx);
  };
  afterEach(async () => {
    await live?.close();
    await replay?.close();
    forgetYahooSession();
  });

  const chartFor = (symbol: string, file: string): ReplayRoute => ({
    ...cassetteRoute(file, { query: { range: '1d', interval: '1d' } }),
    path: `/v8/finance/chart/${symbol}`,
  });
  const crumbRefused: ReplayRoute = { method: 'GET', host: 'query1.finance.yahoo.com', path: '/v1/test/getcrumb', status: 401, text: '' };

  it('no crumb: quotes come from the charts (via chart), profiles from the search (via search)', async () => {
    const run = await start([crumbRefused, chartFor('AAPL', 'chart-AAPL.json'), chartFor('OCDO.L', 'chart-OCDO.L-2020-01-01-to-2020-01-03.json')]);
    const out = await run('finance.quote', { symbols: ['AAPL', 'OCDO.L'] });
    expect(out.data.via).toBe('chart');
    expect(out.data.quotes[0]).toMatchObject({ symbol: 'AAPL', name: 'Apple Inc.', price: { amount: 220.003, currency: 'USD' }, dayHigh: { amount: 221.021 }, yearLow: { amount: 164.08 }, volume: 5800260, quotedAt: '2025-03-24T13:51:33.000Z' });
    // The chart's own first close is no previous close: none is stated, so none is answered.
    expect(out.data.quotes[0].previousClose).toBeUndefined();
    expect(out.data.quotes[1]).toMatchObject({ symbol: 'OCDO.L', price: { currency: 'GBP' } });
    const profile = await run('finance.profile', { symbol: 'AAPL' });
    expect(profile.data).toMatchObject({ via: 'search', profile: { name: 'Apple Inc.', sector: 'Technology', industry: 'Consumer Electronics', exchange: 'NASDAQ' } });
    expect(profile.data.profile.address).toBeUndefined();
  });

  it('a rejected crumb is replaced once; rejected again, quotes fall back to the charts', async () => {
    const run = await start([
      errorRoute('invalidCrumb', { method: 'GET', host: 'query2.finance.yahoo.com', path: '/v7/finance/quote' }),
      chartFor('AAPL', 'chart-AAPL.json'),
    ]);
    const out = await run('finance.quote', { symbols: ['AAPL'] });
    expect(replay!.seen.filter((s) => s.path === '/v1/test/getcrumb')).toHaveLength(2);
    expect(replay!.seen.filter((s) => s.path === '/v7/finance/quote')).toHaveLength(2);
    expect(out.data.via).toBe('chart');
  });

  it('movers have no crumb-free source: a refused crumb is sourceRefused, never an empty list', async () => {
    const run = await start([crumbRefused]);
    const e = await failure(run('finance.movers', { list: 'gainers' }));
    expect(e.code).toBe('sourceRefused');
  });

  it('unknown symbols: notFound, or listed apart when others were found', async () => {
    const run = await start([
      { ...cassetteRoute('quote-AAPL.json'), query: { symbols: 'AAPL,NOSUCH' } },
      errorRoute('chartNotFound', { method: 'GET', host: 'query2.finance.yahoo.com', path: '/v8/finance/chart/NOSUCH' }),
      errorRoute('quoteSummaryNotFound', { method: 'GET', host: 'query2.finance.yahoo.com', path: '/v10/finance/quoteSummary/NOSUCH' }),
      errorRoute('chartBadRange', { method: 'GET', host: 'query2.finance.yahoo.com', path: '/v8/finance/chart/MSFT' }),
    ]);
    const some = await run('finance.quote', { symbols: ['AAPL', 'NOSUCH'] });
    expect(some.data.unknownSymbols).toEqual(['NOSUCH']);
    expect((await failure(run('finance.history', { symbol: 'NOSUCH' }))).code).toBe('notFound');
    expect((await failure(run('finance.profile', { symbol: 'NOSUCH' }))).code).toBe('notFound');
    const range = await failure(run('finance.history', { symbol: 'MSFT', interval: 'minute', within: 'year' }));
    expect(range.code).toBe('invalidRequest');
    expect(range.message).toContain('within the last 30 days');
  });

  it('a quote that lost its price is drift (sourceChanged), not an unknown symbol', async () => {
    const run = await start([cassetteRoute('quote-QQQ.json', { rewrite: (b) => b.replace('"regularMarketPrice"', '"lastPrice"') })]);
    expect((await failure(run('finance.quote', { symbols: ['QQQ'] }))).code).toBe('sourceChanged');
  });
});

describe.skipIf(!HAVE_YAHOO)(`finance through the gateway${YAHOO_SKIP}`, () => {
  // The Yahoo session (cookie and crumb) is kept per process: none from the tests before, none left after.
  beforeAll(() => forgetYahooSession());
  afterAll(() => forgetYahooSession());
  const g = useSourceGateway(() => ({
    replay: {
      folders: [],
      routes: yahooRoutes([
        // A drifted history: the chart lost its meta's symbol.
        cassetteRoute('chart-WSU.DE-2023-08-04-to-2023-08-09.json', { rewrite: (b) => b.replace('"symbol":"WSU.DE",', '') }),
        // A walled screener: Yahoo's 403 block.
        { method: 'GET', host: 'query2.finance.yahoo.com', path: '/v1/finance/screener/predefined/saved', query: { scrIds: 'day_losers' }, status: 403, text: '<html>blocked</html>', headers: { 'content-type': 'text/html' } },
      ]),
    },
  }));

  it('live quote: 200, one credit for two symbols', async () => {
    const before = await g.balance();
    const r = await g.post('/v1/finance/quote', { symbols: ['AAPL', 'BABA'] });
    expect(r.status).toBe(200);
    expect(r.json.creditsUsed).toBe(1);
    expect(r.json.data.quotes).toHaveLength(2);
    expect(await g.balance()).toBe(before - 1);
  });

  it('live history: priced per 500 candles returned (49 → 1 credit, though 10 were reserved for limit 5000)', async () => {
    const before = await g.balance();
    const r = await g.post('/v1/finance/history', { symbol: 'AAPL', from: '2020-08-31', to: '2020-11-06', limit: 5000 });
    expect(r.status).toBe(200);
    expect(r.json.data.candles).toHaveLength(49);
    expect(r.json.creditsUsed).toBe(1);
    expect(await g.balance()).toBe(before - 1);
  });

  it('test mode: every example answers from the samples, never upstream, balance untouched', async () => {
    await g.expectTestMode(() => g.expectExamples(Object.values(FINANCE), (r, def) => expect(r.json.creditsUsed, def.id).toBeGreaterThanOrEqual(0)));
  });

  it('drift: a chart without its symbol is 502 sourceChanged, unbilled', async () => {
    await g.expectDrift('/v1/finance/history', { symbol: 'WSU.DE', from: '2023-08-04', to: '2023-08-08' });
  });

  it('a walled upstream is 502 sourceRefused, unbilled', async () => {
    await g.expectRefused('/v1/finance/movers', { list: 'losers' });
  });

  it('bad input is a 400 naming the field', async () => {
    const r = await g.expectFailure('/v1/finance/quote', { symbols: [] }, { status: 400 });
    expect(r.json.error.message).toContain('symbols');
    const h = await g.expectFailure('/v1/finance/history', { symbol: 'AAPL', within: 'year', from: '2020-01-01' }, { status: 400 });
    expect(h.json.error.message).toMatch(/^within:/);
  });
});
