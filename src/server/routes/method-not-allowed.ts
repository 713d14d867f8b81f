/**
 * A data path asked with another method than POST (issue 38.9): 405 with `Allow: POST` and an envelope saying how to
 * call it, instead of a 404 that suggests the endpoint does not exist. The code stays `invalidRequest` (SPEC.md
 * lists the codes; none names a method), with the 405 status HTTP has for it.
 */
import type { FastifyInstance } from 'fastify';
import { QuarryError, errorEnvelope } from '../../errors.js';
import type { GatewayDeps } from '../../pipeline/deps.js';

const OTHER_METHODS = ['GET', 'PUT', 'PATCH', 'DELETE'] as const;

export function registerMethodNotAllowed(app: FastifyInstance, deps: GatewayDeps, legacyPaths: readonly string[]): void {
  const paths = [...deps.catalogue.endpoints.map((e) => e.path), ...legacyPaths];
  for (const url of paths) {
    app.route({
      method: [...OTHER_METHODS],
      url,
      handler: async (request, reply) => {
        const err = new QuarryError(
          'invalidRequest',
          `${request.method} is not allowed here: ${url} takes POST with a JSON body (see GET /v1/catalogue for its fields).`,
        );
        reply.header('Allow', 'POST');
        reply.header('content-type', 'application/json; charset=utf-8');
        return reply.code(405).send(JSON.stringify(errorEnvelope(err, request.id)));
      },
    });
  }
}
