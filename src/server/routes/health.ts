/** /healthz: the process answers. /readyz: storage answers too (load balancers route on it). */
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../../pipeline/deps.js';

export function registerHealthRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await deps.store.ping();
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'unavailable', reason: 'storage does not answer' });
    }
  });
}
