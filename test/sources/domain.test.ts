/**
 * The domain source against the recordings and real loopback servers: the WHOIS parser over every recorded answer
 * (the share printed), the port-43 client (referral, a 10 MB answer, a server that never answers, a private server),
 * the RDAP normaliser over every recorded RDAP answer, the DNS client (UDP and TCP), and the SSRF guard resolving
 * through the same servers.
 */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuarryError } from '../../src/errors.js';
import { DEFAULT_TYPES, dnsClient, lookupRecords, parseServer, resolvers } from '../../src/sources/domain/dns.js';
import { domainName } from '../../src/sources/domain/name.js';
import { eppStatus, normaliseRdap, parseBootstrap, rdapBases } from '../../src/sources/domain/rdap.js';
import { whoisLookup, whoisQuery, whoisQueryFor } from '../../src/sources/domain/whois.js';
import { isNotFound, parseWhois, parseWhoisDate } from '../../src/sources/domain/whois-parse.js';
import { createSsrfGuard } from '../../src/upstream/ssrf.js';
import {
  HAVE_OPENWEB,
  OPENWEB_SKIP,
  UPSTREAM,
  readJson,
  readRecording,
  startDnsDouble,
  startWhoisDouble,
  type DnsDouble,
  type WhoisDouble,
} from './openweb-doubles.js';
import { failure } from '../helpers/failure.js';

describe('domain names and dates (no recordings needed)', () => {
  it('domainName: hosts of addresses, IDN to A-labels, junk refused naming the field', () => {
    expect(domainName('https://Example.COM/path?q')).toBe('example.com');
    expect(domainName('bücher.de')).toBe('xn--bcher-kva.de');
    expect(domainName('example.com.')).toBe('example.com');
    expect(domainName('_sip._tcp.example.com')).toBe('_sip._tcp.example.com');
    for (const bad of ['localhost', 'not a domain', '1.2.3.4', '-x.com', 'a..b']) expect(() => domainName(bad), bad).toThrow(/^domain: not a domain name/);
  });

  it('parseWhoisDate reads the registries\u2019 spellings', () => {
    expect(parseWhoisDate('1997-09-15T04:00:00Z')).toBe('1997-09-15T04:00:00Z');
    expect(parseWhoisDate('2008-10-22T11:33:44+02:00')).toBe('2008-10-22T09:33:44Z');
    expect(parseWhoisDate('22-Oct-2017')).toBe('2017-10-22');
    expect(parseWhoisDate('2007. 03. 02.')).toBe('2007-03-02');
    expect(parseWhoisDate('12/18/2001')).toBe('2001-12-18');
    expect(parseWhoisDate('13.09.2024')).toBe('2024-09-13');
    expect(parseWhoisDate('20221101 00:10:24')).toBe('2022-11-01T00:10:24Z');
    expect(parseWhoisDate('2021-11-09 00:00:00 (UTC+8)')).toBe('2021-11-08T16:00:00Z');
    expect(parseWhoisDate('30th April 2003 at 00:00:00.000')).toBe('2003-04-30');
    expect(parseWhoisDate('never')).toBeUndefined();
    expect(parseWhoisDate('2024-02-30')).toBeUndefined();
  });

  it('query quirks and RDAP status words', () => {
    expect(whoisQueryFor('whois.verisign-grs.com', 'a.com')).toBe('domain a.com');
    expect(whoisQueryFor('whois.denic.de', 'a.de')).toBe('-T dn,ace a.de');
    expect(whoisQueryFor('whois.jprs.jp', 'a.jp')).toBe('a.jp/e');
    expect(eppStatus('client transfer prohibited')).toBe('clientTransferProhibited');
    expect(eppStatus('active')).toBe('active');
  });

  it('an RDAP answer that is not a domain object is sourceChanged', () => {
    expect(() => normaliseRdap({ errorCode: 500 }, 'a.com')).toThrow(QuarryError);
    expect(() => normaliseRdap({ objectClassName: 'entity', handle: 'x' }, 'a.com')).toThrow(/not a domain object/);
  });
});

describe.skipIf(!HAVE_OPENWEB)(`WHOIS parser over every recorded answer${OPENWEB_SKIP}`, () => {
  const dir = `${UPSTREAM}domain/whois/`;
  /** `<tld>_<domain>.txt`; the four IANA TLD answers (no dot in the name) are not domain answers. */
  const domainFiles = readdirSync(`${dir}found`).filter((f) => f.replace(/\.txt$/, '').split('_').slice(1).join('_').includes('.'));
  const nameOf = (f: string) => f.replace(/\.txt$/, '').split('_').slice(1).join('_');
  /** What the raw text offers, judged by its labels alone (independent of the parser's alias lists). */
  const offers = (raw: string) => ({
    registrar: /^\s*(?:[a-z]\.\s*)?\[?(?:sponsoring )?(?:registrar|registration service provider|registrar name)\]?\s*(?::|\t|$)/im.test(raw) &&
      !/^\s*registrar:\s*$\n\s*(?:abuse|$)/im.test(raw),
    created: /^\s*(?:[a-z]\.\s*)?\[?(?:creation date|created|created on|registered on|registration date|registered|record created on|domain registered|registered date|registration time|domain record activated|first registration date|domain name commencement date|\u767b\u9332\u5e74\u6708\u65e5)\]?\s*(?::|\t|\s)\s*\S*\d/im.test(raw),
    expires: /^\s*(?:[a-z]\.\s*)?\[?(?:registry expiry date|expiration date|expiry date|expires|expires on|paid-till|expire date|expire-date|record expires on|record will expire on|renewal date|valid until|registrar registration expiration date|\u6709\u52b9\u671f\u9650)\]?\s*(?::|\t|\s)\s*\S*\d/im.test(raw),
  });

  it('extracts registrar and dates wherever the answer has them; prints the share', () => {
    let withRegistrar = 0, gotRegistrar = 0, withCreated = 0, gotCreated = 0, withExpires = 0, gotExpires = 0;
    let allRegistrar = 0, allCreated = 0, allExpires = 0;
    const misses: string[] = [];
    for (const f of domainFiles) {
      const raw = readRecording(`domain/whois/found/${f}`);
      const r = parseWhois(nameOf(f), raw);
      expect(r.registered, f).toBe(true);
      const has = offers(raw);
      if (r.registrar?.name) allRegistrar++;
      if (r.createdAt) allCreated++;
      if (r.expiresAt) allExpires++;
      if (has.registrar) { withRegistrar++; if (r.registrar?.name) gotRegistrar++; else misses.push(`${f}: registrar`); }
      if (has.created) { withCreated++; if (r.createdAt) gotCreated++; else misses.push(`${f}: created`); }
      if (has.expires) { withExpires++; if (r.expiresAt) gotExpires++; else misses.push(`${f}: expires`); }
    }
    const pct = (a: number, b: number) => `${a}/${b} (${((100 * a) / Math.max(1, b)).toFixed(1)}%)`;
    console.log(
      [
        `WHOIS parser over ${domainFiles.length} recorded domain answers (found/):`,
        `  where the answer has them: registrar ${pct(gotRegistrar, withRegistrar)}, created ${pct(gotCreated, withCreated)}, expires ${pct(gotExpires, withExpires)}`,
        `  over all answers:          registrar ${pct(allRegistrar, domainFiles.length)}, created ${pct(allCreated, domainFiles.length)}, expires ${pct(allExpires, domainFiles.length)}`,
        misses.length ? `  misses: ${misses.join(', ')}` : '  misses: none',
      ].join('\n'),
    );
    expect(gotRegistrar / withRegistrar).toBeGreaterThanOrEqual(0.95);
    expect(gotCreated / withCreated).toBeGreaterThanOrEqual(0.95);
    expect(gotExpires / withExpires).toBeGreaterThanOrEqual(0.95);
  });

  it('reads whole records from typical formats (thin .com registrar, Nominet, DENIC)', () => {
    expect(parseWhois('google.com', readRecording('domain/whois/found/com_google.com.txt'))).toMatchObject({
      registered: true,
      registrar: { name: 'MarkMonitor, Inc.', ianaId: '292', url: 'http://www.markmonitor.com' },
      createdAt: '1997-09-15T07:00:00Z',
      expiresAt: '2028-09-13T07:00:00Z',
      dnssec: false,
    });
    expect(parseWhois('google.uk', readRecording('domain/whois/found/uk_google.uk.txt'))).toMatchObject({
      registrar: { name: 'Markmonitor Inc. t/a MarkMonitor Inc.' },
      createdAt: '2014-06-11',
      expiresAt: '2020-06-11',
      nameServers: ['ns1.googledomains.com', 'ns2.googledomains.com', 'ns3.googledomains.com', 'ns4.googledomains.com'],
    });
    expect(parseWhois('google.de', readRecording('domain/whois/found/de_google.de.txt'))).toMatchObject({
      registered: true,
      updatedAt: '2018-03-12T20:44:25Z',
      statuses: ['connect'],
      nameServers: ['ns1.google.com', 'ns2.google.com', 'ns3.google.com', 'ns4.google.com'],
    });
  });

  it('recognises the recorded "no match" answers as not registered; prints the share', () => {
    const files = readdirSync(`${dir}notfound`);
    const missed = files.filter((f) => !isNotFound(readRecording(`domain/whois/notfound/${f}`)));
    console.log(`WHOIS not-found answers recognised: ${files.length - missed.length}/${files.length}; missed: ${missed.join(', ') || 'none'}`);
    expect((files.length - missed.length) / files.length).toBeGreaterThanOrEqual(0.95);
  });

  it('RDAP normaliser over every recorded RDAP domain answer', () => {
    const files = readdirSync(`${UPSTREAM}domain/rdap`).filter((f) => !f.startsWith('iana-'));
    expect(files).toHaveLength(5);
    for (const f of files) {
      const r = normaliseRdap(readJson(`domain/rdap/${f}`), f.split('.').slice(0, 2).join('.'));
      expect(r.registered, f).toBe(true);
      expect(r.createdAt ?? r.expiresAt, f).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(r.nameServers?.length, f).toBeGreaterThan(0);
    }
    expect(normaliseRdap(readJson('domain/rdap/google.com.verisign.json'), 'google.com')).toMatchObject({
      domain: 'google.com',
      registrar: { name: 'MarkMonitor Inc.', ianaId: '292' },
      createdAt: '1997-09-15T04:00:00Z',
      expiresAt: '2028-09-14T04:00:00Z',
      dnssec: true,
    });
  });

  it('bootstrap: longest suffix, https first; a TLD without RDAP has no base', () => {
    const b = parseBootstrap(readJson('domain/rdap/iana-bootstrap-all-2022.json'));
    expect(rdapBases(b, 'google.com')[0]).toBe('https://rdap.verisign.com/com/v1/');
    expect(rdapBases(b, 'google.de')).toEqual([]);
  });
});

describe.skipIf(!HAVE_OPENWEB)(`port-43 WHOIS and DNS against loopback servers${OPENWEB_SKIP}`, () => {
  let whois: WhoisDouble;
  let dns: DnsDouble;
  const signal = new AbortController().signal;
  let opts: () => Parameters<typeof whoisLookup>[1];

  beforeAll(async () => {
    [whois, dns] = await Promise.all([startWhoisDouble(), startDnsDouble()]);
    const guard = createSsrfGuard(['127.0.0.1/32'], [dns.server]);
    opts = () => ({ port: whois.port, guard, signal });
  });
  afterAll(async () => {
    await Promise.all([whois?.close(), dns?.close()]);
  });

  it('follows IANA → registry → the registrar it refers to', async () => {
    whois.queries.length = 0;
    const r = await whoisLookup('google.com', opts());
    expect(whois.queries).toEqual(['com', 'domain google.com', 'google.com']);
    expect(r.server).toBe('whois.markmonitor.com');
    expect(r.record.registrar?.name).toBe('MarkMonitor, Inc.');
  });

  it('a 10 MB answer fails quickly and clearly (sourceChanged, size named)', async () => {
    const t0 = Date.now();
    const e = await failure(whoisQuery('whois.verisign-grs.com', 'domain huge.com', opts()));
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(e.code).toBe('sourceChanged');
    expect(e.message).toMatch(/WHOIS answer from whois.verisign-grs.com is larger than 1048576 bytes/);
  });

  it('a server that never answers times out clearly', async () => {
    const t0 = Date.now();
    const e = await failure(whoisQuery('whois.verisign-grs.com', 'domain silent.com', { ...opts(), timeoutMs: 300 }));
    expect(Date.now() - t0).toBeLessThan(1500);
    expect(e.code).toBe('sourceTimeout');
  });

  it('a WHOIS server on a private address is refused before connecting', async () => {
    const strict = createSsrfGuard([], [dns.server]);
    const e = await failure(whoisQuery('private.test', 'x.com', { port: whois.port, guard: strict, signal }));
    expect(e.message).toMatch(/private.test points to a private or reserved address/);
    const loop = await failure(whoisQuery('whois.iana.org', 'com', { port: whois.port, guard: strict, signal }));
    expect(loop.message).toMatch(/private or reserved/);
  });

  it('DNS: every default type with TTLs, a CNAME chain, SRV, and no-record types listed', async () => {
    const q = dnsClient(resolvers(dns.server));
    const all = await lookupRecords('example.test', DEFAULT_TYPES, q);
    expect(new Set(all.records.map((r) => r.type))).toEqual(new Set(['A', 'AAAA', 'MX', 'NS', 'TXT', 'SOA', 'CAA']));
    expect(all.noRecords).toEqual(['CNAME']);
    expect(all.records.every((r) => Number.isInteger(r.ttl))).toBe(true);
    const www = await lookupRecords('www.example.test', ['A', 'CNAME'], q);
    expect(www.records.map((r) => `${r.type} ${r.name} ${r.value}`)).toEqual([
      'CNAME www.example.test example.test',
      'A example.test 192.0.2.10',
      'A example.test 192.0.2.11',
    ]);
    const srv = await lookupRecords('_sip._tcp.example.test', ['SRV'], q);
    expect(srv.records[0]).toMatchObject({ type: 'SRV', ttl: 120, priority: 10, weight: 5, port: 5060, target: 'sip.example.test' });
    expect(await lookupRecords('empty.test', ['A'], q)).toEqual({ domain: 'empty.test', exists: true, records: [], noRecords: ['A'] });
  });

  it('DNS: a dead resolver is skipped; all dead → sourceTimeout, quickly', async () => {
    const dead = parseServer('127.0.0.1:9');
    const ok = await lookupRecords('example.test', ['A'], dnsClient([dead, parseServer(dns.server)], 300));
    expect(ok.records).toHaveLength(2);
    const e = await failure(lookupRecords('example.test', ['A'], dnsClient([dead], 300)));
    expect(['sourceTimeout', 'sourceUnavailable']).toContain(e.code);
  });

  it('SSRF guard resolves through the configured servers: loopback allowed by the list, 10.0.0.1 refused', async () => {
    const guard = createSsrfGuard(['127.0.0.1/32'], [dns.server]);
    await expect(guard.check(new URL('http://shop.test/'))).resolves.toBeUndefined();
    const e = await failure(guard.check(new URL('http://private.test/')));
    expect(e.message).toMatch(/private or reserved address/);
    const nx = await failure(guard.check(new URL('http://nowhere.test/')));
    expect(nx.code).toBe('sourceUnavailable');
    // The connect-time lookup uses the same servers (DNS rebinding stays covered).
    const looked = await new Promise<string>((resolve, reject) =>
      guard.lookup('shop.test', { family: 4 }, (err, address) => (err ? reject(err) : resolve(address as string))),
    );
    expect(looked).toBe('127.0.0.1');
    const refused = await new Promise<Error | null>((resolve) => guard.lookup('private.test', {}, (err) => resolve(err)));
    expect(refused?.message).toMatch(/private or reserved/);
    expect(dns.queries.some((q) => q.name === 'shop.test')).toBe(true);
  });
});
