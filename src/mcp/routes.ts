/**
 * POST /v1/mcp (Bearer key) and POST /v1/mcp/:apiKey: the streamable-HTTP MCP transport of the official SDK, in
 * stateless mode (no session id, a fresh transport and Server per request, JSON answers rather than SSE), so any
 * instance behind a load balancer can answer any request. GET and DELETE answer 405 (no SSE stream, no session
 * to delete). The key is checked before the SDK sees the request; failures use the legacy error shape.
 */
import type { CallState } from '../pipeline/call.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { QuarryError } from '../errors.js';
import { newRequestId } from '../lib/ids.js';
import { bearerKey, principalForKey } from '../identity/authenticate.js';
import { isKeyShaped } from '../identity/key-format.js';
import type { GatewayDeps } from '../pipeline/deps.js';
import { checkDepth } from '../http/body.js';
import { clientAddress } from '../lib/client-address.js';
import { legacyErrorHandler, sendError } from '../http/reply.js';
import { createMcpServer } from './server.js';
import { buildToolSet } from './tools.js';

const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** Room for the JSON-RPC envelope around the largest tool arguments. */
const ENVELOPE_BYTES = 64 * 1024;

const unauthorized = () => new QuarryError('unauthorized', 'Invalid or missing API key.');

/**
 * The app parses every body as raw bytes; the SDK wants the parsed JSON-RPC message. Unparseable bytes become
 * `null`, which the SDK itself answers with its JSON-RPC parse error (after its own Accept and Content-Type
 * checks), so the transport's error behaviour stays the SDK's.
 */
function parsedBody(body: unknown): unknown {
  if (!Buffer.isBuffer(body) || body.length === 0) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  // Before anything walks it (the SDK's schemas, a quote's copy of its arguments): 400 past the depth rule.
  checkDepth(parsed);
  return parsed;
}

/** 405 with `Allow: POST`, as the SDKs answer in stateless mode (there is no SSE stream to GET, no session to DELETE). */
function methodNotAllowed(_request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.header('Allow', 'POST');
  reply.header('content-type', 'application/json; charset=utf-8');
  return reply.code(405).send(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null }));
}

export function registerMcpRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const tools = buildToolSet(deps.catalogue);
  const largestInput = Math.max(
    DEFAULT_BODY_LIMIT,
    ...deps.catalogue.endpoints.filter((e) => e.unavailable === undefined).map((e) => e.def.bodyLimitBytes ?? 0),
  );
  const options = { bodyLimit: largestInput + ENVELOPE_BYTES, errorHandler: legacyErrorHandler(deps.log, 'MCP endpoint') };

  async function handle(request: FastifyRequest, reply: FastifyReply, apiKey: string | undefined): Promise<FastifyReply | void> {
    const principal = apiKey ? await principalForKey(deps, apiKey) : null;
    if (!principal || !apiKey) return sendError(reply, unauthorized(), request.id, true);
    // The request log line (build.ts onResponse) reads the key id from here; the URL it logs is redacted there.
    const httpState: CallState = { requestId: request.id, principal, channel: 'mcp' };
    request.callState = httpState;

    let calls = 0;
    let address: string | undefined;
    const server = createMcpServer(deps, tools, {
      principal,
      authorization: `Bearer ${apiKey}`,
      clientAddress: () => (address ??= clientAddress(request.ip)),
      // The first tool call of a request shares the request's id (X-Request-ID = the log entry's id); a batch's
      // further calls get their own, since the id keys each reservation.
      nextCallId: () => (calls++ === 0 ? request.id : newRequestId()),
      httpRequestId: request.id,
      httpState,
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const message = parsedBody(request.body); // a 400 before the SDK takes the reply, should the body break a rule

    // From here the SDK writes the response itself; Fastify still runs onResponse (the request log).
    reply.hijack();
    reply.raw.setHeader('X-Request-ID', request.id);
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, message);
    } catch (e) {
      deps.log.error({ reqId: request.id, err: e }, 'MCP request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
      }
    }
  }

  app.post('/v1/mcp', options, (request, reply) => handle(request, reply, bearerKey(request.headers.authorization) || undefined));
  app.post<{ Params: { apiKey: string } }>('/v1/mcp/:apiKey', options, (request, reply) => {
    const key = request.params.apiKey;
    return handle(request, reply, isKeyShaped(key) ? key : undefined);
  });
  for (const url of ['/v1/mcp', '/v1/mcp/:apiKey']) app.route({ method: ['GET', 'DELETE'], url, handler: methodNotAllowed });
}
