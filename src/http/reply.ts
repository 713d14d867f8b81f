/** The account side's success envelope; never cached by browsers or proxies (it carries balances and keys). */
import type { FastifyReply, FastifyRequest } from 'fastify';

export function sendData(reply: FastifyReply, request: FastifyRequest, data: unknown, status = 200): FastifyReply {
  reply.header('cache-control', 'no-store');
  reply.header('content-type', 'application/json; charset=utf-8');
  return reply.code(status).send(JSON.stringify({ success: true, data, requestId: request.id }));
}
