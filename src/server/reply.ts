/**
 * Responses that need the pipeline: a free request counted against its rate window. The envelopes, error answers and
 * headers every transport writes are src/http/reply.ts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayDeps } from '../pipeline/deps.js';
import type { Principal } from '../identity/principal.js';
import { checkRate, rateLimitedError } from '../pipeline/limits.js';
import { clientAddress } from '../lib/client-address.js';
import { setRateHeaders } from '../http/reply.js';

/** A free request counted against its window (the key's, or the address's when keyless): headers set, 429 when over. */
export async function countFreeRequest(deps: GatewayDeps, principal: Principal | null, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const rate = await checkRate(deps, principal, () => clientAddress(request.ip));
  setRateHeaders(reply, rate);
  if (!rate.allowed) throw rateLimitedError(rate);
}
