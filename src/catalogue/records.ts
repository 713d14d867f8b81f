/**
 * Builders for the schemas of answered records (`data`). A record schema says which fields a normaliser always
 * gives (`required`) and the types of the rest; it documents responses in OpenAPI and, on every live call, catches
 * an upstream that changed its format (format drift → `sourceChanged`, counted in GET /v1/sources).
 * Extra fields are allowed: a record may grow without breaking the check.
 */
import { Ajv, type ErrorObject } from 'ajv';
import type { JsonSchema, Schema, Simplify, TypeOf } from './types.js';

export const str: Schema<string> = { type: 'string' };
export const num: Schema<number> = { type: 'number' };
export const int: Schema<number> = { type: 'integer' };
export const bool: Schema<boolean> = { type: 'boolean' };
export const anyValue: Schema<unknown> = {};

/** A string that is always this one value (a record's `type`). */
export function literal<const V extends string>(value: V): Schema<V> {
  return { type: 'string', const: value };
}

export function list<S extends JsonSchema>(items: S, minItems = 0): Schema<TypeOf<S>[]> {
  return { type: 'array', items, ...(minItems ? { minItems } : {}) };
}

export function oneOf<const V extends readonly string[]>(values: V): Schema<V[number]> {
  return { type: 'string', enum: [...values] };
}

/** An object whose keys are the upstream's own names (a page's Open Graph properties), each value of one schema. */
export function dict<S extends JsonSchema>(values: S): Schema<Record<string, TypeOf<S>>> {
  return { type: 'object', additionalProperties: values };
}

type RecordOf<A, S> = Simplify<{ [K in keyof A]: TypeOf<A[K]> } & { [K in keyof S]?: TypeOf<S[K]> }>;

/**
 * An object: `always` fields must be there (not null), so an answer that lost one is drift (`sourceChanged`);
 * `sometimes` fields may be absent or null.
 */
export function rec<A extends Record<string, JsonSchema>, S extends Record<string, JsonSchema> = {}>(
  always: A,
  sometimes?: S,
): Schema<RecordOf<A, S>> {
  const maybe = Object.fromEntries(Object.entries(sometimes ?? {}).map(([k, s]) => [k, nullable(s)]));
  return { type: 'object', properties: { ...always, ...maybe }, required: Object.keys(always) };
}

/** A record type read from its schema (for a named shared record such as a post or a profile). */
export type RecordType<S> = TypeOf<S>;

function nullable(s: JsonSchema): JsonSchema {
  if (typeof s.type === 'string') return { ...s, type: [s.type, 'null'] };
  return s.type === undefined ? s : { anyOf: [s, { type: 'null' }] };
}

const ajv = new Ajv({ allErrors: false, strict: false, validateFormats: false });

/** Compiles a record schema into a check that returns the first offending path and rule, or null when it fits. */
export function compileRecordCheck(schema: JsonSchema): (data: unknown) => string | null {
  const validate = ajv.compile(schema);
  return (data) => (validate(data) ? null : describe(validate.errors?.[0]));
}

function describe(e: ErrorObject | undefined): string {
  if (!e) return 'data: does not match the record';
  const at = `data${e.instancePath.replace(/\//g, '.')}`;
  if (e.keyword === 'required') return `${at}.${(e.params as { missingProperty: string }).missingProperty}: missing`;
  return `${at}: ${e.message ?? 'does not match'}`;
}
