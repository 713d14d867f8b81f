/**
 * The site source (issue 5): robots.txt parsing on every recorded robots.txt, sitemap parsing on the recorded
 * sitemaps and feeds (plain, gzipped, bombs), the SEO checks on the recorded pages, the upstream client's redirect
 * list, then site.map and site.seo end to end through the gateway against loopback doubles named by the DNS double.
 */
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneData } from '../../src/render/prune.js';
import { crawlDelay, isAllowed, parseRobots, verdict } from '../../src/sources/kit/web/robots.js';
import { parseSitemap, SitemapError } from '../../src/sources/site/sitemap.js';
import { analysePage, type SeoPage } from '../../src/sources/site/seo.js';
import { parseRobots as parse } from '../../src/sources/kit/web/robots.js';
import { Budget, type Fetcher } from '../../src/sources/kit/web/fetch.js';
import { siteAddress } from '../../src/sources/site/address.js';
import { mapSite } from '../../src/sources/site/map.js';
import { QuarryError } from '../../src/errors.js';
import { createUpstreamClient } from '../../src/upstream/client.js';
import { post, type TestGateway } from '../helpers/gateway.js';
import { startDnsDouble, startOpenWebGateway, UPSTREAM, type DnsDouble } from './openweb-doubles.js';
import { gzipBomb, HAVE_SITE, readSite, SITE_SKIP, siteZone, startSiteDouble, type SiteDouble } from './site-doubles.js';
import { buildMapSample, buildSeoSample } from '../../scripts/samples/site.js';
import mapSample from '../../src/sources/site/samples/map.json' with { type: 'json' };
import seoSample from '../../src/sources/site/samples/seo.json' with { type: 'json' };

const robotsFile = (name: string) => parseRobots(readSite(`robots/${name}`));

describe.skipIf(!HAVE_SITE)(`robots.txt parsing on the recorded files${SITE_SKIP}`, () => {
  it('every recorded robots.txt parses; Sitemap lines are all found, absolute, in file order', () => {
    const files = readdirSync(`${UPSTREAM}site/robots`);
    expect(files.length).toBe(9);
    for (const name of files) {
      const text = readSite(`robots/${name}`);
      const robots = parseRobots(text);
      const lines = text.split(/\r?\n/).filter((l) => /^\s*sitemap\s*:/i.test(l)).map((l) => l.replace(/^\s*sitemap\s*:\s*/i, '').trim());
      expect(robots.sitemaps, name).toEqual([...new Set(lines)]);
      expect(robots.groups.length, name).toBeGreaterThan(0);
      expect(robots.groups.every((g) => g.agents.length > 0), name).toBe(true);
    }
  });

  it('a hostile rule of many stars is matched without backtracking (a regex of .* runs took 22 s on a 60-character path)', () => {
    const r = parseRobots('User-agent: *\nDisallow: /*a*a*a*a*a*a*a*a*a*a*a*a*b$\n');
    expect(isAllowed(r, 'quarrybot', `/${'a'.repeat(5000)}`)).toBe(true);
    expect(isAllowed(r, 'quarrybot', `/${'a'.repeat(5000)}b`)).toBe(false);
  });

  it('google: longest match wins, Allow wins a tie, `*` and `$` wildcards', () => {
    const r = robotsFile('robots_google.txt');
    expect(isAllowed(r, 'quarrybot', '/search')).toBe(false);
    expect(isAllowed(r, 'quarrybot', '/search/about')).toBe(true);
    expect(isAllowed(r, 'quarrybot', '/?hl=en')).toBe(true); // Allow: /?hl= beats Disallow: /?
    expect(isAllowed(r, 'quarrybot', '/?q=x')).toBe(false);
    expect(isAllowed(r, 'quarrybot', '/?hl=en&x=1')).toBe(false); // Disallow: /?hl=*&
    expect(isAllowed(r, 'quarrybot', '/?hl=en&gws_rd=ssl')).toBe(true); // Allow: /?hl=*&gws_rd=ssl$
    expect(isAllowed(r, 'quarrybot', '/?hl=en&gws_rd=ssl&more')).toBe(false); // `$` anchors
    expect(isAllowed(r, 'quarrybot', '/chromecast/setup')).toBe(true);
    expect(verdict(r, 'quarrybot', '/mail/help/x').rule).toEqual({ allow: true, path: '/mail/help/' });
    expect(isAllowed(r, 'quarrybot', '/mail/inbox')).toBe(false);
    expect(isAllowed(r, 'quarrybot', '/robots.txt')).toBe(true);
    expect(r.sitemaps[0]).toBe('http://www.gstatic.com/culturalinstitute/sitemaps/www_google_com_culturalinstitute/sitemap-index.xml');
  });

  it('cdc: two `*` groups are merged; named bots get their own group', () => {
    const r = robotsFile('robots_cdc.txt');
    expect(isAllowed(r, 'quarrybot', '/travel/page')).toBe(false); // second `*` group
    expect(isAllowed(r, 'quarrybot', '/_vti_bin/x')).toBe(false); // first `*` group
    expect(isAllowed(r, 'quarrybot', '/flu/')).toBe(true);
    expect(isAllowed(r, 'Roverbot', '/flu/')).toBe(false);
    expect(isAllowed(r, 'EmailSiphon', '/')).toBe(false);
    expect(r.sitemaps).toEqual(['http://www.cdc.gov/niosh/sitemaps/sitemapsNIOSH.xml']);
  });

  it('rbloggers: lower-case keys, patterns without a leading slash, agent prefixes, crawl-delay', () => {
    const r = robotsFile('robots_rbloggers.txt');
    expect(r.sitemaps).toEqual(['http://www.r-bloggers.com/sitemap.xml']);
    expect(isAllowed(r, 'quarrybot', '/wp-admin/x')).toBe(false);
    expect(isAllowed(r, 'quarrybot', '/page?x=1')).toBe(false); // disallow: /*?*
    expect(isAllowed(r, 'quarrybot', '/post/?replytocom=5')).toBe(false); // Disallow: *?replytocom
    expect(isAllowed(r, 'quarrybot', '/2016/01/a-post/')).toBe(true);
    // "Mediapartners-Google*" names the token; its own group allows everything.
    expect(isAllowed(r, 'Mediapartners-Google', '/wp-admin/x')).toBe(true);
    // Googlebot's group has only a crawl-delay: no rule applies, everything allowed (RFC 9309), delay 1.
    expect(isAllowed(r, 'Googlebot', '/wp-admin/x')).toBe(true);
    expect(crawlDelay(r, 'Googlebot')).toBe(1);
    expect(crawlDelay(r, 'quarrybot')).toBe(20);
    // Googlebot-Image has its own group, not Googlebot's.
    expect(isAllowed(r, 'Googlebot-Image', '/wp-content/uploads/a.png')).toBe(true);
    expect(crawlDelay(r, 'Googlebot-Image')).toBeUndefined();
  });

  it('new york times, bundestag, wikipedia, amazon, facebook, yahoo', () => {
    const nyt = robotsFile('robots_new_york_times.txt');
    expect(isAllowed(nyt, 'quarrybot', '/ads/public/x')).toBe(true);
    expect(isAllowed(nyt, 'quarrybot', '/ads/x')).toBe(false);
    expect(isAllowed(nyt, 'quarrybot', '/restaurants/search?q=pizza')).toBe(false);
    expect(isAllowed(nyt, 'Mediapartners-Google', '/ads/x')).toBe(true);
    expect(nyt.sitemaps).toHaveLength(3);

    const bt = robotsFile('robots_bundestag.txt');
    expect(isAllowed(bt, 'quarrybot', '/includes/images/mediathek/a.jpg')).toBe(true);
    expect(isAllowed(bt, 'quarrybot', '/includes/x')).toBe(false);
    expect(isAllowed(bt, 'quarrybot', '/mediathek/parlamentstv')).toBe(true);
    expect(isAllowed(bt, 'quarrybot', '/mediathek/other')).toBe(false);

    const wp = robotsFile('robots_wikipedia.txt');
    expect(isAllowed(wp, 'quarrybot', '/w/index.php?title=X')).toBe(false);
    expect(isAllowed(wp, 'quarrybot', '/w/load.php?modules=x')).toBe(true);
    expect(isAllowed(wp, 'quarrybot', '/w/api.php?action=mobileview&page=X')).toBe(true);
    expect(isAllowed(wp, 'quarrybot', '/wiki/Main_Page')).toBe(true);
    // Non-ASCII paths match their percent-encoded rule; an escaped reserved character (%3A) is not ':'.
    expect(isAllowed(wp, 'quarrybot', '/wiki/Wikipedia:Löschkandidaten/2016')).toBe(false);
    expect(isAllowed(wp, 'quarrybot', '/wiki/Wikipedia%3ASpam-Blacklist-Log')).toBe(false);
    expect(isAllowed(wp, 'IsraBot', '/w/')).toBe(true); // empty Disallow
    expect(isAllowed(wp, 'UbiCrawler', '/wiki/Main_Page')).toBe(false);
    expect(isAllowed(wp, 'Mediapartners-Google', '/wiki/Main_Page')).toBe(false);

    const amazon = robotsFile('robots_amazon.txt');
    expect(isAllowed(amazon, 'quarrybot', '/gp/cart/view.html')).toBe(false);
    expect(isAllowed(amazon, 'quarrybot', '/dp/B000')).toBe(true);
    expect(isAllowed(amazon, 'EtaoSpider', '/dp/B000')).toBe(false);
    expect(amazon.sitemaps[1]).toMatch(/\.xml\.gz$/);

    const fb = robotsFile('robots_facebook.txt');
    expect(isAllowed(fb, 'Applebot', '/ajax/x')).toBe(false);
    expect(isAllowed(fb, 'Applebot', '/zuck')).toBe(true);
    const yahoo = robotsFile('robots_yahoo.txt');
    expect(isAllowed(yahoo, 'quarrybot', '/p/x')).toBe(false);
    expect(yahoo.sitemaps).toHaveLength(15);
  });

  it('consecutive user-agent lines share a group; rules before any user-agent are ignored', () => {
    const r = parse('Disallow: /x\nUser-agent: a\nUser-agent: b\nDisallow: /y\nUser-agent: c\nAllow: /\n');
    expect(r.groups.map((g) => g.agents)).toEqual([['a', 'b'], ['c']]);
    expect(isAllowed(r, 'b', '/y')).toBe(false);
    expect(isAllowed(r, 'zzz', '/x')).toBe(true);
  });
});

describe.skipIf(!HAVE_SITE)(`sitemap parsing on the recorded sitemaps and feeds${SITE_SKIP}`, () => {
  const index = readFileSync(`${UPSTREAM}site/sitemaps/vanityfair-sitemap-index.xml`);
  const child = readFileSync(`${UPSTREAM}site/sitemaps/vanityfair-sitemap.xml`);

  it('a sitemap index: children with their lastmod, entities decoded', async () => {
    const s = await parseSitemap(index, 'https://www.vanityfair.com/sitemap.xml');
    expect(s.kind).toBe('index');
    expect(s.total).toBe(6);
    expect(s.pages).toEqual([]);
    expect(s.sitemaps[0]).toEqual({ url: 'https://www.vanityfair.com/sitemap.xml?year=2022&month=12&week=2', lastModified: '2022-12-14' });
    expect(s.sitemaps.map((c) => c.url)).toEqual([...index.toString().matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1].replaceAll('&amp;', '&')));
  });

  it('a urlset: 7 pages with ISO dates; the same file gzipped (raw bytes 1f 8b) gives the same', async () => {
    const plain = await parseSitemap(child, 'https://www.vanityfair.com/');
    expect(plain.kind).toBe('urlset');
    expect(plain.pages).toHaveLength(7);
    expect(plain.pages[0]).toEqual({
      url: 'https://www.vanityfair.com/news/2022/12/house-of-representatives-bans-tiktok-on-staff-phones',
      lastModified: '2022-12-28T18:47:42.057Z',
    });
    expect(await parseSitemap(zlib.gzipSync(child), 'https://www.vanityfair.com/')).toEqual(plain);
  });

  it('RSS and Atom feeds are sitemaps too (sitemaps.org): item links and dates', async () => {
    for (const [file, tag] of [['guardian.rss', 'item'], ['uolNoticias.rss', 'item'], ['heise.atom', 'entry']] as const) {
      const body = readFileSync(`${UPSTREAM}web/rss/${file}`);
      const s = await parseSitemap(body, 'https://example.test/');
      expect(s.kind, file).toBe(tag === 'item' ? 'rss' : 'atom');
      const count = (body.toString('latin1').match(new RegExp(`<${tag}[\\s>]`, 'g')) ?? []).length;
      expect(s.pages.length, file).toBe(count);
      expect(s.pages.every((p) => /^https?:\/\//.test(p.url)), file).toBe(true);
    }
    const guardian = await parseSitemap(readFileSync(`${UPSTREAM}web/rss/guardian.rss`), 'https://example.test/');
    expect(guardian.pages[0].lastModified).toMatch(/^2018-01-31T\d\d:\d\d:\d\d\.000Z$/);
  });

  it('plain-text sitemaps, HTML soft-404s, corrupt gzip', async () => {
    const text = await parseSitemap(Buffer.from('https://a.test/1\r\n\nnot a url\nhttps://a.test/2'), 'https://a.test/');
    expect(text).toMatchObject({ kind: 'text', pages: [{ url: 'https://a.test/1' }, { url: 'https://a.test/2' }] });
    await expect(parseSitemap(Buffer.from('<!doctype html><html><body>Oops</body></html>'), 'https://a.test/')).rejects.toThrow(/HTML page/);
    await expect(parseSitemap(zlib.gzipSync(child).subarray(0, 200), 'https://a.test/')).rejects.toThrow(SitemapError);
  });

  it('more than 50,000 entries: the first 50,000 kept, counted, truncated', async () => {
    const urls = Array.from({ length: 50_010 }, (_, i) => `<url><loc>https://a.test/${i}</loc></url>`).join('');
    const s = await parseSitemap(Buffer.from(`<urlset>${urls}</urlset>`), 'https://a.test/');
    expect(s).toMatchObject({ total: 50_010, truncated: true });
    expect(s.pages).toHaveLength(50_000);
  });

  it('a 1 GiB gzip bomb stops at the 50 MB output budget, fast and in bounded memory', async () => {
    const bomb = gzipBomb(1024);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const rss = process.memoryUsage().rss;
    const t0 = Date.now();
    await expect(parseSitemap(bomb, 'https://a.test/')).rejects.toThrow(/inflates beyond 52428800 bytes/);
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(process.memoryUsage().rss - rss).toBeLessThan(128 * 1024 * 1024);
  });
});

/** An in-memory site: path → XML body; anything else 404. Records what was asked. */
function memorySite(files: Record<string, string>, asked: string[] = []): Fetcher {
  return async (url) => {
    asked.push(url);
    const path = new URL(url).pathname + new URL(url).search;
    const body = files[path];
    return { status: body === undefined ? 404 : 200, url, headers: { 'content-type': 'application/xml' }, body: Buffer.from(body ?? 'no'), redirects: [] };
  };
}
const urlset = (paths: string[]) => `<urlset>${paths.map((p) => `<url><loc>https://s.test${p}</loc></url>`).join('')}</urlset>`;
const sitemapIndex = (paths: string[]) => `<sitemapindex>${paths.map((p) => `<sitemap><loc>https://s.test${p}</loc></sitemap>`).join('')}</sitemapindex>`;

describe('site.map walker: caps and loops', () => {
  const start = new URL('https://s.test/');

  it('reads at most 50 sitemap files per call; the cursor continues at the first file not read', async () => {
    const files: Record<string, string> = { '/robots.txt': 'Sitemap: https://s.test/index.xml', '/index.xml': sitemapIndex(Array.from({ length: 60 }, (_, i) => `/c${i}.xml`)) };
    for (let i = 0; i < 60; i++) files[`/c${i}.xml`] = urlset([`/p${i}`]);
    const asked: string[] = [];
    const first = await mapSite({ start, limit: 1000, fetcher: memorySite(files, asked), budget: new Budget(60_000) });
    expect(asked.filter((u) => u.includes('.xml'))).toHaveLength(50); // the index and 49 children
    expect(first.pages).toHaveLength(49);
    expect(first.cursor).toBe('s.0.49');
    const rest = await mapSite({ start, limit: 1000, cursor: first.cursor, fetcher: memorySite(files), budget: new Budget(60_000) });
    expect(rest.pages.map((p) => p.url)).toEqual(Array.from({ length: 11 }, (_, i) => `https://s.test/p${i + 49}`));
    expect(rest.cursor).toBeUndefined();
  });

  it('an index listing itself, nested indexes, duplicate pages: each file read once, each page listed once', async () => {
    const files = {
      '/robots.txt': 'Sitemap: https://s.test/a.xml\nSitemap: https://s.test/a.xml\nSitemap: https://s.test/b.xml',
      '/a.xml': sitemapIndex(['/a.xml', '/nested.xml', '/b.xml']),
      '/nested.xml': sitemapIndex(['/b.xml', '/c.xml']),
      '/b.xml': urlset(['/1', '/2']),
      '/c.xml': urlset(['/2', '/3']),
    };
    const asked: string[] = [];
    const r = await mapSite({ start, limit: 100, fetcher: memorySite(files, asked), budget: new Budget(60_000) });
    expect(r.pages.map((p) => p.url.replace('https://s.test', ''))).toEqual(['/1', '/2', '/3']);
    expect(asked.map((u) => new URL(u).pathname)).toEqual(['/robots.txt', '/a.xml', '/nested.xml', '/b.xml', '/c.xml']);
    expect(r.robotsTxt.sitemaps).toEqual(['https://s.test/a.xml', 'https://s.test/b.xml']);
  });

  it('no robots.txt: the usual addresses are tried in order and the first sitemap found is used', async () => {
    const asked: string[] = [];
    const r = await mapSite({ start, limit: 100, fetcher: memorySite({ '/wp-sitemap.xml': urlset(['/x']) }, asked), budget: new Budget(60_000) });
    expect(r).toMatchObject({ source: 'sitemap', pages: [{ url: 'https://s.test/x', sitemap: 'https://s.test/wp-sitemap.xml' }] });
    expect(asked.map((u) => new URL(u).pathname)).toEqual(['/robots.txt', '/sitemap.xml', '/sitemap_index.xml', '/sitemap.xml.gz', '/wp-sitemap.xml']);
  });

  it('the time budget: a walk that runs out answers what it has, with a cursor to the next file', async () => {
    let now = 0;
    const files: Record<string, string> = { '/robots.txt': 'Sitemap: https://s.test/index.xml', '/index.xml': sitemapIndex(['/c0.xml', '/c1.xml', '/c2.xml']) };
    for (let i = 0; i < 3; i++) files[`/c${i}.xml`] = urlset([`/p${i}`]);
    const inner = memorySite(files);
    const slow: Fetcher = async (url, o) => {
      now += 5000;
      return inner(url, o);
    };
    const r = await mapSite({ start, limit: 100, fetcher: slow, budget: new Budget(12_000, () => now) });
    expect(r.pages.map((p) => p.url)).toEqual(['https://s.test/p0']);
    expect(r.cursor).toBe('s.0.1');
  });

  it('an oversized robots.txt counts as none (the usual sitemap addresses are tried); a refusal still fails the call', async () => {
    const inner = memorySite({ '/sitemap.xml': urlset(['/x']) });
    const big: Fetcher = async (url, o) => {
      if (url.endsWith('/robots.txt')) throw new QuarryError('sourceChanged', 'site: upstream answer larger than 1048576 bytes');
      return inner(url, o);
    };
    const r = await mapSite({ start, limit: 100, fetcher: big, budget: new Budget(60_000) });
    expect(r.robotsTxt).toEqual({ url: 'https://s.test/robots.txt', sitemaps: [], error: 'upstream answer larger than 1048576 bytes' });
    expect(r.pages).toEqual([{ url: 'https://s.test/x', sitemap: 'https://s.test/sitemap.xml' }]);
    const refused: Fetcher = async () => {
      throw new QuarryError('invalidRequest', 'url: points to a private or reserved address');
    };
    await expect(mapSite({ start, limit: 100, fetcher: refused, budget: new Budget(60_000) })).rejects.toThrow(/private or reserved/);
  });

  it('addresses: a bare domain is https, a path is kept, other schemes and credentials are refused by field', () => {
    expect(siteAddress('Example.com/blog').href).toBe('https://example.com/blog');
    expect(siteAddress('example.com:8080').href).toBe('https://example.com:8080/');
    expect(siteAddress('http://example.com/x#frag').href).toBe('http://example.com/x');
    expect(() => siteAddress('ftp://example.com')).toThrow(/^url: only http and https/);
    expect(() => siteAddress('https://u:p@example.com')).toThrow(/^url: must not contain credentials/);
    expect(() => siteAddress('exa mple.com')).toThrow(/^url: /);
  });
});

const basePage = (over: Partial<SeoPage> = {}): SeoPage => ({
  url: 'https://www.tdameritrade.com/investment-guidance/setting-financial-goals.html',
  finalUrl: 'https://www.tdameritrade.com/investment-guidance/setting-financial-goals.html',
  status: 200,
  headers: { 'content-type': 'text/html' },
  html: readSite('pages/tdameritrade-setting-financial-goals.html'),
  bytes: 92340,
  redirects: [],
  robots: { summary: { url: 'https://www.tdameritrade.com/robots.txt', status: 404, sitemaps: [] } },
  ...over,
});
const byName = (r: { checks: { name: string; passed: boolean; message: string }[] }) => Object.fromEntries(r.checks.map((c) => [c.name, c]));

describe.skipIf(!HAVE_SITE)(`SEO checks on the recorded pages${SITE_SKIP}`, () => {
  it('TD Ameritrade: title, description, canonical, hreflang, Open Graph, JSON-LD, headings', () => {
    const r = analysePage(basePage());
    expect(r).toMatchObject({ lang: 'en-US', title: 'Setting Financial Goals | TD Ameritrade', titleLength: 39, descriptionLength: 165, canonical: basePage().url });
    expect(r.hreflang.map((h) => h.lang)).toEqual(['en-us', 'zh-Hans-us', 'zh-Hant-us', 'x-default']);
    expect(r.openGraph).toMatchObject({ title: 'Setting Financial Goals | TD Ameritrade', image: expect.stringMatching(/td_ameritradelogo\.svg$/) });
    expect(r.structuredData).toEqual([{ format: 'json-ld', types: ['BreadcrumbList', 'ListItem'], valid: true }]);
    expect(r.headings.filter((h) => h.level === 1).map((h) => h.text)).toEqual(['Goal Planning', expect.any(String)]);
    expect(r.robots).toMatchObject({ meta: ['index,follow'], indexable: true, followable: true });
    const c = byName(r);
    expect(c.titleLength.passed).toBe(true);
    expect(c.descriptionLength).toMatchObject({ passed: false, message: expect.stringMatching(/165 characters/) });
    expect(c.h1).toMatchObject({ passed: false, message: '2 <h1> elements: one main heading is clearer' });
    expect(c.hreflang).toMatchObject({ passed: true, message: '4 hreflang links including this page and x-default' });
    expect(c.canonical.passed).toBe(true);
    expect(c.crawlableLinks.passed).toBe(r.links.javascript === 0);
    expect(r.score).toBeGreaterThan(70);
    expect(r.score).toBeLessThan(100);
  });

  it('Schwab: SVG <title>s are not the page title; description, canonical, Open Graph type', () => {
    const r = analysePage(
      basePage({
        url: 'https://www.schwab.com/learn/story/financial-planning-outlook',
        finalUrl: 'https://www.schwab.com/learn/story/financial-planning-outlook',
        html: readSite('pages/schwab-financial-planning-outlook.html'),
        bytes: 416849,
        robots: { summary: { url: 'https://www.schwab.com/robots.txt', status: 404, sitemaps: [] } },
      }),
    );
    expect(r.title).toMatch(/Planning and Wealth Management Outlook/);
    expect(r.canonical).toBe('https://www.schwab.com/learn/story/financial-planning-outlook');
    expect(r.openGraph).toMatchObject({ type: 'Story', site_name: 'Schwab Brokerage' });
    expect(r.twitterCard).toMatchObject({ card: 'summary_large_image', site: '@CharlesSchwab' });
    expect(byName(r).canonical.message).toBe('the canonical link points to this page');
    expect(byName(r).h1.passed).toBe(true);
    expect(r.lang).toBe('en');
  });

  it('noindex header, robots.txt block, plain HTTP and two redirects each fail their check and lower the score', () => {
    const good = analysePage(basePage());
    const google = parseRobots('User-agent: *\nDisallow: /investment-guidance/\nSitemap: https://www.tdameritrade.com/sitemap.xml\n');
    const bad = analysePage(
      basePage({
        url: 'http://tdameritrade.com/goals',
        finalUrl: 'http://www.tdameritrade.com/investment-guidance/setting-financial-goals.html',
        headers: { 'content-type': 'text/html', 'x-robots-tag': 'noindex' },
        redirects: [{ url: 'http://tdameritrade.com/goals', status: 301 }, { url: 'http://www.tdameritrade.com/goals', status: 302 }],
        robots: { summary: { url: 'http://www.tdameritrade.com/robots.txt', status: 200, sitemaps: google.sitemaps }, robots: google },
      }),
    );
    const c = byName(bad);
    expect(c.indexable).toMatchObject({ passed: false, message: 'the page asks not to be indexed (meta/header noindex)' });
    expect(c.crawlable).toMatchObject({ passed: false, message: 'robots.txt blocks this page (Disallow: /investment-guidance/)' });
    expect(c.https.passed).toBe(false);
    expect(c.redirects).toMatchObject({ passed: false, message: expect.stringMatching(/^2 redirects/) });
    expect(c.sitemap.passed).toBe(true);
    expect(bad.robots.robotsTxt).toMatchObject({ allowed: false, googlebotAllowed: false, rule: 'Disallow: /investment-guidance/' });
    expect(bad.score).toBeLessThan(good.score - 20);
  });

  it('googlebot-only directives: `googlebot: noindex` in X-Robots-Tag blocks indexing, `otherbot: noindex` does not', () => {
    expect(analysePage(basePage({ headers: { 'x-robots-tag': 'googlebot: noindex' } })).robots.indexable).toBe(false);
    expect(analysePage(basePage({ headers: { 'x-robots-tag': 'otherbot: noindex, unavailable_after: 2030-01-01' } })).robots.indexable).toBe(true);
  });

  it('a page with nothing: every content check fails with its reason', () => {
    const r = analysePage(basePage({ html: '<html><body><h3>x</h3><a href="javascript:go()">here</a><a href="/x">click here</a><img src="/a.png"></body></html>', bytes: 120 }));
    const c = byName(r);
    for (const name of ['title', 'description', 'h1', 'canonical', 'lang', 'viewport', 'imageAlt', 'linkText', 'crawlableLinks', 'structuredData', 'openGraph', 'favicon']) {
      expect(c[name]?.passed, name).toBe(false);
    }
    expect(c.imageAlt.message).toBe('1 of 1 images have no alt attribute');
    expect(r.images.withoutAltSources).toEqual(['https://www.tdameritrade.com/a.png']);
    expect(r.links.vagueText).toEqual(['click here']);
    expect(r.score).toBeLessThan(50);
  });

  it('vague link text is found past trailing dots and arrows; a hostile link of 200,000 dots and a letter is read in linear time', () => {
    const r = analysePage(basePage({ html: `<html><body><a href="/a">Read more…</a><a href="/b">${'.'.repeat(200_000)}x</a></body></html>`, bytes: 200_100 }));
    // (An end-anchored pattern took minutes on the second link here, on the event loop.)
    expect(r.links.vagueText).toEqual(['Read more…']);
  });
});

describe('upstream client: the redirect chain is reported', () => {
  it('lists each redirect with its status, in order; none when the first answer is final', async () => {
    const server = http.createServer((req, res) => {
      if (req.url === '/a') res.writeHead(301, { location: '/b' }).end();
      else if (req.url === '/b') res.writeHead(307, { location: '/c' }).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = createUpstreamClient({ source: 'site', retries: 0 });
    try {
      const res = await client.request({ url: `${base}/a` });
      expect(res.url).toBe(`${base}/c`);
      expect(res.redirects).toEqual([{ url: `${base}/a`, status: 301 }, { url: `${base}/b`, status: 307 }]);
      expect((await client.request({ url: `${base}/c` })).redirects).toEqual([]);
    } finally {
      await client.close();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe.skipIf(!HAVE_SITE)(`committed samples${SITE_SKIP}`, () => {
  it('are exactly what the code makes of the recordings today (scripts/samples/site.ts)', async () => {
    expect(JSON.parse(JSON.stringify(await buildMapSample()))).toEqual(mapSample);
    expect(JSON.parse(JSON.stringify(await buildSeoSample()))).toEqual(seoSample);
  });
});

describe.skipIf(!HAVE_SITE)(`site source through the gateway${SITE_SKIP}`, () => {
  let gw: TestGateway;
  let dns: DnsDouble;
  let sites: SiteDouble;
  let key: string;
  let testKey: string;
  let accountId: string;
  let at: (host: string, path?: string) => string;
  const balance = async () => (await gw.gateway.deps.store.getAccount(accountId))!.balance;

  beforeAll(async () => {
    [dns, sites] = await Promise.all([startDnsDouble(siteZone()), startSiteDouble()]);
    at = (host, path = '') => `http://${host}:${sites.port}${path}`;
    ({ gw, key, testKey, accountId } = await startOpenWebGateway(dns, {}, 1000));
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([dns?.close(), sites?.close()]);
  });

  it('catalogue: both endpoints available with their prices and examples', async () => {
    const r = await fetch(`${gw.url}/v1/catalogue`).then((x) => x.json());
    const byId = new Map(r.data.endpoints.map((e: any) => [e.id, e]));
    expect(byId.get('site.map')).toMatchObject({ available: true, credits: 1, keyless: false, perItems: 100, cacheTtlSeconds: 86400 });
    expect(byId.get('site.seo')).toMatchObject({ available: true, credits: 1, keyless: false, perItems: null, cacheTtlSeconds: 3600 });
    expect((byId.get('site.map') as any).example).toBeTruthy();
    expect((byId.get('site.seo') as any).example).toBeTruthy();
  });

  it('site.map: robots.txt → sitemap index → plain, raw .gz and Content-Encoding children; 404 children listed with why', async () => {
    const before = await balance();
    const r = await post(gw.url, '/v1/site/map', { url: at('map.test') }, { key });
    expect(r.status, r.text).toBe(200);
    const d = r.json.data;
    expect(d).toMatchObject({ site: at('map.test'), source: 'sitemap', robotsTxt: { status: 200, sitemaps: [at('map.test', '/sitemap.xml')] } });
    expect(d.pages).toHaveLength(21);
    expect(d.cursor).toBeUndefined();
    expect(d.pages[0]).toEqual({
      url: 'https://www.vanityfair.com/news/2022/12/house-of-representatives-bans-tiktok-on-staff-phones',
      lastModified: '2022-12-28T18:47:42.057Z',
      sitemap: at('map.test', '/sitemap.xml?year=2022&month=12&week=2'),
    });
    expect(d.pages[7].url).toMatch(/vanityfair\.com\/week1\/news\//);
    expect(d.pages[14].url).toMatch(/vanityfair\.com\/week5\/news\//);
    expect(d.sitemaps[0]).toEqual({ url: at('map.test', '/sitemap.xml'), kind: 'index', entries: 6 });
    expect(d.sitemaps.slice(1).map((s: any) => [s.kind ?? s.error, s.entries, s.lastModified])).toEqual([
      ['urlset', 7, '2022-12-14'],
      ['urlset', 7, '2022-12-07'],
      ['urlset', 7, '2022-11-30'],
      ['HTTP 404', undefined, '2022-11-28'],
      ['HTTP 404', undefined, '2022-11-21'],
      ['HTTP 404', undefined, '2022-11-14'],
    ]);
    expect(r.json.creditsUsed).toBe(1);
    expect(await balance()).toBe(before - 1);
  });

  it('site.map: paging with the cursor walks the same pages, reading only the files on the way', async () => {
    const all = (await post(gw.url, '/v1/site/map', { url: at('map.test'), limit: 100, maxAge: 0 }, { key })).json.data.pages;
    const got: any[] = [];
    const cursors: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const r = await post(gw.url, '/v1/site/map', { url: at('map.test'), limit: 5, ...(cursor ? { cursor } : {}) }, { key });
      expect(r.status, r.text).toBe(200);
      got.push(...r.json.data.pages);
      cursor = r.json.data.cursor;
      if (!cursor) break;
      cursors.push(cursor);
    }
    expect(got).toEqual(all);
    expect(cursors.slice(0, 4)).toEqual(['s.0.0.5', 's.0.1.3', 's.0.2.1', 's.0.2.6']);
    // Resuming at the third child fetched robots.txt, the index and that child only.
    sites.seen.length = 0;
    const r = await post(gw.url, '/v1/site/map', { url: at('map.test'), limit: 3, cursor: 's.0.2.1' }, { key });
    expect(r.json.data.pages.map((p: any) => p.url)).toEqual(all.slice(15, 18).map((p: any) => p.url));
    expect(sites.seen.map((s) => s.path)).toEqual(['/robots.txt', '/sitemap.xml', '/sitemap.xml?year=2022&month=11&week=5']);
  });

  it('site.map: a malformed cursor is a 400 naming the field; paging needs a key', async () => {
    const r = await post(gw.url, '/v1/site/map', { url: at('map.test'), cursor: 'abc' }, { key });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toMatch(/cursor/);
    const l = await post(gw.url, '/v1/site/map', { url: at('map.test'), limit: 5000 }, { key });
    expect(l.status).toBe(400);
    expect(l.json.error.message).toMatch(/limit/);
  });

  it('site.map: no sitemap → a bounded crawl that obeys robots.txt, reads the announced feed, pages with c.<offset>', async () => {
    sites.seen.length = 0;
    const r = await post(gw.url, '/v1/site/map', { url: at('crawl.test') }, { key });
    expect(r.status, r.text).toBe(200);
    const d = r.json.data;
    expect(d.source).toBe('crawl');
    const urls = d.pages.map((p: any) => p.url.replace(at('crawl.test'), ''));
    expect(urls).toEqual(['/', '/a', '/b', '/secret/x', '/files/report.pdf', '/a/1', '/b/1', '/a/1/deep', '/post/1', '/post/2']);
    expect(d.pages[0]).toMatchObject({ depth: 0, status: 200, title: 'Home' });
    expect(d.pages.find((p: any) => p.url.endsWith('/post/1'))).toMatchObject({ lastModified: '2018-01-31T20:15:15.000Z', depth: 1 });
    // Never fetched: the disallowed page, the PDF, anything past depth 3, other hosts.
    const fetched = sites.seen.filter((s) => s.host === 'crawl.test').map((s) => s.path);
    expect(fetched).not.toContain('/secret/x');
    expect(fetched).not.toContain('/files/report.pdf');
    expect(fetched).not.toContain('/a/1/deep');
    expect(sites.seen.some((s) => s.host === 'other.test')).toBe(false);
    expect(d.pagesFetched).toBe(6); // 5 pages (/a/1/deep is at the depth limit: listed, not fetched) + the feed
    const p1 = await post(gw.url, '/v1/site/map', { url: at('crawl.test'), limit: 4 }, { key });
    expect(p1.json.data.cursor).toBe('c.4');
    const p2 = await post(gw.url, '/v1/site/map', { url: at('crawl.test'), limit: 4, cursor: 'c.4' }, { key });
    expect(p2.json.data.pages.map((p: any) => p.url)).toEqual(d.pages.slice(4, 8).map((p: any) => p.url));
  });

  it('site.map: gzip bombs (raw .gz and Content-Encoding) are skipped with the reason, quickly, then the crawl answers', async () => {
    const rss = process.memoryUsage().rss;
    const t0 = Date.now();
    const r = await post(gw.url, '/v1/site/map', { url: at('bomb.test') }, { key });
    const ms = Date.now() - t0;
    expect(r.status, r.text).toBe(200);
    expect(ms).toBeLessThan(5000);
    expect(process.memoryUsage().rss - rss).toBeLessThan(200 * 1024 * 1024);
    const d = r.json.data;
    expect(d.sitemaps).toEqual([
      { url: at('bomb.test', '/sitemap.xml.gz'), error: 'not read: gzip body inflates beyond 52428800 bytes (a decompression bomb?)' },
      { url: at('bomb.test', '/transport.xml'), error: 'upstream answer larger than 52428800 bytes' },
    ]);
    expect(d.source).toBe('crawl');
    expect(d.pages.map((p: any) => p.url)).toEqual([at('bomb.test', '/'), at('bomb.test', '/about')]);
  });

  it('site.map and site.seo: a redirect to 169.254.169.254 and a name resolving to 10.0.0.1 are refused (400), not billed', async () => {
    const before = await balance();
    for (const [path, url] of [['/v1/site/map', at('redirect.test')], ['/v1/site/seo', at('redirect.test', '/page')], ['/v1/site/map', 'private.test'], ['/v1/site/seo', 'http://private.test/x']]) {
      const t0 = Date.now();
      const r = await post(gw.url, path, { url }, { key });
      expect(Date.now() - t0, url).toBeLessThan(2000);
      expect(r.status, `${path} ${url}: ${r.text}`).toBe(400);
      expect(r.json.error).toMatchObject({ code: 'invalidRequest', retryable: false, message: 'url: points to a private or reserved address' });
    }
    expect(dns.queries.some((q) => q.name === 'private.test')).toBe(true);
    expect(await balance()).toBe(before);
  });

  it('site.seo: the redirect chain, the recorded page, robots.txt of the final host; billed 1', async () => {
    const before = await balance();
    const r = await post(gw.url, '/v1/site/seo', { url: at('hop.test', '/start') }, { key });
    expect(r.status, r.text).toBe(200);
    const d = r.json.data;
    expect(d.redirects).toEqual([
      { url: at('hop.test', '/start'), status: 301 },
      { url: at('www.hop.test', '/start'), status: 302 },
    ]);
    expect(d).toMatchObject({ url: at('hop.test', '/start'), finalUrl: at('www.hop.test', '/investment-guidance/setting-financial-goals.html'), status: 200, title: 'Setting Financial Goals | TD Ameritrade', https: false });
    expect(d.robots.robotsTxt).toMatchObject({ url: at('www.hop.test', '/robots.txt'), status: 200, allowed: true });
    expect(d.robots.robotsTxt.sitemaps.length).toBeGreaterThan(0);
    const checks = Object.fromEntries(d.checks.map((c: any) => [c.name, c]));
    expect(checks.redirects).toMatchObject({ passed: false, message: expect.stringMatching(/^2 redirects/) });
    expect(checks.canonical).toMatchObject({ passed: false, message: 'the canonical link points to another site (www.tdameritrade.com)' });
    expect(checks.responseTime.message).toMatch(/^the page took \d+ ms to download/);
    expect(d.score).toBeGreaterThan(0);
    expect(r.json.creditsUsed).toBe(1);
    expect(await balance()).toBe(before - 1);
  });

  it('site.seo: Google robots.txt disallows /search and X-Robots-Tag says googlebot: noindex', async () => {
    const r = await post(gw.url, '/v1/site/seo', { url: at('www.hop.test', '/search/story') }, { key });
    expect(r.status, r.text).toBe(200);
    expect(r.json.data.robots).toMatchObject({ header: ['googlebot: noindex'], indexable: false, robotsTxt: { allowed: false, googlebotAllowed: false, rule: 'Disallow: /search' } });
  });

  it('site.seo: a PDF is a clear 400, a 503 page is sourceUnavailable, a 404 page is reported; none billed but the 404', async () => {
    const before = await balance();
    const pdf = await post(gw.url, '/v1/site/seo', { url: at('www.hop.test', '/report.pdf') }, { key });
    expect(pdf.status).toBe(400);
    expect(pdf.json.error.message).toBe('url: answered application/pdf, not an HTML page');
    const down = await post(gw.url, '/v1/site/seo', { url: at('www.hop.test', '/down') }, { key });
    expect(down.status).toBe(503);
    expect(down.json.error).toMatchObject({ code: 'sourceUnavailable', retryable: true });
    expect(await balance()).toBe(before);
    const missing = await post(gw.url, '/v1/site/seo', { url: at('www.hop.test', '/nothing-here') }, { key });
    expect(missing.status, missing.text).toBe(200);
    expect(missing.json.data.status).toBe(404);
    expect(missing.json.data.checks.find((c: any) => c.name === 'status')).toEqual({ name: 'status', passed: false, message: 'the page answers HTTP 404; search engines index only 200 answers' });
  });

  it('bad input is a 400 naming the field', async () => {
    for (const [path, body, field] of [['/v1/site/seo', {}, /url/], ['/v1/site/seo', { url: 'ftp://x.test/' }, /^url: only http and https/], ['/v1/site/map', { url: 'not a domain' }, /^url: /], ['/v1/site/map', { url: 'x.test', extra: 1 }, /extra/]] as const) {
      const r = await post(gw.url, path, body, { key });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.message).toMatch(field);
    }
  });

  it('test mode: both endpoints answer their committed samples, nothing upstream, no credits spent', async () => {
    const before = await balance();
    const seen = [sites.seen.length, dns.queries.length];
    const m = await post(gw.url, '/v1/site/map', { url: 'example.com' }, { key: testKey });
    expect(m.status, m.text).toBe(200);
    expect(m.json.data).toEqual(pruneData(mapSample.pages[0].data as never));
    expect(m.json.creditsUsed).toBe(1);
    const short = await post(gw.url, '/v1/site/map', { url: 'example.com', limit: 3 }, { key: testKey });
    expect(short.json.data.pages).toEqual(mapSample.pages[0].data.pages.slice(0, 3));
    expect(short.json.data.cursor).toBe('s.0.0.3');
    const s = await post(gw.url, '/v1/site/seo', { url: 'example.com' }, { key: testKey });
    expect(s.status, s.text).toBe(200);
    expect(s.json.data).toEqual(pruneData(seoSample.pages[0].data as never));
    const md = await post(gw.url, '/v1/site/seo', { url: 'example.com' }, { key: testKey, headers: { accept: 'text/markdown' } });
    expect(md.status).toBe(200);
    expect(md.text).toContain('Setting Financial Goals | TD Ameritrade');
    expect([sites.seen.length, dns.queries.length]).toEqual(seen);
    expect(await balance()).toBe(before);
  });
});
