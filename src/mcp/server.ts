/**
 * One low-level MCP `Server` per HTTP request (stateless transport): it knows the caller already (the transport
 * authenticated the key), answers tools/list from the prebuilt tool set and runs each tool call through the same
 * pipeline as REST (admit → runCall), flat-priced at 1 credit and recorded with channel `mcp`.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { toQuarryError } from '../errors.js';
import { admit, runCall, type CallState } from '../pipeline/call.js';
import type { GatewayDeps } from '../pipeline/deps.js';
import type { Principal } from '../identity/principal.js';
import { checkRate, rateLimitedError } from '../pipeline/limits.js';
import { toolError, toolSuccess } from './results.js';
import { CREDITS_TOOL, MCP_PRICE, QUOTE_TOOL, type ToolSet } from './tools.js';
import { quoteCall } from '../pipeline/quote.js';
import { QuarryError } from '../errors.js';

const SERVER_INFO = { name: 'quarry', version: '1' };
const INSTRUCTIONS =
  'Quarry returns structured data from public web sources. Every tool costs 1 credit per successful call ' +
  '(failed calls are free); the `credits` tool is free and tells the remaining balance.';

/** What one HTTP request knows about its caller. */
export interface McpRequestContext {
  principal: Principal;
  /** The caller's key as a Bearer header, for `admit` (which re-checks it, so a key revoked mid-request stops). */
  authorization: string;
  clientAddress: () => string;
  /** A fresh id per tool call: it keys the reservation and the log entry. */
  nextCallId: () => string;
  /** The HTTP request id, for log lines. */
  httpRequestId: string;
  /** The HTTP request's state: its first tool call's endpoint, tags and outcome go to the request log from there. */
  httpState?: CallState;
}

async function creditsResult(deps: GatewayDeps, ctx: McpRequestContext, callId: string): Promise<CallToolResult> {
  // Free, but still counted against the key's window: a polling loop must not be an unmetered path to the store.
  const rate = await checkRate(deps, ctx.principal, ctx.clientAddress);
  if (!rate.allowed) return toolError(rateLimitedError(rate), callId);
  const account = await deps.store.getAccount(ctx.principal.accountId);
  const balance = account?.balance ?? 0;
  const data: Record<string, unknown> = { balance };
  if (ctx.principal.test) data.testMode = true; // test-mode calls report prices but never touch the balance
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
}

async function quoteResult(deps: GatewayDeps, tools: ToolSet, ctx: McpRequestContext, callId: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const rate = await checkRate(deps, ctx.principal, ctx.clientAddress);
  if (!rate.allowed) return toolError(rateLimitedError(rate), callId);
  const endpoint = typeof args.tool === 'string' ? tools.endpointFor(args.tool) : undefined;
  if (!endpoint) return toolError(new QuarryError('invalidRequest', 'tool: required, the name of a listed data tool.'), callId);
  const input = (args.arguments ?? {}) as Record<string, unknown>;
  const data = { ...(await quoteCall(deps, ctx.principal, endpoint, structuredClone(input), MCP_PRICE)), tool: args.tool };
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data as unknown as Record<string, unknown> };
}

export function createMcpServer(deps: GatewayDeps, tools: ToolSet, ctx: McpRequestContext): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...tools.list] }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const name = request.params.name;
    const callId = ctx.nextCallId();
    const endpoint = tools.endpointFor(name);
    try {
      if (name === CREDITS_TOOL) return await creditsResult(deps, ctx, callId);
      if (name === QUOTE_TOOL) return await quoteResult(deps, tools, ctx, callId, (request.params.arguments ?? {}) as Record<string, unknown>);
      // An unknown tool is a protocol error (MCP spec), not a tool error: the agent called something never listed.
      if (!endpoint) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
      const state: CallState = { requestId: callId, channel: 'mcp', fixedPrice: MCP_PRICE };
      if (ctx.httpState && callId === ctx.httpRequestId) ctx.httpState.endpointId = endpoint.def.id;
      await admit(deps, endpoint, { authorization: ctx.authorization, clientAddress: ctx.clientAddress }, state);
      const call = await runCall(deps, endpoint, { body: request.params.arguments ?? {}, clientAddress: ctx.clientAddress }, state);
      if (ctx.httpState && callId === ctx.httpRequestId) Object.assign(ctx.httpState, { tags: state.tags, outcome: state.outcome });
      return toolSuccess(endpoint, call, callId);
    } catch (e) {
      if (e instanceof McpError) throw e;
      const err = toQuarryError(e);
      if (ctx.httpState && callId === ctx.httpRequestId && endpoint) ctx.httpState.error = { code: err.code, message: err.message };
      if (err.code === 'internalError') deps.log.error({ reqId: ctx.httpRequestId, callId, tool: name, err: e }, 'MCP tool call failed');
      return toolError(err, callId);
    }
  });

  return server;
}
