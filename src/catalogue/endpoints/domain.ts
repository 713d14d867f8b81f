/**
 * The domain source (issue 5). SPEC names only what the operations do ("WHOIS, DNS, technology used"); inputs,
 * records and prices are designed here like their neighbours: a `domain` field (a name or an address, IDN allowed),
 * `maxAge` and `tags`, a flat 1-credit price like the other single-lookup endpoints (`shopify.store`, `youtube.video`),
 * keyed (not keyless) like them.
 */
import { endpoint, list, choice, text } from '../fields.js';
import * as R from '../records.js';

const RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'TXT', 'SOA', 'CAA', 'SRV', 'PTR'];
const DEFAULT_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'TXT', 'SOA', 'CAA'];

const domainField = (what: string) => text(1, 253, `${what}, e.g. example.com (an address's host name is used; IDN allowed)`);

export const DOMAIN = {
  whois: endpoint({
    id: 'domain.whois',
    title: 'Domain registration (WHOIS/RDAP)',
    summary:
      'Returns who registered a domain and when: registrar, creation, update and expiry dates, statuses, name servers, DNSSEC, and whether RDAP or WHOIS answered.',
    credits: 1,
    perItems: null,
    // Registration data changes rarely; a day like the other site facts (shopify.store, web.contacts).
    cacheTtlSeconds: 86400,
    fields: {
      domain: domainField('the registered domain'),
    },
    required: ['domain'],
    example: { domain: 'example.com' },
    // Registries differ in what they publish; only what every answer carries is required.
    output: R.rec(
      { domain: R.str, registered: R.bool, via: R.oneOf(['rdap', 'whois']), server: R.str },
      {
        unicodeDomain: R.str,
        registrar: R.rec({}, { name: R.str, ianaId: R.str, url: R.str }),
        createdAt: R.str,
        updatedAt: R.str,
        expiresAt: R.str,
        statuses: R.list(R.str),
        nameServers: R.list(R.str),
        dnssec: R.bool,
      },
    ),
  }),
  dns: endpoint({
    id: 'domain.dns',
    title: 'DNS records',
    summary: 'Returns the DNS records of a name for the requested types (A, AAAA, CNAME, MX, NS, TXT, SOA, CAA, SRV, PTR), each with its TTL.',
    credits: 1,
    perItems: null,
    // Five minutes: the common floor of record TTLs, so a cached answer is rarely staler than the zone allows.
    cacheTtlSeconds: 300,
    fields: {
      domain: domainField('the name to look up'),
      types: {
        ...list(choice(RECORD_TYPES), 10, DEFAULT_TYPES),
        minItems: 1,
        uniqueItems: true,
        description: `record types to return; default ${DEFAULT_TYPES.join(', ')} (SRV needs a _service._proto name)`,
      },
    },
    required: ['domain'],
    example: { domain: 'example.com', types: ['A', 'MX', 'TXT'] },
    output: R.rec(
      { domain: R.str, exists: R.bool, records: R.list(R.rec({ type: R.oneOf(RECORD_TYPES), name: R.str, ttl: R.int })) },
      { noRecords: R.list(R.str) },
    ),
  }),
  technologies: endpoint({
    id: 'domain.technologies',
    title: 'Technologies a site uses',
    summary:
      'Returns the technologies a site uses (server, CMS, frameworks, analytics, CDN, DNS and mail hosts) with category, version, confidence and evidence.',
    credits: 1,
    perItems: null,
    // A site's stack changes rarely; a day like the other site facts (shopify.store, domain.whois).
    cacheTtlSeconds: 86400,
    fields: {
      domain: domainField('the site; a full http(s) address is fetched as given, a bare name at its home page'),
    },
    required: ['domain'],
    example: { domain: 'wordpress.org' },
    output: R.rec(
      {
        domain: R.str,
        url: R.str,
        technologies: R.list(
          R.rec(
            { name: R.str, category: R.str, confidence: R.int },
            { version: R.str, website: R.str, impliedBy: R.anyValue, evidence: R.list(R.rec({ kind: R.str }, { name: R.str, value: R.str })) },
          ),
        ),
      },
      { status: R.int, dnsChecked: R.bool },
    ),
  }),
};
