/**
 * Where mail for a domain goes (RFC 5321 §5.1): its MX records, lowest preference first; a null MX (RFC 7505, a single
 * `0 .`) means the domain takes no mail; with no MX at all the domain's own A/AAAA is the implicit MX. Asked through
 * the plain DNS client of the domain source (QUARRY_DNS_SERVERS), so NXDOMAIN and "no records" are told apart.
 */
import { QuarryError, isQuarryError } from '../../errors.js';
import { normaliseAnswer, type Query } from '../domain/dns.js';

export interface MailHost {
  exchange: string;
  priority: number;
}

export type MailRoute =
  | { kind: 'noDomain' }
  | { kind: 'nullMx' }
  | { kind: 'mx'; hosts: MailHost[] }
  /** No MX: the domain itself, which has addresses. */
  | { kind: 'implicit'; hosts: MailHost[] }
  /** Neither MX nor addresses. */
  | { kind: 'none' };

const NXDOMAIN = 3;

/** The DNS client's errors speak for the domain source; here they speak for email. */
async function ask(query: Query, name: string, type: 'MX' | 'A' | 'AAAA') {
  try {
    return await query(name, type);
  } catch (e) {
    if (!isQuarryError(e)) throw e;
    throw new QuarryError(e.code, e.message.replace(/^domain: /, 'email: ').replace(/ for \S+ /, ` for ${name} `), e.extras);
  }
}

export async function mailRoute(domain: string, query: Query): Promise<MailRoute> {
  const mx = await ask(query, domain, 'MX');
  if (mx.header.rcode === NXDOMAIN) return { kind: 'noDomain' };
  const hosts: MailHost[] = [];
  for (const a of mx.answers ?? []) {
    const r = normaliseAnswer(a);
    if (r?.type === 'MX' && r.priority !== undefined) hosts.push({ exchange: r.target ?? '', priority: r.priority });
  }
  if (hosts.some((h) => h.exchange === '')) return { kind: 'nullMx' };
  if (hosts.length) {
    const seen = new Set<string>();
    const ordered = hosts
      .sort((a, b) => a.priority - b.priority || a.exchange.localeCompare(b.exchange))
      .filter((h) => !seen.has(h.exchange) && seen.add(h.exchange));
    return { kind: 'mx', hosts: ordered };
  }
  const { addresses } = await hostAddresses(domain, query);
  return addresses.length ? { kind: 'implicit', hosts: [{ exchange: domain, priority: 0 }] } : { kind: 'none' };
}

/** A and AAAA of a host, IPv4 first (outbound IPv6 is the rarer path); `exists` false on NXDOMAIN. */
export async function hostAddresses(host: string, query: Query): Promise<{ exists: boolean; addresses: string[] }> {
  const [v4, v6] = await Promise.all([ask(query, host, 'A'), ask(query, host, 'AAAA')]);
  const pick = (p: typeof v4, type: 'A' | 'AAAA') =>
    (p.answers ?? []).map(normaliseAnswer).filter((r) => r?.type === type && r.address).map((r) => r!.address!);
  const addresses = [...new Set([...pick(v4, 'A'), ...pick(v6, 'AAAA')])];
  return { exists: !(v4.header.rcode === NXDOMAIN && v6.header.rcode === NXDOMAIN), addresses };
}
