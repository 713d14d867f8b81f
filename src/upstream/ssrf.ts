/**
 * SSRF guard for caller-supplied addresses. Checked twice: before the request (clear error, no socket opened) and
 * inside the connection's DNS lookup, so a name that re-resolves to a private address between the two
 * (DNS rebinding) is still refused at connect time.
 */
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { QuarryError } from '../errors.js';

type Addr = ipaddr.IPv4 | ipaddr.IPv6;

const REFUSED = 'url: points to a private or reserved address';

/**
 * Never exempt, whatever the allow-list says: credentials live there. Cloud metadata services (EC2 and most clouds
 * on 169.254.169.254 and fd00:ec2::254, Alibaba on 100.100.100.200) and the container credential endpoints (ECS task
 * roles on 169.254.170.2, EKS Pod Identity on 169.254.170.23 and fd00:ec2::23), which an operator allowing
 * 169.254.0.0/16 or fd00::/8 for an internal service would otherwise expose.
 */
const METADATA = ['169.254.169.254', 'fd00:ec2::254', '100.100.100.200', '169.254.170.2', '169.254.170.23', 'fd00:ec2::23'].map((a) =>
  ipaddr.parse(a).toNormalizedString(),
);

const GLOBAL_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
const NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

export function refusal(): QuarryError {
  return new QuarryError('invalidRequest', REFUSED, { retryable: false });
}

/** Strips IPv6 brackets and turns IPv4-mapped IPv6 into IPv4; undefined when `host` is not an IP literal. */
function parseIp(host: string): Addr | undefined {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (!ipaddr.isValid(bare)) return undefined;
  return ipaddr.process(bare);
}

/** True for anything but public unicast (IPv4 `unicast`, IPv6 `unicast` inside 2000::/3, NAT64 of a public IPv4). */
export function isReservedAddress(ip: string): boolean {
  const addr = parseIp(ip);
  if (!addr) return true;
  if (addr.kind() === 'ipv4') return addr.range() !== 'unicast';
  const v6 = addr as ipaddr.IPv6;
  if (v6.match(NAT64)) {
    const p = v6.parts;
    return isReservedAddress(`${p[6] >> 8}.${p[6] & 255}.${p[7] >> 8}.${p[7] & 255}`);
  }
  return v6.range() !== 'unicast' || !v6.match(GLOBAL_V6);
}

/** Every A and AAAA answer of `host` from `servers` (no hosts file, as a resolver sees it); fails like dns.lookup. */
async function resolveWith(servers: readonly string[], host: string): Promise<dns.LookupAddress[]> {
  const resolver = new dns.promises.Resolver({ timeout: 2000, tries: 2 });
  resolver.setServers(servers);
  const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
  const out: dns.LookupAddress[] = [
    ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
    ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
  ];
  if (out.length) return out;
  throw v4.status === 'rejected' ? v4.reason : Object.assign(new Error(`queryA ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
}

export interface SsrfGuard {
  /** Scheme, credentials, then every address the host resolves to. Throws invalidRequest. */
  check(url: URL): Promise<void>;
  /** Drop-in for net's `lookup`, refusing reserved answers at connect time. */
  lookup: net.LookupFunction;
}

/** `servers` are QUARRY_DNS_SERVERS, so the guard sees what the DNS endpoint sees; empty means the system resolver. */
export function createSsrfGuard(allow: readonly string[] = [], servers: readonly string[] = []): SsrfGuard {
  const hosts = new Set<string>();
  const ranges: [Addr, number][] = [];
  for (const entry of allow) {
    if (ipaddr.isValidCIDR(entry)) ranges.push(ipaddr.parseCIDR(entry));
    else if (ipaddr.isValid(entry)) {
      const a = ipaddr.process(entry);
      ranges.push([a, a.kind() === 'ipv4' ? 32 : 128]);
    } else hosts.add(entry.toLowerCase());
  }

  const addressAllowed = (ip: string, hostExempt: boolean): boolean => {
    const addr = parseIp(ip);
    if (!addr) return false;
    if (METADATA.includes(addr.toNormalizedString())) return false;
    if (hostExempt) return true;
    if (ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits))) return true;
    return !isReservedAddress(ip);
  };

  const resolveAll = (host: string): Promise<dns.LookupAddress[]> =>
    servers.length ? resolveWith(servers, host) : dns.promises.lookup(host, { all: true, verbatim: true });

  async function check(url: URL): Promise<void> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new QuarryError('invalidRequest', 'url: only http and https addresses are allowed', { retryable: false });
    }
    if (url.username || url.password) {
      throw new QuarryError('invalidRequest', 'url: must not contain credentials', { retryable: false });
    }
    const host = url.hostname.toLowerCase();
    const exempt = hosts.has(host);
    if (parseIp(host)) {
      if (!addressAllowed(host, exempt)) throw refusal();
      return;
    }
    let answers: dns.LookupAddress[];
    try {
      answers = await resolveAll(host);
    } catch {
      // An unresolvable name is the upstream's problem, not the caller's address being unsafe.
      throw new QuarryError('sourceUnavailable', `upstream host ${host} could not be resolved`);
    }
    if (answers.length === 0 || answers.some((a) => !addressAllowed(a.address, exempt))) throw refusal();
  }

  const lookup: net.LookupFunction = (hostname, options, callback) => {
    const exempt = hosts.has(hostname.toLowerCase());
    const done = (err: NodeJS.ErrnoException | null, all: dns.LookupAddress[]): void => {
      if (err) return callback(err, '', 0);
      const answers = options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all;
      if (answers.length === 0 && all.length) {
        return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      }
      // Refuse when any answer is reserved, so a mixed answer cannot be raced into a private connection.
      if (answers.length === 0 || answers.some((a) => !addressAllowed(a.address, exempt))) {
        return callback(refusal() as unknown as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, answers);
      callback(null, answers[0].address, answers[0].family);
    };
    if (servers.length) resolveWith(servers, hostname).then((all) => done(null, all), (e) => done(e, []));
    else dns.lookup(hostname, { ...options, all: true }, done);
  };

  return { check, lookup };
}
