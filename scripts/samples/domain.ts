/**
 * domain.whois and domain.dns samples:
 * - whois through the generic sample maker: the live RDAP path against the replay double, serving the recorded 2022
 *   IANA bootstrap at data.iana.org and Verisign's recorded answer for google.com at rdap.verisign.com. The registrar's
 *   RDAP (MarkMonitor) that answer links to was not recorded: it answers 404, and the registry's record stands alone.
 * - dns: no DNS answer is recorded in shared/upstream (the notes: "0 needed"), so the sample is the live path itself:
 *   the real client and normaliser asking the loopback DNS double of the tests (test/sources/openweb-doubles.ts) for its
 *   `example.test` zone. The values are test-zone values (documentation addresses 192.0.2.0/24, 2001:db8::/32).
 */
import type { SampleSet } from '../../src/sources/kit/samples.js';
import { DEFAULT_TYPES, dnsClient, lookupRecords, parseServer } from '../../src/sources/domain/dns.js';
import { startDnsDouble } from '../../test/sources/openweb-doubles.js';
import { recordSamples, writeSampleSet, type SampleCase } from './kit.js';
import { notRecorded, ORIGINS, RDAP } from './openweb.js';

export const WHOIS_CASE: SampleCase = {
  endpoint: 'domain.whois',
  replay: {
    folders: [],
    routes: [
      { host: 'data.iana.org', path: '/rdap/dns.json', file: RDAP.bootstrap },
      { host: 'rdap.verisign.com', path: '/com/v1/domain/google.com', file: RDAP.google },
      notRecorded('rdap.markmonitor.com', '/rdap/domain/GOOGLE.COM', "the registrar's RDAP answer"),
    ],
  },
  pages: [{ domain: 'google.com' }],
  origins: ORIGINS,
  note:
    'Produced by the live domain.whois path (src/sources/domain/rdap.ts through the upstream client) against the replay ' +
    'double from real recordings (scripts/samples/domain.ts): the IANA bootstrap as whoisit cached it in 2022 and ' +
    "Verisign's RDAP answer for google.com (meeb/whoisit tests, BSD-3-Clause, 2021; see shared/upstream/README.md). The " +
    "registrar's RDAP answer was not recorded, so the record is the registry's alone. Registrant data is never part of " +
    'the record. Test data only.',
};

/** domain.dns: the DNS double's example.test zone through the real client and normaliser, every default type. */
export async function buildDnsSample(): Promise<SampleSet> {
  const double = await startDnsDouble();
  try {
    const data = await lookupRecords('example.test', DEFAULT_TYPES, dnsClient([parseServer(double.server)]));
    return {
      _provenance: {
        note:
          'No DNS answer is recorded in shared/upstream; produced by the real client and normaliser (src/sources/domain/dns.ts) ' +
          'from the loopback DNS double of the tests (scripts/samples/domain.ts). Test-zone values (RFC 5737/3849 ' +
          'documentation addresses). Test mode answers the types asked for from these records.',
        pages: [{ input: { domain: 'example.test', types: DEFAULT_TYPES }, recordings: [] }],
      },
      pages: [{ data }],
    };
  } finally {
    await double.close();
  }
}

export async function domainSamples(): Promise<void> {
  console.log(`wrote whois sample: ${await recordSamples(WHOIS_CASE)}`);
  const dns = await buildDnsSample();
  writeSampleSet('src/sources/domain/samples/dns.json', dns);
  console.log(`wrote dns sample: ${(dns.pages[0].data.records as unknown[]).length} records`);
}
