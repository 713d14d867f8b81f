/**
 * shopify.store, domain.dns and domain.whois end to end through the gateway (issue 5): every outbound exchange goes
 * to real servers on loopback (DNS, HTTP sites, WHOIS, RDAP) named through QUARRY_DNS_SERVERS, the RDAP bootstrap and
 * servers at their real addresses through QUARRY_UPSTREAM_OVERRIDES, let through the SSRF guard by
 * QUARRY_OUTBOUND_ALLOW; 200 envelopes, billing, and test mode from the committed samples.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneData } from '../../src/render/prune.js';
import { normaliseMeta } from '../../src/sources/shopify/normalise.js';
import { normaliseRdap } from '../../src/sources/domain/rdap.js';
import { post, type TestGateway } from '../helpers/gateway.js';
import {
  OPENWEB_SKIP,
  HAVE_OPENWEB,
  readJson,
  startDnsDouble,
  startOpenWebGateway,
  startRdapDouble,
  startSites,
  startWhoisDouble,
  type DnsDouble,
  type RdapDouble,
  type Sites,
  type WhoisDouble,
} from './openweb-doubles.js';
import storeSample from '../../src/sources/shopify/samples/store.json' with { type: 'json' };
import whoisSample from '../../src/sources/domain/samples/whois.json' with { type: 'json' };
import dnsSample from '../../src/sources/domain/samples/dns.json' with { type: 'json' };

describe.skipIf(!HAVE_OPENWEB)(`open-web sources through the gateway${OPENWEB_SKIP}`, () => {
  let gw: TestGateway;
  let dns: DnsDouble;
  let sites: Sites;
  let whois: WhoisDouble;
  let rdap: RdapDouble;
  let key: string;
  let testKey: string;
  let accountId: string;
  const balance = async () => (await gw.gateway.deps.store.getAccount(accountId))!.balance;

  beforeAll(async () => {
    [dns, sites, whois, rdap] = await Promise.all([startDnsDouble(), startSites(), startWhoisDouble(), startRdapDouble()]);
    ({ gw, key, testKey, accountId } = await startOpenWebGateway(dns, {
      QUARRY_WHOIS_PORT: String(whois.port),
      QUARRY_UPSTREAM_OVERRIDES: rdap.overrides,
    }));
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([dns?.close(), sites?.close(), whois?.close(), rdap?.close()]);
  });

  it('catalogue lists the three endpoints as available, priced 1 credit', async () => {
    const r = await fetch(`${gw.url}/v1/catalogue`).then((x) => x.json());
    const byId = new Map(r.data.endpoints.map((e: any) => [e.id, e]));
    for (const id of ['shopify.store', 'domain.dns', 'domain.whois']) {
      expect(byId.get(id), id).toMatchObject({ available: true, credits: 1, keyless: false });
      expect((byId.get(id) as any).example).toBeTruthy();
    }
    expect(byId.get('domain.dns')).toMatchObject({ cacheTtlSeconds: 300 });
    expect(byId.get('domain.whois')).toMatchObject({ cacheTtlSeconds: 86400 });
  });

  it('shopify.store: a URL store keeps its scheme and port; the recorded meta.json becomes the SPEC record; billed 1', async () => {
    const before = await balance();
    const r = await post(gw.url, '/v1/shopify/store', { store: `http://shop.test:${sites.port}/collections/all` }, { key });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ success: true, creditsUsed: 1 });
    const meta = readJson('storefront/meta.davidan.json');
    expect(r.json.data.store).toEqual(pruneData({ store: normaliseMeta(meta, `http://shop.test:${sites.port}`) } as never).store);
    expect(r.json.data.store).toMatchObject({ isStorefront: true, platformDomain: 'ladanutmd.myshopify.com', products: 62, collections: 4 });
    expect(sites.seen.some((s) => s.host === 'shop.test' && s.path === '/meta.json')).toBe(true);
    expect(await balance()).toBe(before - 1);
  });

  it('shopify.store: a site on another platform is isStorefront false, 200, not an error', async () => {
    const r = await post(gw.url, '/v1/shopify/store', { store: `http://plain.test:${sites.port}` }, { key });
    expect(r.status, r.text).toBe(200);
    expect(r.json.data.store).toEqual({ url: `http://plain.test:${sites.port}`, isStorefront: false, domain: 'plain.test' });
  });

  it('shopify.store: a redirect to 169.254.169.254 fails at once with a clear 400, not billed, nothing sent there', async () => {
    const before = await balance();
    const t0 = Date.now();
    const r = await post(gw.url, '/v1/shopify/store', { store: `http://redirect.test:${sites.port}` }, { key });
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'invalidRequest', retryable: false });
    expect(r.json.error.message).toMatch(/private or reserved address/);
    expect(await balance()).toBe(before);
  });

  it('shopify.store: a name resolving to 10.0.0.1 is refused by the guard (through QUARRY_DNS_SERVERS)', async () => {
    const r = await post(gw.url, '/v1/shopify/store', { store: 'private.test' }, { key });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toMatch(/private or reserved address/);
    expect(dns.queries.some((q) => q.name === 'private.test')).toBe(true);
  });

  it('domain.dns: records of the requested types with TTLs, from QUARRY_DNS_SERVERS; billed 1', async () => {
    const before = await balance();
    const r = await post(gw.url, '/v1/domain/dns', { domain: 'https://Example.TEST/path', types: ['A', 'MX', 'TXT', 'SOA', 'CAA'] }, { key });
    expect(r.status, r.text).toBe(200);
    expect(r.json.creditsUsed).toBe(1);
    const d = r.json.data;
    expect(d).toMatchObject({ domain: 'example.test', exists: true });
    expect(d.records.filter((x: any) => x.type === 'A').map((x: any) => [x.address, x.ttl])).toEqual([['192.0.2.10', 300], ['192.0.2.11', 300]]);
    expect(d.records.find((x: any) => x.type === 'MX')).toEqual({ type: 'MX', name: 'example.test', ttl: 3600, value: '10 mx1.example.test', priority: 10, target: 'mx1.example.test' });
    expect(d.records.find((x: any) => x.type === 'TXT' && x.text.startsWith('v=spf1')).text).toBe('v=spf1 include:_spf.example.test -all');
    expect(d.records.find((x: any) => x.type === 'SOA')).toMatchObject({ ttl: 3600, primaryNameServer: 'ns1.example.test', adminEmail: 'hostmaster@example.test', serial: 2026112101 });
    expect(d.records.find((x: any) => x.type === 'CAA')).toMatchObject({ flags: 0, tag: 'issue', text: 'letsencrypt.org' });
    expect(await balance()).toBe(before - 1);
  });

  it('domain.dns: an unknown name answers exists false', async () => {
    const r = await post(gw.url, '/v1/domain/dns', { domain: 'nothing-here.test', types: ['A'] }, { key });
    expect(r.status, r.text).toBe(200);
    expect(r.json.data).toEqual({ domain: 'nothing-here.test', exists: false });
  });

  it('domain.dns: bad input is a 400 naming the field', async () => {
    const r = await post(gw.url, '/v1/domain/dns', { domain: 'not a domain', types: ['A'] }, { key });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toMatch(/^domain: /);
    const t = await post(gw.url, '/v1/domain/dns', { domain: 'example.test', types: ['ANY'] }, { key });
    expect(t.status).toBe(400);
    expect(t.json.error.message).toMatch(/types/);
  });

  it('domain.whois: RDAP from the bootstrap answers a .com name (recorded Verisign answer); billed 1', async () => {
    const before = await balance();
    const r = await post(gw.url, '/v1/domain/whois', { domain: '20c.com' }, { key });
    expect(r.status, r.text).toBe(200);
    expect(r.json.creditsUsed).toBe(1);
    const expected = normaliseRdap(readJson('domain/rdap/20c.com.verisign.json'), '20c.com');
    expect(r.json.data).toMatchObject({ via: 'rdap', domain: '20c.com', registered: true, createdAt: expected.createdAt, expiresAt: expected.expiresAt });
    expect(r.json.data.server).toBe('https://rdap.verisign.com/com/v1/');
    expect(rdap.seen).toContain('data.iana.org/rdap/dns.json');
    expect(rdap.seen).toContain('rdap.verisign.com/com/v1/domain/20c.com');
    expect(await balance()).toBe(before - 1);
  });

  it('domain.whois: RDAP down → port 43: IANA, the registry, then the registrar it refers to', async () => {
    rdap.failing.add('google.com');
    whois.queries.length = 0;
    const r = await post(gw.url, '/v1/domain/whois', { domain: 'google.com' }, { key });
    expect(r.status, r.text).toBe(200);
    expect(whois.queries).toEqual(['com', 'domain google.com', 'google.com']);
    expect(r.json.data).toMatchObject({ via: 'whois', server: 'whois.markmonitor.com', registered: true, registrar: { name: 'MarkMonitor, Inc.', ianaId: '292' } });
    expect(r.json.data.createdAt).toBe('1997-09-15T07:00:00Z');
    expect(r.json.data.nameServers).toContain('ns1.google.com');
  });

  it('domain.whois: a leading www. is dropped (registration data belongs to the registered name)', async () => {
    const r = await post(gw.url, '/v1/domain/whois', { domain: 'https://www.20c.com/' }, { key });
    expect(r.status, r.text).toBe(200);
    expect(r.json.data).toMatchObject({ domain: '20c.com', via: 'rdap' });
  });

  it('domain.whois: a 10 MB WHOIS answer fails quickly and clearly (502 sourceChanged), not billed', async () => {
    rdap.failing.add('huge.com');
    const before = await balance();
    const t0 = Date.now();
    const r = await post(gw.url, '/v1/domain/whois', { domain: 'huge.com' }, { key });
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(r.status).toBe(502);
    expect(r.json.error.code).toBe('sourceChanged');
    expect(r.json.error.message).toMatch(/WHOIS answer from whois.verisign-grs.com is larger than 1048576 bytes/);
    expect(await balance()).toBe(before);
  });

  it('domain.whois: an unregistered name answers registered false (RDAP 404)', async () => {
    const r = await post(gw.url, '/v1/domain/whois', { domain: 'no-such-name-here.com' }, { key });
    expect(r.status, r.text).toBe(200);
    expect(r.json.data).toMatchObject({ domain: 'no-such-name-here.com', registered: false, via: 'rdap' });
  });

  it('test mode: each endpoint answers its committed sample, never upstream, no credits spent', async () => {
    const before = await balance();
    const seen = [sites.seen.length, rdap.seen.length, whois.queries.length, dns.queries.length];
    const s = await post(gw.url, '/v1/shopify/store', { store: 'example.com' }, { key: testKey });
    expect(s.status, s.text).toBe(200);
    expect(s.json.creditsUsed).toBe(1);
    expect(s.json.data.store).toEqual(pruneData(storeSample.pages[0].data as never).store);
    const w = await post(gw.url, '/v1/domain/whois', { domain: 'example.com' }, { key: testKey });
    expect(w.status, w.text).toBe(200);
    expect(w.json.data).toEqual(pruneData(whoisSample.pages[0].data as never));
    const d = await post(gw.url, '/v1/domain/dns', { domain: 'example.com', types: ['MX', 'SRV'] }, { key: testKey });
    expect(d.status, d.text).toBe(200);
    expect(d.json.data.records).toEqual(dnsSample.pages[0].data.records.filter((x) => x.type === 'MX'));
    expect(d.json.data.noRecords).toEqual(['SRV']);
    expect([sites.seen.length, rdap.seen.length, whois.queries.length, dns.queries.length]).toEqual(seen);
    expect(await balance()).toBe(before);
  });
});
