/**
 * GET /v1/logs (SPEC.md "Logs endpoint", CONTRACT.md "Logs"): variant A by default; variant B when `days` is
 * `today` or `endpoint` starts with `/`. Only paid calls, newest first, 50 a page. Free; needs a key.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { QuarryError } from '../../errors.js';
import { authenticate } from '../../identity/authenticate.js';
import type { GatewayDeps } from '../../pipeline/deps.js';
import type { Principal } from '../../identity/principal.js';
import type { CallRecord } from '../../store/types.js';
import { sendError } from '../../http/reply.js';
import { readRequestLog } from '../request-log.js';

const PAGE_SIZE = 50;
const DAY_MS = 86_400_000;

export type Query = Record<string, string | string[] | undefined>;

function one(q: Query, name: string): string | undefined {
  const v = q[name];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

function integerParam(q: Query, name: string, min: number, max: number, def: number): number {
  const raw = one(q, name);
  if (raw === undefined || raw === '') return def;
  if (!/^-?\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new QuarryError('invalidRequest', `${name}: must be an integer from ${min} to ${max}`);
  }
  return Number(raw);
}

export function startOfUtcDay(nowMs: number): number {
  return Math.floor(nowMs / DAY_MS) * DAY_MS;
}

async function requireKey(deps: GatewayDeps, request: FastifyRequest): Promise<Principal> {
  const principal = await authenticate(deps, request.headers.authorization);
  if (!principal) throw new QuarryError('unauthorized', 'Invalid or missing API key.');
  return principal;
}

const pathOfId = (id: string) => '/' + id.split('.').join('/');

/** Real durations of the listed calls, from the request log (null where it has none: older calls, or the log off). */
async function durationsOf(deps: GatewayDeps, accountId: string, rows: readonly CallRecord[]): Promise<Map<string, number>> {
  const log = rows.length ? await readRequestLog(deps) : null;
  return log ? log.durations(accountId, rows.map((r) => r.id)) : new Map();
}

/** Variant A's page of an account's calls (`days`, `page`, `endpoint`, `apiKeyId`, `tag`); shared by /v1/account/logs. */
export async function logsVariantA(deps: GatewayDeps, accountId: string, q: Query): Promise<Record<string, unknown>> {
  const days = integerParam(q, 'days', 1, 90, 7);
  const page = integerParam(q, 'page', 0, Number.MAX_SAFE_INTEGER, 0);
  const endpoint = one(q, 'endpoint') || undefined;
  const apiKeyId = one(q, 'apiKeyId') || undefined;
  const tag = one(q, 'tag') || undefined;
  const { rows, total } = await deps.store.listCalls(accountId, {
    sinceMs: Date.now() - days * DAY_MS,
    page,
    pageSize: PAGE_SIZE,
    endpoint,
    keyId: apiKeyId,
    tag,
  });
  const durations = await durationsOf(deps, accountId, rows);
  return {
    logs: rows.map((r: CallRecord) => ({
      id: r.id,
      createdAt: new Date(r.createdAt).toISOString(),
      endpoint: r.endpoint,
      credits: r.credits,
      apiKeyId: r.keyId,
      apiKeyName: r.keyName,
      method: 'POST',
      status: 200,
      response: 'success',
      durationMs: durations.get(r.id) ?? null,
      cache: r.cache,
      test: r.test,
      channel: r.channel,
      ...(r.tags.length ? { tags: r.tags } : {}),
    })),
    endpoints: deps.catalogue.ids(),
    page,
    pageSize: PAGE_SIZE,
    total,
    totalPages: Math.ceil(total / PAGE_SIZE),
  };
}

export function registerLogRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const endpointIds = deps.catalogue.ids();

  app.get('/v1/logs', async (request, reply) => {
    const q = request.query as Query;
    const variantB = one(q, 'days') === 'today' || (one(q, 'endpoint') ?? '').startsWith('/');
    return variantB ? variantBHandler(request, reply) : variantAHandler(request, reply);
  });

  async function variantAHandler(request: FastifyRequest, reply: import('fastify').FastifyReply) {
    const principal = await requireKey(deps, request);
    return reply.send(await logsVariantA(deps, principal.accountId, request.query as Query));
  }

  async function variantBHandler(request: FastifyRequest, reply: import('fastify').FastifyReply) {
    try {
      const principal = await requireKey(deps, request);
      const q = request.query as Query;
      const daysRaw = one(q, 'days') ?? '7';
      if (!['today', '7', '30'].includes(daysRaw)) throw new QuarryError('invalidRequest', 'days: must be one of today, 7, 30');
      const page = integerParam(q, 'page', 0, Number.MAX_SAFE_INTEGER, 0);
      const now = Date.now();
      const sinceMs = daysRaw === 'today' ? startOfUtcDay(now) : now - Number(daysRaw) * DAY_MS;
      const endpointPath = one(q, 'endpoint');
      if (endpointPath !== undefined && endpointPath !== '' && !/^\/[a-z0-9/]+$/i.test(endpointPath)) {
        throw new QuarryError('invalidRequest', 'endpoint: must be a path such as /reddit/subforum');
      }
      // Split, not trimmed by a pattern: /\/+$/ backtracks quadratically over a long run of slashes.
      const endpointPrefix = endpointPath ? endpointPath.split('/').filter(Boolean).join('.') : undefined;
      const { rows, total } = await deps.store.listCalls(principal.accountId, {
        sinceMs,
        page,
        pageSize: PAGE_SIZE,
        endpointPrefix: endpointPrefix || undefined,
      });
      const durations = await durationsOf(deps, principal.accountId, rows);
      return reply.send({
        success: true,
        requestId: request.id,
        data: {
          logs: rows.map((r) => ({
            id: r.id,
            userId: r.accountId,
            apiKeyId: r.keyId,
            apiKeyName: r.keyName,
            endpoint: pathOfId(r.endpoint),
            method: 'POST',
            credits: String(r.credits),
            durationMs: durations.has(r.id) ? String(durations.get(r.id)) : null,
            response: 'success',
            createdAt: new Date(r.createdAt).toISOString(),
            status: 200,
          })),
          total,
          page,
          pageSize: PAGE_SIZE,
          totalPages: Math.ceil(total / PAGE_SIZE),
          endpoints: endpointIds.map(pathOfId),
        },
      });
    } catch (e) {
      if (e instanceof QuarryError) return sendError(reply, e, request.id, true);
      throw e;
    }
  }
}
