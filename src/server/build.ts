/**
 * The composition root: builds the app from config, picking the store, cache and limit implementations once.
 * No handler knows which implementation runs.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { keyCrypto, serverSecret } from '../identity/secret.js';
import { Catalogue } from '../catalogue/catalogue.js';
import { ENDPOINTS } from '../catalogue/endpoints/index.js';
import { checkSourceSettings, sourceSettings, type Config } from '../config.js';
import { QuarryError, toQuarryError } from '../errors.js';
import { MemoryResultCache } from '../limits/memory/cache.js';
import { MemoryInFlight } from '../limits/memory/in-flight.js';
import { MemoryRateLimiter } from '../limits/memory/rate-limiter.js';
import { MemoryCoalescer } from '../limits/memory/coalescer.js';
import { openRedisLimits, type RedisLimits } from '../limits/redis/index.js';
import type { CallState } from '../pipeline/call.js';
import type { GatewayDeps } from '../pipeline/deps.js';
import type { SourceContext } from '../sources/types.js';
import { PrincipalCache } from '../identity/authenticate.js';
import { INSTANCE_SWEEP_MS, takeInstanceLease } from '../pipeline/instance-lease.js';
import { checkRegistry, notBuiltReason, SOURCES } from '../sources/registry.js';
import { configureSharedPool } from '../parse/pool.js';
import { openStore } from '../store/open.js';
import type { Store } from '../store/types.js';
import { createUpstreamClient } from '../upstream/client.js';
import { newRequestId } from '../lib/ids.js';
import { AccessLog, createLogger, type AppLogger } from './logger.js';
import { loggedUrl, redactUrl } from '../http/redact.js';
import { sendError, setRateHeaders } from '../http/reply.js';
import { registerCatalogueRoutes } from './routes/catalogue.js';
import { registerDashboardRoutes } from './routes/dashboard.js';
import { registerDataRoutes } from './routes/data.js';
import { registerHealthRoutes } from './routes/health.js';
import { registerLogRoutes } from './routes/logs.js';
import { registerBudgetRoutes } from './routes/budgets.js';
import { registerSourceRoutes } from './routes/sources.js';
import { MemorySourceStats } from '../health/memory.js';
import { startCanary } from '../pipeline/canary.js';
import { registerQuoteRoutes } from './routes/quote.js';
import { registerRequestRoutes } from './routes/requests.js';
import { registerUsageRoutes } from './routes/usage.js';
import { registerMcpRoutes } from '../mcp/routes.js';
import { LEGACY_PATHS } from '../legacy/paths/index.js';
import { registerLegacyRoutes } from '../legacy/routes.js';
import { registerAuthRoutes } from './routes/auth.js';
import { registerAccountRoutes } from './routes/account.js';
import { registerCliSessionRoutes } from './routes/cli-sessions.js';
import { registerRequestLog } from './request-log.js';
import { registerHomeRoutes } from './routes/home.js';
import { registerMethodNotAllowed } from './routes/method-not-allowed.js';

declare module 'fastify' {
  interface FastifyRequest {
    callState?: CallState;
  }
}

export interface Gateway {
  app: FastifyInstance;
  deps: GatewayDeps;
  log: AppLogger;
  /** Stops taking requests, lets running calls finish, releases what is still held, closes storage. */
  close(): Promise<void>;
}

export interface BuildOptions {
  store?: Store;
  logStream?: NodeJS.WritableStream;
}

/** Fastify's own errors (body too large, bad URL…) become our envelope; the rest is internalError. */
function asQuarryError(e: unknown): QuarryError {
  if (e instanceof QuarryError) return e;
  const fe = e as { code?: string; statusCode?: number; message?: string };
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new QuarryError('invalidRequest', 'body: is larger than this endpoint accepts');
  if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new QuarryError('invalidRequest', 'Content-Type: must be application/json');
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new QuarryError('invalidRequest', `request: ${fe.message ?? 'is invalid'}`);
  }
  return toQuarryError(e);
}

export async function buildGateway(config: Config, options: BuildOptions = {}): Promise<Gateway> {
  // First: instances on a shared database without QUARRY_SECRET refuse to start, saying what to set (CONTRACT.md).
  const crypto = keyCrypto(serverSecret(config));
  const log = createLogger(config.logLevel, options.logStream);
  const store = options.store ?? openStore(config, { background: true });
  // A typo in a source's registration (an operation for an undeclared endpoint, an endpoint with neither an operation
  // nor a reason) stops the server here, not as a silent "not built" later.
  const registryProblems = checkRegistry(ENDPOINTS);
  if (registryProblems.length) throw new Error(`the source registry disagrees with the catalogue: ${registryProblems.join('; ')}`);
  // The sources' own settings are checked now, with the rest of the configuration, not at their first call.
  checkSourceSettings(config, SOURCES);
  configureSharedPool(config.parse);
  const catalogue = new Catalogue(ENDPOINTS, notBuiltReason, config.enabledSources);
  const shutdown = new AbortController();

  // Each source's upstream client, logger and settings are built on its first call and reused after.
  const clients = new Map<string, ReturnType<typeof createUpstreamClient>>();
  const sourceParts = new Map<string, Omit<SourceContext, 'signal'>>();
  const sourcePartsFor = (source: string) => {
    let parts = sourceParts.get(source);
    if (!parts) {
      const settings = sourceSettings(config, source, SOURCES.find((s) => s.id === source)?.needs?.settings);
      const http = createUpstreamClient({
        source,
        timeoutMs: config.upstream.timeoutMs,
        retries: config.upstream.retries,
        concurrency: config.upstream.concurrency,
        proxyUrl: settings.PROXY ?? config.upstream.proxyUrl,
        maxBytes: config.upstream.maxBytes,
        ssrfAllow: config.upstream.ssrfAllow,
        dnsServers: config.dnsServers,
        overrides: config.upstream.overrides,
      });
      clients.set(source, http);
      parts = { http, log: log.child({ source }), settings };
      sourceParts.set(source, parts);
    }
    return parts;
  };

  // QUARRY_REDIS_URL: cache, rate limits, in-flight caps and coalescing shared by every instance; otherwise in-process.
  const redisUrl = config.redisUrl;
  const shared: RedisLimits | undefined = redisUrl
    ? await openRedisLimits({
        url: redisUrl,
        prefix: config.redisPrefix,
        l1MaxBytes: Math.min(config.cacheMaxBytes, 32 * 1024 * 1024),
        waitMs: config.upstream.timeoutMs * (config.upstream.retries + 1) + 1000,
        onError: (e, what) => log.warn({ err: e, what }, 'redis unavailable: serving without the shared cache, limits per instance'),
      })
    : undefined;

  const deps: GatewayDeps = {
    config,
    store,
    cache: shared?.cache ?? new MemoryResultCache(config.cacheMaxBytes),
    rateLimiter: shared?.rateLimiter ?? new MemoryRateLimiter(),
    inFlight: shared?.inFlight ?? new MemoryInFlight(),
    coalescer: shared?.coalescer ?? new MemoryCoalescer(),
    health: shared?.health ?? new MemorySourceStats(),
    crypto,
    principals: new PrincipalCache(),
    catalogue,
    log,
    shutdownSignal: shutdown.signal,
    now: Date.now,
    sourceContext: (source, signal) => ({ signal, ...sourcePartsFor(source) }),
  };

  const app = Fastify({
    logger: false,
    trustProxy: config.trustProxy,
    genReqId: newRequestId,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    // Addresses refused before routing (a malformed percent-escape, an over-long parameter): Fastify's own answer
    // echoes the address, and a key in it. Ours names the rule only.
    frameworkErrors: (error, request, reply) => {
      const rule = error.code === 'FST_ERR_BAD_URL' ? 'is not valid percent-encoding' : error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'has a path segment that is too long' : 'is invalid';
      sendError(reply, new QuarryError('invalidRequest', `request: the address ${rule}`), request.id);
    },
  });

  app.decorateRequest('callState', undefined); // a fixed request shape keeps V8's hidden classes stable
  // One catch-all parser: bodies arrive as bytes and src/http/body.ts words every failure.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  let closing = false;
  // Callback-style hooks: cheaper than async ones on the hot path.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-ID', request.id);
    done();
  });
  // While shutting down, answers close their connection so keep-alive clients cannot hold the server open.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  const access = new AccessLog(log);
  app.addHook('onResponse', (request, reply, done) => {
    access.line(request.id, request.method, loggedUrl(request), reply.statusCode, Math.round(reply.elapsedTime), request.callState?.principal?.keyId);
    done();
  });

  app.setErrorHandler(async (error, request, reply) => {
    const err = asQuarryError(error);
    if (err.code === 'internalError') log.error({ reqId: request.id, err: error }, 'unhandled error');
    setRateHeaders(reply, request.callState?.rate);
    return sendError(reply, err, request.id);
  });
  app.setNotFoundHandler(async (request, reply) =>
    sendError(reply, new QuarryError('notFound', `No endpoint ${request.method} ${redactUrl(request.url.split('?')[0])}; see GET /v1/catalogue.`), request.id),
  );

  registerHealthRoutes(app, deps);
  registerCatalogueRoutes(app, deps);
  registerDataRoutes(app, deps);
  registerLogRoutes(app, deps);
  registerUsageRoutes(app, deps);
  registerRequestRoutes(app, deps);
  registerQuoteRoutes(app, deps);
  registerSourceRoutes(app, deps);
  registerMcpRoutes(app, deps);
  registerLegacyRoutes(app, deps, LEGACY_PATHS);
  registerAuthRoutes(app, deps);
  registerAccountRoutes(app, deps);
  registerCliSessionRoutes(app, deps);
  registerBudgetRoutes(app, deps);
  registerRequestLog(app, deps);
  registerHomeRoutes(app, deps);
  registerMethodNotAllowed(app, deps, LEGACY_PATHS.map((p) => `/v1/${p.name}`));
  registerDashboardRoutes(app);

  // Holds left by a crashed predecessor: one process owns an embedded database, so all of them are stale. A shared
  // database (PostgreSQL) also holds the running calls of other instances: only expired holds may go, and those of
  // instances whose lease ran out. This instance's own lease is taken first: its holds will name it.
  const lease = store.sharedByInstances ? await takeInstanceLease(store, log) : undefined;
  deps.instanceId = lease?.id;
  await store.releaseExpired(Date.now(), !store.sharedByInstances);
  // On a shared store, holds of dead instances are looked for as often as leases are renewed (released within about
  // 20 s of a death); archive and claim pruning stays once a minute.
  let prunedAt = Date.now();
  const sweeper = setInterval(() => {
    const now = Date.now();
    store.releaseExpired(now).catch((e) => log.error({ err: e }, 'reservation sweep failed'));
    if (now - prunedAt < 60_000) return;
    prunedAt = now;
    store
      .pruneExpired({ nowMs: now, archiveBeforeMs: now - config.archiveDays * 86_400_000 })
      .catch((e) => log.error({ err: e }, 'archive and idempotency sweep failed'));
  }, store.sharedByInstances ? INSTANCE_SWEEP_MS : 60_000);
  sweeper.unref();
  const canary = config.canaryIntervalSeconds > 0 ? startCanary(deps, config.canaryIntervalSeconds) : undefined;

  let closed = false;
  return {
    app,
    deps,
    log,
    async close() {
      if (closed) return;
      closed = true;
      closing = true;
      clearInterval(sweeper);
      canary?.stop();
      // Running calls get the upstream timeout to finish; then their upstream requests are aborted, so they fail
      // and release what they reserved.
      const deadline = setTimeout(() => shutdown.abort(), config.upstream.timeoutMs);
      await app.close();
      access.flush();
      clearTimeout(deadline);
      shutdown.abort();
      await Promise.all([...clients.values()].map((c) => c.close()));
      // Every call of this instance has finished (or was aborted and released) by now; on a shared store the
      // remaining holds belong to other instances' running calls, but for any of ours, which go with our lease.
      if (!store.sharedByInstances) await store.releaseExpired(Date.now(), true);
      else if (lease) {
        await lease.close().catch((e) => log.error({ err: e }, 'could not give up this instance lease'));
        await store.releaseExpired(Date.now()).catch((e) => log.error({ err: e }, 'reservation sweep failed'));
      }
      await store.close();
      await shared?.close();
    },
  };
}
