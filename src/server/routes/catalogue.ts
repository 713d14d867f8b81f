/** GET /v1/catalogue and GET /openapi.json: free, no key, generated once (OpenAPI: src/server/openapi.ts). */
import type { FastifyInstance } from 'fastify';
import { LEGACY_PATHS } from '../../legacy/paths/index.js';
import type { GatewayDeps } from '../../pipeline/deps.js';
import { quarryOpenApi } from '../openapi.js';

export function registerCatalogueRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  // Served endpoints first, the others after them and marked (`available: false` with the reason).
  const entries = deps.catalogue.listed().map((e) => deps.catalogue.publicEntry(e));
  const openapi = JSON.stringify(quarryOpenApi(deps, LEGACY_PATHS));
  app.get('/v1/catalogue', async (request, reply) => {
    reply.header('content-type', 'application/json; charset=utf-8');
    return reply.send({ success: true, data: { endpoints: entries }, creditsUsed: 0, requestId: request.id });
  });
  app.get('/openapi.json', async (_request, reply) => {
    reply.header('content-type', 'application/json; charset=utf-8');
    return reply.send(openapi);
  });
}
