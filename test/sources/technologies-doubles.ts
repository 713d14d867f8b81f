/**
 * Loopback doubles for domain.technologies: a DNS zone (the shared test zone plus `tech.test` with mail, name-server
 * and SPF records and a CDN alias) and one HTTP server for the test sites, told apart by Host:
 * - `tech.test` redirects to `www.tech.test` (same port), which answers a WordPress + WooCommerce page behind nginx
 *   and PHP, with cookies, a REST-API Link header, generator tags and scripts;
 * - `big.test` answers a 5 MB hostile page (tens of thousands of unclosed tags and script tags, one long line);
 * - `huge.test` answers 7 MB, more than the page cap;
 * - `redirect.test` redirects to the cloud metadata address;
 * - `bare.test` answers a page with nothing to detect.
 * The values are what those products emit on real sites (see fingerprints.json); the page itself is written here.
 */
import http from 'node:http';
import DNS from 'dns2';
import { listenOnLoopback, loopback, testZone, type Zone } from './openweb-doubles.js';

export function techZone(): Zone {
  const lo = loopback();
  return {
    ...testZone(),
    'tech.test': [
      ...lo,
      { type: 'MX', ttl: 3600, exchange: 'aspmx.l.google.com', priority: 1 },
      { type: 'MX', ttl: 3600, exchange: 'alt1.aspmx.l.google.com', priority: 5 },
      { type: 'NS', ttl: 86400, ns: 'ada.ns.cloudflare.com' },
      { type: 'NS', ttl: 86400, ns: 'bob.ns.cloudflare.com' },
      { type: 'TXT', ttl: 300, data: ['v=spf1 include:_spf.google.com ', 'include:sendgrid.net ~all'] },
      { type: 'TXT', ttl: 300, data: 'google-site-verification=q1w2e3r4t5' },
    ],
    // The site's www name is an alias of a CDN edge name, which (here) lives on loopback.
    'www.tech.test': [{ type: 'CNAME', ttl: 300, domain: 'www.tech.test.edgekey.net' }],
    'www.tech.test.edgekey.net': lo,
    'big.test': lo,
    'huge.test': lo,
    'bare.test': lo,
  };
}

export const WORDPRESS_PAGE = `<!DOCTYPE html>
<html lang="en-US">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tech Test &#8211; Just another site</title>
<meta name="generator" content="WordPress 6.4.2" />
<meta name="generator" content="WooCommerce 8.4.0">
<link rel='stylesheet' id='wp-block-library-css' href='http://www.tech.test/wp-includes/css/dist/block-library/style.min.css?ver=6.4.2' media='all' />
<script src="/wp-includes/js/jquery/jquery.min.js?ver=3.7.1" id="jquery-core-js"></script>
<script src="/wp-content/plugins/woocommerce/assets/js/frontend/woocommerce.min.js?ver=8.4.0" id="woocommerce-js" defer></script>
<script async src="https://www.googletagmanager.com/gtag/js?id=G-ABC123XYZ"></script>
<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);} gtag('js', new Date()); gtag('config', 'G-ABC123XYZ');</script>
</head>
<body class="home page-template-default">
<div class="wp-site-blocks"><p>Hello &amp; welcome.</p>
<img src="/wp-content/uploads/2024/01/logo.png" alt="">
</div>
</body>
</html>`;

/** 5 MB: 100,000 unclosed divs, 20,000 script tags, a 1 MB attribute and a 2 MB single line of text. */
export function hostilePage(): string {
  const head = '<html><head><meta name="generator" content="WordPress 6.4.2"><script src="https://cdn.shopify.com/s/a.js"></script></head><body>';
  const page =
    head +
    '<div class="x">'.repeat(100_000) +
    '<script src="/s/x.js?n=1"></script>'.repeat(20_000) +
    `<a title="${'&amp;'.repeat(200_000)}">` +
    'a'.repeat(2_000_000);
  return page + ' '.repeat(Math.max(0, 5 * 1024 * 1024 - page.length));
}

export interface TechSites {
  port: number;
  seen: { host: string; path: string }[];
  close(): Promise<void>;
}

export async function startTechSites(): Promise<TechSites> {
  const seen: { host: string; path: string }[] = [];
  const big = hostilePage();
  const server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    seen.push({ host, path: req.url ?? '/' });
    if (host === 'tech.test') {
      res.writeHead(301, { location: `http://www.tech.test:${port}/`, server: 'nginx/1.25.3' });
      return res.end();
    }
    if (host === 'www.tech.test') {
      res.writeHead(200, {
        'content-type': 'text/html; charset=UTF-8',
        server: 'nginx/1.25.3',
        'x-powered-by': 'PHP/8.2.12',
        link: '<http://www.tech.test/wp-json/>; rel="https://api.w.org/"',
        'set-cookie': [
          'PHPSESSID=9f2c1e0a7b; path=/; HttpOnly',
          'wordpress_test_cookie=WP%20Cookie%20check; Expires=Wed, 21 Oct 2026 07:28:00 GMT; path=/',
          'woocommerce_items_in_cart=1; path=/',
        ],
      });
      return res.end(WORDPRESS_PAGE);
    }
    if (host === 'redirect.test') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      return res.end();
    }
    if (host === 'big.test') {
      res.writeHead(200, { 'content-type': 'text/html', server: 'nginx' });
      return res.end(big);
    }
    if (host === 'huge.test') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(Buffer.alloc(7 * 1024 * 1024, 'a'));
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><html><head><title>Bare</title></head><body>Nothing here.</body></html>');
  });
  const { port, close } = await listenOnLoopback(server);
  return { port, seen, close };
}

/** A resolver that answers SERVFAIL to everything: DNS trouble while the site itself is reachable. */
export async function startBrokenDns(): Promise<{ server: string; close(): Promise<void> }> {
  const udp = DNS.createServer({
    udp: true,
    handle: (request: any, send: (r: any) => void) => {
      const response = DNS.Packet.createResponseFromRequest(request);
      response.header.rcode = 2; // SERVFAIL
      send(response);
    },
  } as any);
  await udp.listen({ udp: { port: 0, address: '127.0.0.1' } } as any);
  const port = (udp.addresses() as any).udp.port as number;
  return { server: `127.0.0.1:${port}`, close: async () => void (await udp.close()) };
}
