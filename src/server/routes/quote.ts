/** POST /v1/quote {endpoint, input}: the price range of a call, whether the cache would answer it, and who can pay. */
import type { FastifyInstance } from 'fastify';
import { QuarryError } from '../../errors.js';
import { authenticate } from '../../identity/authenticate.js';
import type { GatewayDeps } from '../../pipeline/deps.js';
import { quoteCall } from '../../pipeline/quote.js';
import { jsonBody } from '../../http/body.js';
import { countFreeRequest } from '../reply.js';

export function registerQuoteRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  app.post('/v1/quote', async (request, reply) => {
    const principal = await authenticate(deps, request.headers.authorization);
    if (!principal) throw new QuarryError('unauthorized', 'Invalid or missing API key. Send it as Authorization: Bearer <key>.');
    // Free, but counted against the key's window like every keyed request.
    await countFreeRequest(deps, principal, request, reply);
    const body = jsonBody(request);
    const { endpoint: id, input, ...rest } = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    const extra = Object.keys(rest);
    if (extra.length) throw new QuarryError('invalidRequest', `${extra[0]}: unknown field; a quote takes {endpoint, input}.`);
    if (typeof id !== 'string') throw new QuarryError('invalidRequest', 'endpoint: required, an endpoint id such as "reddit.subforum".');
    const endpoint = deps.catalogue.get(id);
    if (!endpoint) throw new QuarryError('invalidRequest', `endpoint: "${id}" is not in the catalogue; see GET /v1/catalogue.`);
    if (input !== undefined && (input === null || typeof input !== 'object' || Array.isArray(input))) {
      throw new QuarryError('invalidRequest', 'input: must be an object, the body the call would send.');
    }
    const quote = await quoteCall(deps, principal, endpoint, structuredClone((input ?? {}) as Record<string, unknown>));
    reply.header('content-type', 'application/json; charset=utf-8');
    return reply.send({ success: true, data: quote, creditsUsed: 0, requestId: request.id });
  });
}
