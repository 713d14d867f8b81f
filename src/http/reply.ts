/**
 * Writing responses, for every transport (the data and account routes, MCP, the legacy paths): the success envelopes,
 * error envelopes (current and legacy) and the headers SPEC.md lists.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { QuarryError, errorEnvelope, legacyErrorBody, legacyStatus, toQuarryError } from '../errors.js';
import { loggedUrl } from './redact.js';

/** A rate window's state, as the limiters decide it (src/limits/types.ts RateDecision). */
export interface RateHeaders {
  limit: number;
  remaining: number;
  resetUnix: number;
}


/** The account side's success envelope; never cached by browsers or proxies (it carries balances and keys). */
export function sendData(reply: FastifyReply, request: FastifyRequest, data: unknown, status = 200): FastifyReply {
  reply.header('cache-control', 'no-store');
  reply.header('content-type', 'application/json; charset=utf-8');
  return reply.code(status).send(JSON.stringify({ success: true, data, requestId: request.id }));
}

export function setRateHeaders(reply: FastifyReply, rate: RateHeaders | undefined): void {
  if (!rate) return;
  reply.headers({ 'X-RateLimit-Limit': rate.limit, 'X-RateLimit-Remaining': rate.remaining, 'X-RateLimit-Reset': rate.resetUnix });
}

export function sendError(reply: FastifyReply, err: QuarryError, requestId: string, legacy = false): FastifyReply {
  const state = reply.request.callState;
  if (state) state.error = { code: err.code, message: err.message }; // for the request log
  reply.header('X-Request-ID', requestId);
  reply.header('Retry-After', err.retryAfterSeconds);
  reply.header('content-type', 'application/json; charset=utf-8');
  if (legacy) return reply.code(legacyStatus(err)).send(JSON.stringify(legacyErrorBody(err)));
  return reply.code(err.status).send(JSON.stringify(errorEnvelope(err, requestId)));
}

/**
 * Route error handler for the legacy convention (the legacy paths, MCP): every failure, Fastify's own included
 * (body too large, …), in the flat shape; `what` names the endpoint in messages and logs.
 */
export function legacyErrorHandler(log: { error(obj: object, msg?: string): void }, what: string) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    let err: QuarryError;
    if (error instanceof QuarryError) err = error;
    else if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') err = new QuarryError('invalidRequest', `body: is larger than the ${what} accepts`);
    else if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      err = new QuarryError('invalidRequest', `request: ${error.message}`);
    } else err = toQuarryError(error);
    if (err.code === 'internalError') log.error({ reqId: request.id, url: loggedUrl(request), err: error }, `${what} error`);
    return sendError(reply, err, request.id, true);
  };
}

/** The success envelope; `dataJson` is already serialised (cache hits reuse it as is). */
export function envelopeJson(dataJson: string, creditsUsed: number, requestId: string): string {
  return `{"success":true,"data":${dataJson},"creditsUsed":${creditsUsed},"requestId":${JSON.stringify(requestId)}}`;
}

const ENVELOPE_HEAD = Buffer.from('{"success":true,"data":');

/**
 * The success envelope as bytes, around `data` already encoded (a cached result keeps its UTF-8 once): one copy of
 * the answer and no string work. The same bytes as `envelopeJson`. A string body would be measured
 * (`Buffer.byteLength`) and encoded again at every write: for a 26 KB answer that was a third of a cache hit's CPU.
 */
export function envelopeBytes(data: Buffer, creditsUsed: number, requestId: string): Buffer {
  const tail = `,"creditsUsed":${creditsUsed},"requestId":${JSON.stringify(requestId)}}`;
  const out = Buffer.allocUnsafe(ENVELOPE_HEAD.length + data.length + Buffer.byteLength(tail));
  ENVELOPE_HEAD.copy(out, 0);
  data.copy(out, ENVELOPE_HEAD.length);
  out.write(tail, ENVELOPE_HEAD.length + data.length);
  return out;
}
