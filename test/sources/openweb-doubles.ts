/**
 * Loopback doubles for the open-web sources (issue 5), real servers on 127.0.0.1: a DNS server (dns2, UDP + TCP on
 * one port), HTTP sites, a WHOIS server replaying the recorded answers and an RDAP server replaying the recorded
 * RDAP answers. Recordings come from ../shared/upstream (see its README); the tests skip where it is absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import DNS from 'dns2';
import { startGateway, type TestGateway } from '../helpers/gateway.js';

export const UPSTREAM = fileURLToPath(new URL('../../../shared/upstream/', import.meta.url));
export const HAVE_OPENWEB = existsSync(`${UPSTREAM}domain/whois/found`) && existsSync(`${UPSTREAM}storefront`);
export const OPENWEB_SKIP = HAVE_OPENWEB ? '' : ` (skipped: recordings not found at ${UPSTREAM})`;

export const readRecording = (path: string): string => readFileSync(`${UPSTREAM}${path}`, 'latin1');
export const readJson = (path: string): any => JSON.parse(readFileSync(`${UPSTREAM}${path}`, 'utf8'));

// ---------------------------------------------------------------- DNS

export interface ZoneRecord {
  type: 'A' | 'AAAA' | 'CNAME' | 'MX' | 'NS' | 'TXT' | 'SOA' | 'CAA' | 'SRV';
  ttl: number;
  [k: string]: unknown;
}
export type Zone = Record<string, ZoneRecord[]>;

/** An A record on 127.0.0.1: a test site's name. */
export const loopback = (ttl = 60): ZoneRecord[] => [{ type: 'A', ttl, address: '127.0.0.1' }];

/** Test names: the sites and WHOIS servers on loopback, a private address, and one name with every record type. */
export function testZone(): Zone {
  return {
    'shop.test': loopback(),
    'plain.test': loopback(),
    'redirect.test': loopback(),
    'private.test': [{ type: 'A', ttl: 60, address: '10.0.0.1' }],
    'whois.iana.org': loopback(),
    'whois.verisign-grs.com': loopback(),
    'whois.markmonitor.com': loopback(),
    'rdap.test': loopback(),
    'www.example.test': [{ type: 'CNAME', ttl: 300, domain: 'example.test' }],
    'example.test': [
      { type: 'A', ttl: 300, address: '192.0.2.10' },
      { type: 'A', ttl: 300, address: '192.0.2.11' },
      { type: 'AAAA', ttl: 600, address: '2001:db8::10' },
      { type: 'MX', ttl: 3600, exchange: 'mx1.example.test', priority: 10 },
      { type: 'MX', ttl: 3600, exchange: 'mx2.example.test', priority: 20 },
      { type: 'NS', ttl: 86400, ns: 'ns1.example.test' },
      { type: 'NS', ttl: 86400, ns: 'ns2.example.test' },
      { type: 'TXT', ttl: 300, data: ['v=spf1 include:_spf.example.test ', '-all'] },
      { type: 'TXT', ttl: 300, data: 'google-site-verification=abc123' },
      {
        type: 'SOA', ttl: 3600, primary: 'ns1.example.test', admin: 'hostmaster.example.test',
        serial: 2026112101, refresh: 7200, retry: 3600, expiration: 1209600, minimum: 300,
      },
      { type: 'CAA', ttl: 3600, flags: 0, tag: 'issue', value: 'letsencrypt.org' },
    ],
    '_sip._tcp.example.test': [{ type: 'SRV', ttl: 120, priority: 10, weight: 5, port: 5060, target: 'sip.example.test' }],
    'empty.test': [],
  };
}

export interface DnsDouble {
  /** `127.0.0.1:port`, for QUARRY_DNS_SERVERS. */
  server: string;
  port: number;
  queries: { name: string; type: number }[];
  close(): Promise<void>;
}

export async function startDnsDouble(zone: Zone = testZone()): Promise<DnsDouble> {
  const queries: { name: string; type: number }[] = [];
  const T = DNS.Packet.TYPE as Record<string, number>;
  const handle = (request: any, send: (r: any) => void): void => {
    const response = DNS.Packet.createResponseFromRequest(request);
    const [q] = request.questions;
    const name = String(q.name).toLowerCase().replace(/\.$/, '');
    queries.push({ name, type: q.type });
    const records = zone[name];
    if (!records) {
      response.header.rcode = 3; // NXDOMAIN
      return send(response);
    }
    const push = (owner: string, rs: ZoneRecord[]): void => {
      for (const r of rs) response.answers.push({ ...r, name: owner, type: T[r.type], class: DNS.Packet.CLASS.IN } as any);
    };
    const cname = records.find((r) => r.type === 'CNAME');
    if (cname && q.type !== T.CNAME) {
      push(name, [cname]);
      push(String(cname.domain), (zone[String(cname.domain)] ?? []).filter((r) => T[r.type] === q.type));
    } else push(name, records.filter((r) => T[r.type] === q.type));
    send(response);
  };
  // UDP takes a free port, then TCP the same number; another process (the suite runs files in parallel) may hold
  // that TCP port, so a taken one means trying again with a new UDP port.
  for (let attempt = 1; ; attempt++) {
    const udp = DNS.createServer({ udp: true, handle } as any);
    await udp.listen({ udp: { port: 0, address: '127.0.0.1' } } as any);
    const port = (udp.addresses() as any).udp.port as number;
    const tcp = DNS.createServer({ tcp: true, handle } as any);
    const listened = await new Promise<boolean>((resolve, reject) => {
      tcp.once('error', (e: NodeJS.ErrnoException) => (e.code === 'EADDRINUSE' && attempt < 20 ? resolve(false) : reject(e)));
      (tcp.listen({ tcp: { port, address: '127.0.0.1' } } as any) as Promise<unknown>).then(() => resolve(true), reject);
    });
    if (!listened) {
      await udp.close();
      continue;
    }
    return dnsDouble(port, queries, udp, tcp);
  }
}

function dnsDouble(port: number, queries: { name: string; type: number }[], udp: { close(): Promise<unknown> }, tcp: { close(): Promise<unknown> }): DnsDouble {
  return {
    server: `127.0.0.1:${port}`,
    port,
    queries,
    async close() {
      await Promise.all([udp.close(), tcp.close()]);
    },
  };
}

// ---------------------------------------------------------------- the gateway

export interface OpenWebGateway {
  gw: TestGateway;
  accountId: string;
  /** A live key and a test-mode key of the account. */
  key: string;
  testKey: string;
}

/**
 * A gateway that resolves names through `dns`, lets loopback through the SSRF guard (QUARRY_OUTBOUND_ALLOW; `env`
 * may widen it) and never retries upstream, with one account holding `credits`.
 */
export async function startOpenWebGateway(dns: DnsDouble, env: Record<string, string> = {}, credits = 100): Promise<OpenWebGateway> {
  const gw = await startGateway({ QUARRY_DNS_SERVERS: dns.server, QUARRY_OUTBOUND_ALLOW: '127.0.0.1/32', QUARRY_UPSTREAM_RETRIES: '0', ...env });
  try {
    const { accountId, apiKey } = await gw.accounts.createAccount({ credits });
    const testKey = (await gw.accounts.createKey({ accountId, test: true })).apiKey;
    return { gw, accountId, key: apiKey, testKey };
  } catch (e) {
    await gw.close();
    throw e;
  }
}

// ---------------------------------------------------------------- HTTP sites

/** Listens on 127.0.0.1 (a free port); `close` also ends the connections still open (silent or streaming sites). */
export async function listenOnLoopback(server: http.Server): Promise<{ port: number; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Sites {
  url: string;
  port: number;
  seen: { host: string; path: string }[];
  close(): Promise<void>;
}

/**
 * One HTTP server for every test site, told apart by Host: `shop.test` serves the recorded meta.json, `plain.test`
 * is a site on another platform (404 for meta.json, an HTML home page), `redirect.test` sends meta.json to the cloud
 * metadata address, `counted.test` has a meta.json without counts and paged products/collections lists.
 */
export async function startSites(): Promise<Sites> {
  const seen: { host: string; path: string }[] = [];
  const meta = readFileSync(`${UPSTREAM}storefront/meta.davidan.json`, 'utf8');
  const server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push({ host, path: url.pathname + url.search });
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if ((host === 'shop.test' || host === '127.0.0.1') && url.pathname === '/meta.json') return json(200, meta);
    if (host === 'counted.test') {
      if (url.pathname === '/meta.json') {
        const m = JSON.parse(meta);
        delete m.published_products_count;
        delete m.published_collections_count;
        return json(200, m);
      }
      const page = Number(url.searchParams.get('page') ?? 1);
      if (url.pathname === '/products.json') return json(200, { products: Array.from({ length: page === 1 ? 250 : page === 2 ? 7 : 0 }, (_, i) => ({ id: page * 1000 + i })) });
      if (url.pathname === '/collections.json') return json(200, { collections: page === 1 ? [{ id: 1 }, { id: 2 }] : [] });
    }
    if (host === 'redirect.test') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      return res.end();
    }
    if (host === 'hidden.test') {
      res.writeHead(404, { 'content-type': 'text/html', 'x-shopid': '123', 'powered-by': 'Shopify' });
      return res.end('<html>Opening soon</html>');
    }
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<!doctype html><html><head><meta name="generator" content="WordPress 6.5"></head><body>Hi</body></html>');
    }
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<html><body>Not found</body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// ---------------------------------------------------------------- WHOIS

export interface WhoisDouble {
  port: number;
  queries: string[];
  close(): Promise<void>;
}

/**
 * Replays the recorded answers. `com` → IANA's recorded answer for the TLD (names whois.verisign-grs.com);
 * `domain google.com` (the Verisign form) and `google.com` → the recorded thin answer, which refers to
 * whois.markmonitor.com; `domain huge.com` → 10 MB of text, written as fast as the socket takes it;
 * `domain silent.com` → never answers. Any other `<name>.<tld>` → the recorded found/notfound file if one exists.
 */
export async function startWhoisDouble(): Promise<WhoisDouble> {
  const queries: string[] = [];
  const found = (name: string): string | undefined => {
    const tld = name.slice(name.lastIndexOf('.') + 1);
    const f = `${UPSTREAM}domain/whois/found/${tld}_${name}.txt`;
    return existsSync(f) ? readFileSync(f, 'latin1') : undefined;
  };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buf = '';
    socket.on('data', (d) => {
      buf += d.toString('latin1');
      const end = buf.indexOf('\r\n');
      if (end < 0) return;
      const q = buf.slice(0, end);
      queries.push(q);
      const name = q.replace(/^domain /, '').replace(/^-T dn,ace /, '').replace(/\/e$/, '').toLowerCase();
      if (name === 'silent.com') return;
      if (name === 'huge.com') {
        const chunk = Buffer.alloc(64 * 1024, 'Domain Status: ok\r\n');
        let sent = 0;
        const pump = (): void => {
          while (sent < 10 * 1024 * 1024) {
            sent += chunk.length;
            if (!socket.write(chunk)) return void socket.once('drain', pump);
          }
          socket.end();
        };
        return pump();
      }
      if (name === 'com') return void socket.end(readRecording('domain/whois/found/com_com.txt'));
      const body = found(name) ?? readRecording('domain/whois/notfound/com_likexian-have-no-money-to-register.com.txt');
      socket.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    queries,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------- RDAP

export interface RdapDouble {
  url: string;
  /** QUARRY_UPSTREAM_OVERRIDES sending data.iana.org and every RDAP server of the recorded bootstrap to this double. */
  overrides: string;
  /** `host/path` of each request, the host as the upstream client names it (X-Forwarded-Host). */
  seen: string[];
  /** Domains answered with 503 (to exercise the port-43 fallback). */
  failing: Set<string>;
  close(): Promise<void>;
}

const RDAP_FILES: Record<string, string> = {
  'google.com': 'google.com.verisign.json',
  'themarquetry.com': 'themarquetry.com.verisign.json',
  '20c.com': '20c.com.verisign.json',
  'norway.no': 'norway.no.norid.json',
  'example.cz': 'example.cz.nic-cz.json',
};

/**
 * Answers at the real upstream addresses, through QUARRY_UPSTREAM_OVERRIDES: data.iana.org/rdap/dns.json is the
 * recorded 2022 IANA bootstrap as published, and every RDAP server it names is sent here too (so nothing can leave
 * loopback), answering the recorded RDAP domain answers; 404 `{errorCode:404}` for anything else.
 */
export async function startRdapDouble(): Promise<RdapDouble> {
  const seen: string[] = [];
  const failing = new Set<string>();
  const bootstrap = readJson('domain/rdap/iana-bootstrap-all-2022.json').dns;
  const servers = new Set<string>((bootstrap.services as [string[], string[]][]).flatMap(([, urls]) => urls.map((u) => new URL(u).host)));
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    const host = String(req.headers['x-forwarded-host'] ?? '');
    seen.push(`${host}${path}`);
    if (host === 'data.iana.org' && path === '/rdap/dns.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(bootstrap));
    }
    const m = /\/domain\/([^/?]+)$/.exec(path);
    const name = m ? decodeURIComponent(m[1]).toLowerCase() : '';
    if (failing.has(name)) {
      res.writeHead(503, { 'content-type': 'application/json' });
      return res.end('{"errorCode":503}');
    }
    const file = RDAP_FILES[name];
    if (m && file && servers.has(host)) {
      res.writeHead(200, { 'content-type': 'application/rdap+json' });
      // Links to the registrar's RDAP would leave loopback: the recorded answers are served without `related` links.
      const body = readJson(`domain/rdap/${file}`);
      if (Array.isArray(body.links)) body.links = body.links.filter((l: { rel?: string }) => l.rel !== 'related');
      return res.end(JSON.stringify(body));
    }
    res.writeHead(404, { 'content-type': 'application/rdap+json' });
    res.end('{"errorCode":404,"title":"Not Found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const overrides = ['data.iana.org', ...servers].map((h) => `${h}=${url}`).join(',');
  return { url, overrides, seen, failing, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
