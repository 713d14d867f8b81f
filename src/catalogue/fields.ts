/**
 * Building blocks for endpoint declarations. Each returns plain JSON Schema, so the catalogue stays data; the
 * shared rules of SPEC.md (country, language, dates, tags, maxAge) are written once here.
 */
import type { EndpointDef, JsonSchema, ObjectSchema } from './types.js';

const withDefault = (schema: JsonSchema, def: unknown): JsonSchema =>
  def === undefined ? schema : { ...schema, default: def };

export function text(minLength: number, maxLength: number, description?: string): JsonSchema {
  return { type: 'string', minLength, maxLength, ...(description ? { description } : {}) };
}

/** A string matching `pattern`; `rule` is the human wording used in docs. */
export function pattern(regex: string, rule: string, maxLength = 4096): JsonSchema {
  return { type: 'string', pattern: regex, maxLength, description: rule };
}

export function integer(minimum: number, maximum: number, def?: number): JsonSchema {
  return withDefault({ type: 'integer', minimum, maximum }, def);
}

export function number(minimum: number, maximum: number, def?: number): JsonSchema {
  return withDefault({ type: 'number', minimum, maximum }, def);
}

export function boolean(def?: boolean): JsonSchema {
  return withDefault({ type: 'boolean' }, def);
}

export function choice(values: readonly string[], def?: string): JsonSchema {
  return withDefault({ type: 'string', enum: [...values] }, def);
}

export function numberChoice(values: readonly number[], def?: number): JsonSchema {
  return withDefault({ type: 'integer', enum: [...values] }, def);
}

export function list(items: JsonSchema, maxItems: number, def?: unknown[]): JsonSchema {
  return withDefault({ type: 'array', items, maxItems }, def);
}

/** ISO 3166-1 alpha-2, any case (a real list: `xx` is rejected). */
export function country(def?: string): JsonSchema {
  return withDefault({ type: 'string', format: 'country', description: 'ISO 3166-1 alpha-2 code, any case' }, def);
}

export function countryOrAll(def?: string): JsonSchema {
  return withDefault(
    { type: 'string', format: 'country-or-all', description: 'ISO 3166-1 alpha-2 code or `all`, any case' },
    def,
  );
}

/**
 * One of a closed list of country codes, any case (a source that serves only some countries). The pattern spells
 * each code in both cases, since JS regexes cannot be made case-insensitive from JSON Schema. `format: country` is
 * kept as well (every listed code is an ISO code, so it never narrows the list) so that the validator's case fold
 * lower-cases the value like every other country field: `FR` and `fr` reach the source, and the cache, as `fr`.
 */
export function countryAmong(codes: readonly string[], def?: string, what = 'the source'): JsonSchema {
  const either = (c: string) => (c.toLowerCase() === c.toUpperCase() ? c : `[${c.toUpperCase()}${c.toLowerCase()}]`);
  const alternatives = codes.map((code) => [...code].map(either).join('')).join('|');
  return withDefault(
    {
      type: 'string',
      pattern: `^(?:${alternatives})$`,
      format: 'country',
      description: `one of ${what}'s country codes (${codes.join(', ')}), any case`,
    },
    def,
  );
}

/** A language tag (BCP 47), any case. */
export function language(def?: string): JsonSchema {
  return withDefault({ type: 'string', format: 'language', maxLength: 35, description: 'language tag, e.g. en or pt-BR' }, def);
}

/** A calendar date YYYY-MM-DD; leap years respected. */
export function date(): JsonSchema {
  return { type: 'string', format: 'date', description: 'calendar date YYYY-MM-DD' };
}

/** A calendar date or an ISO 8601 UTC date-time. */
export function dateOrDateTime(): JsonSchema {
  return { type: 'string', format: 'date-or-utc-date-time', description: 'YYYY-MM-DD or an ISO 8601 UTC date-time' };
}

export function within(values: readonly string[], def?: string): JsonSchema {
  return { ...choice(values, def), description: 'relative time window' };
}

export function limit(minimum: number, maximum: number, def?: number): JsonSchema {
  return { ...integer(minimum, maximum, def), description: 'most results to return; fewer cost less' };
}

export function cursor(regex: string, rule: string, maxLength = 8192): JsonSchema {
  return { ...pattern(regex, `cursor from the previous page: ${rule}`, maxLength) };
}

export function plainCursor(minLength: number, maxLength: number): JsonSchema {
  return { type: 'string', minLength, maxLength, description: 'cursor from the previous page, sent back unchanged' };
}

export const TAG_PATTERN = '^[A-Za-z0-9_.:-]{1,50}$';

export function tags(): JsonSchema {
  return {
    type: 'array',
    maxItems: 10,
    items: { type: 'string', minLength: 1, maxLength: 50, pattern: TAG_PATTERN },
    description: 'labels for logs and usage: at most 10, each 1-50 of letters, digits, - _ . :',
  };
}

/** Generated from the entry so its upper bound can never drift from cacheTtlSeconds. */
export function maxAge(cacheTtlSeconds: number): JsonSchema {
  return {
    type: 'integer',
    minimum: 0,
    maximum: cacheTtlSeconds,
    description: 'oldest cached result accepted, in seconds; 0 fetches live',
  };
}

export interface EndpointSpec {
  id: string;
  title: string;
  summary: string;
  credits: number;
  keyless?: boolean;
  perItems?: number | null;
  cacheTtlSeconds: number;
  fields: Record<string, JsonSchema>;
  required?: string[];
  example: Record<string, unknown> | null;
  /** false for the few endpoints that take neither `maxAge` nor `tags`. */
  cacheControls?: boolean;
  itemsField?: string;
  bodyLimitBytes?: number;
  /** Schema of the answered `data` (see ../records.ts). */
  output?: JsonSchema;
}

/** Declares an endpoint: adds `maxAge`/`tags` where it takes them and derives paging and limit fields. */
export function endpoint(spec: EndpointSpec): EndpointDef {
  const properties: Record<string, JsonSchema> = { ...spec.fields };
  if (spec.cacheControls !== false) {
    properties.maxAge = maxAge(spec.cacheTtlSeconds);
    properties.tags = tags();
  }
  const input: ObjectSchema = { type: 'object', properties, additionalProperties: false };
  if (spec.required?.length) input.required = [...spec.required];
  const def: EndpointDef = {
    id: spec.id,
    title: spec.title,
    summary: spec.summary,
    credits: spec.credits,
    keyless: spec.keyless ?? false,
    perItems: spec.perItems ?? null,
    cacheTtlSeconds: spec.cacheTtlSeconds,
    input,
    example: spec.example,
  };
  if ('cursor' in properties) def.pagingField = 'cursor';
  else if ('page' in properties && properties.page.type === 'integer') def.pagingField = 'page';
  if ('limit' in properties) def.limitField = 'limit';
  if (spec.itemsField) def.itemsField = spec.itemsField;
  if (spec.bodyLimitBytes) def.bodyLimitBytes = spec.bodyLimitBytes;
  if (spec.output) def.output = spec.output;
  return def;
}
