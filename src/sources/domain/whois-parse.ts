/**
 * Port-43 WHOIS answers → the registration record. WHOIS has no standard format: the parser reads `key: value`
 * lines (and the indented sections of Nominet, DENIC-like, JPRS `[key] value` and `key.....: value` styles) into
 * one lowercase key → values map, then picks fields through lists of the labels registries actually use.
 */
import type { RegistrationRecord } from './record.js';

const NOT_FOUND = [
  /\bno match\b/i,
  /\bnot found\b/i,
  /\bno data found\b/i,
  /\bno entries found\b/i,
  /\bno object found\b/i,
  /\bnothing found\b/i,
  /\bno matching record\b/i,
  /^%?\s*status:\s*(free|available|not registered)\b/im,
  /\bis (free|available)\b/i,
  /\bnot (been )?registered\b/i,
  /\bdoes not exist\b/i,
  /\bno information available\b/i,
  /\bdomain name not known\b/i,
  /\bno such domain\b/i,
  /\bavailable for (registration|purchase)\b/i,
  /^no data\b/im,
  /\bthe queried object does not exist\b/i,
  /\bdomain unknown\b/i,
  /\binvalid query\b/i,
  /\bdoes not have[\s%]*any data for\b/i,
  /^no found\b/im,
  /^query_status:\s*220 available/im,
  /\bnot available for second level registration\b/i,
];

const REGISTRAR = [
  'registrar', 'registrar name', 'sponsoring registrar', 'registrar organization', 'registrar organisation',
  'registration service provider', 'registrar-name', 'registrar_name', 'authorized agency', 'sponsoring registrar organization',
  'registrar handle', 'record maintained by', 'maintained by', 'provider', 'registrant registrar', 'registration agent',
  'reseller', 'domain support', 'mnt-by', 'agency', 'registrar of record', 'sponsor', 'sponsoring agent',
];
const REGISTRAR_ID = ['registrar iana id', 'sponsoring registrar iana id', 'registrar id'];
const REGISTRAR_URL = ['registrar url', 'registrar website', 'referral url', 'registrar www', 'url'];
const REGISTRAR_WHOIS = ['registrar whois server', 'whois server', 'refer', 'whois'];
const CREATED = [
  'creation date', 'created', 'created on', 'created date', 'registered', 'registered on', 'registration date',
  'registration time', 'domain registration date', 'record created', 'domain record activated', 'domain created',
  'commencement date', 'registered date', 'created at', 'domain name commencement date', 'activated', 'first registration date',
  'domain create date', 'create date', 'creation date', 'registration', 'registered at', 'created time',
  'record created on', 'domain registered', 'registered date', 'domain name created',
];
const UPDATED = [
  'updated date', 'last updated', 'last updated on', 'changed', 'modified', 'last modified', 'last-update', 'updated',
  'last update', 'domain record last updated', 'domain last updated date', 'last updated date', 'modified date',
  'update date', 'domain updated', 'updated on', 'last-modified', 'record last updated on', 'last modified date',
  'last-updated', 'last updated date', 'record last updated', 'last update date',
];
const EXPIRES = [
  'registry expiry date', 'registrar registration expiration date', 'expiration date', 'expiry date', 'expires',
  'expires on', 'paid-till', 'expire date', 'expiration time', 'renewal date', 'valid until', 'record expires on',
  'domain expiration date', 'expire', 'expiry', 'expires at', 'domain expires', 'date of expiry', 'free-date',
  'expired', 'domain record expires', 'validity', 'expiration', 'registration expiration date', 'domain expiry date',
  'expire-date', 'record will expire on', 'expire date', 'domain expires on', 'renewal', 'registry fee due on',
];
const STATUS = ['domain status', 'status', 'state', 'registration status', 'domain state', 'eppstatus', 'flags'];
const NAME_SERVERS = ['name server', 'nserver', 'name servers', 'nameserver', 'nameservers', 'dns', 'host name', 'ns', 'hostname', 'primary server', 'secondary server', 'domain servers in listed order', 'name server handle', 'dns servers', 'nameserver handle', 'domain nameservers', 'name servers information'];
const DNSSEC = ['dnssec', 'signing key', 'ds record', 'dnssec status', 'secure dns', 'dnskey'];
const DOMAIN = ['domain name', 'domain', 'domainname', 'domain_name', 'nom de domaine'];

/** Lowercase key → values, in answer order. Indented continuation lines under an empty key belong to that key. */
export function whoisFields(raw: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (k: string, v: string): void => {
    const key = k.trim().toLowerCase().replace(/\.{2,}$/, '').replace(/[\s_]+/g, ' ').trim();
    const value = v.trim();
    if (!key || !value || key.length > 60) return;
    (out.get(key) ?? out.set(key, []).get(key)!).push(value);
  };
  let section: string | undefined;
  let sectionIndent = -1;
  for (const line of raw.replace(/\r/g, '').split('\n')) {
    if (/^\s*(%|#|>>>|--)/.test(line) && !/^\s*%?\s*[\w ]+:\s/.test(line.replace(/^\s*%\s*/, ''))) continue;
    const text = line.replace(/^\s*%\s*/, '');
    if (!text.trim()) {
      section = undefined;
      continue;
    }
    const indent = text.length - text.trimStart().length;
    const bracket = /^\s*(?:[a-z]\.\s*)?\[([^\]]{1,60})\]\s*(.*)$/.exec(text);
    if (bracket) {
      // JPRS: "[Registrant]  Name" or "[登録年月日] 2001/01/01"; an empty one opens a section.
      if (bracket[2].trim()) add(bracket[1], bracket[2]);
      else {
        section = bracket[1].trim().toLowerCase();
        sectionIndent = indent;
      }
      continue;
    }
    const kv =
      /^\s*([A-Za-z][\w ]{1,40}? on)\s+(\d[^:]*(?::.*)?)$/.exec(text) ??
      /^\s*([^:\t]{1,60}?)\s*(?:\.{2,}\s*)?:\s*(.*)$/.exec(text) ??
      /^\s*([A-Za-z][\w ./-]{0,40}?)\.{3,}\s*(.*)$/.exec(text) ??
      /^\s*([A-Za-z][\w ]{1,40}?)\t+(.*)$/.exec(text);
    if (kv && !/^https?$/i.test(kv[1].trim()) && !/^\/\//.test(kv[2]) && !/\(https?$/i.test(kv[1])) {
      const [, k, v] = kv;
      if (section && indent >= sectionIndent) add(`${section} ${k}`, v);
      if (!v.trim()) {
        section = k.trim().toLowerCase().replace(/[\s_]+/g, ' ');
        sectionIndent = indent;
      } else add(k, v);
      continue;
    }
    if (section && indent >= sectionIndent) {
      add(section, text);
      continue;
    }
    // A bare heading ("Registrar", "Nameservers") opens a section of its own.
    if (/^[A-Za-z][A-Za-z ]{2,30}$/.test(text.trim())) {
      section = text.trim().toLowerCase();
      sectionIndent = indent;
    }
  }
  return out;
}

function first(fields: Map<string, string[]>, keys: readonly string[]): string | undefined {
  for (const k of keys) {
    const v = fields.get(k)?.find((x) => x.trim() && !/^(n\/?a|none|null|-|redacted.*|not disclosed.*)$/i.test(x.trim()));
    if (v) return v;
  }
  return undefined;
}

function all(fields: Map<string, string[]>, keys: readonly string[]): string[] {
  return keys.flatMap((k) => fields.get(k) ?? []);
}

const MONTHS: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };

const pad = (n: number): string => String(n).padStart(2, '0');

function ymd(y: number, m: number, d: number): string | undefined {
  if (y < 100) y += y < 70 ? 2000 : 1900;
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1980 || y > 2200) return undefined;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCDate() !== d) return undefined;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/**
 * A registry date in any of the common spellings → ISO 8601: `YYYY-MM-DD`, or a UTC date-time when the answer has a
 * time (with its offset applied; a time without offset is read as UTC). Undefined when it is not a date.
 */
export function parseWhoisDate(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const utc = /\((?:UTC|GMT)\s*([+-]\d{1,2})(?::?(\d{2}))?\)/i.exec(value);
  const given = value.replace(/\s*\((?:UTC|GMT)\s*[+-][\d:]+\)/i, utc ? ` ${utc[1].startsWith('-') ? '-' : '+'}${pad(Math.abs(+utc[1]))}:${utc[2] ?? '00'}` : '');
  const v = given
    .trim()
    .replace(/\s*\((?:[^)]*)\)\s*$/, '')
    .replace(/^before\s+/i, '')
    .replace(/^(\d{4})\.\s*(\d{1,2})\.\s*(\d{1,2})\.?/, (_, y, m, d) => `${y}-${pad(+m)}-${pad(+d)}`)
    .replace(/\b(\d{1,2})(?:st|nd|rd|th)\b/, '$1');
  // ISO and near-ISO: 2024-09-13, 2024.09.13, 2024/09/13, 20240913, with optional time and offset.
  let m = /^(\d{4})[-./]?(\d{2})[-./]?(\d{2})(?:[T ]+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2}|[+-]\d{1,2})?)?/i.exec(v);
  if (m) {
    const day = ymd(+m[1], +m[2], +m[3]);
    if (!day) return undefined;
    if (m[4] === undefined) return day;
    return withTime(day, +m[4], +m[5], +(m[6] ?? 0), m[7]);
  }
  // 13-Sep-2024, 13 Sep 2024, 13.Sep.2024, 30 April 2003 (optionally with a time)
  m = /^(\d{1,2})[-. /]+([A-Za-z]{3})[a-z]*\.?[-. /,]*(\d{4})(?:[T ]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?)?/.exec(v);
  if (m && MONTHS[m[2].toLowerCase()]) {
    const day = ymd(+m[3], MONTHS[m[2].toLowerCase()], +m[1]);
    if (!day) return undefined;
    return m[4] === undefined ? day : withTime(day, +m[4], +m[5], +(m[6] ?? 0), m[7]);
  }
  // Sep-13-2024, Tue Sep 13 12:00:00 GMT 2024, September 13 2024
  m = /^(?:[A-Za-z]{3},?\s+)?([A-Za-z]{3})[a-z]*\.?[-. ](\d{1,2}),?[-. ](?:(\d{1,2}):(\d{2}):(\d{2})\s+(?:[A-Z]{2,5}\s+)?)?(\d{4})/.exec(v);
  if (m && MONTHS[m[1].toLowerCase()]) {
    const day = ymd(+m[6], MONTHS[m[1].toLowerCase()], +m[2]);
    if (!day) return undefined;
    return m[3] === undefined ? day : withTime(day, +m[3], +m[4], +m[5], 'Z');
  }
  // 13.09.2024 / 13/09/2024 / 13-09-2024 (day first, as the registries that write it this way do)
  m = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?/.exec(v);
  if (m) {
    // Day first, unless that cannot be a date (12/18/2001 is month first).
    const day = ymd(+m[3], +m[2], +m[1]) ?? ymd(+m[3], +m[1], +m[2]);
    if (!day) return undefined;
    return m[4] === undefined ? day : withTime(day, +m[4], +m[5], +(m[6] ?? 0), undefined);
  }
  return undefined;
}

function withTime(day: string, h: number, min: number, s: number, zone: string | undefined): string | undefined {
  if (h > 23 || min > 59 || s > 60) return day;
  let offsetMin = 0;
  const z = /^([+-])(\d{1,2}):?(\d{2})?$/.exec(zone ?? '');
  if (z) offsetMin = (z[1] === '-' ? -1 : 1) * (+z[2] * 60 + +(z[3] ?? 0));
  const t = Date.parse(`${day}T${pad(h)}:${pad(min)}:${pad(Math.min(s, 59))}Z`) - offsetMin * 60_000;
  return Number.isNaN(t) ? day : new Date(t).toISOString().replace('.000Z', 'Z');
}

/** EPP status codes (`clientTransferProhibited https://icann.org/epp#…`) and free-text states, as given. */
function statuses(fields: Map<string, string[]>): string[] {
  const out = new Set<string>();
  for (const raw of all(fields, STATUS)) {
    for (const part of raw.split(/,\s*/)) {
      const s = part.replace(/\s*\(?https?:\/\/\S+\)?/g, '').trim();
      if (s && s.length <= 80) out.add(s);
    }
  }
  return [...out];
}

function nameServers(fields: Map<string, string[]>): string[] {
  const out = new Set<string>();
  for (const raw of all(fields, NAME_SERVERS)) {
    for (const token of raw.split(/[\s,]+/)) {
      const host = token.replace(/\.$/, '').toLowerCase();
      if (/^(?=.{3,253}$)([a-z0-9_-]+\.)+[a-z0-9-]{2,}$/.test(host) && !/^\d+(\.\d+){3}$/.test(host)) {
        out.add(host);
        break; // the first host name of the line; the rest are addresses
      }
    }
  }
  return [...out];
}

function dnssec(fields: Map<string, string[]>): boolean | undefined {
  const v = first(fields, DNSSEC);
  if (!v) return undefined;
  if (/^(unsigned|no|inactive|false|not signed|unsigned delegation|none)\b/i.test(v)) return false;
  if (/^(signed|yes|active|true|signeddelegation|signed delegation)\b/i.test(v) || /\d+\s+\d+\s+\d+\s+[0-9a-f]{20,}/i.test(v)) return true;
  return undefined;
}

/** The registrar's own WHOIS server named in a thin registry's answer (one referral to follow), if any. */
export function referralOf(raw: string): string | undefined {
  const fields = whoisFields(raw);
  const v = first(fields, ['registrar whois server', 'whois server', 'refer', 'whois']);
  const host = v?.replace(/^r?whois:\/\//i, '').replace(/\/.*$/, '').trim().toLowerCase();
  return host && /^[a-z0-9.-]+(:\d+)?$/.test(host) && host.includes('.') ? host : undefined;
}

export function isNotFound(raw: string): boolean {
  const body = raw.trim();
  if (!body) return true;
  const fields = whoisFields(body);
  // An answer with real dates or name servers is a registration, whatever its disclaimer says.
  if (first(fields, CREATED) || first(fields, EXPIRES) || nameServers(fields).length) return false;
  return NOT_FOUND.some((re) => re.test(body.slice(0, 4000)));
}

/** Registration record from one answer (registry or registrar). `domain` is the A-label asked. */
export function parseWhois(domain: string, raw: string): RegistrationRecord {
  if (isNotFound(raw)) return { domain, registered: false };
  const fields = whoisFields(raw);
  let registrar = first(fields, REGISTRAR);
  // Nominet-style "Name [Tag = X]" and "URL:" lines inside the registrar section.
  registrar = registrar
    ?.replace(/\s*\[Tag = [^\]]*\]/i, '')
    .replace(/\s*\(\s*https?:\/\/[^)]*\)/i, '')
    .trim();
  const registrarUrl = first(fields, ['registrar url', 'registrar website', 'referral url', 'registrar www']);
  const ianaId = first(fields, REGISTRAR_ID);
  void REGISTRAR_URL;
  void REGISTRAR_WHOIS;
  void DOMAIN;
  return {
    domain,
    registered: true,
    registrar: registrar || registrarUrl || ianaId ? { name: registrar, ianaId: ianaId && /^\d+$/.test(ianaId) ? ianaId : undefined, url: registrarUrl } : undefined,
    createdAt: parseWhoisDate(first(fields, CREATED)),
    updatedAt: parseWhoisDate(first(fields, UPDATED)),
    expiresAt: parseWhoisDate(first(fields, EXPIRES)),
    statuses: statuses(fields),
    nameServers: nameServers(fields),
    dnssec: dnssec(fields),
  };
}
