/**
 * `GET /openapi.json`: the whole document, from one generator (src/openapi/generator.ts) and four parts: the
 * catalogue's data endpoints (src/catalogue/openapi.ts), the gateway's own routes declared here (catalogue, quotes,
 * the archive, usage, logs, the request log, MCP, health and the pages), the legacy paths (src/legacy/openapi.ts) and
 * the account side (src/identity/openapi.ts). test/gateway/openapi.test.ts checks that every route the server registers
 * is in it.
 */
import { accountSideOpenApi } from '../identity/openapi.js';
import { API_KEY_PATTERN } from '../identity/key-format.js';
import { catalogueOpenApi } from '../catalogue/openapi.js';
import { legacyOpenApi } from '../legacy/openapi.js';
import type { LegacyPath } from '../legacy/types.js';
import {
  ERROR_ENVELOPE,
  FLAT_ERROR,
  arrayOf,
  bool,
  envelope,
  int,
  obj,
  openApiDocument,
  str,
  type Answer,
  type OperationSpec,
  type Param,
  type Part,
  type PathSpecs,
} from '../openapi/generator.js';
import { MCP_PRICE } from '../mcp/tools.js';
import { LOGS_A, LOGS_A_PARAMS, LOGS_B, REQUEST_ID_PARAM, REQUEST_LOG_ENTRY, REQUEST_LOG_PAGE, REQUEST_LOG_PARAMS, USAGE, USAGE_PARAMS } from '../openapi/records.js';
import type { GatewayDeps } from '../pipeline/deps.js';

const ENVELOPE_5XX: Record<string, Answer> = { '5XX': { description: 'Error envelope', json: ERROR_ENVELOPE } };

/** SPEC.md "Catalogue entry", plus whether this server serves it (Catalogue.publicEntry). */
const CATALOGUE_ENTRY = obj(
  {
    id: str,
    title: str,
    summary: str,
    method: { const: 'POST' },
    path: str,
    credits: int,
    keyless: bool,
    perItems: { type: ['integer', 'null'] },
    cacheTtlSeconds: int,
    input: { type: 'object', description: 'the JSON Schema of the body' },
    example: { description: 'a valid body, or null' },
    available: bool,
    unavailableReason: str,
  },
  ['id', 'title', 'summary', 'method', 'path', 'credits', 'keyless', 'perItems', 'cacheTtlSeconds', 'input', 'example', 'available'],
);

const QUOTE = obj({
  endpoint: str,
  minCredits: int,
  maxCredits: int,
  cache: obj({ wouldAnswer: bool, ageSeconds: { type: ['integer', 'null'] }, credits: { type: ['integer', 'null'] } }),
  balance: int,
  budgets: arrayOf(obj({ id: str, scope: str, target: str, period: str, remainingCredits: int, resetsAt: str })),
  canPay: bool,
  testMode: bool,
});

const SOURCE_HEALTH = obj({ calls: int, successes: int, errors: { type: 'object', additionalProperties: int }, latencyMs: { type: ['object', 'null'], properties: { p50: int, p95: int } }, drift: int });

const SOURCES = obj({
  sources: arrayOf(
    obj({
      id: str,
      enabled: bool,
      reason: str,
      endpoints: arrayOf(obj({ id: str, available: bool })),
      needs: obj({
        settings: arrayOf(obj({ name: str, required: bool, set: bool, purpose: str })),
        network: arrayOf(str),
        proxy: str,
        proxySet: bool,
      }),
      lastHour: SOURCE_HEALTH,
      lastDay: SOURCE_HEALTH,
    }),
  ),
  canary: obj({ enabled: bool, intervalSeconds: int }),
});

/** A JSON-RPC 2.0 message of MCP's streamable-HTTP transport. */
const JSON_RPC_REQUEST = {
  type: 'object',
  required: ['jsonrpc', 'method'],
  properties: {
    jsonrpc: { const: '2.0' },
    id: { type: ['string', 'integer'], description: 'absent on a notification' },
    method: { type: 'string', examples: ['initialize', 'tools/list', 'tools/call'] },
    params: { type: 'object' },
  },
};
const JSON_RPC_ERROR = obj(
  { jsonrpc: { const: '2.0' }, id: { type: ['string', 'integer', 'null'] }, error: obj({ code: int, message: str, data: {} }, ['code', 'message']) },
  ['jsonrpc', 'error'],
);
const JSON_RPC_RESPONSE = {
  type: 'object',
  required: ['jsonrpc'],
  properties: {
    jsonrpc: { const: '2.0' },
    id: { type: ['string', 'integer', 'null'] },
    result: { type: 'object', description: "a tool's result carries its record as structuredContent, its price in _meta" },
    error: obj({ code: int, message: str, data: {} }, ['code', 'message']),
  },
};

function mcpOperation(id: string, pathKey: boolean): OperationSpec {
  return {
    id,
    summary: pathKey ? 'MCP with the key in the path' : 'MCP (streamable HTTP)',
    description: [
      "The Model Context Protocol's streamable-HTTP transport, stateless: one tool per endpoint this server serves, plus the",
      'free credits and quote tools. Send `Accept: application/json, text/event-stream`; answers are JSON, never a stream.',
      `initialize and tools/list are free; a data tool's call costs ${MCP_PRICE} credit (x-credits-per-tool-call), whatever its`,
      "endpoint's REST price; failed calls are not billed. GET and DELETE answer 405.",
      pathKey ? 'The key in the path appears in logs and Referer headers: prefer POST /v1/mcp with a Bearer key.' : '',
    ]
      .filter(Boolean)
      .join(' '),
    tag: 'mcp',
    credits: 0,
    extensions: { 'x-credits-per-tool-call': MCP_PRICE },
    security: pathKey ? 'none' : 'key',
    params: pathKey ? [{ name: 'apiKey', in: 'path', schema: { type: 'string', pattern: API_KEY_PATTERN }, description: 'an API key' }] : [],
    body: { schema: JSON_RPC_REQUEST, example: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
    answers: {
      '200': { description: 'JSON-RPC response', json: JSON_RPC_RESPONSE },
      '202': { description: 'A notification or response was accepted (no body)' },
    },
    failures: {
      '4XX': {
        description: 'A missing or invalid key, or a body past the size or depth rules: flat error (legacy convention); what the MCP SDK refuses (Accept, Content-Type, unparseable JSON): JSON-RPC error',
        json: { oneOf: [FLAT_ERROR, JSON_RPC_ERROR] },
      },
      '5XX': { description: 'JSON-RPC error', json: JSON_RPC_ERROR },
    },
  };
}

const page = (description: string, type = 'text/html'): Answer => ({ description, content: { [type]: { type: 'string' } } });
const redirect = (description: string): Answer => ({ description, headers: { Location: { schema: { type: 'string' } } } });
const keyParam: Param = { name: 'apiKeyId', in: 'query', schema: str, description: 'only this key' };

const GATEWAY: PathSpecs = {
  '/v1/catalogue': {
    get: {
      id: 'catalogue',
      summary: 'The catalogue',
      description: 'No key (one is accepted; nothing is billed). Every endpoint, those this server serves first, with its price, input schema and example.',
      tag: 'catalogue',
      credits: 0,
      security: 'none',
      answers: { '200': { description: 'The catalogue', json: envelope(obj({ endpoints: arrayOf(CATALOGUE_ENTRY) }, ['endpoints'])) } },
      failures: ENVELOPE_5XX,
    },
  },
  '/openapi.json': {
    get: {
      id: 'openapi',
      summary: 'This document',
      description: 'No key. OpenAPI 3.1: every route of this server.',
      tag: 'catalogue',
      credits: 0,
      security: 'none',
      answers: { '200': { description: 'The OpenAPI document', json: { type: 'object', required: ['openapi', 'info', 'paths'] } } },
      failures: ENVELOPE_5XX,
    },
  },
  '/v1/quote': {
    post: {
      id: 'quote',
      summary: 'Quote a call',
      description:
        'Free; needs a key. The lowest and highest price of a call, whether the cache would answer it and how old that result is, and whether the balance and the budgets that apply can pay.',
      tag: 'calls',
      credits: 0,
      security: 'key',
      body: {
        schema: {
          type: 'object',
          required: ['endpoint'],
          properties: { endpoint: { type: 'string' }, input: { type: 'object' } },
          additionalProperties: false,
        },
        example: { endpoint: 'reddit.subforum', input: { subforum: 'golang' } },
      },
      answers: { '200': { description: 'The quote', json: envelope(QUOTE) } },
      failures: 'envelope',
    },
  },
  '/v1/requests/{requestId}': {
    get: {
      id: 'archivedRequest',
      summary: 'A past answer',
      description:
        "Free; needs a key of the same account. The success envelope of one of the account's paid calls, exactly as it was answered, for QUARRY_ARCHIVE_DAYS (default 7) days.",
      tag: 'calls',
      credits: 0,
      security: 'key',
      params: [REQUEST_ID_PARAM],
      answers: { '200': { description: 'The stored success envelope', json: envelope({ type: 'object' }) } },
      failures: 'envelope',
    },
  },
  '/v1/usage': {
    get: {
      id: 'usage',
      summary: 'Usage',
      description:
        "Free; needs a key. The account's calls and credits per endpoint, day and tag over `days`, live and test keys apart, and its budgets of the current periods.",
      tag: 'calls',
      credits: 0,
      security: 'key',
      params: USAGE_PARAMS,
      answers: { '200': { description: 'Usage totals', json: envelope(USAGE) } },
      failures: 'envelope',
    },
  },
  '/v1/logs': {
    get: {
      id: 'logs',
      summary: 'Paid calls (two variants)',
      description: [
        "Free; needs a key. The account's paid calls, newest first, 50 a page.",
        'Variant A (the default): `days` 1-90, `endpoint` an endpoint id, `apiKeyId`, `tag`; answered unwrapped, errors as the error envelope.',
        'Variant B, when `days` is `today` or `endpoint` starts with `/`: `days` today, 7 or 30, `endpoint` a path such as /video; answered',
        'as `{success, requestId, data}`, errors flat (legacy convention).',
      ].join(' '),
      tag: 'calls',
      credits: 0,
      security: 'key',
      params: [
        {
          name: 'days',
          in: 'query',
          schema: { anyOf: [{ type: 'integer', minimum: 1, maximum: 90 }, { type: 'string', enum: ['today'] }], default: 7 },
          description: 'variant A: 1-90; variant B: today, 7 or 30',
        },
        { name: 'page', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
        { name: 'endpoint', in: 'query', schema: str, description: 'variant A: an endpoint id such as web.search; variant B: a path such as /web/search' },
        keyParam,
        ...LOGS_A_PARAMS.filter((p) => p.name === 'tag'),
      ],
      answers: { '200': { description: 'Variant A, or variant B', json: { oneOf: [LOGS_A, LOGS_B] } } },
      failures: {
        '4XX': { description: 'Variant A: error envelope; variant B: flat error', json: { oneOf: [ERROR_ENVELOPE, FLAT_ERROR] } },
        '5XX': { description: 'Error envelope', json: ERROR_ENVELOPE },
      },
    },
  },
  '/v1/request-log': {
    get: {
      id: 'requestLog',
      summary: 'The request log',
      description:
        "Free; needs a key. Every call of the account's keys, failed ones included (status, error, real duration, key, tags), newest first, 50 a page, for QUARRY_REQUEST_LOG_DAYS (default 30) days.",
      tag: 'calls',
      credits: 0,
      security: 'key',
      params: REQUEST_LOG_PARAMS,
      answers: { '200': { description: 'A page of the request log', json: envelope(REQUEST_LOG_PAGE) } },
      failures: 'envelope',
    },
  },
  '/v1/request-log/{requestId}': {
    get: {
      id: 'requestLog.show',
      summary: 'One request of the request log',
      description: "Free; needs a key of the same account. One entry, and where a paid call's answer can be fetched again (answerUrl).",
      tag: 'calls',
      credits: 0,
      security: 'key',
      params: [REQUEST_ID_PARAM],
      answers: { '200': { description: 'The entry', json: envelope(REQUEST_LOG_ENTRY) } },
      failures: 'envelope',
    },
  },
  '/v1/mcp': { post: mcpOperation('mcp', false) },
  '/v1/mcp/{apiKey}': { post: mcpOperation('mcp.pathKey', true) },
  '/v1/sources': {
    get: {
      id: 'sources',
      summary: 'Source health',
      description:
        'No key. Each source: whether it is served, what it needs (settings, network, proxy), and over the last hour and day its calls, successes, errors by code, p50/p95 upstream latency and format drift.',
      tag: 'health',
      credits: 0,
      security: 'none',
      answers: { '200': { description: 'Sources', json: envelope(SOURCES) } },
      failures: 'envelope',
    },
  },
  '/healthz': {
    get: {
      id: 'healthz',
      summary: 'Liveness',
      description: 'No key. The process answers.',
      tag: 'health',
      credits: 0,
      security: 'none',
      answers: { '200': { description: 'Alive', json: obj({ status: { const: 'ok' } }, ['status']) } },
      failures: ENVELOPE_5XX,
    },
  },
  '/readyz': {
    get: {
      id: 'readyz',
      summary: 'Readiness',
      description: 'No key. The process and its storage answer (load balancers route on it).',
      tag: 'health',
      credits: 0,
      security: 'none',
      answers: { '200': { description: 'Ready', json: obj({ status: { const: 'ready' } }, ['status']) } },
      failures: { '503': { description: 'Storage does not answer', json: obj({ status: { const: 'unavailable' }, reason: str }, ['status', 'reason']) } },
    },
  },
  '/': {
    get: {
      id: 'home',
      summary: 'Where things are',
      description: 'No key. An API client gets the addresses that matter; a browser (Accept: text/html) is sent to the dashboard.',
      tag: 'pages',
      credits: 0,
      security: 'none',
      answers: {
        '200': {
          description: 'The addresses',
          json: envelope(obj({ name: str, catalogue: str, openapi: str, dashboard: str, mcp: str, billing: str }), false),
        },
        '302': redirect('To /dashboard/, for a browser'),
      },
      failures: ENVELOPE_5XX,
    },
  },
  '/billing': {
    get: {
      id: 'billing',
      summary: 'How credits are had on this server',
      description:
        "No key. The page billingUrl leads to by default: the operator's QUARRY_BILLING_NOTE, or how credits are added on a self-hosted server. JSON when asked for (Accept: application/json).",
      tag: 'pages',
      credits: 0,
      security: 'none',
      answers: {
        '200': {
          description: 'The page, or its note as JSON',
          content: { 'text/html': { type: 'string' } },
          json: envelope(obj({ note: str, configured: bool }), false),
        },
      },
      failures: ENVELOPE_5XX,
    },
  },
  '/dashboard': {
    get: {
      id: 'dashboard.redirect',
      summary: 'The dashboard (redirect)',
      description: 'No key. Sends the browser to /dashboard/, keeping the query.',
      tag: 'pages',
      credits: 0,
      security: 'none',
      answers: { '308': redirect('To /dashboard/') },
      failures: ENVELOPE_5XX,
    },
  },
  '/dashboard/': {
    get: {
      id: 'dashboard',
      summary: 'The dashboard',
      description: 'No key (it signs in with a session). The single-page app for people: account, keys, usage, logs, budgets, the catalogue.',
      tag: 'pages',
      credits: 0,
      security: 'none',
      answers: { '200': page('The app'), '304': { description: 'Not modified (If-None-Match)' } },
      failures: ENVELOPE_5XX,
    },
  },
  '/dashboard/{path}': {
    get: {
      id: 'dashboard.file',
      summary: 'A file or page of the dashboard',
      description: 'No key. A file of the app (scripts, styles, icons), or the app itself for a page address (letters, digits, -, _ and /).',
      tag: 'pages',
      credits: 0,
      security: 'none',
      params: [{ name: 'path', in: 'path', schema: { type: 'string' }, description: 'the rest of the address; may hold several segments' }],
      answers: {
        '200': {
          description: 'The file',
          content: { 'text/html': { type: 'string' }, 'text/css': { type: 'string' }, 'text/javascript': { type: 'string' }, 'image/svg+xml': { type: 'string' } },
        },
        '304': { description: 'Not modified (If-None-Match)' },
      },
      failures: { '404': { description: 'No such file', json: ERROR_ENVELOPE }, ...ENVELOPE_5XX },
    },
  },
};

const GATEWAY_TAGS: Part['tags'] = [
  { name: 'catalogue', description: 'What this server offers: the catalogue of endpoints and this document. Free, no key.' },
  { name: 'calls', description: "Quotes, past answers, usage, logs and the request log of a key's account. Free; need a key." },
  { name: 'mcp', description: `The Model Context Protocol: every served endpoint as a tool, ${MCP_PRICE} credit a call.` },
  { name: 'health', description: 'Liveness, readiness and the health of each source. Free, no key.' },
  { name: 'pages', description: 'For people and browsers: the front door, the dashboard and the credits page. Free, no key.' },
];

export function gatewayOpenApi(): Part {
  return { tags: GATEWAY_TAGS, paths: GATEWAY };
}

/** The served document: the catalogue's endpoints, the gateway's routes, the legacy paths, the account side. */
export function quarryOpenApi(deps: GatewayDeps, legacyPaths: readonly LegacyPath[]): Record<string, unknown> {
  return openApiDocument({
    baseUrl: deps.config.baseUrl,
    contactUrl: deps.config.billingUrl,
    parts: [catalogueOpenApi(deps.catalogue), gatewayOpenApi(), legacyOpenApi(legacyPaths, deps.catalogue), accountSideOpenApi()],
  });
}

