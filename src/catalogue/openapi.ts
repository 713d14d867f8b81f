/** OpenAPI 3.1 generated from the catalogue: one operation per endpoint, `x-credits` on each. */
import type { Catalogue } from './catalogue.js';
import { ERRORS } from '../errors.js';
import { ACCOUNT_SIDE_SECURITY_SCHEMES, accountSidePaths } from '../auth/openapi.js';

const errorSchema = {
  type: 'object',
  required: ['success', 'error'],
  properties: {
    success: { const: false },
    error: {
      type: 'object',
      required: ['code', 'message', 'retryable', 'requestId'],
      properties: {
        code: { type: 'string', enum: Object.keys(ERRORS) },
        message: { type: 'string' },
        retryable: { type: 'boolean' },
        requestId: { type: 'string' },
        retryAfterSeconds: { type: 'integer' },
        requiredCredits: { type: 'number' },
        availableCredits: { type: 'number' },
        billingUrl: { type: 'string' },
      },
    },
  },
};

const int = { schema: { type: 'integer' } };

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Any 1-255 printable characters. Within 24 hours, the same key with the same body from the same API key replays the stored response (marked Idempotent-Replayed: true) and charges nothing; with a different body it is a 400. A duplicate that arrives while the first runs waits up to 2 s for it, then gets 409 idempotencyKeyInUse (retryable, Retry-After: 1). Retryable failures are not kept, so a retry runs again.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

const CACHE_CONTROL = {
  name: 'Cache-Control',
  in: 'header',
  required: false,
  description:
    '`only-if-cached`: answer from the cache or fail with sourceUnavailable (not retryable, not billed) without calling the source. `stale-if-error=N` (RFC 5861): when the live fetch fails with a source* error, answer a cached result up to N seconds old, with x-cache: stale.',
  schema: { type: 'string', examples: ['only-if-cached', 'stale-if-error=3600'] },
};

const envelope = (data: Record<string, unknown>) => ({
  type: 'object',
  required: ['success', 'data', 'creditsUsed', 'requestId'],
  properties: { success: { const: true }, data, creditsUsed: { type: 'integer' }, requestId: { type: 'string' } },
});

const errors = {
  '4XX': { description: 'Error envelope', content: { 'application/json': { schema: errorSchema } } },
  '5XX': { description: 'Error envelope', content: { 'application/json': { schema: errorSchema } } },
};

const ok = (description: string, data: Record<string, unknown>) => ({
  '200': { description, content: { 'application/json': { schema: envelope(data) } } },
  ...errors,
});

/** The gateway's own routes beside the catalogue's: quotes, the result archive and source health. */
function gatewayPaths(): Record<string, unknown> {
  return {
    '/v1/quote': {
      post: {
        operationId: 'quote',
        summary: 'Quote a call',
        description:
          'Free; needs a key. The lowest and highest price of a call, whether the cache would answer it and how old that result is, and whether the balance and the budgets that apply can pay.',
        security: [{ bearer: [] }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['endpoint'],
                properties: { endpoint: { type: 'string' }, input: { type: 'object' } },
                additionalProperties: false,
              },
              example: { endpoint: 'reddit.subforum', input: { subforum: 'golang' } },
            },
          },
        },
        responses: ok('The quote', {
          type: 'object',
          properties: {
            endpoint: { type: 'string' },
            minCredits: { type: 'integer' },
            maxCredits: { type: 'integer' },
            cache: { type: 'object', properties: { wouldAnswer: { type: 'boolean' }, ageSeconds: { type: ['integer', 'null'] }, credits: { type: ['integer', 'null'] } } },
            balance: { type: 'integer' },
            budgets: { type: 'array', items: { type: 'object' } },
            canPay: { type: 'boolean' },
            testMode: { type: 'boolean' },
          },
        }),
      },
    },
    '/v1/requests/{requestId}': {
      get: {
        operationId: 'archivedRequest',
        summary: 'A past answer',
        description:
          "Free; needs a key of the same account. The success envelope of one of the account's paid calls, exactly as it was answered, for QUARRY_ARCHIVE_DAYS (default 7) days.",
        security: [{ bearer: [] }],
        parameters: [{ name: 'requestId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: ok('The stored success envelope', { type: 'object' }),
      },
    },
    '/v1/sources': {
      get: {
        operationId: 'sources',
        summary: 'Source health',
        description:
          'No key. Each source: whether it is served, what it needs (settings, network, proxy), and over the last hour and day its calls, successes, errors by code, p50/p95 upstream latency and format drift.',
        security: [{}],
        responses: ok('Sources', { type: 'object', properties: { sources: { type: 'array', items: { type: 'object' } }, canary: { type: 'object' } } }),
      },
    },
  };
}

/** `extraPaths`: routes declared beside the catalogue (the legacy paths, src/legacy/openapi.ts). */
export function openApiDocument(catalogue: Catalogue, baseUrl: string, extraPaths: Record<string, unknown> = {}): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const e of catalogue.listed()) {
    const { def } = e;
    paths[e.path] = {
      post: {
        operationId: def.id,
        // What this server does not serve says so where a reader looks first (issue 38.6).
        summary: e.unavailable ? `${def.title} (not served here)` : def.title,
        description: e.unavailable ? `Not served on this server: ${e.unavailableReason ?? 'unavailable'} ${def.summary}` : def.summary,
        tags: [e.source],
        'x-credits': def.credits,
        'x-keyless': def.keyless,
        'x-per-items': def.perItems,
        'x-cache-ttl-seconds': def.cacheTtlSeconds,
        ...(e.unavailable ? { 'x-available': false } : {}),
        security: def.keyless ? [{ bearer: [] }, {}] : [{ bearer: [] }],
        parameters: [
          { name: 'maxTextLength', in: 'query', required: false, schema: { type: 'integer', minimum: 1 } },
          IDEMPOTENCY_KEY,
          CACHE_CONTROL,
        ],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: def.input, ...(def.example ? { example: def.example } : {}) } },
        },
        responses: {
          '200': {
            description: 'Success envelope',
            headers: {
              'X-Request-ID': { schema: { type: 'string' } },
              'x-credits-used': int,
              'X-RateLimit-Limit': int,
              'X-RateLimit-Remaining': int,
              'X-RateLimit-Reset': int,
              'x-cache': {
                description: '`stale` when Cache-Control: stale-if-error answered a cached result because the source failed',
                schema: { type: 'string', enum: ['hit', 'miss', 'stale'] },
              },
              'x-cache-age': int,
              'Idempotent-Replayed': { description: '`true` on a replay of a stored response (nothing charged)', schema: { type: 'string' } },
            },
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['success', 'data', 'creditsUsed', 'requestId'],
                  properties: {
                    success: { const: true },
                    data: def.output ?? { type: 'object' },
                    creditsUsed: { type: 'integer' },
                    requestId: { type: 'string' },
                  },
                },
              },
              'text/markdown': { schema: { type: 'string' } },
            },
          },
          '4XX': { description: 'Error envelope', content: { 'application/json': { schema: errorSchema } } },
          '5XX': { description: 'Error envelope', content: { 'application/json': { schema: errorSchema } } },
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Quarry', version: '1', description: 'Structured data from public web sources, and documents to markdown.' },
    servers: [{ url: baseUrl }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, ...ACCOUNT_SIDE_SECURITY_SCHEMES } },
    // The account side (sign-in, keys, CLI login): static declarations next to its routes' schemas.
    paths: { ...paths, ...gatewayPaths(), ...extraPaths, ...accountSidePaths(errorSchema) },
  };
}
