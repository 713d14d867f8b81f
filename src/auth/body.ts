/** Bodies of calls that carry nothing (revoke, approve, sign-out): an empty body counts as `{}`. */
import type { FastifyRequest } from 'fastify';
import { jsonBody } from '../server/body.js';

export function optionalJsonBody(request: FastifyRequest): unknown {
  const raw = request.body as Buffer | undefined;
  return raw && raw.length > 0 ? jsonBody(request) : {};
}
