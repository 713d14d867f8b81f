/**
 * The catalogue's part of OpenAPI: one POST operation per endpoint, tagged with its source, `x-credits` its price.
 * Built into the document by the one generator (src/openapi/generator.ts).
 */
import type { Catalogue } from './catalogue.js';
import { envelope, int, type Header, type Part, type PathSpecs } from '../openapi/generator.js';

const intHeader: Header = { schema: int };

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header' as const,
  required: false,
  description:
    'Any 1-255 printable characters. Within 24 hours, the same key with the same body from the same API key replays the stored response (marked Idempotent-Replayed: true) and charges nothing; with a different body it is a 400. A duplicate that arrives while the first runs waits up to 2 s for it, then gets 409 idempotencyKeyInUse (retryable, Retry-After: 1). Retryable failures are not kept, so a retry runs again.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

const CACHE_CONTROL = {
  name: 'Cache-Control',
  in: 'header' as const,
  required: false,
  description:
    '`only-if-cached`: answer from the cache or fail with sourceUnavailable (not retryable, not billed) without calling the source. `stale-if-error=N` (RFC 5861): when the live fetch fails with a source* error, answer a cached result up to N seconds old, with x-cache: stale.',
  schema: { type: 'string', examples: ['only-if-cached', 'stale-if-error=3600'] },
};

const MAX_TEXT_LENGTH = { name: 'maxTextLength', in: 'query' as const, required: false, schema: { type: 'integer', minimum: 1 } };

const SUCCESS_HEADERS: Record<string, Header> = {
  'X-Request-ID': { schema: { type: 'string' } },
  'x-credits-used': intHeader,
  'X-RateLimit-Limit': intHeader,
  'X-RateLimit-Remaining': intHeader,
  'X-RateLimit-Reset': intHeader,
  'x-cache': {
    description: '`stale` when Cache-Control: stale-if-error answered a cached result because the source failed',
    schema: { type: 'string', enum: ['hit', 'miss', 'stale'] },
  },
  'x-cache-age': intHeader,
  'Idempotent-Replayed': { description: '`true` on a replay of a stored response (nothing charged)', schema: { type: 'string' } },
};

/** Each source's tag, described by the titles of its endpoints. */
function sourceTags(catalogue: Catalogue): Part['tags'] {
  const titles = new Map<string, string[]>();
  for (const e of catalogue.endpoints) {
    const list = titles.get(e.source) ?? [];
    list.push(e.def.title);
    titles.set(e.source, list);
  }
  return [...titles].map(([name, list]) => ({ name, description: `Data endpoints of ${name}: ${list.join('; ')}.` }));
}

export function catalogueOpenApi(catalogue: Catalogue): Part {
  const paths: PathSpecs = {};
  for (const e of catalogue.listed()) {
    const { def } = e;
    paths[e.path] = {
      post: {
        id: def.id,
        // What this server does not serve says so where a reader looks first (issue 38.6).
        summary: e.unavailable ? `${def.title} (not served here)` : def.title,
        description: e.unavailable ? `Not served on this server: ${e.unavailableReason ?? 'unavailable'} ${def.summary}` : def.summary,
        tag: e.source,
        credits: def.credits,
        extensions: {
          'x-keyless': def.keyless,
          'x-per-items': def.perItems,
          'x-cache-ttl-seconds': def.cacheTtlSeconds,
          ...(e.unavailable ? { 'x-available': false } : {}),
        },
        security: def.keyless ? 'key-optional' : 'key',
        params: [MAX_TEXT_LENGTH, IDEMPOTENCY_KEY, CACHE_CONTROL],
        body: { schema: def.input, ...(def.example ? { example: def.example } : {}) },
        answers: {
          '200': {
            description: 'Success envelope',
            headers: SUCCESS_HEADERS,
            json: envelope(def.output ?? { type: 'object' }),
            content: { 'text/markdown': { type: 'string' } },
          },
        },
        failures: 'envelope',
      },
    };
  }
  return { tags: sourceTags(catalogue), paths };
}
