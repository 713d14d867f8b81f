/**
 * GET /v1/sources (no key; limited per address like keyless calls): each source of the catalogue, whether this
 * server serves it, what it needs from the operator, and its health over the last hour and day.
 */
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../../pipeline/deps.js';
import { sourceSettings, sourceVariable } from '../../config.js';
import { SOURCES } from '../../sources/registry.js';
import { countFreeRequest } from '../reply.js';
import type { WindowStats } from '../../health/types.js';

const EMPTY: WindowStats = { calls: 0, successes: 0, errors: {}, latencyMs: null, drift: 0 };

export function registerSourceRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  app.get('/v1/sources', async (request, reply) => {
    await countFreeRequest(deps, null, request, reply);
    const ids = [...new Set(deps.catalogue.endpoints.map((e) => e.source))];
    const stats = deps.health ? await deps.health.summary(ids, Date.now()) : {};
    const sources = ids.map((id) => {
      const endpoints = deps.catalogue.endpoints.filter((e) => e.source === id);
      const served = endpoints.filter((e) => e.unavailable === undefined);
      const module = SOURCES.find((s) => s.id === id);
      const settings = sourceSettings(deps.config, id, module?.needs?.settings);
      const reason = endpoints.find((e) => e.unavailable)?.unavailableReason;
      return {
        id,
        enabled: served.length > 0,
        ...(served.length === 0 && reason ? { reason } : {}),
        endpoints: endpoints.map((e) => ({ id: e.def.id, available: e.unavailable === undefined })),
        needs: {
          settings: (module?.needs?.settings ?? []).map((s) => ({
            name: sourceVariable(id, s.name),
            required: s.required,
            set: Boolean(settings[s.name]),
            purpose: s.purpose,
          })),
          network: module?.needs?.network ?? [],
          proxy: module?.needs?.proxy ?? 'none',
          proxySet: Boolean(settings.PROXY ?? deps.config.upstream.proxyUrl),
        },
        lastHour: stats[id]?.lastHour ?? EMPTY,
        lastDay: stats[id]?.lastDay ?? EMPTY,
      };
    });
    reply.header('content-type', 'application/json; charset=utf-8');
    return reply.send({
      success: true,
      data: { sources, canary: { enabled: deps.config.canaryIntervalSeconds > 0, intervalSeconds: deps.config.canaryIntervalSeconds } },
      creditsUsed: 0,
      requestId: request.id,
    });
  });
}
