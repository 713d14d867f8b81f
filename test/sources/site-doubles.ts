/**
 * Loopback doubles for the site source: one HTTP server for several test sites told apart by Host, named through the
 * DNS double (testZone plus the names below). Sitemaps and pages are the real recordings of ../shared/upstream/site,
 * with the recorded host rewritten to the test site where a link must stay on loopback.
 */
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import { listenOnLoopback, loopback, testZone, UPSTREAM, type Zone } from './openweb-doubles.js';

export const HAVE_SITE = existsSync(`${UPSTREAM}site/robots`) && existsSync(`${UPSTREAM}site/sitemaps`) && existsSync(`${UPSTREAM}site/pages`);
export const SITE_SKIP = HAVE_SITE ? '' : ` (skipped: recordings not found at ${UPSTREAM}site)`;

export const readSite = (path: string): string => readFileSync(`${UPSTREAM}site/${path}`, 'utf8');

export function siteZone(): Zone {
  return { ...testZone(), 'map.test': loopback(), 'crawl.test': loopback(), 'bomb.test': loopback(), 'hop.test': loopback(), 'www.hop.test': loopback() };
}

/**
 * A gzip file that inflates to about `mib` MiB: an XML prolog, then one 1 MiB member of spaces repeated (gzip allows
 * any number of members; each compresses to about 1 KB), so it is built in milliseconds and never held inflated.
 */
export function gzipBomb(mib: number): Buffer {
  const head = zlib.gzipSync('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
  const member = zlib.gzipSync(Buffer.alloc(1024 * 1024, ' '), { level: 9 });
  return Buffer.concat([head, ...Array<Buffer>(mib).fill(member)]);
}

export interface SiteDouble {
  url: string;
  port: number;
  seen: { host: string; path: string }[];
  close(): Promise<void>;
}

/**
 * - `map.test`: robots.txt names /sitemap.xml, the recorded sitemap index (children rewritten to map.test). Its
 *   first child is the recorded weekly sitemap; the second the same file with `/week1/` addresses as a raw .gz body;
 *   the third with `/week5/` addresses sent with Content-Encoding: gzip; the other three answer 404.
 * - `crawl.test`: no sitemap anywhere; a few linked pages, a disallowed /secret/, an RSS feed announced by the home.
 * - `bomb.test`: robots.txt names a raw .gz sitemap inflating to 1 GiB and one sent with Content-Encoding: gzip
 *   inflating to 200 MiB; the home page is a plain page.
 * - `hop.test` → 301 → `www.hop.test` → 302 → the recorded TD Ameritrade page; `www.hop.test/search/story` is the
 *   recorded Schwab page with `X-Robots-Tag: googlebot: noindex`, under Google's recorded robots.txt.
 * - `redirect.test` (testZone) → 302 to 169.254.169.254.
 */
export async function startSiteDouble(): Promise<SiteDouble> {
  const seen: { host: string; path: string }[] = [];
  const index = readSite('sitemaps/vanityfair-sitemap-index.xml');
  const child = readSite('sitemaps/vanityfair-sitemap.xml');
  const bomb = gzipBomb(1024);
  const transportBomb = gzipBomb(200);
  let base = '';
  const server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname + url.search;
    seen.push({ host, path });
    const send = (status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, ...extra });
      res.end(body);
    };
    const notFound = () => send(404, 'text/html', '<html><body>Not found</body></html>');
    const site = `http://${host}:${new URL(base).port}`;

    if (host === 'map.test') {
      if (path === '/robots.txt') return send(200, 'text/plain', `User-agent: *\nDisallow: /private/\n\nSitemap: ${site}/sitemap.xml\n`);
      if (path === '/sitemap.xml') return send(200, 'application/xml', index.replaceAll('https://www.vanityfair.com', site));
      if (url.pathname === '/sitemap.xml') {
        const week = `${url.searchParams.get('month')}-${url.searchParams.get('week')}`;
        if (week === '12-2') return send(200, 'application/xml', child);
        if (week === '12-1') return send(200, 'application/x-gzip', zlib.gzipSync(child.replaceAll('vanityfair.com/', 'vanityfair.com/week1/')));
        if (week === '11-5') return send(200, 'application/xml', zlib.gzipSync(child.replaceAll('vanityfair.com/', 'vanityfair.com/week5/')), { 'content-encoding': 'gzip' });
      }
      return notFound();
    }

    if (host === 'crawl.test') {
      const page = (title: string, links: string[], head = '') =>
        send(200, 'text/html; charset=utf-8', `<!doctype html><html><head><title>${title}</title>${head}</head><body>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`);
      if (path === '/robots.txt') return send(200, 'text/plain', 'User-agent: *\nDisallow: /secret/\n');
      if (path === '/') return page('Home', ['/a', '/b', '/secret/x', 'http://other.test/', 'mailto:hi@crawl.test', '/a#top', 'javascript:void(0)', '/files/report.pdf'], `<link rel="alternate" type="application/rss+xml" href="/feed.xml">`);
      if (path === '/a') return page('Page A', ['/a/1', '/']);
      if (path === '/b') return page('Page B', ['/b/1', '/a']);
      if (path === '/a/1') return page('Page A1', ['/a/1/deep']);
      if (path === '/b/1') return page('Page B1', []);
      if (path === '/a/1/deep') return page('Deep', ['/a/1/deep/deeper']);
      if (path === '/feed.xml') {
        return send(200, 'application/rss+xml', `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><link>${site}/</link>` +
          `<item><title>One</title><link>${site}/post/1</link><pubDate>Wed, 31 Jan 2018 20:15:15 GMT</pubDate></item>` +
          `<item><title>Two</title><link>${site}/post/2</link></item></channel></rss>`);
      }
      if (path.startsWith('/secret/')) return send(500, 'text/plain', 'robots.txt said no');
      return notFound();
    }

    if (host === 'bomb.test') {
      if (path === '/robots.txt') return send(200, 'text/plain', `Sitemap: ${site}/sitemap.xml.gz\nSitemap: ${site}/transport.xml\n`);
      if (path === '/sitemap.xml.gz') return send(200, 'application/x-gzip', bomb);
      if (path === '/transport.xml') return send(200, 'application/xml', transportBomb, { 'content-encoding': 'gzip' });
      if (path === '/') return send(200, 'text/html', '<html><head><title>Bomb site</title></head><body><a href="/about">About</a></body></html>');
      if (path === '/about') return send(200, 'text/html', '<html><head><title>About</title></head><body>Hi</body></html>');
      return notFound();
    }

    if (host === 'hop.test') {
      res.writeHead(301, { location: `${site.replace('hop.test', 'www.hop.test')}${path}` });
      return res.end();
    }
    if (host === 'www.hop.test') {
      if (path === '/robots.txt') return send(200, 'text/plain', readSite('robots/robots_google.txt'));
      if (path === '/start') {
        res.writeHead(302, { location: '/investment-guidance/setting-financial-goals.html' });
        return res.end();
      }
      if (path === '/investment-guidance/setting-financial-goals.html') return send(200, 'text/html; charset=utf-8', readSite('pages/tdameritrade-setting-financial-goals.html'));
      if (path === '/search/story') return send(200, 'text/html; charset=utf-8', readSite('pages/schwab-financial-planning-outlook.html'), { 'x-robots-tag': 'googlebot: noindex' });
      if (path === '/report.pdf') return send(200, 'application/pdf', '%PDF-1.4 not a page');
      if (path === '/down') return send(503, 'text/html', '<html>maintenance</html>');
      return notFound();
    }

    if (host === 'redirect.test') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      return res.end();
    }
    notFound();
  });
  const { port, close } = await listenOnLoopback(server);
  base = `http://127.0.0.1:${port}`;
  return { url: base, port, seen, close };
}
