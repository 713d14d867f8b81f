/**
 * domain.technologies (issue 5): the pattern safety rules, the fingerprint format and its validation, the matcher
 * (versions, implies, evidence, confidence), the recorded pages of ../shared/upstream detected as what they are,
 * the operator's extra file, hostile input, and the endpoint end to end through the gateway with loopback HTTP and
 * DNS doubles (SSRF refusals, DNS evidence, test mode).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FingerprintError,
  builtInFingerprints,
  loadFingerprints,
  parseFingerprintFile,
  readFingerprintFile,
} from '../../src/sources/domain/technologies/fingerprints.js';
import { LIMITS, Matcher, type Signals } from '../../src/sources/domain/technologies/matcher.js';
import { unsafeReason } from '../../src/sources/domain/technologies/safe-regex.js';
import { htmlSlice, pageSignals, parseSetCookie } from '../../src/sources/domain/technologies/signals.js';
import { technologiesOp, technologiesTarget } from '../../src/sources/domain/technologies/index.js';
import { pruneData } from '../../src/render/prune.js';
import { post, startGateway, type TestGateway } from '../helpers/gateway.js';
import { UPSTREAM, startDnsDouble, startOpenWebGateway, type DnsDouble } from './openweb-doubles.js';
import { WORDPRESS_PAGE, hostilePage, startBrokenDns, startTechSites, techZone, type TechSites } from './technologies-doubles.js';
import { createUpstreamClient } from '../../src/upstream/client.js';
import sample from '../../src/sources/domain/samples/technologies.json' with { type: 'json' };

const PAGES = `${UPSTREAM}site/pages/`;
const HAVE_PAGES = existsSync(PAGES);
const PAGES_SKIP = HAVE_PAGES ? '' : ` (skipped: recordings not found at ${PAGES})`;

const matcher = new Matcher(builtInFingerprints());

function signals(over: Partial<Signals>): Signals {
  return { url: 'https://site.test/', headers: {}, cookies: {}, meta: [], scripts: [], html: '', dns: {}, ...over };
}
const byName = (list: { name: string }[]) => new Map(list.map((d) => [d.name, d as any]));

describe('pattern safety rules', () => {
  it('accepts ordinary fingerprint patterns', () => {
    for (const p of ['^nginx(?:/([\\d.]+))?', '\\.mail\\.protection\\.outlook\\.com$', '/wp-(?:content|includes)/', '^v=spf1 .{0,400}\\binclude:_spf\\.google\\.com\\b', '(\\d+)\\.(\\d+)']) {
      expect(unsafeReason(p), p).toBeUndefined();
    }
  });

  it('refuses catastrophic, polynomial and unsupported patterns with the rule broken', () => {
    expect(unsafeReason('(a+)+$')).toMatch(/repeated group contains a quantifier/);
    expect(unsafeReason('(?:\\w|\\d)*x')).toMatch(/repeated group contains a quantifier or an alternation/);
    expect(unsafeReason('^(\\w+\\s?)*$')).toMatch(/catastrophic/);
    expect(unsafeReason('\\w+\\w+x')).toMatch(/two unbounded quantifiers in a row/);
    expect(unsafeReason('(a)\\1')).toMatch(/backreferences/);
    expect(unsafeReason('(?<=x)y')).toMatch(/lookbehind/);
    expect(unsafeReason('a{1,5000}')).toMatch(/bound above 1000/);
    expect(unsafeReason('x'.repeat(401))).toMatch(/longer than 400/);
    expect(unsafeReason('([a-z')).toMatch(/not a valid regular expression/);
    expect(unsafeReason('a.*b.*c')).toMatch(/more than one unbounded/);
    expect(unsafeReason('<div.*generator', { largeInput: true })).toMatch(/in an html pattern/);
    expect(unsafeReason('<div.{0,200}generator', { largeInput: true })).toBeUndefined();
  });
});

describe('fingerprint files', () => {
  it('the built-in set loads: our own file plus the Retire.js-derived libraries, every implies resolved', () => {
    const set = builtInFingerprints();
    expect(Object.keys(set).length).toBeGreaterThan(150);
    expect(set.nginx.category).toBe('Web servers');
    // Joined script patterns: ours for jQuery, and Retire.js's for versioned CDN paths.
    expect(set.jQuery.scriptSrc!.length).toBeGreaterThan(1);
    const retire = JSON.parse(readFileSync(new URL('../../src/sources/domain/technologies/retire-scripts.json', import.meta.url), 'utf8'));
    expect(retire._origin.licence).toBe('Apache-2.0');
    expect(existsSync(new URL('../../src/sources/domain/technologies/retire-scripts.LICENSE', import.meta.url))).toBe(true);
  });

  it('names the place and the rule of every format error', () => {
    const bad = (json: unknown) => () => parseFingerprintFile(json, 'extra.json');
    expect(bad([])).toThrow(/extra.json: must be an object \{"technologies"/);
    expect(bad({ technologies: {}, extra: 1 })).toThrow(/unknown key "extra"/);
    expect(bad({ technologies: { X: {} } })).toThrow(/technologies\["X"\]\.category: required/);
    expect(bad({ technologies: { X: { category: 'CMS', header: {} } } })).toThrow(/technologies\["X"\]: unknown key "header"/);
    expect(bad({ technologies: { X: { category: 'CMS', headers: { server: 5 } } } })).toThrow(/headers\["server"\]: must be a regex string/);
    expect(bad({ technologies: { X: { category: 'CMS', scriptSrc: 'x' } } })).toThrow(/scriptSrc: must be a list of patterns/);
    expect(bad({ technologies: { X: { category: 'CMS', dns: { A: ['x'] } } } })).toThrow(/record type "A" is not one of MX, TXT, NS, CNAME/);
    expect(bad({ technologies: { X: { category: 'CMS', html: [{ pattern: 'x', confidence: 0 }] } } })).toThrow(/confidence: must be an integer from 1 to 100/);
    expect(bad({ technologies: { X: { category: 'CMS', html: ['(x+)+y'] } } })).toThrow(/technologies\["X"\]\.html\[0\]: a repeated group/);
  });

  describe('an operator file', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'quarry-tech-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const file = (name: string, body: string): string => {
      const f = path.join(dir, name);
      writeFileSync(f, body);
      return f;
    };

    it('is merged over the built-in set: new technologies added, a same-named one replaced', () => {
      const f = file('extra.json', JSON.stringify({
        _comment: 'ours',
        technologies: {
          'Acme CMS': { category: 'CMS', headers: { 'x-acme-version': '^([\\d.]+)$' }, implies: ['PHP'] },
          nginx: { category: 'Reverse proxies', headers: { server: '^nginx' } },
        },
      }));
      const set = loadFingerprints(f);
      expect(set['Acme CMS'].category).toBe('CMS');
      expect(set.nginx.category).toBe('Reverse proxies');
      expect(set.WordPress).toBeDefined();
      const found = byName(new Matcher(set).detect(signals({ headers: { 'x-acme-version': '3.1.4', server: 'nginx/1.25.3' } })));
      expect(found.get('Acme CMS')).toMatchObject({ version: '3.1.4', evidence: [{ kind: 'header', name: 'x-acme-version', value: '3.1.4' }] });
      expect(found.get('PHP')).toMatchObject({ impliedBy: ['Acme CMS'] });
      // The replacement has no version group.
      expect(found.get('nginx')).toMatchObject({ category: 'Reverse proxies', version: undefined });
    });

    it('is rejected with the file, the place and the rule: bad JSON, a pathological regex, an unknown implied name, a missing file', () => {
      expect(() => readFingerprintFile(file('broken.json', '{"technologies": {'))).toThrow(/broken\.json: not valid JSON/);
      const evil = file('evil.json', JSON.stringify({ technologies: { Evil: { category: 'X', html: ['^(a|aa)+$'] } } }));
      expect(() => loadFingerprints(evil)).toThrow(FingerprintError);
      expect(() => loadFingerprints(evil)).toThrow(/evil\.json: technologies\["Evil"\]\.html\[0\]: a repeated group contains a quantifier or an alternation/);
      const orphan = file('orphan.json', JSON.stringify({ technologies: { A: { category: 'X', implies: ['Nope'] } } }));
      expect(() => loadFingerprints(orphan)).toThrow(/orphan\.json: technologies\["A"\]\.implies names unknown technology "Nope"/);
      expect(() => loadFingerprints(path.join(dir, 'missing.json'))).toThrow(/missing\.json: cannot be read \(ENOENT\)/);
    });
  });
});

describe('matcher', () => {
  it('captures versions from the first group that matched, and tells look-alike servers apart', () => {
    const found = byName(matcher.detect(signals({
      headers: { server: 'Apache/2.4.57 (Debian)', 'x-powered-by': 'PHP/8.2.12' },
      meta: [{ name: 'generator', content: 'WordPress 6.4.2' }],
      scripts: ['https://site.test/wp-includes/js/jquery/jquery.min.js?ver=3.7.1', 'https://cdnjs.cloudflare.com/ajax/libs/lodash.js/4.17.21/lodash.min.js'],
    })));
    expect(found.get('Apache HTTP Server').version).toBe('2.4.57');
    expect(found.get('PHP').version).toBe('8.2.12');
    expect(found.get('WordPress').version).toBe('6.4.2');
    expect(found.get('jQuery').version).toBe('3.7.1');
    expect(found.get('Lodash')).toMatchObject({ version: '4.17.21', category: 'JavaScript libraries' });
    expect(found.get('cdnjs')).toBeDefined();
    const tomcat = byName(matcher.detect(signals({ headers: { server: 'Apache-Coyote/1.1' } })));
    expect(tomcat.has('Apache HTTP Server')).toBe(false);
    expect(tomcat.get('Apache Tomcat')).toMatchObject({ version: '1.1' });
    expect(byName(matcher.detect(signals({ headers: { server: 'nginx' } }))).get('nginx').version).toBeUndefined();
  });

  it('adds implied technologies transitively (WP Engine → WordPress → PHP, MySQL), marked impliedBy, without evidence of their own', () => {
    const found = byName(matcher.detect(signals({ headers: { 'x-powered-by': 'WP Engine' } })));
    expect(found.get('WP Engine').evidence).toEqual([{ kind: 'header', name: 'x-powered-by', value: 'WP Engine' }]);
    expect(found.get('WordPress')).toMatchObject({ impliedBy: ['WP Engine'], evidence: [], version: undefined });
    expect(found.get('PHP')).toMatchObject({ impliedBy: ['WordPress'] });
    expect(found.get('MySQL')).toMatchObject({ impliedBy: ['WordPress'] });
  });

  it('reports evidence per signal: header and meta values, cookie names only, the matched HTML, DNS records by type', () => {
    const found = byName(matcher.detect(signals({
      headers: { 'cf-ray': '8a1b2c3d4e5f-AMS', server: 'cloudflare' },
      cookies: { _shopify_y: 'secret-session-value' },
      html: '<p>x</p><script>var Shopify = Shopify || {}; Shopify.theme = {"name":"Dawn"};</script>',
      url: 'https://acme.myshopify.com/',
      dns: { MX: [{ host: 'acme.test', value: 'acme-test.mail.protection.outlook.com' }], NS: [{ host: 'acme.test', value: 'kim.ns.cloudflare.com' }] },
    })));
    expect(found.get('Cloudflare').evidence).toEqual([
      { kind: 'header', name: 'cf-ray', value: '8a1b2c3d4e5f-AMS' },
      { kind: 'header', name: 'server', value: 'cloudflare' },
    ]);
    const shopify = found.get('Shopify');
    expect(shopify.evidence).toContainEqual({ kind: 'cookie', name: '_shopify_y' });
    expect(JSON.stringify(shopify)).not.toContain('secret-session-value');
    expect(shopify.evidence).toContainEqual({ kind: 'html', value: 'Shopify.theme' });
    expect(shopify.evidence).toContainEqual({ kind: 'url', value: 'https://acme.myshopify.com/' });
    expect(found.get('Microsoft 365').evidence).toEqual([{ kind: 'dns', name: 'MX', value: 'acme-test.mail.protection.outlook.com' }]);
    expect(found.get('Cloudflare DNS').evidence).toEqual([{ kind: 'dns', name: 'NS', value: 'kim.ns.cloudflare.com' }]);
  });

  it('sums pattern confidences, capped at 100; a weak signal alone stays weak', () => {
    const weak = byName(matcher.detect(signals({ dns: { TXT: [{ host: 'a.test', value: 'MS=ms12345678' }] } })));
    expect(weak.get('Microsoft 365').confidence).toBe(50);
    const both = byName(matcher.detect(signals({ dns: { TXT: [{ host: 'a.test', value: 'MS=ms12345678' }], MX: [{ host: 'a.test', value: 'a-test.mail.protection.outlook.com' }] } })));
    expect(both.get('Microsoft 365').confidence).toBe(100);
  });

  it('finds nothing on a page with nothing to find', () => {
    expect(matcher.detect(signals({ html: '<html><body>plain</body></html>', headers: { 'content-type': 'text/html' } }))).toEqual([]);
  });
});

describe('signals', () => {
  it('reads Set-Cookie names although repeated headers were joined with commas and dates contain commas', () => {
    expect(Object.keys(parseSetCookie('a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT; path=/, PHPSESSID=x; path=/, _shopify_y=z'))).toEqual(['a', 'PHPSESSID', '_shopify_y']);
  });

  it('collects meta tags and absolute script addresses from the page', () => {
    const s = pageSignals({ url: 'http://www.tech.test/', status: 200, headers: {}, html: WORDPRESS_PAGE });
    expect(s.meta).toContainEqual({ name: 'generator', content: 'WordPress 6.4.2' });
    expect(s.scripts).toContain('http://www.tech.test/wp-includes/js/jquery/jquery.min.js?ver=3.7.1');
    expect(s.scripts).toContain('https://www.googletagmanager.com/gtag/js?id=G-ABC123XYZ');
  });

  it('a name or an address: a bare name is tried over https then http, a full address as given', () => {
    expect(technologiesTarget('Example.COM')).toEqual({ domain: 'example.com', urls: ['https://example.com/', 'http://example.com/'] });
    expect(technologiesTarget('http://www.example.com:8080/shop?x=1#top')).toEqual({ domain: 'www.example.com', urls: ['http://www.example.com:8080/shop?x=1'] });
    expect(() => technologiesTarget('ftp://example.com/')).toThrow(/^domain: only http and https/);
    expect(() => technologiesTarget('not a name')).toThrow(/^domain: not a domain name/);
  });

  it('a 5 MB hostile page (100,000 unclosed tags, 20,000 scripts, a 1 MB attribute) is read in bounded time and output', () => {
    const html = hostilePage();
    expect(html.length).toBeGreaterThanOrEqual(5 * 1024 * 1024);
    const started = performance.now();
    const s = pageSignals({ url: 'https://big.test/', status: 200, headers: {}, html });
    const found = byName(matcher.detect({ ...s, dns: {} }));
    const ms = performance.now() - started;
    expect(s.scripts.length).toBeLessThanOrEqual(LIMITS.scripts);
    expect(s.html.length).toBeLessThanOrEqual(LIMITS.html);
    expect(htmlSlice(html)).toBe(s.html);
    expect(found.get('WordPress')).toMatchObject({ version: '6.4.2' });
    expect(found.get('Shopify')).toBeDefined();
    // Linear work: a quadratic parser took minutes on this page. Generous bound for a loaded 2-core machine.
    expect(ms).toBeLessThan(5000);
  });
});

describe.skipIf(!HAVE_PAGES)(`recorded pages${PAGES_SKIP}`, () => {
  const detect = (file: string, url: string) =>
    byName(matcher.detect({ ...pageSignals({ url, status: 200, headers: {}, html: readFileSync(`${PAGES}${file}`, 'utf8') }), dns: {} }));

  it('TD Ameritrade: Adobe Experience Manager (clientlibs), Tealium, jQuery', () => {
    const found = detect('tdameritrade-setting-financial-goals.html', 'https://www.tdameritrade.com/investment-guidance/setting-financial-goals.html');
    expect([...found.keys()].sort()).toEqual(['Adobe Experience Manager', 'Java', 'Tealium', 'jQuery']);
    expect(found.get('Adobe Experience Manager').evidence[0]).toEqual({ kind: 'script', value: expect.stringMatching(/^https:\/\/www\.tdameritrade\.com\/etc\.clientlibs\//) });
    expect(found.get('Tealium').evidence).toContainEqual({ kind: 'script', value: 'https://tags.tiqcdn.com/utag/tdameritrade/rmarketing/prod/utag.sync.js' });
  });

  it('Schwab: Drupal (settings JSON, contrib module), New Relic; frameworks named only inside scripts are not reported', () => {
    const found = detect('schwab-financial-planning-outlook.html', 'https://www.schwab.com/learn/story/financial-planning-outlook');
    expect([...found.keys()].sort()).toEqual(['Drupal', 'New Relic', 'PHP']);
    expect(found.get('Drupal').evidence).toContainEqual({ kind: 'html', value: 'data-drupal-selector="drupal-settings-json"' });
    // The page's inline monitoring script probes for "[ng-app]" and "[data-reactroot]": not evidence of either.
    expect(found.has('AngularJS')).toBe(false);
    expect(found.has('React')).toBe(false);
  });

  it('the committed sample is what the matcher makes of the recorded page today', () => {
    const found = detect('tdameritrade-setting-financial-goals.html', sample.pages[0].data.url);
    expect(sample.pages[0].data.technologies.map((t) => t.name)).toEqual([...found.keys()]);
    expect(sample.pages[0].data.technologies).toEqual([...found.values()]);
  });
});

describe('domain.technologies through the gateway', () => {
  let gw: TestGateway;
  let dns: DnsDouble;
  let sites: TechSites;
  let key: string;
  let testKey: string;
  let accountId: string;
  const balance = async () => (await gw.gateway.deps.store.getAccount(accountId))!.balance;

  beforeAll(async () => {
    [dns, sites] = await Promise.all([startDnsDouble(techZone()), startTechSites()]);
    ({ gw, key, testKey, accountId } = await startOpenWebGateway(dns));
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([dns?.close(), sites?.close()]);
  });

  it('is in the catalogue: 1 credit, a day of cache, keyed', async () => {
    const r = await fetch(`${gw.url}/v1/catalogue`).then((x) => x.json());
    const e = r.data.endpoints.find((x: any) => x.id === 'domain.technologies');
    expect(e).toMatchObject({ available: true, credits: 1, keyless: false, cacheTtlSeconds: 86400, example: { domain: 'wordpress.org' } });
  });

  it('a site behind a redirect: headers, cookies, meta, scripts and DNS evidence; billed 1', async () => {
    const before = await balance();
    const r = await post(gw.url, '/v1/domain/technologies', { domain: `http://tech.test:${sites.port}/` }, { key });
    expect(r.status, r.text).toBe(200);
    expect(r.json.creditsUsed).toBe(1);
    const d = r.json.data;
    expect(d).toMatchObject({ domain: 'tech.test', url: `http://www.tech.test:${sites.port}/`, status: 200, dnsChecked: true });
    const found = byName(d.technologies);
    expect(found.get('nginx')).toMatchObject({ category: 'Web servers', version: '1.25.3', confidence: 100, evidence: [{ kind: 'header', name: 'server', value: 'nginx/1.25.3' }] });
    expect(found.get('PHP')).toMatchObject({ version: '8.2.12' });
    expect(found.get('PHP').evidence).toEqual([{ kind: 'header', name: 'x-powered-by', value: 'PHP/8.2.12' }, { kind: 'cookie', name: 'PHPSESSID' }]);
    const wp = found.get('WordPress');
    expect(wp.version).toBe('6.4.2');
    expect(wp.evidence.map((e: any) => e.kind).sort()).toEqual(['cookie', 'header', 'html', 'meta', 'script', 'script']);
    expect(found.get('WooCommerce')).toMatchObject({ version: '8.4.0' });
    expect(found.get('jQuery')).toMatchObject({ version: '3.7.1' });
    expect(found.get('Google Analytics').evidence).toContainEqual({ kind: 'script', value: 'https://www.googletagmanager.com/gtag/js?id=G-ABC123XYZ' });
    // DNS: MX and SPF of the apex, its name servers, and the final host's alias to a CDN.
    expect(found.get('Google Workspace').evidence).toEqual([
      { kind: 'dns', name: 'MX', value: 'aspmx.l.google.com' },
      { kind: 'dns', name: 'MX', value: 'alt1.aspmx.l.google.com' },
      { kind: 'dns', name: 'TXT', value: 'v=spf1 include:_spf.google.com include:sendgrid.net ~all' },
    ]);
    expect(found.get('SendGrid')).toMatchObject({ category: 'Email delivery' });
    expect(found.get('Cloudflare DNS').evidence).toContainEqual({ kind: 'dns', name: 'NS', value: 'ada.ns.cloudflare.com' });
    expect(found.get('Akamai').evidence).toEqual([{ kind: 'dns', name: 'CNAME', value: 'www.tech.test.edgekey.net' }]);
    expect(found.get('Google Search Console')).toBeDefined();
    // Pruned like every answer: an unknown version and an implied technology's empty evidence are left out.
    expect(found.get('MySQL')).toEqual({ name: 'MySQL', category: 'Databases', confidence: 100, impliedBy: ['WordPress'], website: 'https://www.mysql.com' });
    expect(sites.seen.map((s) => s.host)).toEqual(['tech.test', 'www.tech.test']);
    expect(await balance()).toBe(before - 1);
  });

  it('a redirect to 169.254.169.254 is refused with a 400 naming the field; not billed', async () => {
    const before = await balance();
    const r = await post(gw.url, '/v1/domain/technologies', { domain: `http://redirect.test:${sites.port}/` }, { key });
    expect(r.status, r.text).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'invalidRequest', retryable: false });
    expect(r.json.error.message).toBe('domain: the site points to a private or reserved address (directly or through a redirect)');
    expect(sites.seen.filter((s) => s.host === 'redirect.test')).toHaveLength(1);
    expect(await balance()).toBe(before);
  });

  it('a name resolving to 10.0.0.1 is refused before any connection; not billed', async () => {
    const before = await balance();
    const r = await post(gw.url, '/v1/domain/technologies', { domain: 'private.test' }, { key });
    expect(r.status, r.text).toBe(400);
    expect(r.json.error.message).toMatch(/^domain: the site points to a private or reserved address/);
    expect(dns.queries.some((q) => q.name === 'private.test')).toBe(true);
    expect(await balance()).toBe(before);
  });

  it('a page larger than the cap fails clearly (502 sourceChanged), not billed', async () => {
    const before = await balance();
    const r = await post(gw.url, '/v1/domain/technologies', { domain: `http://huge.test:${sites.port}/` }, { key });
    expect(r.status, r.text).toBe(502);
    expect(r.json.error).toMatchObject({ code: 'sourceChanged' });
    expect(r.json.error.message).toMatch(/larger than 6291456 bytes/);
    expect(await balance()).toBe(before);
  });

  it('the 5 MB hostile page answers through the gateway in bounded time', async () => {
    const started = Date.now();
    const r = await post(gw.url, '/v1/domain/technologies', { domain: `http://big.test:${sites.port}/` }, { key });
    expect(r.status, r.text).toBe(200);
    expect(byName(r.json.data.technologies).get('WordPress')).toMatchObject({ version: '6.4.2' });
    expect(Date.now() - started).toBeLessThan(8000);
  });

  it('a site with nothing recognisable answers 200 with no technologies and is not billed', async () => {
    const before = await balance();
    const r = await post(gw.url, '/v1/domain/technologies', { domain: `http://bare.test:${sites.port}/` }, { key });
    expect(r.status, r.text).toBe(200);
    expect(r.json.creditsUsed).toBe(0);
    expect(r.json.data).toEqual({ domain: 'bare.test', url: `http://bare.test:${sites.port}/`, status: 200, dnsChecked: true });
    expect(await balance()).toBe(before);
  });

  it('DNS trouble does not fail the call: the page still answers, dnsChecked false, the problem logged', async () => {
    const broken = await startBrokenDns();
    // The site is reached through the working resolver (the SSRF guard's), the records asked of the broken one.
    const http = createUpstreamClient({ source: 'domain', retries: 0, ssrfAllow: ['127.0.0.1/32'], dnsServers: [dns.server] });
    const warnings: string[] = [];
    const log = { info: () => undefined, error: () => undefined, warn: (o: object, m?: string) => void warnings.push(`${m} ${JSON.stringify(o)}`) };
    try {
      const r = await technologiesOp.run({ domain: `http://www.tech.test:${sites.port}/` }, { signal: new AbortController().signal, http, log, settings: { DNS_SERVERS: broken.server } });
      const data = r.data as any;
      expect(data.dnsChecked).toBe(false);
      expect(byName(data.technologies).get('WordPress')).toMatchObject({ version: '6.4.2' });
      expect(data.technologies.some((t: any) => t.evidence.some((e: any) => e.kind === 'dns'))).toBe(false);
      expect(warnings.join('\n')).toMatch(/DNS records unavailable.*could not answer/);
    } finally {
      await http.close();
      await broken.close();
    }
  });

  it('bad input is a 400 naming the field', async () => {
    const r = await post(gw.url, '/v1/domain/technologies', { domain: 'not a domain' }, { key });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toMatch(/^domain: /);
  });

  it('a test-mode key answers the committed sample, never goes upstream, spends nothing', async () => {
    const before = await balance();
    const seen = [sites.seen.length, dns.queries.length];
    const r = await post(gw.url, '/v1/domain/technologies', { domain: `http://tech.test:${sites.port}/` }, { key: testKey });
    expect(r.status, r.text).toBe(200);
    // Test mode shows what the call would cost; the balance does not move.
    expect(r.json.creditsUsed).toBe(1);
    expect(r.json.data).toEqual(pruneData(sample.pages[0].data as never));
    expect([sites.seen.length, dns.queries.length]).toEqual(seen);
    expect(await balance()).toBe(before);
  });
});

describe('an invalid operator fingerprint file through the gateway', () => {
  let gw: TestGateway;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'quarry-tech-gw-'));
    const file = path.join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ technologies: { Evil: { category: 'X', headers: { server: '(x+)+$' } } } }));
    gw = await startGateway({ QUARRY_DOMAIN_FINGERPRINTS_FILE: file, QUARRY_UPSTREAM_RETRIES: '0' });
  });
  afterAll(async () => {
    await gw?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails the call unbilled with a clear message and logs the file, the place and the rule', async () => {
    const acct = await gw.accounts.createAccount({ credits: 10 });
    const r = await post(gw.url, '/v1/domain/technologies', { domain: 'example.com' }, { key: acct.apiKey });
    expect(r.status, r.text).toBe(503);
    expect(r.json.error).toMatchObject({ code: 'sourceUnavailable', retryable: false });
    expect(r.json.error.message).toBe('domain: the technology fingerprints of this server are misconfigured (see its log)');
    expect((await gw.gateway.deps.store.getAccount(acct.accountId))!.balance).toBe(10);
    const line = gw.logLines.find((l) => l.includes('QUARRY_DOMAIN_FINGERPRINTS_FILE rejected'));
    expect(line).toMatch(/bad\.json: technologies\[\\"Evil\\"\]\.headers\[\\"server\\"\]: a repeated group contains a quantifier/);
  });
});
