/**
 * shopify.store against real HTTP sites on loopback (names from a loopback DNS server, the SSRF guard on): the
 * recorded meta.json, counts from paged lists when meta.json has none, a storefront hiding meta.json, a site on
 * another platform, and the caller's address rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOPIFY } from '../../src/catalogue/endpoints/shopify.js';
import { compileRecordCheck } from '../../src/catalogue/records.js';
import { QuarryError } from '../../src/errors.js';
import shopify from '../../src/sources/shopify/index.js';
import { storeOrigin } from '../../src/sources/shopify/client.js';
import { isStorefrontMeta, normaliseMeta } from '../../src/sources/shopify/normalise.js';
import type { SourceContext } from '../../src/sources/types.js';
import { createUpstreamClient } from '../../src/upstream/client.js';
import { HAVE_OPENWEB, OPENWEB_SKIP, readJson, startDnsDouble, startSites, type DnsDouble, type Sites } from './openweb-doubles.js';

const op = shopify.operations.find((o) => o.endpoint.id === 'shopify.store')!;

describe('storefront input and normaliser (no recordings needed)', () => {
  it('storeOrigin: a domain → https origin; an address keeps scheme and port; junk → 400 naming store', () => {
    expect(storeOrigin('Example.com')).toBe('https://example.com');
    expect(storeOrigin('example.com/products/x')).toBe('https://example.com');
    expect(storeOrigin('http://shop.example.com:8080/x?y')).toBe('http://shop.example.com:8080');
    for (const bad of ['ftp://example.com', 'exa mple.com', 'file:///etc/passwd', 'example.com:8080']) {
      expect(() => storeOrigin(bad), bad).toThrow(/^store: /);
    }
  });

  it('a JSON answer that is not a storefront meta is not a storefront', () => {
    expect(isStorefrontMeta({ name: 'x' })).toBe(false);
    expect(isStorefrontMeta([])).toBe(false);
    expect(isStorefrontMeta({ myshopify_domain: 'a.myshopify.com' })).toBe(true);
  });

  it('drift: a meta.json without its name and with the product count renamed is not a storefront record', () => {
    const check = compileRecordCheck(SHOPIFY.store.output!);
    const healthy = { myshopify_domain: 'a.myshopify.com', id: 1, name: 'A', currency: 'EUR', domain: 'a.com', published_products_count: 3, published_collections_count: 1 };
    expect(check({ store: normaliseMeta(healthy, 'https://a.com') })).toBeNull();
    const { name: _n, published_products_count: count, ...rest } = healthy;
    const drifted = normaliseMeta({ ...rest, products_published: count }, 'https://a.com');
    expect(check({ store: drifted })).toBe("data.store.name: missing");
    // Sites that are not storefronts, or hide meta.json, stay valid records.
    expect(check({ store: { url: 'https://b.com', isStorefront: false, domain: 'b.com' } })).toBeNull();
    expect(check({ store: { url: 'https://c.com', isStorefront: true, domain: 'c.com' } })).toBeNull();
  });

  it('sample(): the committed record', async () => {
    const r = await op.sample({ store: 'anything.com' });
    expect(r.data.store).toMatchObject({ isStorefront: true, name: 'DaviDan Bakery', products: 62 });
  });
});

describe.skipIf(!HAVE_OPENWEB)(`shopify.store against loopback sites${OPENWEB_SKIP}`, () => {
  let dns: DnsDouble;
  let sites: Sites;
  let http: ReturnType<typeof createUpstreamClient>;
  const ctx = (): SourceContext => ({
    signal: new AbortController().signal,
    http,
    log: { info() {}, warn() {}, error() {} },
    settings: {},
  });

  beforeAll(async () => {
    [dns, sites] = await Promise.all([startDnsDouble({
      'shop.test': [{ type: 'A', ttl: 60, address: '127.0.0.1' }],
      'counted.test': [{ type: 'A', ttl: 60, address: '127.0.0.1' }],
      'hidden.test': [{ type: 'A', ttl: 60, address: '127.0.0.1' }],
      'plain.test': [{ type: 'A', ttl: 60, address: '127.0.0.1' }],
      'redirect.test': [{ type: 'A', ttl: 60, address: '127.0.0.1' }],
    }), startSites()]);
    // As the composition root does with QUARRY_DNS_SERVERS: the guard resolves through the test's DNS server.
    http = createUpstreamClient({ source: 'shopify', retries: 0, ssrfAllow: ['127.0.0.1/32'], dnsServers: [dns.server] });
  });
  afterAll(async () => {
    await http?.close();
    await Promise.all([dns?.close(), sites?.close()]);
  });

  it('the recorded meta.json → the SPEC record', async () => {
    const origin = `http://shop.test:${sites.port}`;
    const r = await op.run({ store: origin }, ctx());
    expect(r.data.store).toEqual(normaliseMeta(readJson('storefront/meta.davidan.json'), origin));
  });

  it('counts come from /products.json and /collections.json pages when meta.json has none', async () => {
    sites.seen.length = 0;
    const r = await op.run({ store: `http://counted.test:${sites.port}` }, ctx());
    expect(r.data.store).toMatchObject({ isStorefront: true, products: 257, collections: 2 });
    expect(sites.seen.map((s) => s.path)).toEqual([
      '/meta.json',
      '/products.json?limit=250&page=1',
      '/products.json?limit=250&page=2',
      '/collections.json?limit=250&page=1',
    ]);
  });

  it('a storefront hiding meta.json (platform headers) is a storefront without details', async () => {
    const r = await op.run({ store: `http://hidden.test:${sites.port}` }, ctx());
    expect(r.data.store).toEqual({ url: `http://hidden.test:${sites.port}`, isStorefront: true, domain: 'hidden.test' });
  });

  it('a site on another platform → isStorefront false', async () => {
    const r = await op.run({ store: `http://plain.test:${sites.port}` }, ctx());
    expect(r.data.store).toEqual({ url: `http://plain.test:${sites.port}`, isStorefront: false, domain: 'plain.test' });
  });

  it('a redirect to the metadata address is refused before any connection, quickly', async () => {
    const t0 = Date.now();
    let err: unknown;
    await op.run({ store: `http://redirect.test:${sites.port}` }, ctx()).catch((e) => (err = e));
    expect(err).toBeInstanceOf(QuarryError);
    expect((err as QuarryError).code).toBe('invalidRequest');
    expect((err as QuarryError).message).toMatch(/private or reserved address/);
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('a bare loopback address is not exempt unless allowed: the guard refuses it for a client without the allow-list', async () => {
    const strict = createUpstreamClient({ source: 'shopify', retries: 0, dnsServers: [dns.server] });
    try {
      let err: unknown;
      await op.run({ store: `http://shop.test:${sites.port}` }, { ...ctx(), http: strict }).catch((e) => (err = e));
      expect((err as QuarryError).message).toMatch(/private or reserved address/);
    } finally {
      await strict.close();
    }
  });
});
