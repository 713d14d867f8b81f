/**
 * Writing responses: the success envelope, error envelopes (current and legacy) and the headers SPEC.md lists.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayDeps, Principal } from '../pipeline/deps.js';
import { checkRate, rateLimitedError } from '../pipeline/limits.js';
import { clientAddress } from './client-address.js';
import { errorEnvelope, legacyErrorBody, type QuarryError } from '../errors.js';
import type { RateDecision } from '../limits/types.js';

export function setRateHeaders(reply: FastifyReply, rate: RateDecision | undefined): void {
  if (!rate) return;
  reply.headers({ 'X-RateLimit-Limit': rate.limit, 'X-RateLimit-Remaining': rate.remaining, 'X-RateLimit-Reset': rate.resetUnix });
}

export function sendError(reply: FastifyReply, err: QuarryError, requestId: string, legacy = false): FastifyReply {
  reply.header('X-Request-ID', requestId);
  reply.header('Retry-After', err.retryAfterSeconds);
  reply.header('content-type', 'application/json; charset=utf-8');
  return reply.code(err.status).send(JSON.stringify(legacy ? legacyErrorBody(err) : errorEnvelope(err, requestId)));
}

/** The success envelope; `dataJson` is already serialised (cache hits reuse it as is). */
export function envelopeJson(dataJson: string, creditsUsed: number, requestId: string): string {
  return `{"success":true,"data":${dataJson},"creditsUsed":${creditsUsed},"requestId":${JSON.stringify(requestId)}}`;
}

/** A free request counted against its window (the key's, or the address's when keyless): headers set, 429 when over. */
export async function countFreeRequest(deps: GatewayDeps, principal: Principal | null, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const rate = await checkRate(deps, principal, () => clientAddress(request.ip));
  setRateHeaders(reply, rate);
  if (!rate.allowed) throw rateLimitedError(rate);
}
