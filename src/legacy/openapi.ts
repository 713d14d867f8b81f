/** The legacy paths in OpenAPI: their bodies, the flat envelope and errors, and the endpoint each body is priced as. */
import type { Catalogue } from '../catalogue/catalogue.js';
import { ERRORS } from '../errors.js';
import type { LegacyPath } from './types.js';

const flatError = {
  type: 'object',
  required: ['success', 'code', 'error', 'details'],
  properties: {
    success: { const: false },
    code: { type: 'string', enum: [...new Set(Object.values(ERRORS).map((e) => e.legacy))] },
    error: { type: 'string' },
    details: { type: 'null' },
  },
};

const flatEnvelope = {
  type: 'object',
  required: ['success', 'requestId', 'cacheState', 'creditsUsed', 'creditsRemaining', 'data'],
  properties: {
    success: { const: true },
    requestId: { type: 'string' },
    cacheState: { type: 'string', enum: ['hit', 'miss'] },
    creditsUsed: { type: 'number' },
    creditsRemaining: { type: 'number', description: "the account's balance after the call" },
    data: { type: 'object' },
  },
};

export function legacyOpenApiPaths(paths: readonly LegacyPath[], catalogue: Catalogue): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of paths) {
    const priced = p.endpoints.map((id) => catalogue.get(id)!.def);
    out[`/v1/${p.name}`] = {
      post: {
        operationId: `legacy.${p.name}`,
        summary: `Legacy /v1/${p.name}`,
        description: `${p.summary} Legacy convention (flat envelope and errors); priced like ${p.endpoints.join(', ')}.`,
        tags: ['legacy'],
        'x-credits': Math.min(...priced.map((d) => d.credits)),
        'x-legacy-of': p.endpoints,
        security: [{ bearer: [] }],
        requestBody: { required: true, content: { 'application/json': { schema: p.input } } },
        responses: {
          '200': { description: 'Flat success envelope', content: { 'application/json': { schema: flatEnvelope } } },
          '4XX': { description: 'Flat error: INVALID_INPUT 400, UNAUTHORIZED 401, INSUFFICIENT_CREDITS 402, NOT_FOUND 404, RATE_LIMITED 429', content: { 'application/json': { schema: flatError } } },
          '5XX': { description: 'Flat error: UPSTREAM_ERROR 502 (the source failed, timed out or changed)', content: { 'application/json': { schema: flatError } } },
        },
      },
    };
  }
  return out;
}
