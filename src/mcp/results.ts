/**
 * Pipeline outcomes as MCP tool results. Successes carry the record twice (JSON text for clients that only read
 * `content`, `structuredContent` for those that read structure); errors are tool errors (`isError: true`) rather
 * than protocol errors, so the agent sees the code and can react (top up, retry later, fix an argument).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogueEndpoint } from '../catalogue/catalogue.js';
import { errorEnvelope, type QuarryError } from '../errors.js';
import type { CallResult } from '../pipeline/call.js';
import { renderMarkdown } from '../render/markdown.js';

/**
 * Markdown is added only where it reads better than JSON: records that carry a document body (`markdown`, e.g.
 * parse). For lists of posts or quotes the JSON is as readable to a model, and a second copy would double the
 * tokens every call costs the agent.
 */
export function wantsMarkdownPart(data: Record<string, unknown>): boolean {
  return typeof data.markdown === 'string' && data.markdown.length > 0;
}

export function toolSuccess(endpoint: CatalogueEndpoint, call: CallResult, callId: string): CallToolResult {
  const data = call.result.data;
  const content: CallToolResult['content'] = [{ type: 'text', text: call.result.json }];
  if (wantsMarkdownPart(data)) content.push({ type: 'text', text: renderMarkdown(endpoint.def.title, data) });
  return {
    content,
    structuredContent: data,
    // What REST sends as headers: the call id (the log entry's id), the price and where the answer came from.
    _meta: {
      requestId: callId,
      creditsUsed: call.creditsUsed,
      cache: call.cache,
      cacheAgeSeconds: call.ageSeconds,
      ...(call.testMode ? { testMode: call.testMode } : {}),
    },
  };
}

/** Structured part = the REST error object (errors.ts), so REST and MCP clients read the same fields. */
export function toolError(err: QuarryError, callId: string): CallToolResult {
  const { error } = errorEnvelope(err, callId) as { error: Record<string, unknown> };
  return {
    isError: true,
    content: [{ type: 'text', text: `${err.code}: ${err.message}` }],
    structuredContent: error,
  };
}
