/**
 * Building blocks for endpoint declarations. Each returns plain JSON Schema, so the catalogue stays data; the
 * shared rules of SPEC.md (country, language, dates, tags, maxAge) are written once here.
 */
import type { EndpointDef, Field, InputFromFields, JsonSchema, ObjectSchema, Schema, TypeOf } from './types.js';
import { TAG_PATTERN } from '../lib/tags.js';

// Builders with a default return Field<T, true> (the validator fills it, so the operation always has it).
const withDefault = (schema: JsonSchema, def: unknown): JsonSchema =>
  def === undefined ? schema : { ...schema, default: def };

export function text(minLength: number, maxLength: number, description?: string): Field<string, false> {
  return { type: 'string', minLength, maxLength, ...(description ? { description } : {}) };
}

/** A string matching `pattern`; `rule` is the human wording used in docs. */
export function pattern(regex: string, rule: string, maxLength = 4096): Field<string, false> {
  return { type: 'string', pattern: regex, maxLength, description: rule };
}

export function integer(minimum: number, maximum: number): Field<number, false>;
export function integer(minimum: number, maximum: number, def: number): Field<number, true>;
export function integer(minimum: number, maximum: number, def?: number): Field<number> {
  return withDefault({ type: 'integer', minimum, maximum }, def);
}

export function number(minimum: number, maximum: number): Field<number, false>;
export function number(minimum: number, maximum: number, def: number): Field<number, true>;
export function number(minimum: number, maximum: number, def?: number): Field<number> {
  return withDefault({ type: 'number', minimum, maximum }, def);
}

export function boolean(): Field<boolean, false>;
export function boolean(def: boolean): Field<boolean, true>;
export function boolean(def?: boolean): Field<boolean> {
  return withDefault({ type: 'boolean' }, def);
}

export function choice<const V extends readonly string[]>(values: V): Field<V[number], false>;
export function choice<const V extends readonly string[]>(values: V, def: V[number]): Field<V[number], true>;
export function choice(values: readonly string[], def?: string): Field<string> {
  return withDefault({ type: 'string', enum: [...values] }, def);
}

export function numberChoice<const V extends readonly number[]>(values: V): Field<V[number], false>;
export function numberChoice<const V extends readonly number[]>(values: V, def: V[number]): Field<V[number], true>;
export function numberChoice(values: readonly number[], def?: number): Field<number> {
  return withDefault({ type: 'integer', enum: [...values] }, def);
}

export function list<S extends JsonSchema>(items: S, maxItems: number): Field<TypeOf<S>[], false>;
export function list<S extends JsonSchema>(items: S, maxItems: number, def: TypeOf<S>[]): Field<TypeOf<S>[], true>;
export function list(items: JsonSchema, maxItems: number, def?: unknown[]): Field<unknown[]> {
  return withDefault({ type: 'array', items, maxItems }, def);
}

/** ISO 3166-1 alpha-2, any case (a real list: `xx` is rejected). */
export function country(): Field<string, false>;
export function country(def: string): Field<string, true>;
export function country(def?: string): Field<string> {
  return withDefault({ type: 'string', format: 'country', description: 'ISO 3166-1 alpha-2 code, any case' }, def);
}

export function countryOrAll(): Field<string, false>;
export function countryOrAll(def: string): Field<string, true>;
export function countryOrAll(def?: string): Field<string> {
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
export function countryAmong(codes: readonly string[], def?: undefined, what?: string): Field<string, false>;
export function countryAmong(codes: readonly string[], def: string, what?: string): Field<string, true>;
export function countryAmong(codes: readonly string[], def?: string, what = 'the source'): Field<string> {
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
export function language(): Field<string, false>;
export function language(def: string): Field<string, true>;
export function language(def?: string): Field<string> {
  return withDefault({ type: 'string', format: 'language', maxLength: 35, description: 'language tag, e.g. en or pt-BR' }, def);
}

/** A calendar date YYYY-MM-DD; leap years respected. */
export function date(): Field<string, false> {
  return { type: 'string', format: 'date', description: 'calendar date YYYY-MM-DD' };
}

/** A calendar date or an ISO 8601 UTC date-time. */
export function dateOrDateTime(): Field<string, false> {
  return { type: 'string', format: 'date-or-utc-date-time', description: 'YYYY-MM-DD or an ISO 8601 UTC date-time' };
}

export function within<const V extends readonly string[]>(values: V): Field<V[number], false>;
export function within<const V extends readonly string[]>(values: V, def: V[number]): Field<V[number], true>;
export function within(values: readonly string[], def?: string): Field<string> {
  return { ...withDefault(choice(values), def), description: 'relative time window' };
}

export function limit(minimum: number, maximum: number): Field<number, false>;
export function limit(minimum: number, maximum: number, def: number): Field<number, true>;
export function limit(minimum: number, maximum: number, def?: number): Field<number> {
  return { ...withDefault(integer(minimum, maximum), def), description: 'most results to return; fewer cost less' };
}

export function cursor(regex: string, rule: string, maxLength = 8192): Field<string, false> {
  return { ...pattern(regex, `cursor from the previous page: ${rule}`, maxLength) };
}

export function plainCursor(minLength: number, maxLength: number): Field<string, false> {
  return { type: 'string', minLength, maxLength, description: 'cursor from the previous page, sent back unchanged' };
}

export function tags(): Field<string[], false> {
  return {
    type: 'array',
    maxItems: 10,
    items: { type: 'string', minLength: 1, maxLength: 50, pattern: TAG_PATTERN },
    description: 'labels for logs and usage: at most 10, each 1-50 of letters, digits, - _ . :',
  };
}

/** Generated from the entry so its upper bound can never drift from cacheTtlSeconds. */
export function maxAge(cacheTtlSeconds: number): Field<number, false> {
  return {
    type: 'integer',
    minimum: 0,
    maximum: cacheTtlSeconds,
    description: 'oldest cached result accepted, in seconds; 0 fetches live',
  };
}

export interface EndpointSpec<F extends Record<string, JsonSchema>, R extends string, O> {
  id: string;
  title: string;
  summary: string;
  credits: number;
  keyless?: boolean;
  perItems?: number | null;
  cacheTtlSeconds: number;
  fields: F;
  required?: readonly R[];
  example: Record<string, unknown> | null;
  /** false for the few endpoints that take neither `maxAge` nor `tags`. */
  cacheControls?: boolean;
  itemsField?: string;
  /** Overrides the field that bounds the priced count (default `limit` when the endpoint has one). */
  limitField?: string;
  bodyLimitBytes?: number;
  /** Schema of the answered `data` (see ../records.ts); the operation's record type is read from it. */
  output?: Schema<O>;
}

/**
 * Declares an endpoint: adds `maxAge`/`tags` where it takes them and derives paging and limit fields. The result
 * carries the operation's input type (from `fields`, `required` and defaults) and record type (from `output`).
 */
export function endpoint<F extends Record<string, JsonSchema>, R extends Extract<keyof F, string> = never, O = Record<string, unknown>>(
  spec: EndpointSpec<F, R, O>,
): EndpointDef<InputFromFields<F, R>, O> {
  const properties: Record<string, JsonSchema> = { ...spec.fields };
  if (spec.cacheControls !== false) {
    properties.maxAge = maxAge(spec.cacheTtlSeconds);
    properties.tags = tags();
  }
  const input: ObjectSchema = { type: 'object', properties, additionalProperties: false };
  if (spec.required?.length) input.required = [...spec.required];
  const def: EndpointDef<InputFromFields<F, R>, O> = {
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
  if (spec.limitField) def.limitField = spec.limitField;
  else if ('limit' in properties) def.limitField = 'limit';
  if (spec.itemsField) def.itemsField = spec.itemsField;
  if (spec.bodyLimitBytes) def.bodyLimitBytes = spec.bodyLimitBytes;
  if (spec.output) def.output = spec.output;
  return def;
}
