import ipaddr from 'ipaddr.js';

/**
 * The identity keyless limits count against. Fastify's `request.ip` already honours the trusted-proxy setting;
 * an IPv6 client counts as its /64, since one host usually holds a whole /64.
 */
export function clientAddress(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6') {
    const v6 = addr as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
    return `${v6.parts.slice(0, 4).map((p) => p.toString(16)).join(':')}::/64`;
  }
  return addr.toString();
}
