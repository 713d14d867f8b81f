/** GET /v1/catalogue and GET /openapi.json: free, no key, generated from the catalogue once. */
import type { FastifyInstance } from 'fastify';
import { openApiDocument } from '../../catalogue/openapi.js';
import { legacyOpenApiPaths } from '../../legacy/openapi.js';
import { LEGACY_PATHS } from '../../legacy/paths/index.js';
import type { GatewayDeps } from '../../pipeline/deps.js';

export function registerCatalogueRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  // Served endpoints first, the others after them and marked (`available: false` with the reason).
  const entries = deps.catalogue.listed().map((e) => deps.catalogue.publicEntry(e));
  const openapi = JSON.stringify(openApiDocument(deps.catalogue, deps.config.baseUrl, legacyOpenApiPaths(LEGACY_PATHS, deps.catalogue)));
  app.get('/v1/catalogue', async (request, reply) => {
    reply.header('content-type', 'application/json; charset=utf-8');
    return reply.send({ success: true, data: { endpoints: entries }, creditsUsed: 0, requestId: request.id });
  });
  app.get('/openapi.json', async (_request, reply) => {
    reply.header('content-type', 'application/json; charset=utf-8');
    return reply.send(openapi);
  });
}
