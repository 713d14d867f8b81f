/**
 * The domain source (issue 5). SPEC names only what the operations do ("WHOIS, DNS, technology used"); inputs,
 * records and prices are designed here like their neighbours: a `domain` field (a name or an address, IDN allowed),
 * `maxAge` and `tags`, a flat 1-credit price like the other single-lookup endpoints (`shopify.store`, `youtube.video`),
 * keyed (not keyless) like them.
 */
import { endpoint, list, choice, text } from '../fields.js';
import * as R from '../records.js';

export const RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'TXT', 'SOA', 'CAA', 'SRV', 'PTR'] as const;
export const DEFAULT_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'TXT', 'SOA', 'CAA'] as const;

const domainField = (what: string) => text(1, 253, `${what}, e.g. example.com (an address's host name is used; IDN allowed)`);

/**
 * domain.whois' record, whichever path (RDAP or port-43 WHOIS) answered. Registries differ in what they publish: only
 * what every answer carries is required.
 */
export const REGISTRATION_RECORD = R.rec(
  {
    /** The domain asked, as an A-label (punycode), lower case. */
    domain: R.str,
    registered: R.bool,
    /** Which path answered: `rdap` or `whois` (port 43). */
    via: R.oneOf(['rdap', 'whois']),
    /** The server that answered last (RDAP base address or WHOIS host). */
    server: R.str,
  },
  {
    /** Unicode form of an internationalised name. */
    unicodeDomain: R.str,
    registrar: R.rec({}, { name: R.str, ianaId: R.str, url: R.str }),
    /** ISO 8601: a UTC date-time, or a date where the registry gives only a date. */
    createdAt: R.str,
    updatedAt: R.str,
    expiresAt: R.str,
    /** EPP status codes (RDAP's spelled-out forms mapped back: `clientTransferProhibited`), else the registry's words. */
    statuses: R.list(R.str),
    nameServers: R.list(R.str),
    /** Whether the delegation is signed; absent when the answer does not say. */
    dnssec: R.bool,
  },
);

/** One DNS record. `value` is the record in zone-file presentation; the typed fields repeat its parts. */
export const DNS_RECORD = R.rec(
  { type: R.oneOf(RECORD_TYPES), name: R.str, ttl: R.int, value: R.str },
  {
    /** A, AAAA. */
    address: R.str,
    /** CNAME, PTR, NS, MX, SRV. */
    target: R.str,
    /** MX, SRV. */
    priority: R.int,
    weight: R.int,
    port: R.int,
    /** CAA. */
    flags: R.int,
    tag: R.str,
    /** TXT (the strings joined), CAA value. */
    text: R.str,
    /** SOA. */
    primaryNameServer: R.str,
    adminEmail: R.str,
    serial: R.int,
    refresh: R.int,
    retry: R.int,
    expire: R.int,
    minimumTtl: R.int,
  },
);

/** domain.dns' record: the name, whether it exists (NXDOMAIN is `false`), its records, and the types asked that have none. */
export const DNS_DATA = R.rec(
  { domain: R.str, exists: R.bool, records: R.list(DNS_RECORD) },
  { noRecords: R.list(R.oneOf(RECORD_TYPES)) },
);

/** Why a technology was reported. Cookie evidence carries the name only: values are session data. */
export const EVIDENCE = R.rec(
  { kind: R.oneOf(['header', 'cookie', 'meta', 'script', 'html', 'url', 'dns']) },
  {
    /** Header, cookie or meta name, or the DNS record type. */
    name: R.str,
    /** The value that matched (header value, meta content, script address, the matched HTML, the URL, the record). */
    value: R.str,
  },
);

/** One technology a site uses. */
export const DETECTION = R.rec(
  {
    name: R.str,
    category: R.str,
    /** 1-100: the sum of the distinct matched patterns' confidences, capped; an implied technology inherits its implier's. */
    confidence: R.int,
  },
  {
    /** From the pattern's first capture group; absent when no signal shows one. */
    version: R.str,
    website: R.str,
    /** Set when the technology was not seen itself but other ones imply it. */
    impliedBy: R.list(R.str),
    evidence: R.list(EVIDENCE),
  },
);

/**
 * domain.technologies' record: the address that answered (after redirects) and its status (an error page is read
 * too: it shows the server and CDN), what was recognised, and whether the DNS records could be read.
 */
export const TECHNOLOGIES_RECORD = R.rec({ domain: R.str, url: R.str, status: R.int, technologies: R.list(DETECTION), dnsChecked: R.bool });

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
    output: REGISTRATION_RECORD,
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
        ...list(choice(RECORD_TYPES), 10, [...DEFAULT_TYPES]),
        minItems: 1,
        uniqueItems: true,
        description: `record types to return; default ${DEFAULT_TYPES.join(', ')} (SRV needs a _service._proto name)`,
      },
    },
    required: ['domain'],
    example: { domain: 'example.com', types: ['A', 'MX', 'TXT'] },
    output: DNS_DATA,
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
    output: TECHNOLOGIES_RECORD,
  }),
};
