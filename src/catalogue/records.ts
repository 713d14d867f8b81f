/**
 * Builders for the schemas of answered records (`data`). A record schema says which fields a normaliser always
 * gives (`required`) and the types of the rest; it documents responses in OpenAPI and, on every live call, catches
 * an upstream that changed its format (format drift → `sourceChanged`, counted in GET /v1/sources).
 * Extra fields are allowed: a record may grow without breaking the check.
 */
import { Ajv, type ErrorObject } from 'ajv';
import type { JsonSchema } from './types.js';

export const str: JsonSchema = { type: 'string' };
export const num: JsonSchema = { type: 'number' };
export const int: JsonSchema = { type: 'integer' };
export const bool: JsonSchema = { type: 'boolean' };
export const anyValue: JsonSchema = {};

export function list(items: JsonSchema, minItems = 0): JsonSchema {
  return { type: 'array', items, ...(minItems ? { minItems } : {}) };
}

export function oneOf(values: readonly string[]): JsonSchema {
  return { type: 'string', enum: [...values] };
}

/** An object: `always` fields must be there (not null); `sometimes` fields may be absent or null. */
export function rec(always: Record<string, JsonSchema>, sometimes: Record<string, JsonSchema> = {}): JsonSchema {
  const maybe = Object.fromEntries(Object.entries(sometimes).map(([k, s]) => [k, nullable(s)]));
  return { type: 'object', properties: { ...always, ...maybe }, required: Object.keys(always) };
}

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
