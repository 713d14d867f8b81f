/** POST /v1/<source>/<operation> for every catalogue entry: the call pipeline, then rendering. */
import type { FastifyInstance } from 'fastify';
import { admit, runCall, type CallState } from '../../pipeline/call.js';
import type { GatewayDeps } from '../../pipeline/deps.js';
import { renderMarkdown } from '../../render/markdown.js';
import { truncateTexts } from '../../render/truncate.js';
import { jsonBody, maxTextLength, wantsMarkdown } from '../body.js';
import { clientAddress } from '../client-address.js';
import { envelopeJson, setRateHeaders } from '../reply.js';

const DEFAULT_BODY_LIMIT = 1024 * 1024;

export function registerDataRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  for (const endpoint of deps.catalogue.endpoints) {
    app.post(endpoint.path, { bodyLimit: endpoint.def.bodyLimitBytes ?? DEFAULT_BODY_LIMIT }, async (request, reply) => {
      const state: CallState = { requestId: request.id };
      request.callState = state;
      let address: string | undefined;
      const addressOf = () => (address ??= clientAddress(request.ip));
      await admit(deps, endpoint, { authorization: request.headers.authorization, clientAddress: addressOf }, state);
      setRateHeaders(reply, state.rate);
      const textLimit = maxTextLength(request);
      const call = await runCall(deps, endpoint, { body: jsonBody(request), clientAddress: addressOf }, state);
      reply.headers({ 'x-credits-used': call.creditsUsed, 'x-cache': call.cache, 'x-cache-age': call.ageSeconds });
      const data = textLimit === undefined ? call.result.data : truncateTexts(call.result.data, textLimit);
      if (wantsMarkdown(request)) {
        reply.header('content-type', 'text/markdown; charset=utf-8');
        return reply.send(renderMarkdown(endpoint.def.title, data));
      }
      const dataJson = textLimit === undefined ? call.result.json : JSON.stringify(data);
      reply.header('content-type', 'application/json; charset=utf-8');
      return reply.send(envelopeJson(dataJson, call.creditsUsed, request.id));
    });
  }
}
