/**
 * Contacts on one page: e-mail addresses (mailto: links, Cloudflare-protected addresses, JSON-LD, and the visible
 * text after undoing the usual `name [at] domain [dot] com` disguises), phone numbers (tel: links, JSON-LD and the
 * visible text, through libphonenumber-js with its full metadata so only valid numbers survive) and social profiles.
 */
import { findNumbers, isSupportedCountry, parsePhoneNumberFromString, type CountryCode, type PhoneNumber } from 'libphonenumber-js/max';
import type { PageDoc } from './page.js';
import type { ContactsRecord } from './types.js';
import { profileKey, socialProfile, type SocialProfile } from './socials.js';

/** A phone number as the record gives it (E.164 `value`, `raw` as written), without the pages it was found on. */
export type PhoneHit = Omit<NonNullable<ContactsRecord['phones']>[number], 'sources'>;

export interface PageFindings {
  emails: string[];
  phones: PhoneHit[];
  socials: SocialProfile[];
}

// ---------------------------------------------------------------- e-mail

const EMAIL = /[a-z0-9._%+-]{1,64}@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){1,8}[a-z]{2,24}(?![a-z0-9-])/gi;
const EMAIL_EXACT = /^[a-z0-9._%+-]{1,64}@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){1,8}[a-z]{2,24}$/;
/** `logo@2x.png`, `sprite@3x.webp`, bundles: a "top-level domain" that is a file extension. */
const FILE_SUFFIX = new Set([
  'png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'ico', 'bmp', 'tif', 'tiff', 'avif', 'heic', 'css', 'js', 'mjs', 'json', 'map', 'mp4',
  'webm', 'mov', 'mp3', 'woff', 'woff2', 'ttf', 'otf', 'eot', 'pdf', 'html', 'htm', 'php', 'asp', 'aspx', 'jsp', 'txt', 'xml', 'zip',
]);
/** Placeholders in forms and docs, and error-tracker addresses baked into scripts. */
const PLACEHOLDER_DOMAINS = /(?:^|\.)(?:example\.(?:com|org|net)|yourdomain\.com|yoursite\.com|yourcompany\.com|domain\.tld|sentry\.io|wixpress\.com|sentry-next\.wixpress\.com)$|\.(?:example|invalid|localhost|local)$/;

const SPELLED_TLD = /\.(?:[a-z]{2}|com|net|org|info|biz|edu|gov|mil|int|app|dev|shop|store|online|site|tech|eu|asia)$/i;

/** Undoes the common disguises: `[at]`, `(at)`, `{at}`, `<at>`, ` at `…` dot `, `[dot]`, `(punkt)`, spaced `@`. */
export function deobfuscate(text: string): string {
  return text
    .replace(/\s*[[({<]\s*(?:at|@|ät|arroba|chez)\s*[\])}>]\s*/gi, '@')
    .replace(/\s*[[({<]\s*(?:dot|\.|punkt|point|punto)\s*[\])}>]\s*/gi, '.')
    .replace(/\b([a-z0-9._%+-]{1,64}) (?:at|AT) ([a-z0-9-]{1,63}(?: (?:dot|DOT) [a-z0-9-]{1,63}){1,6})\b/gi, (m, local: string, rest: string) => {
      const domain = rest.replace(/ (?:dot|DOT) /g, '.');
      // Spelled out, only a real-looking suffix makes it an address ("look at the dot matrix" is prose).
      return SPELLED_TLD.test(domain) ? `${local}@${domain}` : m;
    })
    .replace(/([a-z0-9]) @ ([a-z0-9])/gi, '$1@$2');
}

/** One address, lower-cased; undefined when it is not a plausible mailbox. */
export function normaliseEmail(candidate: string): string | undefined {
  let s = candidate.trim().replace(/^mailto:/i, '');
  try {
    s = decodeURIComponent(s);
  } catch {
    /* keep as is */
  }
  s = s.trim().replace(/^[<("'[]+|[>)"'\].,;:]+$/g, '').toLowerCase();
  if (!EMAIL_EXACT.test(s)) return undefined;
  const [local, domain] = s.split('@');
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) return undefined;
  const tld = domain.slice(domain.lastIndexOf('.') + 1);
  if (FILE_SUFFIX.has(tld) || PLACEHOLDER_DOMAINS.test(domain)) return undefined;
  // Long hex local parts are tracker and error-reporting keys, not mailboxes.
  if (/^[0-9a-f]{24,}$/.test(local)) return undefined;
  return s;
}

/** Addresses of a `mailto:` link (several may be listed; `mailto:?subject=` share links carry none). */
export function mailtoAddresses(href: string): string[] {
  const target = href.replace(/^mailto:/i, '').split('?')[0];
  return target.split(/[,;]/).map(normaliseEmail).filter((e): e is string => !!e);
}

/** Addresses one page may contribute: a real site lists a handful; a page of thousands is a dump, not contacts. */
export const MAX_EMAILS_PER_PAGE = 200;

export function emailsInText(text: string): string[] {
  const out = new Set<string>();
  for (const m of deobfuscate(text).matchAll(EMAIL)) {
    const e = normaliseEmail(m[0]);
    if (e) out.add(e);
    if (out.size >= MAX_EMAILS_PER_PAGE) break;
  }
  return [...out];
}

// ---------------------------------------------------------------- phones

/** Country-code TLDs that sites use as generic names (.io, .co, .ai…): they say nothing about the country. */
const GENERIC_CC = new Set(['io', 'co', 'ai', 'tv', 'me', 'fm', 'ly', 'cc', 'ws', 'to', 'gg', 'sh', 'ac', 'la', 'am', 'so', 'vc', 'nu', 'tk', 'ms', 'gl', 'im']);

/** The country a page's local numbers belong to: its ccTLD, else the region of `<html lang>` (en-US → US). */
export function countryHint(hostname: string, lang?: string): CountryCode | undefined {
  const tld = hostname.toLowerCase().replace(/\.$/, '').split('.').pop() ?? '';
  if (/^[a-z]{2}$/.test(tld) && !GENERIC_CC.has(tld)) {
    const cc = tld === 'uk' ? 'GB' : tld.toUpperCase();
    if (isSupportedCountry(cc)) return cc as CountryCode;
  }
  const region = /^[a-z]{2,3}[-_]([a-z]{2})\b/i.exec(lang ?? '')?.[1]?.toUpperCase();
  if (region && isSupportedCountry(region)) return region as CountryCode;
  return undefined;
}

const camel = (t: string | undefined): string | undefined =>
  t?.toLowerCase().replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

function hit(n: PhoneNumber, raw: string, fax: boolean): PhoneHit | undefined {
  if (!n.isValid()) return undefined;
  return {
    value: n.number,
    raw: raw.trim(),
    country: n.country,
    type: camel(n.getType()),
    extension: n.ext || undefined,
    fax: fax || undefined,
  };
}

/** A `tel:` link or a JSON-LD telephone value (RFC 3966 parameters dropped, `;ext=` kept). */
export function phoneFromValue(value: string, hint?: CountryCode, fax = false): PhoneHit | undefined {
  let raw = value.trim().replace(/^(?:tel|callto):/i, '');
  try {
    raw = decodeURIComponent(raw);
  } catch {
    /* keep as is */
  }
  const [number, ...params] = raw.split(';');
  const ext = params.map((p) => /^ext=(\d{1,10})$/i.exec(p.trim())?.[1]).find(Boolean);
  const n = parsePhoneNumberFromString(ext ? `${number} ext. ${ext}` : number, hint ? { defaultCountry: hint } : undefined);
  return n ? hit(n, number, fax) : undefined;
}

const DATE_LIKE = /^(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4})$/;
const PHONE_WORDS = /(?:tel|phone|fon|call|mobile?|cell|fax|hotline|whats\s?app|t[ée]l[ée]phone|tel[ée]fono|telefone|contact|kontakt|ring|☎|📞|✆)[^0-9+]{0,25}$/i;
const FAX_WORDS = /fax[^0-9+]{0,15}$/i;
/** A run of digits and the separators numbers are written with, on one line. */
const DIGIT_RUN = /[+(]?\d[\d \t\u00a0().\/-]*\d/g;
/** Where a run that lists several numbers splits ("030 1234567 / 030 1234568"). */
const LIST_SEPARATOR = / +[/|] +| {2,}| +[-–] +/;
/** Longest piece handed to the matcher: the longest written number with its spacing; anything longer is not one. */
const MAX_PIECE = 40;
/** The matcher costs tens of microseconds per character: a page gets this many pieces, labelled ones first. */
const MAX_PIECES = 80;

interface Piece {
  start: number;
  text: string;
  labelled: boolean;
}

/** Candidate pieces of the text, cheaply: digit runs with 7-17 digits, split where a run lists several numbers. */
function numberPieces(text: string): Piece[] {
  const pieces: Piece[] = [];
  for (const m of text.matchAll(DIGIT_RUN)) {
    let offset = m.index;
    for (const part of m[0].split(LIST_SEPARATOR)) {
      const at = text.indexOf(part, offset);
      offset = at + part.length;
      const digits = part.replace(/\D/g, '').length;
      if (part.length > MAX_PIECE || digits < 7 || digits > 17) continue;
      pieces.push({ start: at, text: part, labelled: PHONE_WORDS.test(text.slice(Math.max(0, at - 40), at)) });
    }
  }
  const first = pieces.filter((p) => p.labelled || p.text.startsWith('+'));
  const rest = pieces.filter((p) => !(p.labelled || p.text.startsWith('+')));
  return [...first, ...rest].slice(0, MAX_PIECES).sort((a, b) => a.start - b.start);
}

/**
 * Numbers in running text. Valid numbers only; dates and bare digit runs (order numbers, ids) are kept only where
 * the text before them says "phone", "tel", "call" and the like. Bounded: only short digit runs reach the matcher.
 */
export function phonesInText(text: string, hint?: CountryCode): PhoneHit[] {
  const out: PhoneHit[] = [];
  for (const piece of numberPieces(text)) {
    for (const m of findNumbers(piece.text, { defaultCountry: hint, v2: true })) {
      const raw = piece.text.slice(m.startsAt, m.endsAt);
      const at = piece.start + m.startsAt;
      const before = text.slice(Math.max(0, at - 40), at);
      const labelled = PHONE_WORDS.test(before);
      const international = raw.startsWith('+');
      const grouped = /\d[ \t\u00a0().\/-]+\d/.test(raw) || raw.startsWith('(');
      if (DATE_LIKE.test(raw) && !labelled) continue;
      if (!international && !grouped && !labelled) continue;
      const h = hit(m.number, raw, FAX_WORDS.test(before));
      if (h) out.push(h);
    }
  }
  return out;
}

// ---------------------------------------------------------------- JSON-LD

interface LdValues {
  emails: string[];
  phones: string[];
  faxes: string[];
  sameAs: string[];
}

/** email / telephone / faxNumber / sameAs anywhere in the JSON-LD graphs, with a bound on the walk. */
export function jsonLdValues(blocks: unknown[]): LdValues {
  const out: LdValues = { emails: [], phones: [], faxes: [], sameAs: [] };
  const stack: { v: unknown; depth: number }[] = blocks.map((v) => ({ v, depth: 0 }));
  let visited = 0;
  const strings = (v: unknown): string[] => (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string');
  while (stack.length && visited++ < 20_000) {
    const { v, depth } = stack.pop()!;
    if (depth > 12 || !v || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (const x of v) stack.push({ v: x, depth: depth + 1 });
      continue;
    }
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (k === 'email') for (const v of strings(x)) out.emails.push(v);
      else if (k === 'telephone') for (const v of strings(x)) out.phones.push(v);
      else if (k === 'faxNumber') for (const v of strings(x)) out.faxes.push(v);
      else if (k === 'sameAs') for (const v of strings(x)) out.sameAs.push(v);
      else if (typeof x === 'object') stack.push({ v: x, depth: depth + 1 });
    }
  }
  return out;
}

// ---------------------------------------------------------------- one page

const MAX_PROFILES_PER_PAGE = 100;

function uniqueBy<T>(items: T[], key: (t: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((t) => {
    const k = key(t);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export function findContacts(doc: PageDoc, pageUrl: string): PageFindings {
  const hint = countryHint(new URL(pageUrl).hostname, doc.lang);
  const ld = jsonLdValues(doc.jsonLd);
  const emails: string[] = [];
  const phones: PhoneHit[] = [];
  const socials: SocialProfile[] = [];
  for (const link of doc.links) {
    if (/^mailto:/i.test(link.href)) {
      for (const e of mailtoAddresses(link.href)) emails.push(e);
    } else if (/^(?:tel|callto):/i.test(link.href)) {
      const p = phoneFromValue(link.href, hint, /\bfax\b/i.test(link.text));
      if (p) phones.push(p);
    } else {
      const s = socialProfile(link.href);
      if (s) socials.push(s);
    }
  }
  for (const e of doc.cfEmails) {
    const n = normaliseEmail(e);
    if (n) emails.push(n);
  }
  for (const e of ld.emails) for (const n of mailtoAddresses(e)) emails.push(n);
  for (const e of emailsInText(doc.text)) emails.push(e);
  for (const v of ld.phones) pushPhone(phones, phoneFromValue(v, hint));
  for (const v of ld.faxes) pushPhone(phones, phoneFromValue(v, hint, true));
  for (const p of phonesInText(doc.text, hint)) phones.push(p);
  for (const v of ld.sameAs) {
    const s = socialProfile(v);
    if (s) socials.push(s);
  }
  return {
    emails: [...new Set(emails)].slice(0, MAX_EMAILS_PER_PAGE),
    phones: mergePhones(phones),
    socials: uniqueBy(socials, profileKey).slice(0, MAX_PROFILES_PER_PAGE),
  };
}

function pushPhone(list: PhoneHit[], p: PhoneHit | undefined): void {
  if (p) list.push(p);
}

export const phoneKey = (p: PhoneHit): string => `${p.value};${p.extension ?? ''}`;

/** One entry per number (and extension); the first spelling is kept, a fax label on any sighting sticks. */
export function mergePhones(phones: PhoneHit[]): PhoneHit[] {
  const byKey = new Map<string, PhoneHit>();
  for (const p of phones) {
    const known = byKey.get(phoneKey(p));
    if (!known) byKey.set(phoneKey(p), { ...p });
    else if (p.fax) known.fax = true;
  }
  return [...byKey.values()];
}
