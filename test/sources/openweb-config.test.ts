/** The issue-5 settings in src/config.ts: QUARRY_OUTBOUND_ALLOW (QUARRY_SSRF_ALLOW an alias), QUARRY_DNS_SERVERS,
 * QUARRY_WHOIS_PORT, QUARRY_RDAP_BOOTSTRAP_URL, and how sources see them. */
import { describe, expect, it } from 'vitest';
import { loadConfig, sourceSettings } from '../../src/config.js';

describe('open-web settings', () => {
  it('defaults: system resolvers, port 43, the IANA bootstrap, no allow-list', () => {
    const c = loadConfig({});
    expect(c.dnsServers).toEqual([]);
    expect(c.whoisPort).toBe(43);
    expect(c.rdapBootstrapUrl).toBe('https://data.iana.org/rdap/dns.json');
    expect(c.upstream.ssrfAllow).toEqual([]);
    expect(sourceSettings(c, 'domain')).toMatchObject({ WHOIS_PORT: '43', RDAP_BOOTSTRAP_URL: 'https://data.iana.org/rdap/dns.json' });
  });

  it('QUARRY_OUTBOUND_ALLOW and its alias QUARRY_SSRF_ALLOW are joined', () => {
    const c = loadConfig({ QUARRY_OUTBOUND_ALLOW: '127.0.0.1/32, 10.1.0.0/16', QUARRY_SSRF_ALLOW: '10.1.0.0/16,192.168.0.0/24' });
    expect(c.upstream.ssrfAllow).toEqual(['127.0.0.1/32', '10.1.0.0/16', '192.168.0.0/24']);
  });

  it('sources see the network settings; their own QUARRY_<SOURCE>_<NAME> wins', () => {
    const c = loadConfig({
      QUARRY_DNS_SERVERS: '127.0.0.1:5353,[::1]:53',
      QUARRY_WHOIS_PORT: '4343',
      QUARRY_RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:1/dns.json',
      QUARRY_DOMAIN_WHOIS_PORT: '4444',
    });
    expect(c.dnsServers).toEqual(['127.0.0.1:5353', '[::1]:53']);
    expect(sourceSettings(c, 'domain')).toMatchObject({ DNS_SERVERS: '127.0.0.1:5353,[::1]:53', WHOIS_PORT: '4444', RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:1/dns.json' });
    expect(sourceSettings(c, 'shopify')).toMatchObject({ WHOIS_PORT: '4343' });
  });

  it('bad values fail at start, naming the variable', () => {
    expect(() => loadConfig({ QUARRY_DNS_SERVERS: 'a b:53' })).toThrow(/QUARRY_DNS_SERVERS/);
    expect(() => loadConfig({ QUARRY_WHOIS_PORT: 'x' })).toThrow(/QUARRY_WHOIS_PORT/);
  });
});
