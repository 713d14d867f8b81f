/**
 * Loopback sites for web.contacts, one HTTP server told apart by Host. `www.acme.test` serves the real recorded
 * TD Ameritrade page as its home page (its absolute links rewritten from www.tdameritrade.com to this server, so
 * nothing can leave loopback) plus hand-made contact and about pages (labelled as such below); the other hosts are
 * the hostile cases: a 20 MB page, a site that never answers, a redirect to the cloud metadata address, a PDF;
 * `big.test` links to a 20 MB contact page, an about page redirecting to the metadata address and a team page
 * redirecting to another site.
 */
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { UPSTREAM, listenOnLoopback, loopback, testZone, type Zone } from './openweb-doubles.js';

export const TDA_PAGE = 'site/pages/tdameritrade-setting-financial-goals.html';
export const SCHWAB_PAGE = 'site/pages/schwab-financial-planning-outlook.html';
export const HAVE_PAGES = existsSync(`${UPSTREAM}${TDA_PAGE}`) && existsSync(`${UPSTREAM}${SCHWAB_PAGE}`);
export const PAGES_SKIP = HAVE_PAGES ? '' : ` (skipped: recorded pages not found at ${UPSTREAM}site/pages)`;

export const readPageRecording = (path: string): string => readFileSync(`${UPSTREAM}${path}`, 'utf8');

const lo = loopback();

/** The shared test zone plus the contacts sites. */
export function contactsZone(): Zone {
  return {
    ...testZone(),
    'acme.test': lo,
    'www.acme.test': lo,
    'big.test': lo,
    'huge.test': lo,
    'silent.test': lo,
    'meta.test': lo,
    'pdf.test': lo,
    'quiet.test': lo,
    'slow.test': lo,
  };
}

/** Hand-made contact page (not a recording): the disguises and traps the extractor must handle. */
export const CONTACT_PAGE = `<!doctype html><html lang="de-DE"><head><title>Contact us | Acme</title></head><body>
<nav><a href="/">Home</a></nav>
<main>
 <h1>Contact us</h1>
 <p>Sales: sales [at] acme-widgets [dot] com</p>
 <p>Support: <a href="mailto:Support@Acme-Widgets.com?subject=Hello%20there">write to support</a></p>
 <p>Jobs: jobs(at)acme-widgets(dot)com</p>
 <p>Protected: <a href="/cdn-cgi/l/email-protection" class="__cf_email__" data-cfemail="5a33343c351a3b39373f772d333e3d3f2e2974393537">[email&#160;protected]</a></p>
 <p>Telefon: <a href="tel:+49-30-1234567">030 1234567</a></p>
 <p>Phone: +44 20 7946 0958</p>
 <p>Fax: +49 30 1234568</p>
 <p>Order 2023-01-12, reference 4711</p>
 <img src="/img/logo@2x.png" alt=""><span>sprite: icon@2x.png</span>
 <a href="https://twitter.com/intent/tweet?text=hi">Share on X</a>
 <a href="https://www.facebook.com/sharer/sharer.php?u=x">Share on Facebook</a>
 <a href="https://www.linkedin.com/company/acme-widgets/">LinkedIn</a>
 <a href="https://instagram.com/acmewidgets">Instagram</a>
 <a href="https://github.com/acme-widgets/widget-sdk">GitHub</a>
</main>
<footer><a href="/about-us.html">About</a> <a href="/impressum">Impressum</a></footer>
</body></html>`;

/** Hand-made about page (not a recording): entity-encoded address, a number already seen elsewhere, a profile. */
export const ABOUT_PAGE = `<!doctype html><html lang="en-US"><head><title>About Acme</title></head><body>
<p>Press: &#112;ress&#64;acme-widgets&#46;com</p>
<p>Call us: <a href="tel:+441632960961">+44 1632 960961</a> or +49 30 1234567</p>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","email":"mailto:hello@acme-widgets.com",
 "sameAs":["https://www.youtube.com/@acmewidgets","https://x.com/acmewidgets"]}</script>
</body></html>`;

/** robots.txt of www.acme.test (hand-made): the form library and the privacy page are off limits. */
export const ACME_ROBOTS = `User-agent: *
Disallow: /why-td-ameritrade/contact-us/form-library.html
Disallow: /privacy-policies.html

User-agent: Googlebot
Disallow:
`;

export interface ContactsSites {
  port: number;
  seen: { host: string; path: string }[];
  close(): Promise<void>;
}

export async function startContactsSites(): Promise<ContactsSites> {
  const seen: { host: string; path: string }[] = [];
  let port = 0;
  const html = (res: http.ServerResponse, body: string, status = 200): void => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  };
  const server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    seen.push({ host, path });
    if (host === 'acme.test') {
      res.writeHead(301, { location: `http://www.acme.test:${port}${req.url}` });
      return res.end();
    }
    if (host === 'www.acme.test') {
      if (path === '/robots.txt') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end(ACME_ROBOTS);
      }
      if (path === '/') {
        const page = readPageRecording(TDA_PAGE).replaceAll('https://www.tdameritrade.com/', `http://www.acme.test:${port}/`);
        return html(res, page);
      }
      if (path === '/why-td-ameritrade/contact-us.html') return html(res, CONTACT_PAGE);
      if (path === '/about-us.html') return html(res, ABOUT_PAGE);
      return html(res, '<html><body>Not found</body></html>', 404);
    }
    if (host === 'big.test') {
      if (path === '/') {
        return html(res, '<html><body><p>Small home</p><footer><a href="/contact">Contact</a> <a href="/about">About</a> <a href="/team">Team</a></footer></body></html>');
      }
      if (path === '/contact') return streamHuge(res);
      if (path === '/about') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
        return res.end();
      }
      if (path === '/team') {
        res.writeHead(302, { location: `http://quiet.test:${port}/` });
        return res.end();
      }
      return html(res, 'nothing', 404);
    }
    if (host === 'slow.test') {
      // The home page answers; its contact page never does.
      if (path === '/') return html(res, '<html><body><p>Hello</p><footer><a href="/contact">Contact</a></footer></body></html>');
      if (path === '/robots.txt') return html(res, 'nothing', 404);
      return;
    }
    if (host === 'quiet.test') {
      if (path === '/') return html(res, '<html><head><title>Quiet</title></head><body><p>Nothing to see here.</p></body></html>');
      return html(res, 'nothing', 404);
    }
    if (host === 'meta.test') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      return res.end();
    }
    if (host === 'pdf.test') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      return res.end('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
    }
    if (host === 'huge.test') return streamHuge(res);
    // silent.test: the connection is accepted and never answered.
    if (host === 'silent.test') return;
    html(res, 'unknown host', 404);
  });
  const listening = await listenOnLoopback(server);
  port = listening.port;
  return { port, seen, close: listening.close };
}

/** 20 MB of HTML, written as fast as the socket takes it, without a content-length. */
function streamHuge(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/html' });
  const chunk = Buffer.alloc(64 * 1024, '<p>filler text</p>');
  let sent = 0;
  res.on('error', () => undefined);
  const pump = (): void => {
    while (sent < 20 * 1024 * 1024) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
}
