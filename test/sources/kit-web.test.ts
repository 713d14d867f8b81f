/** The open-web toolkit (src/sources/kit/web/): the tag scanner, page decoding and the guarded fetcher. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTags, scanTags } from '../../src/sources/kit/web/tags.js';
import { contentType, decodePage, looksLikeHtml, pageText } from '../../src/sources/kit/web/page.js';
import { Budget, isOversize, webFetcher } from '../../src/sources/kit/web/fetch.js';
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
