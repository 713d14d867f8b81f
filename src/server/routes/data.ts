/**
 * POST /v1/<source>/<operation> for every catalogue entry: admit → (idempotency) → the call pipeline → rendering.
 * Request headers that shape a call (Cache-Control, Idempotency-Key, maxTextLength) are read here into its state.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CatalogueEndpoint } from '../../catalogue/catalogue.js';
import { QuarryError, errorEnvelope, toQuarryError } from '../../errors.js';
import { parseCacheControl } from '../../pipeline/cache-control.js';
import { admit, runCall, type CallResult, type CallState } from '../../pipeline/call.js';
import type { GatewayDeps } from '../../pipeline/deps.js';
import { beginIdempotent, holdClaim, idempotencyKeyOf, isFinal, requestFingerprint, type IdempotencyTicket } from '../../pipeline/idempotency.js';
import { renderMarkdown } from '../../render/markdown.js';
import type { StoredResponse } from '../../store/types.js';
import { jsonBody, maxTextLength, wantsMarkdown } from '../../http/body.js';
import { clientAddress } from '../../lib/client-address.js';
import { envelopeBytes, envelopeJson, setRateHeaders } from '../../http/reply.js';

const DEFAULT_BODY_LIMIT = 1024 * 1024;

export function registerDataRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  for (const endpoint of deps.catalogue.endpoints) {
    app.post(endpoint.path, { bodyLimit: endpoint.def.bodyLimitBytes ?? DEFAULT_BODY_LIMIT }, async (request, reply) => {
      const state: CallState = { requestId: request.id };
      request.callState = state;
      let address: string | undefined;
      const addressOf = () => (address ??= clientAddress(request.ip));
      // Parsed once, when first needed: by the idempotency fingerprint, else by the call.
      let parsed: unknown;
      const body = () => (parsed ??= jsonBody(request));
      await admit(deps, endpoint, { authorization: request.headers.authorization, clientAddress: addressOf }, state);
      setRateHeaders(reply, state.rate);
      state.textLimit = maxTextLength(request);
      state.cacheDirectives = parseCacheControl(request.headers['cache-control']);

      const idempotencyKey = idempotencyKeyOf(request.headers['idempotency-key']);
      if (idempotencyKey === undefined) {
        const call = await runCall(deps, endpoint, { body: body(), clientAddress: addressOf }, state);
        if (wantsMarkdown(request)) {
          const r = asMarkdown(endpoint, jsonResponse(call, state), call.answer.data);
          return reply.code(r.status).headers(r.headers).send(r.body);
        }
        // The usual answer: bytes already made (the envelope around the result's stored UTF-8), headers one by one.
        reply.header('x-credits-used', call.creditsUsed).header('x-cache', call.cache).header('x-cache-age', call.ageSeconds);
        if (call.testMode) reply.header('quarry-test-mode', call.testMode);
        reply.header('content-type', JSON_TYPE);
        return reply.send(envelopeBytes(call.answer.bytes(), call.creditsUsed, state.requestId));
      }
      if (!state.principal) throw new QuarryError('unauthorized', 'Idempotency-Key needs an API key: send one with the request.');
      const start = await beginIdempotent(deps.store, {
        scope: state.principal.keyId,
        key: idempotencyKey,
        fingerprint: requestFingerprint(endpoint.def.id, body()),
        signal: deps.shutdownSignal,
      });
      if ('replay' in start) return replay(endpoint, request, reply, start.replay);
      return answerOnce(deps, endpoint, request, reply, state, addressOf, body, start.ticket);
    });
  }
}

type AddressOf = () => string;

/** Runs the call under a claimed Idempotency-Key (its lease renewed meanwhile) and keeps its final response. */
async function answerOnce(
  deps: GatewayDeps,
  endpoint: CatalogueEndpoint,
  request: FastifyRequest,
  reply: FastifyReply,
  state: CallState,
  addressOf: AddressOf,
  body: () => unknown,
  ticket: IdempotencyTicket,
): Promise<FastifyReply> {
  let answer: Answer;
  const release = holdClaim(deps.store, ticket, (e) => deps.log.error({ err: e }, 'could not renew an idempotency claim'));
  try {
    answer = await respond(deps, endpoint, state, addressOf, body);
  } catch (e) {
    const err = toQuarryError(e);
    const final = isFinal(err.status, err.code);
    const stored: StoredResponse = {
      status: err.status,
      headers: { 'content-type': 'application/json; charset=utf-8', 'retry-after': String(err.retryAfterSeconds) },
      body: JSON.stringify(errorEnvelope(err, request.id)),
    };
    await deps.store.finishIdempotency(ticket.scope, ticket.key, final ? stored : null).catch((fe) => {
      deps.log.error({ err: fe }, 'could not record an idempotent refusal');
    });
    throw e;
  } finally {
    release();
  }
  // Kept before answering: a retry that arrives the moment this one is sent must find it. Should the store fail
  // here, the call was still made and charged: it is answered all the same (a retry is told to wait, 409, until the
  // claim's lease runs out).
  // The JSON envelope is what is kept, whatever this request's Accept: a replay renders it as its own asks.
  await deps.store.finishIdempotency(ticket.scope, ticket.key, answer.json).catch((e) => {
    deps.log.error({ err: e }, 'could not keep an idempotent response');
  });
  const r = wantsMarkdown(request) ? asMarkdown(endpoint, answer.json, answer.data) : answer.json;
  return reply.code(r.status).headers(r.headers).send(r.body);
}

/** A kept response, rendered as this request asks: a success as markdown for `Accept: text/markdown`. */
function replay(endpoint: CatalogueEndpoint, request: FastifyRequest, reply: FastifyReply, stored: StoredResponse): FastifyReply {
  let r = stored;
  if (stored.status === 200 && wantsMarkdown(request) && /^application\/json/.test(stored.headers['content-type'] ?? '')) {
    r = asMarkdown(endpoint, stored, (JSON.parse(stored.body) as { data: Record<string, unknown> }).data);
  }
  return reply.code(r.status).headers({ ...r.headers, 'idempotent-replayed': 'true' }).send(r.body);
}

/** The call's answer: the JSON response (as kept for replays) and its data, for a markdown rendering. */
interface Answer {
  json: StoredResponse;
  data: Record<string, unknown>;
}

/** The call and its JSON rendering, as one response (status, headers, body) that can also be kept for a replay. */
async function respond(
  deps: GatewayDeps,
  endpoint: CatalogueEndpoint,
  state: CallState,
  addressOf: AddressOf,
  body: () => unknown,
): Promise<Answer> {
  const call = await runCall(deps, endpoint, { body: body(), clientAddress: addressOf }, state);
  return { json: jsonResponse(call, state), data: call.answer.data };
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** A call's JSON response as a whole (kept for Idempotency-Key replays, or turned into markdown). */
function jsonResponse(call: CallResult, state: CallState): StoredResponse {
  return {
    status: 200,
    headers: {
      'x-credits-used': String(call.creditsUsed),
      'x-cache': call.cache,
      'x-cache-age': String(call.ageSeconds),
      ...(call.testMode ? { 'quarry-test-mode': call.testMode } : {}),
      'content-type': JSON_TYPE,
    },
    body: envelopeJson(call.answer.json, call.creditsUsed, state.requestId),
  };
}

/** The same answer as markdown (`Accept: text/markdown`). */
function asMarkdown(endpoint: CatalogueEndpoint, json: StoredResponse, data: Record<string, unknown>): StoredResponse {
  return {
    status: json.status,
    headers: { ...json.headers, 'content-type': 'text/markdown; charset=utf-8' },
    body: renderMarkdown(endpoint.def.title, data),
  };
}
