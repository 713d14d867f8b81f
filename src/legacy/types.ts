/**
 * A legacy path (SPEC.md "Legacy endpoints"): a flat body with its own field names, answered by a current endpoint
 * of the catalogue and shown as the legacy record. A legacy record is a view of the same data (the same operation,
 * cache entry and price), never a second scraper.
 */
import type { JsonSchema, ObjectSchema } from '../catalogue/types.js';
import { QuarryError } from '../errors.js';

export interface LegacyCall {
  /** The current endpoint that answers (`youtube.video`). */
  endpoint: string;
  /** Its input, in the current endpoint's field names. */
  input: Record<string, unknown>;
}

export interface LegacyPath<B = any> {
  /** `video` for POST /v1/video; variant B of the logs lists the call as `/video`. */
  name: string;
  /** One sentence for the docs: what the path answers. */
  summary: string;
  /** The body, in the legacy field names; validated like an endpoint's input (unknown fields refused, defaults filled). */
  input: ObjectSchema;
  /** The current endpoints this path may call, for the docs and the start-up check. */
  endpoints: readonly string[];
  /** Which endpoint answers this body, with what input. */
  route(body: B): LegacyCall;
  /** Current field name → the legacy field it came from, so an error names the field the caller sent. */
  fieldNames?: Readonly<Record<string, string>>;
  /** The legacy `data` built from the current endpoint's answer. */
  view(data: any, body: B): Record<string, unknown>;
}

/** A legacy body's schema: these fields, these required, nothing else. */
export function legacyBody(properties: Record<string, JsonSchema>, required: string[] = []): ObjectSchema {
  return { type: 'object', properties, additionalProperties: false, ...(required.length ? { required } : {}) };
}

/** A field a body's `type` needs, missing: INVALID_INPUT naming it and the rule. */
export function requiredFor(field: string, type: string): QuarryError {
  return new QuarryError('invalidRequest', `${field}: is required when type is ${type}`);
}
