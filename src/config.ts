/**
 * Every operator setting, read once from the environment (CONTRACT.md "Running it"). The README's
 * configuration table documents exactly these names and defaults.
 */
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  baseUrl: string;
  billingUrl: string;
  /** Explicit server secret (base64 or hex, 32 bytes); otherwise generated into the data directory. */
  secret?: string;
  rateLimitPerMinute: number;
  keylessRateLimitPerMinute: number;
  maxInFlight: number;
  /** Sources served; undefined means all. */
  enabledSources?: ReadonlySet<string>;
  /** Fastify trustProxy: false, true, or a list of proxy addresses/CIDRs whose X-Forwarded-For is believed. */
  trustProxy: boolean | string[];
  cacheMaxBytes: number;
  /** How long a result is kept past its freshness, for `Cache-Control: stale-if-error` (seconds). */
  cacheStaleSeconds: number;
  /** Days the success envelope of a paid call stays retrievable at GET /v1/requests/{id}; 0 turns the archive off. */
  archiveDays: number;
  /** Days the request log (every call, failed ones included) keeps an entry; 0 turns the request log off. */
  requestLogDays: number;
  /** The operator's words on /billing: how people get credits on this server (QUARRY_BILLING_NOTE). */
  billingNote?: string;
  /** Seconds between canary rounds (each served endpoint's example fetched live); 0 = off. */
  canaryIntervalSeconds: number;
  upstream: {
    timeoutMs: number;
    retries: number;
    concurrency: number;
    proxyUrl?: string;
    maxBytes: number;
    /** QUARRY_OUTBOUND_ALLOW (alias QUARRY_SSRF_ALLOW): hosts or CIDRs the SSRF guard lets through. */
    ssrfAllow: string[];
    /** QUARRY_UPSTREAM_OVERRIDES: upstream host → the base address that answers for it (mirrors, test doubles). */
    overrides: ReadonlyMap<string, string>;
  };
  /** QUARRY_DNS_SERVERS (`host:port`, comma list): resolvers of every outbound name lookup; empty = the system's. */
  dnsServers: string[];
  /** QUARRY_WHOIS_PORT: TCP port of port-43 WHOIS servers (tests point it at loopback). */
  whoisPort: number;
  /** QUARRY_SMTP_PORT: TCP port of the mail servers email.verify probes (tests point it at loopback). */
  smtpPort: number;
  /** QUARRY_RDAP_BOOTSTRAP_URL: the IANA RDAP bootstrap file for domains. */
  rdapBootstrapUrl: string;
  /** Held reservations older than this are released by the sweeper (crash safety). */
  reservationTtlMs: number;
  logLevel: string;
  /** Raw environment, for per-source settings (QUARRY_<SOURCE>_<NAME>). */
  env: Readonly<Record<string, string | undefined>>;
}

function int(env: Record<string, string | undefined>, name: string, def: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer of at least ${min}, got "${raw}"`);
  return n;
}

function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function trustProxy(raw: string | undefined): boolean | string[] {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  return list(raw);
}

/**
 * QUARRY_UPSTREAM_OVERRIDES (CONTRACT.md "Upstreams"): `host=http://ADDRESS:PORT`, comma-separated. Every upstream
 * request to that host (a name, or name:port) goes to that base address instead, path and query kept.
 */
export function upstreamOverrides(raw: string | undefined): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const entry of list(raw)) {
    const eq = entry.indexOf('=');
    const host = eq > 0 ? entry.slice(0, eq).trim().toLowerCase() : '';
    const base = eq > 0 ? entry.slice(eq + 1).trim() : '';
    const url = URL.canParse(base) ? new URL(base) : undefined;
    if (!/^[a-z0-9.-]+(?::\d{1,5})?$/.test(host) || !url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
      throw new Error(`QUARRY_UPSTREAM_OVERRIDES must be a comma list of host=http://address:port, got "${entry}"`);
    }
    out.set(host, url.href);
  }
  return out;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const port = int(env, 'PORT', 8080);
  const sources = list(env.QUARRY_SOURCES);
  const dnsServers = list(env.QUARRY_DNS_SERVERS);
  for (const s of dnsServers) {
    if (!/^(?:\[[0-9a-fA-F:.]+\]|[^:\s]+|[0-9a-fA-F:]+)(?::\d{1,5})?$/.test(s)) {
      throw new Error(`QUARRY_DNS_SERVERS must be a comma list of host:port, got "${s}"`);
    }
  }
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.QUARRY_DATA_DIR || './data'),
    baseUrl: (env.QUARRY_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    billingUrl: env.QUARRY_BILLING_URL || `${(env.QUARRY_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, '')}/billing`,
    secret: env.QUARRY_SECRET || undefined,
    rateLimitPerMinute: int(env, 'QUARRY_RATE_LIMIT_PER_MINUTE', 600, 1),
    keylessRateLimitPerMinute: int(env, 'QUARRY_KEYLESS_RATE_LIMIT_PER_MINUTE', 30, 1),
    maxInFlight: int(env, 'QUARRY_MAX_IN_FLIGHT', 10, 1),
    enabledSources: sources.length ? new Set(sources) : undefined,
    trustProxy: trustProxy(env.QUARRY_TRUST_PROXY),
    cacheMaxBytes: int(env, 'QUARRY_CACHE_MAX_MB', 256, 1) * 1024 * 1024,
    cacheStaleSeconds: int(env, 'QUARRY_CACHE_STALE_SECONDS', 86_400),
    archiveDays: int(env, 'QUARRY_ARCHIVE_DAYS', 7),
    requestLogDays: int(env, 'QUARRY_REQUEST_LOG_DAYS', 30),
    billingNote: env.QUARRY_BILLING_NOTE?.trim() || undefined,
    canaryIntervalSeconds: int(env, 'QUARRY_CANARY_INTERVAL_SECONDS', 0),
    upstream: {
      timeoutMs: int(env, 'QUARRY_UPSTREAM_TIMEOUT_MS', 15_000, 1),
      retries: int(env, 'QUARRY_UPSTREAM_RETRIES', 2),
      concurrency: int(env, 'QUARRY_UPSTREAM_CONCURRENCY', 8, 1),
      proxyUrl: env.QUARRY_UPSTREAM_PROXY || undefined,
      maxBytes: int(env, 'QUARRY_UPSTREAM_MAX_MB', 8, 1) * 1024 * 1024,
      ssrfAllow: [...new Set([...list(env.QUARRY_OUTBOUND_ALLOW), ...list(env.QUARRY_SSRF_ALLOW)])],
      overrides: upstreamOverrides(env.QUARRY_UPSTREAM_OVERRIDES),
    },
    dnsServers,
    whoisPort: int(env, 'QUARRY_WHOIS_PORT', 43, 1),
    smtpPort: int(env, 'QUARRY_SMTP_PORT', 25, 1),
    rdapBootstrapUrl: env.QUARRY_RDAP_BOOTSTRAP_URL || 'https://data.iana.org/rdap/dns.json',
    reservationTtlMs: int(env, 'QUARRY_RESERVATION_TTL_SECONDS', 300, 1) * 1000,
    logLevel: env.QUARRY_LOG_LEVEL || 'info',
    env,
  };
}

/** Settings of one source: QUARRY_REDDIT_CLIENT_ID becomes settings.CLIENT_ID for source `reddit`. */
export function sourceSettings(config: Config, source: string): Record<string, string | undefined> {
  const prefix = `QUARRY_${source.toUpperCase()}_`;
  // Network settings every source may need (name look-ups, WHOIS, RDAP, the outbound allow-list); a source's own
  // QUARRY_<SOURCE>_<NAME> wins over them.
  const out: Record<string, string | undefined> = {
    DNS_SERVERS: config.dnsServers.join(',') || undefined,
    WHOIS_PORT: String(config.whoisPort),
    SMTP_PORT: String(config.smtpPort),
    RDAP_BOOTSTRAP_URL: config.rdapBootstrapUrl,
    OUTBOUND_ALLOW: config.upstream.ssrfAllow.join(',') || undefined,
  };
  for (const [k, v] of Object.entries(config.env)) if (k.startsWith(prefix)) out[k.slice(prefix.length)] = v;
  return out;
}
