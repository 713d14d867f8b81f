/**
 * RDAP (RFC 9082/9083): the IANA bootstrap file names each TLD's server; `GET {base}domain/{name}` answers JSON.
 * The normaliser is pure; the client goes through the shared HTTP client.
 */
import { QuarryError } from '../../errors.js';
import { arr, bool, isObj, isoFromText, obj, objs, str, type Obj } from '../kit/read.js';
import type { SourceContext } from '../types.js';
import type { RegistrationRecord } from './record.js';

export interface Bootstrap {
  services: [string[], string[]][];
}

/** Parses data.iana.org/rdap/dns.json (or a whoisit-style cache holding it under `dns`). */
export function parseBootstrap(body: unknown): Bootstrap {
  const b = (body && typeof body === 'object' && 'dns' in body ? (body as { dns: unknown }).dns : body) as Partial<Bootstrap>;
  if (!b || !Array.isArray(b.services)) throw new QuarryError('sourceChanged', 'domain: the RDAP bootstrap file has no services');
  return { services: b.services.filter((s) => Array.isArray(s) && Array.isArray(s[0]) && Array.isArray(s[1])) };
}

/** The RDAP base addresses for `domain` (longest matching suffix; https first), or [] when its TLD has none. */
export function rdapBases(bootstrap: Bootstrap, domain: string): string[] {
  let best: string[] = [];
  let bestLen = 0;
  for (const [tlds, urls] of bootstrap.services) {
    for (const tld of tlds) {
      const t = tld.toLowerCase();
      if ((domain === t || domain.endsWith(`.${t}`)) && t.length > bestLen) {
        best = urls;
        bestLen = t.length;
      }
    }
  }
  return [...best].sort((a, b) => Number(b.startsWith('https:')) - Number(a.startsWith('https:')));
}

/** RDAP status words ("client transfer prohibited") → EPP codes (`clientTransferProhibited`). */
export function eppStatus(s: string): string {
  const words = s.trim().split(/\s+/);
  return words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase())).join('');
}

interface Entity {
  roles?: string[];
  vcardArray?: [string, [string, unknown, string, unknown][]];
  publicIds?: { type?: string; identifier?: string }[];
  links?: { rel?: string; href?: string; type?: string }[];
  entities?: Entity[];
}

function vcard(e: Entity, prop: string): string | undefined {
  const row = arr(e.vcardArray?.[1]).find((r) => Array.isArray(r) && r[0] === prop);
  return str((row as unknown[] | undefined)?.[3]);
}

/** ISO 8601 in whole seconds, as registries write their dates. */
const isoDate = (v: unknown): string | undefined => isoFromText(v)?.replace('.000Z', 'Z');

/** An RDAP domain object → the registration record. Not an object with `objectClassName: domain` → sourceChanged. */
export function normaliseRdap(body: unknown, asked: string): RegistrationRecord {
  const d: Obj | undefined = isObj(body) ? body : undefined;
  if (!d || (d.objectClassName !== undefined && d.objectClassName !== 'domain') || (!d.ldhName && !d.handle)) {
    throw new QuarryError('sourceChanged', 'domain: the RDAP answer is not a domain object');
  }
  const events = objs(d.events);
  const event = (action: string): string | undefined => isoDate(events.find((e) => e.eventAction === action)?.eventDate);
  const entities = objs(d.entities) as Entity[];
  const registrar = entities.find((e) => e.roles?.includes('registrar'));
  const ianaId = registrar?.publicIds?.find((p) => /iana registrar id/i.test(p.type ?? ''))?.identifier;
  const registrarUrl = registrar?.links?.find((l) => l.rel === 'about' || l.type === 'text/html')?.href ?? vcard(registrar ?? {}, 'url');
  const ldh = str(d.ldhName)?.toLowerCase() ?? asked;
  const unicode = str(d.unicodeName);
  return {
    domain: ldh,
    unicodeDomain: unicode && unicode.toLowerCase() !== ldh ? unicode : undefined,
    registered: true,
    registrar: registrar
      ? { name: vcard(registrar, 'fn') ?? vcard(registrar, 'org'), ianaId: ianaId && /^\d+$/.test(ianaId) ? ianaId : undefined, url: registrarUrl }
      : undefined,
    createdAt: event('registration'),
    updatedAt: event('last changed'),
    expiresAt: event('expiration'),
    statuses: arr(d.status).map(str).filter((s): s is string => !!s).map(eppStatus),
    nameServers: objs(d.nameservers).map((n) => str(n.ldhName)?.toLowerCase().replace(/\.$/, '')).filter((n): n is string => !!n),
    dnssec: bool(obj(d.secureDNS)?.delegationSigned),
  };
}

/** The registrar's own RDAP object of a thin registry answer (`links[rel=related]`), if any. */
export function relatedRdap(body: unknown): string | undefined {
  const link = objs(isObj(body) ? body.links : undefined).find((l) => l.rel === 'related' && /rdap\+json/.test(String(l.type ?? '')) && str(l.href));
  const href = str(link?.href);
  return href && /^https?:\/\//.test(href) ? href : undefined;
}

/** Fills what the registry left out from the registrar's answer (the registry stays authoritative). */
export function mergeRecords(registry: RegistrationRecord, registrar: RegistrationRecord): RegistrationRecord {
  return {
    ...registry,
    registrar: { ...registrar.registrar, ...stripEmpty(registry.registrar) },
    createdAt: registry.createdAt ?? registrar.createdAt,
    updatedAt: registry.updatedAt ?? registrar.updatedAt,
    expiresAt: registry.expiresAt ?? registrar.expiresAt,
    statuses: registry.statuses?.length ? registry.statuses : registrar.statuses,
    nameServers: registry.nameServers?.length ? registry.nameServers : registrar.nameServers,
    dnssec: registry.dnssec ?? registrar.dnssec,
  };
}

function stripEmpty<T extends object>(o: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;
}

const BOOTSTRAP_TTL_MS = 24 * 3600 * 1000;
const bootstraps = new Map<string, { at: number; value: Bootstrap }>();

export async function loadBootstrap(url: string, ctx: SourceContext): Promise<Bootstrap> {
  const hit = bootstraps.get(url);
  if (hit && Date.now() - hit.at < BOOTSTRAP_TTL_MS) return hit.value;
  const res = await ctx.http.request({ url, headers: { accept: 'application/json' }, maxBytes: 2 * 1024 * 1024 }, ctx.signal);
  const value = parseBootstrap(res.json());
  bootstraps.set(url, { at: Date.now(), value });
  return value;
}

export interface RdapAnswer {
  record: RegistrationRecord;
  server: string;
}

/** Registry RDAP (then the registrar's, once, for thin registries). 404 → not registered. */
export async function queryRdap(base: string, domain: string, ctx: SourceContext): Promise<RdapAnswer> {
  const url = `${base.replace(/\/?$/, '/')}domain/${encodeURIComponent(domain)}`;
  const res = await ctx.http.request(
    { url, headers: { accept: 'application/rdap+json, application/json' }, maxBytes: 2 * 1024 * 1024, passStatuses: [404] },
    ctx.signal,
  );
  if (res.status === 404) return { record: { domain, registered: false }, server: base };
  const body = res.json();
  let record = normaliseRdap(body, domain);
  const related = relatedRdap(body);
  if (related) {
    try {
      // The address comes from the upstream answer: guarded like a caller's address.
      const more = await ctx.http.request(
        { url: related, headers: { accept: 'application/rdap+json, application/json' }, maxBytes: 2 * 1024 * 1024, userSupplied: true, timeoutMs: 5000 },
        ctx.signal,
      );
      record = mergeRecords(record, normaliseRdap(more.json(), domain));
    } catch (e) {
      ctx.log.warn({ err: e, related }, 'registrar RDAP not used');
    }
  }
  return { record, server: base };
}
