/**
 * web.search and web.news against the recorded answers (shared/upstream/web): SearXNG JSON, the Brave Search API,
 * DuckDuckGo (a result page and its bot check), Bing and Mojeek result pages, Google News' RSS and three publishers'
 * feeds (RSS in UTF-8 and Latin-1, Atom). Every one is read here. Also: backends from the operator's settings and
 * `sourceUnavailable` without one, the filters, fallbacks, and the gateway (keyless limits, billing, test mode).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB } from '../../src/catalogue/endpoints/web.js';
import { decodeFeed, feedDate, readFeed } from '../../src/sources/web/search/feed.js';
import { bareDomain, keep, siteTerms } from '../../src/sources/web/search/filters.js';
import { newsBackends, searchBackends } from '../../src/sources/web/search/index.js';
import { googleLocale, googleNewsUrl, queryWords } from '../../src/sources/web/search/news.js';
import { searxngLanguage } from '../../src/sources/web/search/searxng.js';
import { failure } from '../helpers/failure.js';
import { post, startGateway, type TestGateway } from '../helpers/gateway.js';
import { haveRecordings, readRecording, readRecordingJson, skipReason, startReplay, UPSTREAM_DIR, type Replay, type ReplayRoute } from '../helpers/replay.js';
import { liveContext, runLive, runSample } from '../helpers/source-kit.js';

const SEARXNG = 'searxng.internal.test';
const SEARXNG_FILE = 'web/search/searxng/search-json.general.json';
const DDG_HTML = 'web/search/duckduckgo/html.q-does-caffeine-affect-sleep.html';
const DDG_CHALLENGE = 'web/search/duckduckgo/lite.anomaly-challenge.q-does-caffeine-affect-sleep.html';
const NEWS_FILE = 'web/news/google-news/rss-search.q-caffeine-sleep.xml';
const FEEDS = {
  guardian: 'https://www.theguardian.com/us/rss',
  uol: 'https://rss.uol.com.br/feed/noticias.xml',
  heise: 'https://www.heise.de/developer/rss/news-atom.xml',
};
const HAVE = haveRecordings('web/search') && haveRecordings('web/news') && haveRecordings('web/rss');
const SKIP = skipReason('web/search') || skipReason('web/news') || skipReason('web/rss');

const searxngRoute = (file = SEARXNG_FILE): ReplayRoute => ({ method: 'GET', host: SEARXNG, path: '/search', file });
const feedRoutes: ReplayRoute[] = [
  { method: 'GET', host: 'www.theguardian.com', path: '/us/rss', file: 'web/rss/guardian.rss' },
  // The README names the UOL feed without its address; this one stands for it in the test.
  { method: 'GET', host: 'rss.uol.com.br', path: '/feed/noticias.xml', file: 'web/rss/uolNoticias.rss' },
  { method: 'GET', host: 'www.heise.de', path: '/developer/rss/news-atom.xml', file: 'web/rss/heise.atom' },
];

/** A replay of the web recordings (sidecars) plus routes, and a runner with these operator settings. */
async function webReplay(settings: Record<string, string>, routes: ReplayRoute[] = []) {
  const replay = await startReplay({ folders: ['web/search', 'web/news'], routes });
  const live = liveContext('web', replay, settings, [SEARXNG]);
  return {
    replay,
    run: (id: string, input: Record<string, unknown>) => runLive(id, input, live.ctx),
    close: async () => {
      await live.close();
      await replay.close();
    },
  };
}

describe('web.search and web.news without recordings', () => {
  it('no backend configured: sourceUnavailable saying what to set, not retryable', async () => {
    const s = await failure(() => searchBackends({}));
    expect(s).toMatchObject({ code: 'sourceUnavailable', retryable: false });
    expect(s.message).toContain('QUARRY_WEB_SEARXNG_URL');
    expect(s.message).toContain('QUARRY_WEB_BRAVE_API_KEY');
    const n = await failure(() => newsBackends({}));
    expect(n.message).toContain('QUARRY_WEB_NEWS_FEEDS');
    expect((await failure(() => searchBackends({ SEARCH_BACKENDS: 'google' }))).message).toContain('QUARRY_WEB_SEARCH_BACKENDS names google');
    expect((await failure(() => searchBackends({ SEARCH_BACKENDS: 'brave' }))).message).toContain('QUARRY_WEB_BRAVE_API_KEY');
    expect((await failure(() => newsBackends({ NEWS_FEEDS: 'file:///etc/passwd' }))).message).toContain('not an http(s) address');
  });

  it('backends: SearXNG by default when configured, then Brave; HTML engines and Google News only when listed', () => {
    expect(searchBackends({ SEARXNG_URL: 'http://s', BRAVE_API_KEY: 'k' })).toEqual(['searxng', 'brave']);
    expect(searchBackends({ BRAVE_API_KEY: 'k' })).toEqual(['brave']);
    expect(searchBackends({ SEARCH_BACKENDS: 'DuckDuckGo, mojeek' })).toEqual(['duckduckgo', 'mojeek']);
    expect(newsBackends({ SEARXNG_URL: 'http://s', NEWS_FEEDS: 'https://a/feed' })).toEqual(['searxng', 'feeds']);
    expect(newsBackends({ NEWS_BACKENDS: 'google-news' })).toEqual(['google-news']);
  });

  it('filters: site terms, domains by suffix, dates inclusive, undated results only where the backend applied the window', () => {
    expect(siteTerms({ includeDomains: ['https://www.Example.com/x'], excludeDomains: ['spam.org'] })).toBe('site:example.com -site:spam.org');
    expect(siteTerms({ includeDomains: ['a.com', 'b.org'] })).toBe('(site:a.com OR site:b.org)');
    expect(bareDomain('WWW.BBC.co.uk.')).toBe('bbc.co.uk');
    const items = [
      { url: 'https://news.example.com/a', publishedAt: '2026-01-02T10:00:00Z' },
      { url: 'https://example.com/b' },
      { url: 'https://other.org/c', publishedAt: '2026-01-03T23:59:00Z' },
      { url: 'https://news.example.com/a#dup', publishedAt: '2026-01-02T10:00:00Z' },
    ];
    expect(keep(items, { includeDomains: ['example.com'], within: 'all' }, { windowApplied: true }).map((i) => i.url)).toEqual([items[0].url, items[1].url]);
    expect(keep(items, { from: '2026-01-03', to: '2026-01-03', within: 'all' }, { windowApplied: true }).map((i) => i.url)).toEqual([items[2].url]);
    const now = Date.parse('2026-01-03T12:00:00Z');
    expect(keep(items, { within: 'day', excludeDomains: ['other.org'] }, { windowApplied: true, now }).map((i) => i.url)).toEqual([items[1].url]);
    expect(keep(items, { within: 'week' }, { windowApplied: false, now }).map((i) => i.url)).toEqual([items[0].url, items[2].url]);
  });

  it('Google News addresses: search with operators, topic sections, top stories, and the locale', () => {
    expect(googleLocale()).toEqual(new URLSearchParams({ hl: 'en-US', gl: 'US', ceid: 'US:en' }));
    expect(googleLocale('de', 'de')).toEqual(new URLSearchParams({ hl: 'de-DE', gl: 'DE', ceid: 'DE:de' }));
    expect(googleLocale('br', 'pt-br')).toEqual(new URLSearchParams({ hl: 'pt-BR', gl: 'BR', ceid: 'BR:pt' }));
    const now = Date.parse('2026-07-26T00:00:00Z');
    const search = new URL(googleNewsUrl({ query: 'chips', includeDomains: ['reuters.com'], from: '2026-07-01', to: '2026-07-10', within: 'week' }, now));
    expect(search.pathname).toBe('/rss/search');
    expect(search.searchParams.get('q')).toBe('chips site:reuters.com after:2026-07-01 before:2026-07-11 when:7d');
    expect(new URL(googleNewsUrl({ query: 'chips', within: 'year' }, now)).searchParams.get('q')).toBe('chips after:2025-07-25');
    expect(new URL(googleNewsUrl({ topic: 'business', within: 'all' })).pathname).toBe('/rss/headlines/section/topic/BUSINESS');
    expect(new URL(googleNewsUrl({ within: 'all' })).pathname).toBe('/rss');
  });

  it('SearXNG language, query words, feed dates in other languages', () => {
    expect(searxngLanguage('en', 'us')).toBe('en-US');
    expect(searxngLanguage('pt-br')).toBe('pt-br');
    expect(searxngLanguage(undefined, 'us')).toBeUndefined();
    expect(queryWords('Caffeine "sleep debt"  study')).toEqual(['caffeine', 'sleep debt', 'study']);
    expect(feedDate('Seg, 24 Set 2018 19:42:40 -0300')).toBe('2018-09-24T22:42:40.000Z');
    expect(feedDate('Wed, 31 Jan 2018 20:15:15 GMT')).toBe('2018-01-31T20:15:15.000Z');
    expect(feedDate('soon')).toBeUndefined();
  });

  it('test mode answers both examples from the samples', async () => {
    const s = await runSample('web.search', WEB.search.example!);
    expect(s.data).toMatchObject({ backend: 'searxng', results: expect.any(Array) });
    const n = await runSample('web.news', WEB.news.example!);
    expect(n.data.articles).toHaveLength(20);
  });
});

describe.skipIf(!HAVE)(`web.search against the recorded answers${SKIP}`, () => {
  let w: Awaited<ReturnType<typeof webReplay>>;
  beforeAll(async () => {
    w = await webReplay({ SEARXNG_URL: `https://${SEARXNG}/`, BRAVE_API_KEY: 'test-key' }, [searxngRoute()]);
  });
  afterAll(() => w?.close());

  it('SearXNG: ranked results with domain and engines; language, time range and category asked', async () => {
    const out = await w.run('web.search', { query: 'severance', language: 'en', country: 'us', within: 'month' });
    const raw = readRecordingJson(SEARXNG_FILE).results;
    expect(out.data.backend).toBe('searxng');
    expect(out.data.results).toHaveLength(raw.length);
    expect(out.data.results[0]).toMatchObject({ type: 'result', position: 1, url: raw[0].url, title: raw[0].title, snippet: raw[0].content, domain: 'reddit.com', engines: ['google cse'] });
    expect(out.data.results.map((r: any) => r.position)).toEqual(raw.map((_: unknown, i: number) => i + 1));
    const first = w.replay.seen.find((s) => s.host === SEARXNG)!;
    expect(Object.fromEntries(first.query)).toMatchObject({ q: 'severance', format: 'json', pageno: '1', categories: 'general', language: 'en-US', time_range: 'month' });
    // The recording answers every page the same: the second page brings nothing new and paging stops there.
    expect(w.replay.seen.filter((s) => s.host === SEARXNG).length).toBeLessThanOrEqual(2);
  });

  it('SearXNG: domain filters are asked as site: terms and checked on what came back', async () => {
    const out = await w.run('web.search', { query: 'severance', includeDomains: ['tvguide.com'] });
    expect(w.replay.seen.at(-1)!.query.get('q')).toBe('severance site:tvguide.com');
    expect(out.data.results.map((r: any) => r.domain)).toEqual(['tvguide.com']);
    const without = await w.run('web.search', { query: 'severance', excludeDomains: ['reddit.com'] });
    expect(without.data.results.some((r: any) => r.domain === 'reddit.com')).toBe(false);
  });

  it('SearXNG: dated filters drop the undated (the recording has no dates): an empty answer, free', async () => {
    const out = await w.run('web.search', { query: 'severance', from: '2025-01-01' });
    expect(out.data.results).toEqual([]);
    expect(out.free).toBe(true);
  });

  it.each([
    ['Laravel', 'web/search/brave/web-search.q-laravel.json', 'Laravel - The PHP Framework For Web Artisans', 'laravel.com'],
    ['Laravel+news', 'web/search/brave/web-search.q-laravel-news.json', 'Laravel News', 'laravel-news.com'],
  ])('Brave %s (the only backend configured)', async (query, file, title, domain) => {
    const b = await webReplay({ BRAVE_API_KEY: 'test-key' });
    try {
      const brave = await b.run('web.search', { query, limit: 20, country: 'us', language: 'en' });
      expect(b.replay.served()).toContain(file);
      const raw = readRecordingJson(file).web.results;
      expect(brave.data.backend).toBe('brave');
      expect(brave.data.results).toHaveLength(raw.length);
      expect(brave.data.results[0]).toMatchObject({ position: 1, title, domain, url: raw[0].url });
      expect(brave.data.results[0].snippet).not.toContain('<strong>');
      const q = b.replay.seen[0].query;
      expect(Object.fromEntries(q)).toMatchObject({ q: query, count: '20', offset: '0', country: 'us', search_lang: 'en', result_filter: 'web' });
      // Within a week of now (years after the recording): Brave is asked for `pw`, and the old dated results are dropped.
      const week = await b.run('web.search', { query, within: 'week' });
      expect(b.replay.seen.at(-1)!.query.get('freshness')).toBe('pw');
      expect(week.data.results.every((r: any) => r.publishedAt === undefined)).toBe(true);
    } finally {
      await b.close();
    }
  });

  it('Brave: page_age read as UTC; an explicit span becomes its freshness range; a refused key names the setting', async () => {
    const b = await webReplay({ BRAVE_API_KEY: 'test-key' }, [
      { method: 'GET', host: 'api.search.brave.com', path: '/res/v1/web/search', query: { q: 'refused' }, status: 401, text: '{"type":"ErrorResponse"}' },
    ]);
    try {
      const out = await b.run('web.search', { query: 'Laravel', from: '2024-03-27', to: '2024-03-28' });
      expect(b.replay.seen[0].query.get('freshness')).toBe('2024-03-27to2024-03-28');
      expect(out.data.results.map((r: any) => r.publishedAt)).toEqual(['2024-03-27T15:31:02.000Z', '2024-03-28T19:35:02.000Z']);
      const e = await failure(b.run('web.search', { query: 'refused' }));
      expect(e).toMatchObject({ code: 'sourceUnavailable', retryable: false });
      expect(e.message).toContain('QUARRY_WEB_BRAVE_API_KEY');
    } finally {
      await b.close();
    }
  });

  it('DuckDuckGo (opted in): the result page, redirect links unwrapped, dates read', async () => {
    const d = await webReplay({ SEARCH_BACKENDS: 'duckduckgo' });
    try {
      await d.run('web.search', { query: 'does caffeine affect sleep', country: 'gb', within: 'year' });
      expect(Object.fromEntries(d.replay.seen[0].query)).toMatchObject({ q: 'does caffeine affect sleep', kl: 'uk-en', df: 'y' });
      const out = await d.run('web.search', { query: 'does caffeine affect sleep' });
      expect(d.replay.served()).toEqual([DDG_HTML, DDG_HTML]);
      expect(out.data.backend).toBe('duckduckgo');
      // The recorded page holds nine results.
      expect(out.data.results).toHaveLength(9);
      expect(out.data.results[0]).toMatchObject({
        url: 'https://www.sleepfoundation.org/nutrition/caffeine-and-sleep',
        title: 'Caffeine and Sleep Problems',
        domain: 'sleepfoundation.org',
        publishedAt: '2025-07-16T00:00:00.000Z',
      });
      expect(out.data.results[0].snippet).toMatch(/^Drinking caffeine too close to bedtime/);
      expect(out.data.results.every((r: any) => !r.url.includes('duckduckgo.com'))).toBe(true);
    } finally {
      await d.close();
    }
  });

  it('DuckDuckGo’s bot check is sourceRefused, never an empty result; the next listed backend answers instead', async () => {
    // The recorded challenge came from DuckDuckGo Lite; the HTML endpoint serves the same anomaly challenge.
    const challenge: ReplayRoute = { method: 'GET', host: 'html.duckduckgo.com', path: '/html/', file: DDG_CHALLENGE };
    const only = await webReplay({ SEARCH_BACKENDS: 'duckduckgo' }, [challenge]);
    try {
      expect((await failure(only.run('web.search', { query: 'does caffeine affect sleep' }))).code).toBe('sourceRefused');
    } finally {
      await only.close();
    }
    const chain = await webReplay({ SEARCH_BACKENDS: 'duckduckgo,mojeek' }, [challenge]);
    try {
      const out = await chain.run('web.search', { query: 'javascript tutorial' });
      expect(out.data.backend).toBe('mojeek');
      expect(chain.replay.served()).toEqual([DDG_CHALLENGE, 'web/search/mojeek/search.q-javascript-tutorial.html']);
    } finally {
      await chain.close();
    }
    // The Lite page at its own address is the same challenge.
    expect(readRecording(DDG_CHALLENGE)).toContain('anomaly.js?sv=lite&amp;cc=botnet');
  });

  it('Bing (opted in): links unpacked from its click-tracking addresses, dates split off the snippet', async () => {
    const b = await webReplay({ SEARCH_BACKENDS: 'bing' });
    try {
      const out = await b.run('web.search', { query: 'does caffeine affect sleep', country: 'us', language: 'en' });
      expect(Object.fromEntries(b.replay.seen[0].query)).toMatchObject({ cc: 'US', setlang: 'en' });
      expect(out.data.results).toHaveLength(10);
      expect(out.data.results[0]).toMatchObject({
        url: 'https://www.sleepfoundation.org/nutrition/caffeine-and-sleep',
        title: 'Caffeine and Sleep Problems',
        publishedAt: '2025-07-16T00:00:00.000Z',
      });
      expect(out.data.results[0].snippet).toMatch(/^Drinking caffeine too close/);
      expect(out.data.results.every((r: any) => !r.url.includes('bing.com/ck/'))).toBe(true);
    } finally {
      await b.close();
    }
  });

  it('Mojeek (opted in): its standard results', async () => {
    const m = await webReplay({ SEARCH_BACKENDS: 'mojeek' });
    try {
      const out = await m.run('web.search', { query: 'javascript tutorial' });
      expect(out.data.results).toHaveLength(10);
      expect(out.data.results[0]).toMatchObject({ url: 'https://javascript.info/', title: 'The Modern JavaScript Tutorial', domain: 'javascript.info' });
      expect(out.data.results[0].snippet).toMatch(/^The Modern JavaScript Tutorial \.\.\. Main course/);
      // An engine that cannot apply the window itself has its undated results dropped.
      expect((await m.run('web.search', { query: 'javascript tutorial', within: 'week' })).data.results).toEqual([]);
    } finally {
      await m.close();
    }
  });

  it('SearXNG with every engine down and no result is an outage, not an empty answer', async () => {
    const down = await webReplay({ SEARXNG_URL: `https://${SEARXNG}` }, [searxngRoute()]);
    down.replay.mutate = (name, body) => (name === SEARXNG_FILE ? JSON.stringify({ ...JSON.parse(body), results: [] }) : body);
    try {
      const e = await failure(down.run('web.search', { query: 'anything' }));
      expect(e.code).toBe('sourceUnavailable');
      expect(e.message).toContain('duckduckgo: CAPTCHA');
    } finally {
      await down.close();
    }
  });
});

describe.skipIf(!HAVE)(`web.news against the recorded feeds${SKIP}`, () => {
  it('Google News (listed): headlines without the publisher suffix, publisher, date; limit honoured', async () => {
    const g = await webReplay({ NEWS_BACKENDS: 'google-news' });
    try {
      const out = await g.run('web.news', { query: 'caffeine sleep', limit: 5 });
      expect(g.replay.served()).toEqual([NEWS_FILE]);
      expect(Object.fromEntries(g.replay.seen[0].query)).toMatchObject({ q: 'caffeine sleep', hl: 'en-US', gl: 'US', ceid: 'US:en' });
      expect(out.data.backend).toBe('google-news');
      expect(out.data.articles).toHaveLength(5);
      expect(out.data.articles[0]).toMatchObject({
        type: 'article',
        title: 'Caffeine reversed memory problems caused by sleep deprivation',
        source: { name: 'ScienceDaily', url: 'https://www.sciencedaily.com', domain: 'sciencedaily.com' },
        publishedAt: '2026-05-30T07:00:00.000Z',
        language: 'en-US',
      });
      expect(out.data.articles[0].url).toMatch(/^https:\/\/news\.google\.com\/rss\/articles\//);
      expect(out.items).toBe(5);
      const all = await g.run('web.news', { query: 'caffeine sleep', limit: 100 });
      expect(all.data.articles).toHaveLength(readFeed(readRecording(NEWS_FILE))!.items.length);
    } finally {
      await g.close();
    }
  });

  it('Google News: operators asked, publishers and dates checked on the items', async () => {
    const g = await webReplay({ NEWS_BACKENDS: 'google-news' }, [{ method: 'GET', host: 'news.google.com', path: '/rss/search', file: NEWS_FILE }]);
    try {
      const out = await g.run('web.news', { query: 'caffeine', excludeDomains: ['sciencedaily.com'], from: '2026-05-27', to: '2026-05-27', limit: 100 });
      expect(g.replay.seen[0].query.get('q')).toBe('caffeine -site:sciencedaily.com after:2026-05-27 before:2026-05-28');
      expect(out.data.articles.length).toBeGreaterThan(0);
      for (const a of out.data.articles) {
        expect(a.publishedAt.slice(0, 10)).toBe('2026-05-27');
        expect(a.source.domain).not.toBe('sciencedaily.com');
      }
    } finally {
      await g.close();
    }
  });

  it('Google News topic section: the path asked (answered here by the recorded feed, the same RSS format)', async () => {
    const g = await webReplay({ NEWS_BACKENDS: 'google-news' }, [{ method: 'GET', host: 'news.google.com', path: '/rss/headlines/section/topic/SCIENCE', file: NEWS_FILE }]);
    try {
      const out = await g.run('web.news', { topic: 'science', country: 'gb', language: 'en', limit: 3 });
      expect(g.replay.seen[0].path).toBe('/rss/headlines/section/topic/SCIENCE');
      expect(Object.fromEntries(g.replay.seen[0].query)).toEqual({ hl: 'en-GB', gl: 'GB', ceid: 'GB:en' });
      expect(out.data.articles).toHaveLength(3);
    } finally {
      await g.close();
    }
  });

  it('the operator’s feeds: RSS (UTF-8 and undeclared Latin-1) and Atom, matched by the query’s words, newest first', async () => {
    const f = await webReplay({ NEWS_FEEDS: Object.values(FEEDS).join(',') }, feedRoutes);
    try {
      const trump = await f.run('web.news', { query: 'Trump', limit: 100 });
      expect(f.replay.served().sort()).toEqual(['web/rss/guardian.rss', 'web/rss/heise.atom', 'web/rss/uolNoticias.rss']);
      expect(trump.data.backend).toBe('feeds');
      expect(trump.data.articles.length).toBeGreaterThan(0);
      for (const a of trump.data.articles) expect(`${a.title} ${a.snippet ?? ''}`.toLowerCase()).toContain('trump');
      const dates = trump.data.articles.map((a: any) => a.publishedAt);
      expect(dates).toEqual([...dates].sort().reverse());
      const uol = await f.run('web.news', { query: 'Bolsonaro segundo turno' });
      expect(uol.data.articles[0]).toMatchObject({
        title: 'Ibope: Bolsonaro perde de Haddad, Ciro e Alckmin em simulações de 2º turno',
        publishedAt: '2018-09-24T22:42:40.000Z',
        source: { domain: 'rss.uol.com.br' },
      });
      const heise = await f.run('web.news', { query: 'WildFly' });
      expect(heise.data.articles[0]).toMatchObject({ title: 'Java-Anwendungsserver: Red Hat gibt WildFly 10 frei', id: 'http://heise.de/-3088438', publishedAt: '2016-02-01T16:22:00.000Z' });
      expect(heise.data.articles[0].url).toContain('heise.de/developer/meldung/');
    } finally {
      await f.close();
    }
  });

  it('feeds read alone: every item of the three recordings', () => {
    const guardian = readFeed(readRecording('web/rss/guardian.rss'))!;
    expect(guardian.items).toHaveLength(55);
    expect(guardian.items.every((i) => i.publishedAt && i.link.startsWith('https://www.theguardian.com/'))).toBe(true);
    const uol = readFeed(decodeFeed(readFileSync(path.join(UPSTREAM_DIR, 'web/rss/uolNoticias.rss'))))!;
    expect(uol.items).toHaveLength(15);
    expect(uol.title).toBe('UOL Noticias');
    const heise = readFeed(readRecording('web/rss/heise.atom'))!;
    expect(heise.items.length).toBeGreaterThan(0);
    expect(heise.title).toBe('heise developer neueste Meldungen');
  });

  it('SearXNG’s news category: asked as such (answered by the recorded general answer, the same JSON)', async () => {
    const s = await webReplay({ SEARXNG_URL: `https://${SEARXNG}` }, [searxngRoute()]);
    try {
      const out = await s.run('web.news', { query: 'severance', limit: 3 });
      expect(s.replay.seen[0].query.get('categories')).toBe('news');
      expect(out.data).toMatchObject({ backend: 'searxng' });
      expect(out.data.articles[0]).toMatchObject({ type: 'article', source: { name: 'reddit.com' } });
      expect((await failure(s.run('web.news', {}))).message).toMatch(/^query:/);
    } finally {
      await s.close();
    }
  });
});

describe.skipIf(!HAVE)(`web.search and web.news through the gateway${SKIP}`, () => {
  let replay: Replay;
  let gw: TestGateway;
  let key: string;
  let testKey: string;
  let accountId: string;
  const balance = async () => (await gw.gateway.deps.store.getAccount(accountId))!.balance;

  beforeAll(async () => {
    replay = await startReplay({ folders: ['web/search', 'web/news'], routes: [searxngRoute()] });
    gw = await startGateway({
      QUARRY_UPSTREAM_OVERRIDES: replay.overrides([SEARXNG]),
      QUARRY_OUTBOUND_ALLOW: '127.0.0.1',
      QUARRY_WEB_SEARXNG_URL: `https://${SEARXNG}`,
      QUARRY_WEB_NEWS_BACKENDS: 'google-news',
      QUARRY_KEYLESS_RATE_LIMIT_PER_MINUTE: '3',
    });
    const acct = await gw.accounts.createAccount({ credits: 100 });
    ({ apiKey: key, accountId } = acct);
    testKey = (await gw.accounts.createKey({ accountId, test: true })).apiKey;
  });
  afterAll(async () => {
    await gw?.close();
    await replay?.close();
  });

  it('keyed search: 6 results cost 1 credit (per 10)', async () => {
    const before = await balance();
    const r = await post(gw.url, '/v1/web/search', { query: 'severance' }, { key });
    expect(r.status).toBe(200);
    expect(r.json.data.results).toHaveLength(6);
    expect(r.json.creditsUsed).toBe(1);
    expect(await balance()).toBe(before - 1);
  });

  it('news: 2 credits per 10 articles (20 → 4)', async () => {
    const before = await balance();
    const r = await post(gw.url, '/v1/web/news', { query: 'caffeine sleep', limit: 20 }, { key });
    expect(r.status).toBe(200);
    expect(r.json.data.articles).toHaveLength(20);
    expect(r.json.creditsUsed).toBe(4);
    expect(await balance()).toBe(before - 4);
  });

  it('test mode: both examples from the samples, never upstream, balance untouched', async () => {
    const before = await balance();
    const seen = replay.seen.length;
    for (const def of [WEB.search, WEB.news]) {
      const r = await post(gw.url, `/v1/${def.id.replace('.', '/')}`, def.example, { key: testKey });
      expect(r.status, def.id).toBe(200);
      expect(r.json.creditsUsed, def.id).toBeGreaterThan(0);
    }
    expect(replay.seen.length).toBe(seen);
    expect(await balance()).toBe(before);
  });

  it('drift: a SearXNG answer without `results` is 502 sourceChanged, unbilled', async () => {
    const before = await balance();
    replay.mutate = (name, body) => (name === SEARXNG_FILE ? body.replace('"results"', '"hits"') : body);
    try {
      const r = await post(gw.url, '/v1/web/search', { query: 'drifted' }, { key });
      expect(r.status).toBe(502);
      expect(r.json.error.code).toBe('sourceChanged');
    } finally {
      replay.mutate = undefined;
    }
    expect(await balance()).toBe(before);
  });

  it('keyless web.search is limited per address by the gateway: the fourth call in a minute is 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await post(gw.url, '/v1/web/search', { query: `keyless ${i}` })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const last = await post(gw.url, '/v1/web/search', { query: 'keyless 5' });
    expect(last.json.error.code).toBe('rateLimited');
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    // web.news is not keyless.
    expect((await post(gw.url, '/v1/web/news', { query: 'x' })).status).toBe(401);
  });
});

describe.skipIf(!HAVE)(`web search refusals through the gateway${SKIP}`, () => {
  it('a bot check is 502 sourceRefused and an unconfigured web.news 503 sourceUnavailable, both unbilled', async () => {
    const replay = await startReplay({ folders: [], routes: [{ method: 'GET', host: 'html.duckduckgo.com', path: '/html/', file: DDG_CHALLENGE }] });
    const gw = await startGateway({ QUARRY_UPSTREAM_OVERRIDES: replay.overrides(), QUARRY_OUTBOUND_ALLOW: '127.0.0.1', QUARRY_WEB_SEARCH_BACKENDS: 'duckduckgo' });
    try {
      const acct = await gw.accounts.createAccount({ credits: 10 });
      const r = await post(gw.url, '/v1/web/search', { query: 'does caffeine affect sleep' }, { key: acct.apiKey });
      expect(r.status).toBe(502);
      expect(r.json.error.code).toBe('sourceRefused');
      const n = await post(gw.url, '/v1/web/news', { query: 'anything' }, { key: acct.apiKey });
      expect(n.status).toBe(503);
      expect(n.json.error).toMatchObject({ code: 'sourceUnavailable', retryable: false });
      expect(n.json.error.message).toContain('QUARRY_WEB_NEWS_FEEDS');
      expect((await gw.gateway.deps.store.getAccount(acct.accountId))!.balance).toBe(10);
    } finally {
      await gw.close();
      await replay.close();
    }
  });
});
