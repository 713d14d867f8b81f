/** OpenAPI 3.1 generated from the catalogue: one operation per endpoint, `x-credits` on each. */
import type { Catalogue } from './catalogue.js';
import { ERRORS } from '../errors.js';

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

export function openApiDocument(catalogue: Catalogue, baseUrl: string): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const e of catalogue.endpoints) {
    const { def } = e;
    paths[e.path] = {
      post: {
        operationId: def.id,
        summary: def.title,
        description: def.summary,
        tags: [e.source],
        'x-credits': def.credits,
        'x-keyless': def.keyless,
        'x-per-items': def.perItems,
        'x-cache-ttl-seconds': def.cacheTtlSeconds,
        ...(e.unavailable ? { 'x-available': false } : {}),
        security: def.keyless ? [{ bearer: [] }, {}] : [{ bearer: [] }],
        parameters: [
          { name: 'maxTextLength', in: 'query', required: false, schema: { type: 'integer', minimum: 1 } },
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
              'x-cache': { schema: { type: 'string', enum: ['hit', 'miss'] } },
              'x-cache-age': int,
            },
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['success', 'data', 'creditsUsed', 'requestId'],
                  properties: {
                    success: { const: true },
                    data: { type: 'object' },
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
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}
