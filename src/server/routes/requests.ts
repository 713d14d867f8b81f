/**
 * GET /v1/requests/{requestId}: the success envelope of one of the account's paid calls, as it was answered, for
 * QUARRY_ARCHIVE_DAYS (default 7). Free; needs a key of the same account. A client that timed out fetches the answer
 * it paid for instead of paying again.
 */
import type { FastifyInstance } from 'fastify';
import { QuarryError } from '../../errors.js';
import { authenticate } from '../../identity/authenticate.js';
import type { GatewayDeps } from '../../pipeline/deps.js';
import { envelopeJson } from '../../http/reply.js';

const DAY_MS = 86_400_000;

export function registerRequestRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  app.get<{ Params: { requestId: string } }>('/v1/requests/:requestId', async (request, reply) => {
    const principal = await authenticate(deps, request.headers.authorization);
    if (!principal) throw new QuarryError('unauthorized', 'Invalid or missing API key.');
    const { requestId } = request.params;
    const found =
      /^[A-Za-z0-9_-]{1,100}$/.test(requestId) && deps.config.archiveDays > 0
        ? await deps.store.archivedCall(principal.accountId, requestId, Date.now() - deps.config.archiveDays * DAY_MS)
        : null;
    if (!found) {
      throw new QuarryError(
        'notFound',
        `No archived answer for request ${requestId} in this account: answers of paid calls are kept ${deps.config.archiveDays} days.`,
      );
    }
    reply.header('content-type', 'application/json; charset=utf-8');
    reply.header('x-credits-used', '0');
    return reply.send(envelopeJson(found.dataJson, found.call.credits, found.call.id));
  });
}
