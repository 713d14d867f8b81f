/**
 * Every operator setting, read once from the environment at start-up and checked (CONTRACT.md "Running it"): a bad
 * value stops the start naming its variable. Nothing else in src/ reads the environment for a setting; the sources'
 * own settings (QUARRY_<SOURCE>_<NAME>) are declared by each source (`needs.settings`) and handed to it by
 * `sourceSettings` below. The README's configuration table lists exactly these variables
 * (test/config/variables.test.ts).
 */
import path from 'node:path';
import { ConfigError, EnvReader, parseInteger, parseList, type Env, type IntRule } from './config/env.js';

export { ConfigError, type Env } from './config/env.js';

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
  /** QUARRY_DATABASE_URL: accounts, keys, credits and logs in PostgreSQL; undefined = embedded SQLite. */
  databaseUrl?: string;
  /** QUARRY_REDIS_URL and QUARRY_REDIS_PREFIX: cache and limits shared through Redis; undefined = in-process. */
  redisUrl?: string;
  redisPrefix: string;
  /** Whether QUARRY_BASE_URL was set (else baseUrl is derived from the port). */
  baseUrlSet: boolean;
  identity: IdentitySettings;
  /** The document converter's worker pool; each undefined = the pool's own default. */
  parse: ParseSettings;
  /** Raw environment, for per-source settings (QUARRY_<SOURCE>_<NAME>); read only through `sourceSettings`. */
  env: Env;
}

/** Sessions, sign-in attempts and CLI login of the account side (src/identity). */
export interface IdentitySettings {
  /** A session unused this long ends. */
  idleMs: number;
  /** A session ends this long after sign-in, used or not. */
  absoluteMs: number;
  /** Sign-in attempts (and password re-entries) per e-mail, and per client address, per window. */
  attemptsPerEmail: number;
  attemptsPerAddress: number;
  attemptWindowSeconds: number;
  /** CLI login sessions live this long. */
  cliSessionMs: number;
  cliPollSeconds: number;
  /** Unauthenticated CLI login calls (create, poll) per client address per minute. */
  cliCallsPerMinute: number;
  /** scrypt cost (log2 N) of new password hashes. */
  passwordLog2N: number;
}

export interface ParseSettings {
  workers?: number;
  memoryMb?: number;
  timeoutMs?: number;
  queue?: number;
  queueMb?: number;
}

function trustProxy(raw: string | undefined): boolean | string[] {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  return parseList(raw);
}

/**
 * QUARRY_UPSTREAM_OVERRIDES (CONTRACT.md "Upstreams"): `host=http://ADDRESS:PORT`, comma-separated. Every upstream
 * request to that host (a name, or name:port) goes to that base address instead, path and query kept.
 */
export function upstreamOverrides(raw: string | undefined): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const entry of parseList(raw)) {
    const eq = entry.indexOf('=');
    const host = eq > 0 ? entry.slice(0, eq).trim().toLowerCase() : '';
    const base = eq > 0 ? entry.slice(eq + 1).trim() : '';
    const url = URL.canParse(base) ? new URL(base) : undefined;
    if (!/^[a-z0-9.-]+(?::\d{1,5})?$/.test(host) || !url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
      throw new ConfigError('QUARRY_UPSTREAM_OVERRIDES', `QUARRY_UPSTREAM_OVERRIDES must be a comma list of host=http://address:port, got "${entry}"`);
    }
    out.set(host, url.href);
  }
  return out;
}

/** The scrypt cost of new password hashes, QUARRY_PASSWORD_SCRYPT_LOG2N (14-20, default 15). */
function passwordCost(read: EnvReader): number {
  return read.int('QUARRY_PASSWORD_SCRYPT_LOG2N', 15, { min: 14, max: 20 });
}

/** The password cost alone, for the operator CLI's commands that hash without a server configuration. */
export function passwordLog2N(env: Env = process.env): number {
  return passwordCost(new EnvReader(env));
}

function read(env: Env, reader: EnvReader): Config {
  const int = (name: string, def: number, min = 0) => reader.int(name, def, { min });
  const text = (name: string) => reader.text(name);
  const port = int('PORT', 8080);
  const sources = reader.list('QUARRY_SOURCES');
  const dnsServers = reader.list('QUARRY_DNS_SERVERS');
  for (const s of dnsServers) {
    if (!/^(?:\[[0-9a-fA-F:.]+\]|[^:\s]+|[0-9a-fA-F:]+)(?::\d{1,5})?$/.test(s)) {
      throw new ConfigError('QUARRY_DNS_SERVERS', `QUARRY_DNS_SERVERS must be a comma list of host:port, got "${s}"`);
    }
  }
  const baseUrlText = text('QUARRY_BASE_URL');
  const baseUrl = (baseUrlText || `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    port,
    host: text('HOST') || '0.0.0.0',
    dataDir: path.resolve(text('QUARRY_DATA_DIR') || './data'),
    baseUrl,
    billingUrl: text('QUARRY_BILLING_URL') || `${baseUrl}/billing`,
    secret: text('QUARRY_SECRET') || undefined,
    rateLimitPerMinute: int('QUARRY_RATE_LIMIT_PER_MINUTE', 600, 1),
    keylessRateLimitPerMinute: int('QUARRY_KEYLESS_RATE_LIMIT_PER_MINUTE', 30, 1),
    maxInFlight: int('QUARRY_MAX_IN_FLIGHT', 10, 1),
    enabledSources: sources.length ? new Set(sources) : undefined,
    trustProxy: trustProxy(text('QUARRY_TRUST_PROXY')),
    cacheMaxBytes: int('QUARRY_CACHE_MAX_MB', 256, 1) * 1024 * 1024,
    cacheStaleSeconds: int('QUARRY_CACHE_STALE_SECONDS', 86_400),
    archiveDays: int('QUARRY_ARCHIVE_DAYS', 7),
    requestLogDays: int('QUARRY_REQUEST_LOG_DAYS', 30),
    billingNote: text('QUARRY_BILLING_NOTE')?.trim() || undefined,
    canaryIntervalSeconds: int('QUARRY_CANARY_INTERVAL_SECONDS', 0),
    upstream: {
      timeoutMs: int('QUARRY_UPSTREAM_TIMEOUT_MS', 15_000, 1),
      retries: int('QUARRY_UPSTREAM_RETRIES', 2),
      concurrency: int('QUARRY_UPSTREAM_CONCURRENCY', 8, 1),
      proxyUrl: text('QUARRY_UPSTREAM_PROXY') || undefined,
      maxBytes: int('QUARRY_UPSTREAM_MAX_MB', 8, 1) * 1024 * 1024,
      ssrfAllow: [...new Set([...reader.list('QUARRY_OUTBOUND_ALLOW'), ...reader.list('QUARRY_SSRF_ALLOW')])],
      overrides: upstreamOverrides(text('QUARRY_UPSTREAM_OVERRIDES')),
    },
    dnsServers,
    whoisPort: int('QUARRY_WHOIS_PORT', 43, 1),
    smtpPort: int('QUARRY_SMTP_PORT', 25, 1),
    rdapBootstrapUrl: text('QUARRY_RDAP_BOOTSTRAP_URL') || 'https://data.iana.org/rdap/dns.json',
    reservationTtlMs: int('QUARRY_RESERVATION_TTL_SECONDS', 300, 1) * 1000,
    logLevel: text('QUARRY_LOG_LEVEL') || 'info',
    databaseUrl: text('QUARRY_DATABASE_URL'),
    redisUrl: text('QUARRY_REDIS_URL'),
    redisPrefix: text('QUARRY_REDIS_PREFIX') || 'quarry:',
    baseUrlSet: baseUrlText !== undefined,
    identity: {
      idleMs: int('QUARRY_SESSION_IDLE_MINUTES', 24 * 60, 1) * 60_000,
      absoluteMs: int('QUARRY_SESSION_MAX_HOURS', 14 * 24, 1) * 3_600_000,
      attemptsPerEmail: int('QUARRY_SIGNIN_ATTEMPTS_PER_EMAIL', 10, 1),
      attemptsPerAddress: int('QUARRY_SIGNIN_ATTEMPTS_PER_ADDRESS', 50, 1),
      attemptWindowSeconds: 15 * 60,
      cliSessionMs: 10 * 60_000,
      cliPollSeconds: 2,
      cliCallsPerMinute: int('QUARRY_CLI_LOGIN_CALLS_PER_MINUTE', 120, 1),
      passwordLog2N: passwordCost(reader),
    },
    parse: {
      workers: reader.optionalInt('QUARRY_PARSE_WORKERS', { min: 1 }),
      memoryMb: reader.optionalInt('QUARRY_PARSE_MEMORY_MB', { min: 1 }),
      timeoutMs: reader.optionalInt('QUARRY_PARSE_TIMEOUT_MS', { min: 1 }),
      queue: reader.optionalInt('QUARRY_PARSE_QUEUE', { min: 1 }),
      queueMb: reader.optionalInt('QUARRY_PARSE_QUEUE_MB', { min: 1 }),
    },
    env,
  };
}

export function loadConfig(env: Env = process.env): Config {
  return read(env, new EnvReader(env));
}

/**
 * Variables the operator CLI reads on the client side, where no server configuration exists: QUARRY_CONFIG_DIR, where
 * `quarry login` keeps its credentials and the server records its data directory (src/lib/data-dir.ts, src/cli/).
 */
export const CLI_VARIABLES = ['QUARRY_CONFIG_DIR'] as const;

/** Every variable the configuration reads, QUARRY_<SOURCE>_<NAME> settings aside (those are each source's). */
export function configVariables(): string[] {
  const reader = new EnvReader({});
  read({}, reader);
  return [...reader.names];
}

/** One operator setting a source declares (SourceModule.needs.settings), read as QUARRY_<SOURCE>_<name>. */
export interface SettingDeclaration {
  name: string;
  /** Whether the source works without it (shown in GET /v1/sources). */
  required: boolean;
  purpose: string;
  /** A whole number within these bounds: a bad value stops the start, naming the variable. */
  integer?: IntRule;
}

/** Network settings every source may read; a source's own QUARRY_<SOURCE>_<NAME> wins over the gateway's. */
const NETWORK = ['DNS_SERVERS', 'WHOIS_PORT', 'SMTP_PORT', 'RDAP_BOOTSTRAP_URL', 'OUTBOUND_ALLOW'] as const;

/** The variable behind a source's setting: `reddit`, `CLIENT_ID` → QUARRY_REDDIT_CLIENT_ID. */
export function sourceVariable(source: string, name: string): string {
  return `QUARRY_${source.toUpperCase()}_${name}`;
}

/**
 * Settings of one source: QUARRY_REDDIT_CLIENT_ID becomes settings.CLIENT_ID for source `reddit`. A source sees its
 * declared settings, the network settings and PROXY (QUARRY_<SOURCE>_PROXY, its outbound proxy), checked as declared;
 * reading any other name is a mistake in the source and throws, so every variable a source reads is declared (and so
 * documented: test/config/variables.test.ts).
 */
export function sourceSettings(config: Config, source: string, declared: readonly SettingDeclaration[] = []): Readonly<Record<string, string | undefined>> {
  const own = (name: string) => {
    const value = config.env[sourceVariable(source, name)];
    return value === '' ? undefined : value;
  };
  const gateway: Record<(typeof NETWORK)[number], string | undefined> = {
    DNS_SERVERS: config.dnsServers.join(',') || undefined,
    WHOIS_PORT: String(config.whoisPort),
    SMTP_PORT: String(config.smtpPort),
    RDAP_BOOTSTRAP_URL: config.rdapBootstrapUrl,
    OUTBOUND_ALLOW: config.upstream.ssrfAllow.join(',') || undefined,
  };
  const out: Record<string, string | undefined> = {};
  for (const name of NETWORK) out[name] = own(name) ?? gateway[name];
  out.PROXY = own('PROXY');
  for (const d of declared) {
    const value = own(d.name);
    if (d.integer) parseInteger(sourceVariable(source, d.name), value, d.integer);
    out[d.name] = value;
  }
  Object.freeze(out);
  return new Proxy(out, {
    get(target, key) {
      if (typeof key === 'string' && /^[A-Z][A-Z0-9_]*$/.test(key) && !(key in target)) {
        throw new Error(`source ${source} reads the setting ${sourceVariable(source, key)}, which its needs.settings does not declare`);
      }
      return Reflect.get(target, key);
    },
  });
}

/** Checks every declared setting of every source at start-up: a bad value stops the start, naming the variable. */
export function checkSourceSettings(config: Config, sources: readonly { id: string; needs?: { settings?: readonly SettingDeclaration[] } }[]): void {
  for (const s of sources) sourceSettings(config, s.id, s.needs?.settings);
}

/** A declared integer setting of a source (checked at start-up against its declaration), or undefined when not set. */
export function intSetting(settings: Readonly<Record<string, string | undefined>>, name: string, rule?: IntRule): number | undefined {
  return parseInteger(name, settings[name], rule);
}
