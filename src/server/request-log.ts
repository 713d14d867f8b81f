/**
 * The request log (issue 38.3), beside `GET /v1/logs` and not instead of it: every call an account's keys make,
 * failed ones included, with its status, error code, real duration, key, tags and request id.
 *
 * - Recording: one `onSend` hook (for MCP, whose SDK writes the answer itself, `onResponse`) reads the call's state
 *   (src/pipeline/call.ts `CallState`: endpoint, tags, outcome, error) and queues an entry. Nothing is written on the
 *   request's path: the queue is handed to the store once per event-loop turn (one transaction, or one multi-row
 *   INSERT), like the store's group commit of paid calls. A read flushes what is queued first, so an entry is
 *   listed as soon as its answer has left.
 * - Reading: `GET /v1/request-log` (a key) and `GET /v1/account/request-log` (a dashboard session), each with
 *   `/{requestId}` for one entry. Free.
 * - Keeping: QUARRY_REQUEST_LOG_DAYS (default 30) days; 0 turns the log off.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TAG_PATTERN } from '../lib/tags.js';
import { ERRORS, QuarryError, type ErrorCode } from '../errors.js';
import { authenticate } from '../identity/authenticate.js';
import type { GatewayDeps } from '../pipeline/deps.js';
import { requestLogFor, type RequestLogEntry, type RequestLogQuery, type RequestLogStore } from '../store/request-log.js';
import { requireSession } from '../identity/session-guard.js';
import { sendData } from '../http/reply.js';
import { redactUrl } from '../http/redact.js';

const DAY_MS = 86_400_000;
const PAGE_SIZE = 50;
/** A burst larger than this is handed over at once rather than at the end of the turn. */
const MAX_BATCH = 500;
const PRUNE_EVERY_MS = 3_600_000;
const TAG = new RegExp(TAG_PATTERN);
const REQUEST_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** Queues entries and hands them to the store once per event-loop turn, in order, one batch at a time. */
export class RequestLogWriter {
  private queue: RequestLogEntry[] = [];
  private scheduled: NodeJS.Immediate | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly open: () => RequestLogStore,
    private readonly onError: (e: unknown, lost: number) => void,
  ) {}

  add(entry: RequestLogEntry): void {
    this.queue.push(entry);
    if (this.queue.length >= MAX_BATCH) void this.flush();
    else this.scheduled ??= setImmediate(() => void this.flush());
  }

  /** Hands over what is queued; resolves when every batch handed over so far is written (or failed and was logged). */
  flush(): Promise<void> {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    const batch = this.queue;
    this.queue = [];
    if (batch.length) {
      this.running = this.running.then(() => this.open().append(batch)).catch((e) => this.onError(e, batch.length));
    }
    return this.running;
  }
}

interface Registered {
  writer: RequestLogWriter;
  store(): RequestLogStore;
}

const registered = new WeakMap<GatewayDeps, Registered>();

/** The request log of this gateway with everything queued written, or null when it is off. */
export async function readRequestLog(deps: GatewayDeps): Promise<RequestLogStore | null> {
  const r = registered.get(deps);
  if (!r) return null;
  await r.writer.flush();
  return r.store();
}

/** The entry of a finished request, or undefined when it is not a call of an account's key. */
function entryOf(request: FastifyRequest, reply: FastifyReply): RequestLogEntry | undefined {
  const state = request.callState;
  const principal = state?.principal;
  if (!state || !principal) return undefined;
  const endpoint = state.logEndpoint ?? state.endpointId ?? null;
  // An MCP exchange that called no tool (initialize, tools/list) is protocol, not a call: kept only when it failed.
  if (endpoint === null && reply.statusCode < 400 && !state.error) return undefined;
  const error = state.error;
  const status = error && reply.statusCode < 400 ? (ERRORS[error.code as ErrorCode]?.status ?? 500) : reply.statusCode;
  return {
    id: request.id,
    accountId: principal.accountId,
    keyId: principal.keyId,
    keyName: principal.keyName,
    test: principal.test,
    method: request.method,
    path: redactUrl(request.url.split('?')[0]).slice(0, 500),
    endpoint,
    channel: state.channel ?? 'rest',
    status,
    errorCode: status >= 400 ? (error?.code ?? 'internalError') : null,
    errorMessage: status >= 400 ? (error?.message ?? null)?.slice(0, 1000) ?? null : null,
    durationMs: Math.max(0, Math.round(reply.elapsedTime)),
    credits: status < 400 ? (state.outcome?.creditsUsed ?? 0) : 0,
    cache: status < 400 ? (state.outcome?.cache ?? null) : null,
    tags: state.tags ?? [],
    createdAt: Date.now() - Math.round(reply.elapsedTime),
  };
}

function one(q: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = q[name];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

/** The listing's filters from a query string; 400 naming the first bad one. */
export function requestLogQuery(q: Record<string, string | string[] | undefined>, nowMs: number): RequestLogQuery & { days: number } {
  const days = one(q, 'days') ?? '7';
  if (!/^\d{1,2}$/.test(days) || Number(days) < 1 || Number(days) > 90) throw new QuarryError('invalidRequest', 'days: must be an integer from 1 to 90');
  const page = one(q, 'page') ?? '0';
  if (!/^\d{1,9}$/.test(page)) throw new QuarryError('invalidRequest', 'page: must be an integer of at least 0');
  const endpoint = one(q, 'endpoint') || undefined;
  if (endpoint !== undefined && !/^[a-z0-9_.-]{1,100}$/i.test(endpoint)) throw new QuarryError('invalidRequest', 'endpoint: must be an endpoint id such as reddit.subforum');
  const keyId = one(q, 'keyId') || one(q, 'apiKeyId') || undefined;
  if (keyId !== undefined && !REQUEST_ID.test(keyId)) throw new QuarryError('invalidRequest', 'keyId: must be a key id such as key_…');
  const tag = one(q, 'tag') || undefined;
  if (tag !== undefined && !TAG.test(tag)) throw new QuarryError('invalidRequest', 'tag: must be 1-50 letters, digits, -, _, . or :');
  const outcome = one(q, 'outcome') || undefined;
  if (outcome !== undefined && outcome !== 'ok' && outcome !== 'failed') throw new QuarryError('invalidRequest', 'outcome: must be ok or failed');
  const mode = one(q, 'mode') || undefined;
  if (mode !== undefined && mode !== 'live' && mode !== 'test') throw new QuarryError('invalidRequest', 'mode: must be live or test');
  return {
    days: Number(days),
    sinceMs: nowMs - Number(days) * DAY_MS,
    page: Number(page),
    pageSize: PAGE_SIZE,
    endpoint,
    keyId,
    tag,
    outcome: outcome as RequestLogQuery['outcome'],
    mode: mode as RequestLogQuery['mode'],
  };
}

/** One entry as the API answers it. */
export function entryView(e: RequestLogEntry): Record<string, unknown> {
  return {
    id: e.id,
    createdAt: new Date(e.createdAt).toISOString(),
    method: e.method,
    path: e.path,
    endpoint: e.endpoint,
    channel: e.channel,
    status: e.status,
    ok: e.status < 400,
    ...(e.errorCode ? { error: { code: e.errorCode, message: e.errorMessage } } : {}),
    durationMs: e.durationMs,
    credits: e.credits,
    ...(e.cache ? { cache: e.cache } : {}),
    apiKeyId: e.keyId,
    apiKeyName: e.keyName,
    test: e.test,
    tags: e.tags,
  };
}

async function listing(deps: GatewayDeps, accountId: string, query: Record<string, string | string[] | undefined>) {
  const q = requestLogQuery(query, Date.now());
  const log = await readRequestLog(deps);
  const { rows, total } = log ? await log.list(accountId, q) : { rows: [], total: 0 };
  return {
    requests: rows.map(entryView),
    page: q.page,
    pageSize: PAGE_SIZE,
    total,
    totalPages: Math.ceil(total / PAGE_SIZE),
    days: q.days,
    keptDays: deps.config.requestLogDays,
  };
}

async function detail(deps: GatewayDeps, accountId: string, requestId: string) {
  const log = REQUEST_ID.test(requestId) ? await readRequestLog(deps) : null;
  const entry = log ? await log.get(accountId, requestId) : null;
  if (!entry) {
    throw new QuarryError('notFound', `No request ${requestId.slice(0, 100)} in this account's request log (entries are kept ${deps.config.requestLogDays} days).`);
  }
  const view = entryView(entry);
  // A paid call's answer stays retrievable for QUARRY_ARCHIVE_DAYS: say where.
  if (entry.status < 400 && entry.credits > 0 && !entry.test && deps.config.archiveDays > 0 && entry.createdAt >= Date.now() - deps.config.archiveDays * DAY_MS) {
    view.answerUrl = `/v1/requests/${entry.id}`;
  }
  return view;
}

/** The hooks that record every call and the routes that list them. Called once by the composition root. */
export function registerRequestLog(app: FastifyInstance, deps: GatewayDeps): void {
  if (deps.config.requestLogDays > 0) {
    let store: RequestLogStore | undefined;
    const open = () => (store ??= requestLogFor(deps.store));
    const writer = new RequestLogWriter(open, (e, lost) => deps.log.error({ err: e, lost }, 'request log: entries could not be written'));
    registered.set(deps, { writer, store: open });
    let usable = true;
    const record = (request: FastifyRequest, reply: FastifyReply) => {
      const state = request.callState;
      if (!usable || !state || state.logged) return;
      state.logged = true;
      const entry = entryOf(request, reply);
      if (!entry) return;
      try {
        open();
      } catch (e) {
        usable = false; // a store the request log does not know (a test double): the rest is served
        deps.log.warn({ err: e }, 'request log off: this store has none');
        return;
      }
      writer.add(entry);
    };
    app.addHook('onSend', (request, reply, payload, done) => {
      record(request, reply);
      done(null, payload);
    });
    app.addHook('onResponse', (request, reply, done) => {
      record(request, reply); // hijacked replies (MCP) never pass onSend
      done();
    });
    const pruner = setInterval(() => {
      if (!usable) return;
      Promise.resolve()
        .then(() => open().prune(Date.now() - deps.config.requestLogDays * DAY_MS))
        .catch((e) => deps.log.error({ err: e }, 'request log sweep failed'));
    }, PRUNE_EVERY_MS);
    pruner.unref();
    app.addHook('onClose', async () => {
      clearInterval(pruner);
      await writer.flush();
    });
  }

  const keyAccount = async (request: FastifyRequest) => {
    const principal = await authenticate(deps, request.headers.authorization);
    if (!principal) throw new QuarryError('unauthorized', 'Invalid or missing API key. Send it as Authorization: Bearer <key>.');
    return principal.accountId;
  };
  const ok = (reply: FastifyReply, request: FastifyRequest, data: unknown) => {
    reply.header('content-type', 'application/json; charset=utf-8');
    return reply.send(JSON.stringify({ success: true, data, creditsUsed: 0, requestId: request.id }));
  };

  app.get('/v1/request-log', async (request, reply) =>
    ok(reply, request, await listing(deps, await keyAccount(request), request.query as Record<string, string>)),
  );
  app.get<{ Params: { requestId: string } }>('/v1/request-log/:requestId', async (request, reply) =>
    ok(reply, request, await detail(deps, await keyAccount(request), request.params.requestId)),
  );
  app.get('/v1/account/request-log', async (request, reply) => {
    const session = await requireSession(request);
    return sendData(reply, request, await listing(deps, session.accountId, request.query as Record<string, string>));
  });
  app.get<{ Params: { requestId: string } }>('/v1/account/request-log/:requestId', async (request, reply) => {
    const session = await requireSession(request);
    return sendData(reply, request, await detail(deps, session.accountId, request.params.requestId));
  });
}
