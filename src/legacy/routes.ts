/**
 * POST /v1/<legacy path>: the flat convention on the current pipeline. Keys, limits, credits, the cache, tags-free
 * logs (named by path, `/video`), test mode and idempotency-free retries behave as for the endpoint that answers;
 * only the body's field names, the record's shape and the envelope differ.
 */
import type { FastifyInstance } from 'fastify';
import { compileInput } from '../catalogue/validator.js';
import { QuarryError } from '../errors.js';
import { admitCaller, runCall, type CallState } from '../pipeline/call.js';
import type { GatewayDeps } from '../pipeline/deps.js';
import { jsonBody } from '../http/body.js';
import { clientAddress } from '../lib/client-address.js';
import { legacyErrorHandler, setRateHeaders } from '../http/reply.js';
import type { LegacyPath } from './types.js';

/** An error about a current field, reworded with the legacy field the caller sent. */
function renamed(e: unknown, fieldNames: Readonly<Record<string, string>> = {}): unknown {
  if (!(e instanceof QuarryError) || e.code !== 'invalidRequest') return e;
  const m = /^([A-Za-z][\w.[\]]*):/.exec(e.message);
  const field = m?.[1].split(/[.[]/)[0];
  const legacy = field ? fieldNames[field] : undefined;
  return legacy ? new QuarryError('invalidRequest', legacy + e.message.slice(field!.length), e.extras) : e;
}

export function registerLegacyRoutes(app: FastifyInstance, deps: GatewayDeps, paths: readonly LegacyPath[]): void {
  for (const path of paths) {
    for (const id of path.endpoints) {
      if (!deps.catalogue.get(id)) throw new Error(`legacy path /v1/${path.name} names ${id}, which the catalogue does not declare`);
    }
    const validate = compileInput(path.input);
    app.post(`/v1/${path.name}`, { errorHandler: legacyErrorHandler(deps.log, `/v1/${path.name} endpoint`) }, async (request, reply) => {
      const state: CallState = { requestId: request.id, channel: 'legacy', logEndpoint: path.name };
      request.callState = state;
      const addressOf = () => clientAddress(request.ip);
      // Every legacy path needs a key (SPEC.md: "All are POST … with a Bearer key").
      await admitCaller(deps, false, { authorization: request.headers.authorization, clientAddress: addressOf }, state);
      setRateHeaders(reply, state.rate);
      const body = validate(jsonBody(request));
      const { endpoint: id, input } = path.route(body);
      const endpoint = deps.catalogue.get(id)!;
      const call = await runCall(deps, endpoint, { body: input, clientAddress: addressOf }, state).catch((e: unknown) => {
        throw renamed(e, path.fieldNames);
      });
      const principal = state.principal!;
      const account = await deps.store.getAccount(principal.accountId);
      reply.headers({
        'content-type': 'application/json; charset=utf-8',
        'x-credits-used': String(call.creditsUsed),
        'x-cache': call.cache,
        'x-cache-age': String(call.ageSeconds),
        ...(call.testMode ? { 'quarry-test-mode': call.testMode } : {}),
      });
      return reply.send(
        JSON.stringify({
          success: true,
          requestId: request.id,
          cacheState: call.cache === 'miss' ? 'miss' : 'hit',
          creditsUsed: call.creditsUsed,
          creditsRemaining: account?.balance ?? 0,
          data: path.view(call.answer.data, body),
        }),
      );
    });
  }
}

