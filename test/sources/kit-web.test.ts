/** The open-web toolkit (src/sources/kit/web/): the tag scanner, page decoding and the guarded fetcher. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTags, scanTags } from '../../src/sources/kit/web/tags.js';
import { contentType, decodePage, looksLikeHtml, pageText } from '../../src/sources/kit/web/page.js';
import { Budget, isOversize, webFetcher, type Fetcher } from '../../src/sources/kit/web/fetch.js';
import { ALLOW_ALL, CRAWLER_TOKEN, DISALLOW_ALL, parseRobots, verdict } from '../../src/sources/kit/web/robots.js';
import { crawlRules, readRobots, robotsPerOrigin } from '../../src/sources/kit/web/robots-file.js';
import { boundNesting, MAX_DEPTH, parseHtml } from '../../src/sources/kit/web/dom.js';
import { crawl, Frontier, type Candidate } from '../../src/sources/kit/web/crawl.js';
import { QuarryError } from '../../src/errors.js';
import { createUpstreamClient } from '../../src/upstream/client.js';
import type { SourceContext } from '../../src/sources/types.js';

describe('kit/web tags: the linear tag scanner', () => {
  it('reports the asked start tags in order, attributes lower-cased and decoded, the first of a repeat kept', () => {
    const html =
      '<HTML><head><META NAME="generator" content="WordPress 6.5 &amp; more" name="x"><link rel=icon href="/f.ico">' +
      '<script SRC="/a.js?x=1&amp;y=2"></script><meta property="og:title" content="T"/></head><body><p>text</p></body></HTML>';
    expect(findTags(html, { names: ['meta', 'script'] })).toEqual([
      { name: 'meta', attrs: { name: 'generator', content: 'WordPress 6.5 & more' } },
      { name: 'script', attrs: { src: '/a.js?x=1&y=2' } },
      { name: 'meta', attrs: { property: 'og:title', content: 'T' } },
    ]);
  });

  it('keeps raw-text bodies when asked: scripts as written, a title with its entities decoded; unclosed at the end', () => {
    const html = '<title>A &amp; B</title><script type="application/json">{"a":"&amp;"}</script><style>p{}</style><script id="x">{"open":1}';
    const tags = findTags(html, { names: ['title', 'script'], withText: ['title', 'script'] });
    expect(tags).toEqual([
      { name: 'title', attrs: {}, text: 'A & B' },
      { name: 'script', attrs: { type: 'application/json' }, text: '{"a":"&amp;"}' },
      { name: 'script', attrs: { id: 'x' }, text: '{"open":1}' },
    ]);
    expect(findTags('<script src="/x.js"/>', { names: ['script'], withText: ['script'] })).toEqual([{ name: 'script', attrs: { src: '/x.js' }, text: '' }]);
    // A body is kept only for raw-text elements: a <div>'s is not.
    expect(findTags('<div id=a>x</div>', { names: ['div'], withText: ['div'] })).toEqual([{ name: 'div', attrs: { id: 'a' } }]);
  });

  it('caps attribute values and bodies; a longer tag name sharing a prefix is not the tag', () => {
    const tags = findTags(`<metadata x=1><meta content="${'a'.repeat(10_000)}"><script>${'b'.repeat(100)}</script>`, {
      names: ['meta', 'script'],
      withText: ['script'],
      maxAttr: 50,
      maxText: 10,
    });
    expect(tags).toEqual([{ name: 'meta', attrs: { content: 'a'.repeat(50) } }, { name: 'script', attrs: {}, text: 'b'.repeat(10) }]);
  });

  it('a hostile page of 300,000 unclosed tags is scanned without a tree', () => {
    const html = `${'<div><span>'.repeat(150_000)}<meta name="x" content="found">`;
    let found: string | undefined;
    scanTags(html, { names: ['meta'] }, (t) => (found = t.attrs.content));
    expect(found).toBe('found');
  });
});

describe('kit/web page: reading a fetched page', () => {
  const page = (type: string | undefined, body: string | Buffer) => ({
    headers: (type === undefined ? {} : { 'content-type': type }) as Record<string, string>,
    body: Buffer.isBuffer(body) ? body : Buffer.from(body),
  });

  it("decodes by the HTTP charset, else the page's own meta charset or BOM, else UTF-8", () => {
    const latin = Buffer.from('<meta charset="iso-8859-1"><p>caf\xe9</p>', 'latin1');
    expect(pageText(page('text/html', latin))).toContain('café');
    expect(decodePage(Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'text/html; charset=windows-1250')).toBe('café');
    expect(decodePage(Buffer.from('café'), 'text/html; charset=ISO-8859-1')).toBe('café'); // a default label is not trusted
    expect(decodePage(Buffer.from('\ufeffhé'))).toBe('hé');
    expect(decodePage(Buffer.from('x'), 'text/html; charset=no-such-charset')).toBe('x');
  });

  it('tells HTML from other answers by type, else by its first bytes', () => {
    expect(contentType({ 'content-type': 'Text/HTML; charset=utf-8' })).toBe('text/html');
    expect(looksLikeHtml(page('application/xhtml+xml', ''))).toBe(true);
    expect(looksLikeHtml(page('application/json', '<html>'))).toBe(false);
    expect(looksLikeHtml(page('text/plain', '<!DOCTYPE html><p>'))).toBe(true);
    expect(looksLikeHtml(page(undefined, '<html lang="en">'))).toBe(true);
    expect(looksLikeHtml(page(undefined, 'plain words'))).toBe(false);
  });
});

describe('kit/web fetch: the guarded page fetcher', () => {
  let server: http.Server;
  let base: string;
  let ctx: SourceContext;
  const client = createUpstreamClient({ source: 'kit', retries: 0, ssrfAllow: ['127.0.0.1'] });

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const send = (status: number, body: string, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
        res.end(body);
      };
      if (req.url === '/a') return send(301, '', { location: '/b' });
      if (req.url === '/b') return send(200, `<p>${req.headers.accept}</p>`);
      if (req.url === '/big') return send(200, 'x'.repeat(5000));
      if (req.url === '/gone') return send(410, 'gone');
      send(404, 'missing');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ctx = { signal: new AbortController().signal, http: client, log: { info() {}, warn() {}, error() {} }, settings: {} };
  });
  afterAll(async () => {
    await client.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('follows redirects and records them, sends the Accept asked for, and times the exchange', async () => {
    const page = await webFetcher(ctx)(`${base}/a`, { maxBytes: 1024, accept: 'text/html' });
    expect(page).toMatchObject({ status: 200, url: `${base}/b`, redirects: [{ url: `${base}/a`, status: 301 }] });
    expect(pageText(page)).toBe('<p>text/html</p>');
    expect(page.elapsedMs).toBeGreaterThanOrEqual(0);
  });

  it('hands error statuses back as pages (all by default, or the ones listed); a larger body is an oversize failure', async () => {
    const fetch = webFetcher(ctx, { budget: new Budget(60_000), timeoutMs: 5000 });
    expect((await fetch(`${base}/nothing`, { maxBytes: 1024 })).status).toBe(404);
    expect((await fetch(`${base}/gone`, { maxBytes: 1024, answer: [410] })).status).toBe(410);
    await expect(fetch(`${base}/nothing`, { maxBytes: 1024, answer: [410] })).rejects.toMatchObject({ code: 'sourceUnavailable' });
    const big = await fetch(`${base}/big`, { maxBytes: 100 }).catch((e: unknown) => e);
    expect(isOversize(big)).toBe(true);
  });

  it('guards the address: a private address is refused unless the operator allows it', async () => {
    const strict = createUpstreamClient({ source: 'kit', retries: 0 });
    try {
      const e = await webFetcher({ ...ctx, http: strict })(`${base}/b`, { maxBytes: 1024 }).catch((x: unknown) => x);
      expect(e).toMatchObject({ code: 'invalidRequest' });
    } finally {
      await strict.close();
    }
  });

  it('a budget cuts the deadline: spent at a quarter second left', () => {
    let now = 0;
    const budget = new Budget(1000, () => now);
    expect(budget.spent()).toBe(false);
    now = 800;
    expect(budget.left()).toBe(200);
    expect(budget.spent()).toBe(true);
  });
});

describe('kit/web robots: the one robots.txt parser and matcher', () => {
  it('our crawler: its own group (quarrybot, or the quarry prefix), else *; longest rule wins, Allow on a tie', () => {
    const r = parseRobots('User-agent: *\nDisallow: /\n\nUser-agent: Quarry\nDisallow: /secret\nAllow: /secret/open\nDisallow: /secret/open$\n');
    expect(r.allows(new URL('https://a.test/contact'))).toBe(true);
    expect(r.allows(new URL('https://a.test/secret/x'))).toBe(false);
    expect(r.allows(new URL('https://a.test/secret/open/1'))).toBe(true);
    expect(r.allows(new URL('https://a.test/contact'), 'otherbot')).toBe(false);
    expect(verdict(r, CRAWLER_TOKEN, '/secret/x').rule).toEqual({ allow: false, path: '/secret' });
    expect(r.allows(new URL('https://a.test/robots.txt'), 'otherbot')).toBe(true);
  });

  it('percent-escapes and raw UTF-8 agree; `$` anchors; a hostile rule of stars is matched without backtracking', () => {
    const r = parseRobots('User-agent: *\nDisallow: /caf%C3%A9\nDisallow: /*.php$\nDisallow: /*a*a*a*a*a*a*a*a*a*a*a*a*b\n');
    expect(r.allows(new URL('https://a.test/café/menu'))).toBe(false);
    expect(r.allows(new URL('https://a.test/x.php'))).toBe(false);
    expect(r.allows(new URL('https://a.test/x.php?y=1'))).toBe(true);
    expect(r.allows(new URL(`https://a.test/${'a'.repeat(5000)}`))).toBe(true);
    expect(r.allows(new URL(`https://a.test/${'a'.repeat(5000)}b`))).toBe(false);
  });

  it('ALLOW_ALL allows everything; DISALLOW_ALL everything but robots.txt itself', () => {
    expect(ALLOW_ALL.allows(new URL('https://a.test/x'))).toBe(true);
    expect(DISALLOW_ALL.allows(new URL('https://a.test/'))).toBe(false);
    expect(DISALLOW_ALL.allows(new URL('https://a.test/robots.txt'))).toBe(true);
  });
});

describe('kit/web robots-file: reading a site\'s robots.txt', () => {
  const answering = (status: number, body: string, type = 'text/plain'): Fetcher => async (url) => ({
    status,
    url,
    headers: { 'content-type': type },
    body: Buffer.from(body),
    redirects: [],
  });

  it('a 200 text file is parsed (sitemaps absolute); 4xx is none (all allowed); 5xx and failures allow nothing', async () => {
    const ok = await readRobots(answering(200, 'User-agent: *\nDisallow: /x\nSitemap: /s.xml'), 'https://a.test');
    expect(ok).toMatchObject({ url: 'https://a.test/robots.txt', status: 200 });
    expect(ok.robots!.sitemaps).toEqual(['https://a.test/s.xml']);
    expect(crawlRules(ok).allows(new URL('https://a.test/x/1'))).toBe(false);
    const missing = await readRobots(answering(404, 'no'), 'https://a.test');
    expect(missing).toEqual({ url: 'https://a.test/robots.txt', status: 404 });
    expect(crawlRules(missing)).toBe(ALLOW_ALL);
    expect(crawlRules(await readRobots(answering(503, 'down'), 'https://a.test'))).toBe(DISALLOW_ALL);
    const failed = await readRobots(async () => {
      throw new QuarryError('sourceUnavailable', 'site: upstream could not be reached (ECONNREFUSED)');
    }, 'https://a.test');
    expect(failed).toMatchObject({ error: 'upstream could not be reached (ECONNREFUSED)' });
    expect(crawlRules(failed)).toBe(DISALLOW_ALL);
  });

  it('an HTML page where robots.txt should be is no robots.txt, said so', async () => {
    const soft404 = await readRobots(answering(200, '<!doctype html><p>Not here</p>', 'text/html'), 'https://a.test');
    expect(soft404).toEqual({ url: 'https://a.test/robots.txt', status: 200, error: 'answered with an HTML page, not a robots.txt' });
    expect(crawlRules(soft404)).toBe(ALLOW_ALL);
  });

  it('robotsPerOrigin reads each origin once', async () => {
    const asked: string[] = [];
    const rulesOf = robotsPerOrigin(async (url) => {
      asked.push(url);
      return { status: 200, url, headers: {}, body: Buffer.from('User-agent: *\nDisallow: /p'), redirects: [] };
    });
    await Promise.all([rulesOf('https://a.test'), rulesOf('https://a.test'), rulesOf('https://b.test')]);
    expect(asked).toEqual(['https://a.test/robots.txt', 'https://b.test/robots.txt']);
  });
});

describe('kit/web dom: a bounded tree', () => {
  it('cuts a page where it nests deeper than the bound; comments and raw text do not count', () => {
    expect(boundNesting('<div><div><div>x</div></div></div>', 2)).toBe('<div><div>');
    const raw = '<script>"<div><div><div>"</script><!-- <div><div><div> --><div>ok</div>';
    expect(boundNesting(raw, 1)).toBe(raw);
    expect(boundNesting('<p>İİİ<script>x</SCRIPT><div><div>', 1)).toBe('<p>İİİ<script>x</SCRIPT><div>');
  });

  it('parses a page of a million unclosed divs in bounded time', () => {
    const doc = parseHtml(`<title>T</title>${'<div>'.repeat(1_000_000)}`);
    expect(doc.children.length).toBeGreaterThan(0);
    expect(boundNesting('<div>'.repeat(MAX_DEPTH + 10)).length).toBe(MAX_DEPTH * 5);
  });
});

describe('kit/web crawl: the bounded crawler', () => {
  /** A site of pages each linking to `links[path]`. */
  const site = (links: Record<string, string[]>) => (c: Candidate) => Promise.resolve(links[c.url.pathname] ?? []);

  it('discovery order: breadth-first, every address listed, refused ones passed over, fetches bounded', async () => {
    const frontier = new Frontier({ order: 'discovery', capacity: 100 });
    frontier.offer(new URL('https://a.test/'));
    const visited: string[] = [];
    const visit = site({ '/': ['/a', '/b', '/private'], '/a': ['/a/1', '/b'], '/b': ['/b/1'] });
    const { fetched } = await crawl({
      frontier,
      parallel: 2,
      maxFetches: 4,
      admit: (c) => !c.url.pathname.startsWith('/private'),
      visit: (c) => (visited.push(c.url.pathname), visit(c)),
      onResult: (c, links) => links.forEach((l) => frontier.offer(new URL(l, c.url), { depth: c.depth + 1 })),
    });
    expect(fetched).toBe(4);
    expect(visited).toEqual(['/', '/a', '/b', '/a/1']);
    expect(frontier.all().map((c) => [c.url.pathname, c.depth])).toEqual([['/', 0], ['/a', 1], ['/b', 1], ['/private', 1], ['/a/1', 2], ['/b/1', 2]]);
  });

  it('best first: highest score, ties in discovery order, a score raised by a later offer; seen pages never again', async () => {
    const frontier = new Frontier({ order: 'best', capacity: 3, key: (u) => u.pathname.replace(/\/$/, '') });
    frontier.markSeen(new URL('https://a.test/start'));
    expect(frontier.offer(new URL('https://a.test/start/'), { score: 99 })).toBeUndefined();
    frontier.offer(new URL('https://a.test/about'), { score: 10 });
    frontier.offer(new URL('https://a.test/team'), { score: 10 });
    frontier.offer(new URL('https://a.test/contact'), { score: 5 });
    frontier.offer(new URL('https://a.test/contact/'), { score: 50 }); // the same page: its score rises
    expect(frontier.offer(new URL('https://a.test/full'), { score: 70 })).toBeUndefined(); // capacity 3
    const order: string[] = [];
    let wanted = 2;
    await crawl({
      frontier,
      parallel: 1,
      maxFetches: 10,
      wanted: () => wanted,
      visit: async (c) => c.url.pathname,
      onResult: (_, path) => (order.push(path), wanted--),
    });
    expect(order).toEqual(['/contact', '/about']);
    expect(frontier.waiting).toBe(1);
  });

  it('stops when told: a spent budget ends the crawl before the next batch', async () => {
    const frontier = new Frontier({ order: 'discovery', capacity: 10 });
    ['/1', '/2', '/3'].forEach((p) => frontier.offer(new URL(p, 'https://a.test')));
    let batches = 0;
    const { fetched } = await crawl({ frontier, parallel: 1, maxFetches: 10, stop: () => batches >= 2, visit: async () => batches++, onResult: () => {} });
    expect(fetched).toBe(2);
  });
});
