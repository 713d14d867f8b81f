/**
 * The legacy paths' part of OpenAPI: their bodies, the flat envelope and errors, and the endpoint each body is priced
 * as. Built into the document by the one generator (src/openapi/generator.ts).
 */
import type { Catalogue } from '../catalogue/catalogue.js';
import { FLAT_ERROR, type Part, type PathSpecs } from '../openapi/generator.js';
import type { LegacyPath } from './types.js';

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

export function legacyOpenApi(legacyPaths: readonly LegacyPath[], catalogue: Catalogue): Part {
  const paths: PathSpecs = {};
  for (const p of legacyPaths) {
    const priced = p.endpoints.map((id) => catalogue.get(id)!.def);
    paths[`/v1/${p.name}`] = {
      post: {
        id: `legacy.${p.name}`,
        summary: `Legacy /v1/${p.name}`,
        description: `${p.summary} Legacy convention (flat envelope and errors); priced like ${p.endpoints.join(', ')}.`,
        tag: 'legacy',
        credits: Math.min(...priced.map((d) => d.credits)),
        extensions: { 'x-legacy-of': p.endpoints },
        security: 'key',
        body: { schema: p.input },
        answers: { '200': { description: 'Flat success envelope', json: flatEnvelope } },
        failures: {
          '4XX': { description: 'Flat error: INVALID_INPUT 400, UNAUTHORIZED 401, INSUFFICIENT_CREDITS 402, NOT_FOUND 404, RATE_LIMITED 429', json: FLAT_ERROR },
          '5XX': { description: 'Flat error: UPSTREAM_ERROR 502 (the source failed, timed out or changed)', json: FLAT_ERROR },
        },
      },
    };
  }
  return {
    tags: [{ name: 'legacy', description: 'The legacy paths (docs/legacy.md): views of YouTube endpoints of the catalogue in the legacy convention, with a flat envelope and flat errors.' }],
    paths,
  };
}
