/**
 * The MCP tool list, generated once from the catalogue: one tool per endpoint this server can serve, plus the free
 * `credits` tool. Nothing here names an endpoint, so a new source shows up as tools without touching this folder.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Catalogue, CatalogueEndpoint } from '../catalogue/catalogue.js';
import { ERROR_OBJECT_PROPERTIES } from '../errors.js';

/** Every data tool costs this much, whatever the endpoint's REST price (SPEC.md "MCP transport"). */
export const MCP_PRICE = 1;

export const CREDITS_TOOL = 'credits';
export const QUOTE_TOOL = 'quote';

/** MCP tool names allow [A-Za-z0-9_-] (and `.` only in newer revisions), so `reddit.subforum` → `reddit_subforum`. */
export function toolName(endpointId: string): string {
  return endpointId.replace(/\./g, '_');
}

export interface ToolSet {
  /** What tools/list answers; built once, shared by every request. */
  readonly list: readonly Tool[];
  /** The endpoint behind a data tool; undefined for `credits` and unknown names. */
  endpointFor(name: string): CatalogueEndpoint | undefined;
}

const creditsTool: Tool = {
  name: CREDITS_TOOL,
  title: 'Credit balance',
  description: "Returns this API key's account credit balance. Free: costs nothing and is not listed in the call logs.",
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
};

function quoteTool(names: string[]): Tool {
  return {
    name: QUOTE_TOOL,
    title: 'Quote a call',
    description:
      'Free. Tells what calling a tool with these arguments would cost (1 credit via MCP, 0 when nothing is returned), whether a cached result would answer it and how old that is, and whether the balance and budgets can pay.',
    inputSchema: {
      type: 'object',
      properties: {
        tool: { type: 'string', enum: names, description: 'the tool to quote' },
        arguments: { type: 'object', description: 'the arguments the call would send' },
      },
      required: ['tool'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  };
}

/** The REST error object a failed tool call carries as structuredContent (src/mcp/results.ts `toolError`). */
const TOOL_ERROR_SCHEMA = {
  type: 'object',
  properties: ERROR_OBJECT_PROPERTIES,
  required: ['code', 'message', 'retryable'],
};

/** A schema with every `required` list dropped: answers leave out empty values (SPEC.md), so no field is certain. */
function allOptional(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(allOptional);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) if (k !== 'required') out[k] = allOptional(v);
  return out;
}

/**
 * The record the tool answers as structuredContent (issue 38.9): the catalogue's output schema, its fields optional,
 * or the error object of a failed call (the SDK's client validates structuredContent of errors too).
 */
export function toolOutputSchema(e: CatalogueEndpoint): Tool['outputSchema'] | undefined {
  const output = e.def.output as { type?: unknown } | undefined;
  if (!output || output.type !== 'object') return undefined;
  return { type: 'object', anyOf: [allOptional(output), TOOL_ERROR_SCHEMA] } as Tool['outputSchema'];
}

function dataTool(e: CatalogueEndpoint): Tool {
  const outputSchema = toolOutputSchema(e);
  return {
    name: toolName(e.def.id),
    title: e.def.title,
    description: `${e.def.summary} Price: ${MCP_PRICE} credit per call via MCP; failed calls are not billed.`,
    // The endpoint's own schema, whole: it is what validates the arguments, so the agent sees exactly the rules
    // that apply (tags and maxAge included: both are meaningful to an agent).
    inputSchema: e.def.input as Tool['inputSchema'],
    ...(outputSchema ? { outputSchema } : {}),
    annotations: { title: e.def.title, readOnlyHint: true, openWorldHint: true },
  };
}

export function buildToolSet(catalogue: Catalogue): ToolSet {
  const byName = new Map<string, CatalogueEndpoint>();
  for (const e of catalogue.endpoints) {
    if (e.unavailable !== undefined) continue; // tools = what this server can serve right now
    const name = toolName(e.def.id);
    // Two ids that differ only by `.` vs `_` would shadow each other: refuse to start rather than misroute calls.
    if (byName.has(name) || name === CREDITS_TOOL || name === QUOTE_TOOL) throw new Error(`MCP tool name collision: ${name}`);
    byName.set(name, e);
  }
  const list = [...[...byName.values()].map(dataTool), creditsTool, quoteTool([...byName.keys()])];
  return { list, endpointFor: (name) => byName.get(name) };
}
