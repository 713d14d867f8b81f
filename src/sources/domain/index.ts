/**
 * The domain source: `domain.dns` (records with TTLs from QUARRY_DNS_SERVERS) and `domain.whois` (RDAP from the IANA
 * bootstrap, port-43 WHOIS when the TLD has no RDAP or its RDAP server fails) and `domain.technologies` (./technologies),
 * live and from committed sample pages (scripts/samples/domain.ts, scripts/samples/technologies.ts).
 */
import { domainToUnicode } from 'node:url';
import { isQuarryError } from '../../errors.js';
import { createSsrfGuard } from '../../upstream/ssrf.js';
import { DOMAIN } from '../../catalogue/endpoints/domain.js';
import { operation } from '../kit/operation.js';
import type { SampleSet } from '../kit/samples.js';
import type { SourceContext, SourceModule } from '../types.js';
import { dnsClient, lookupRecords, resolvers, type DnsData, type RecordType } from './dns.js';
import { domainName } from './name.js';
import { loadBootstrap, queryRdap, rdapBases } from './rdap.js';
import type { RegistrationRecord, WhoisData } from './record.js';
import { whoisLookup } from './whois.js';
import { technologiesOp } from './technologies/index.js';
import dnsSamples from './samples/dns.json' with { type: 'json' };
import whoisSamples from './samples/whois.json' with { type: 'json' };

const DEFAULT_BOOTSTRAP = 'https://data.iana.org/rdap/dns.json';

const list = (s: string | undefined): string[] => (s ?? '').split(',').map((x) => x.trim()).filter(Boolean);

/** A name that does not exist answers 200 with `exists: false` (billed: that is the answer). */
const dnsOp = operation(DOMAIN.dns, {
  async run(input, ctx) {
    const domain = domainName(input.domain);
    return { data: await lookupRecords(domain, [...new Set(input.types)], dnsClient(resolvers(ctx.settings.DNS_SERVERS))) };
  },
  /**
   * Test mode answers the types asked for, from the one sample record of every default type: a generic page would
   * answer the same types whatever was asked.
   */
  sample(input) {
    const data = (dnsSamples as unknown as SampleSet<DnsData>).pages[0].data;
    const types: readonly RecordType[] = input.types;
    const records = data.records.filter((r) => types.includes(r.type));
    const noRecords = types.filter((t) => !records.some((r) => r.type === t));
    const { noRecords: _, ...rest } = data;
    return { data: { ...rest, records, ...(noRecords.length ? { noRecords } : {}) } };
  },
});

function withUnicode(record: RegistrationRecord): RegistrationRecord {
  const unicode = domainToUnicode(record.domain);
  return unicode && unicode !== record.domain && !record.unicodeDomain ? { ...record, unicodeDomain: unicode } : record;
}

async function whois(domain: string, ctx: SourceContext): Promise<WhoisData> {
  const settings = ctx.settings;
  const bootstrap = await loadBootstrap(settings.RDAP_BOOTSTRAP_URL || DEFAULT_BOOTSTRAP, ctx);
  const bases = rdapBases(bootstrap, domain);
  let rdapFailure: unknown;
  for (const base of bases) {
    try {
      const { record, server } = await queryRdap(base, domain, ctx);
      return { ...withUnicode(record), via: 'rdap', server };
    } catch (e) {
      // A broken RDAP server (down, 5xx, timeout, refused) falls back to port 43; a malformed answer too.
      rdapFailure = e;
      ctx.log.warn({ err: e, base }, 'RDAP failed; trying the next path');
    }
  }
  const guard = createSsrfGuard(list(settings.OUTBOUND_ALLOW), list(settings.DNS_SERVERS));
  try {
    const { record, server } = await whoisLookup(domain, { port: Number(settings.WHOIS_PORT || 43), guard, signal: ctx.signal });
    return { ...withUnicode(record), via: 'whois', server };
  } catch (e) {
    // With no WHOIS server either, the RDAP failure is the better explanation.
    if (rdapFailure && isQuarryError(e) && /no RDAP or WHOIS server/.test(e.message)) throw rdapFailure;
    throw e;
  }
}

/** A name that is not registered answers 200 with `registered: false` (billed: that is the answer). */
const whoisOp = operation(DOMAIN.whois, {
  async run(input, ctx) {
    const name = domainName(input.domain);
    // Registration data belongs to the registered name: a leading `www.` (the usual paste) is dropped.
    return { data: await whois(name.startsWith('www.') && name.split('.').length > 2 ? name.slice(4) : name, ctx) };
  },
  samples: whoisSamples,
});

const domain: SourceModule = {
  id: 'domain',
  needs: {
    settings: [{ name: 'FINGERPRINTS_FILE', required: false, purpose: 'extra technology fingerprints merged over the built-in set' }],
    network: ['DNS (QUARRY_DNS_SERVERS)', 'outbound TCP port 43 (QUARRY_WHOIS_PORT) for registries without RDAP'],
  },
  operations: [dnsOp, whoisOp, technologiesOp],
};

export default domain;
