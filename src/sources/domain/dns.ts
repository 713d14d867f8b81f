/**
 * DNS records with their TTLs. node:dns only reports TTLs for A/AAAA, so queries go out as plain DNS packets
 * (dns2's UDP client: random ids, answers checked against the server asked, TCP retry on truncation) to the
 * resolvers of QUARRY_DNS_SERVERS, or the system's resolvers when it is unset.
 */
import dns from 'node:dns';
import DNS from 'dns2';
import { DEFAULT_TYPES, DNS_DATA, RECORD_TYPES } from '../../catalogue/endpoints/domain.js';
import type { TypeOf } from '../../catalogue/types.js';
import { QuarryError } from '../../errors.js';

export { DEFAULT_TYPES, RECORD_TYPES };
export type RecordType = (typeof RECORD_TYPES)[number];

/** domain.dns' record and one of its DNS records, read off the declaration (src/catalogue/endpoints/domain.ts). */
export type DnsData = TypeOf<typeof DNS_DATA>;
export type DnsRecord = DnsData['records'][number];

export interface Server {
  host: string;
  port: number;
}

/** `host:port`, `host`, `[v6]:port` or a bare IPv6 address → host and port (53 by default). */
export function parseServer(s: string): Server {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(s);
  if (v6) return { host: v6[1], port: Number(v6[2] ?? 53) };
  if ((s.match(/:/g) ?? []).length > 1) return { host: s, port: 53 };
  const [host, port] = s.split(':');
  return { host, port: Number(port ?? 53) };
}

export function resolvers(setting: string | undefined): Server[] {
  const list = (setting ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  return (list.length ? list : dns.getServers()).map(parseServer);
}

const RCODE = { SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;

const strip = (n: unknown): string => String(n ?? '').replace(/\.$/, '').toLowerCase();

/** One raw answer resource (dns2 shape) → our record; undefined for types we did not ask about. */
export function normaliseAnswer(a: Record<string, unknown>): DnsRecord | undefined {
  const type = (Object.entries(DNS.Packet.TYPE) as [string, number][]).find(([, n]) => n === a.type)?.[0] as RecordType | undefined;
  if (!type || !RECORD_TYPES.includes(type)) return undefined;
  const base = { type, name: strip(a.name), ttl: Number(a.ttl) };
  switch (type) {
    case 'A':
    case 'AAAA':
      return { ...base, value: String(a.address), address: String(a.address) };
    case 'CNAME':
    case 'PTR':
      return { ...base, value: strip(a.domain), target: strip(a.domain) };
    case 'NS':
      return { ...base, value: strip(a.ns), target: strip(a.ns) };
    case 'MX':
      return { ...base, value: `${a.priority} ${strip(a.exchange)}`, priority: Number(a.priority), target: strip(a.exchange) };
    case 'TXT': {
      const text = Array.isArray(a.data) ? (a.data as string[]).join('') : String(a.data ?? '');
      return { ...base, value: text, text };
    }
    case 'SOA': {
      const admin = strip(a.admin);
      const email = admin.replace(/^([^.]*(?:\\\.[^.]*)*)\./, '$1@').replace(/\\\./g, '.');
      return {
        ...base,
        value: `${strip(a.primary)} ${admin} ${a.serial} ${a.refresh} ${a.retry} ${a.expiration} ${a.minimum}`,
        primaryNameServer: strip(a.primary),
        adminEmail: email,
        serial: Number(a.serial),
        refresh: Number(a.refresh),
        retry: Number(a.retry),
        expire: Number(a.expiration),
        minimumTtl: Number(a.minimum),
      };
    }
    case 'CAA':
      return { ...base, value: `${a.flags} ${a.tag} "${a.value}"`, flags: Number(a.flags), tag: String(a.tag), text: String(a.value) };
    case 'SRV':
      return {
        ...base,
        value: `${a.priority} ${a.weight} ${a.port} ${strip(a.target)}`,
        priority: Number(a.priority),
        weight: Number(a.weight),
        port: Number(a.port),
        target: strip(a.target),
      };
  }
}

interface Packet {
  header: { rcode: number };
  answers: Record<string, unknown>[];
}

export type Query = (name: string, type: RecordType) => Promise<Packet>;

/** A query function over the given resolvers: each is tried in turn on timeouts and network errors. */
export function dnsClient(servers: Server[], timeoutMs = 3000): Query {
  const clients = servers.map((s) => ({ s, q: DNS.UDPClient({ dns: s.host, port: s.port, timeout: timeoutMs, socketType: s.host.includes(':') ? 'udp6' : 'udp4' }) }));
  return async (name, type) => {
    let last: unknown;
    for (const { q } of clients) {
      try {
        const res = (await q(name, type)) as unknown as Packet;
        if (res.header.rcode === RCODE.SERVFAIL || res.header.rcode === RCODE.REFUSED) {
          last = Object.assign(new Error('server failure'), { code: res.header.rcode === 2 ? 'ESERVFAIL' : 'EREFUSED' });
          continue;
        }
        return res;
      } catch (e) {
        last = e;
      }
    }
    const code = (last as { code?: string })?.code;
    if (code === 'ETIMEDOUT') throw new QuarryError('sourceTimeout', `domain: the DNS servers did not answer within ${timeoutMs} ms`);
    if (code === 'ESERVFAIL' || code === 'EREFUSED') throw new QuarryError('sourceUnavailable', `domain: the DNS servers could not answer for ${name} (${code})`);
    throw new QuarryError('sourceUnavailable', `domain: the DNS servers could not be reached${code && /^[A-Z0-9_]+$/.test(code) ? ` (${code})` : ''}`);
  };
}

/** Asks every type (in parallel) and keeps the answers of the types asked, in the order asked. */
export async function lookupRecords(domain: string, types: readonly RecordType[], query: Query): Promise<DnsData> {
  const packets = await Promise.all(types.map((t) => query(domain, t)));
  return normalisePackets(domain, types, packets);
}

/** Pure: the packets answering `types` (same order) → the DNS record. */
export function normalisePackets(domain: string, types: readonly RecordType[], packets: Packet[]): DnsData {
  if (packets.length && packets.every((p) => p.header.rcode === RCODE.NXDOMAIN)) return { domain, exists: false, records: [] };
  const records: DnsRecord[] = [];
  const seen = new Set<string>();
  const noRecords: RecordType[] = [];
  types.forEach((type, i) => {
    const before = records.length;
    for (const a of packets[i].answers ?? []) {
      const r = normaliseAnswer(a);
      // An A query answered through a CNAME chain carries the CNAME too: keep it only when CNAME was asked.
      if (!r || (r.type !== type && !types.includes(r.type))) continue;
      const key = `${r.type} ${r.name} ${r.value}`;
      if (seen.has(key)) continue;
      seen.add(key);
      records.push(r);
    }
    if (!records.slice(before).some((r) => r.type === type)) noRecords.push(type);
  });
  return { domain, exists: true, records, ...(noRecords.length ? { noRecords } : {}) };
}
