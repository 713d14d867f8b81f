/**
 * The catalogue's vocabulary: JSON Schemas that also carry, for the type checker only, the TypeScript type of the
 * values they accept. An endpoint is declared once (./endpoints/*.ts); its operation's input and record types are
 * read off that declaration (InputOf, OutputOf), so no adapter writes a twin interface that could drift from it.
 */

/** A JSON Schema (draft 2020-12 subset that Ajv, OpenAPI 3.1 and MCP all read). */
export type JsonSchema = {
  type?: string | string[];
  description?: string;
  [keyword: string]: unknown;
};

declare const VALUE: unique symbol;
declare const DEFAULTED: unique symbol;
declare const INPUT: unique symbol;
declare const OUTPUT: unique symbol;

/** A schema whose accepted values have the TypeScript type T (a phantom member: never present at run time). */
export type Schema<T = unknown> = JsonSchema & { readonly [VALUE]?: T };

/** An input field: D is true when the field has a default, which the validator fills before the operation runs. */
export type Field<T = unknown, D extends boolean = boolean> = Schema<T> & { readonly [DEFAULTED]?: D };

/** The value type a schema describes; `unknown` for a plain JsonSchema. */
export type TypeOf<S> = S extends { readonly [VALUE]?: infer T } ? T : unknown;

type Defaulted<S> = S extends { readonly [DEFAULTED]?: infer D } ? ([D] extends [true] ? true : false) : false;

/** Flattens an intersection of object types into one, so editors show records as plain objects. */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * The input an operation receives: required fields and fields with a default are always there (the validator fills
 * defaults), the rest may be absent. `maxAge` and `tags` belong to the pipeline, never to the source.
 */
export type InputFromFields<F extends Record<string, JsonSchema>, R extends string> = Simplify<
  { [K in keyof F as K extends R ? K : Defaulted<F[K]> extends true ? K : never]-?: TypeOf<F[K]> } & {
    [K in keyof F as K extends R ? never : Defaulted<F[K]> extends true ? never : K]?: TypeOf<F[K]>;
  }
>;

export interface ObjectSchema extends JsonSchema {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties: false;
}

/**
 * One endpoint, declared once as data. Validation, GET /v1/catalogue, OpenAPI, the MCP tools, the docs and the
 * operation's types are all read from these declarations; nothing restates them.
 */
export interface EndpointDef<I = Record<string, unknown>, O = Record<string, unknown>> {
  /** `<source>.<operation>`; the path is derived from it. */
  id: string;
  title: string;
  summary: string;
  /** Lowest price of one call. */
  credits: number;
  keyless: boolean;
  /** Items one price unit covers for endpoints priced by result count; null for a fixed price. */
  perItems: number | null;
  cacheTtlSeconds: number;
  input: ObjectSchema;
  example: Record<string, unknown> | null;
  /** Request field that pages (`cursor` or `page`); paging needs a key. */
  pagingField?: string;
  /** Request field that bounds the result count (drives the reserved price). */
  limitField?: string;
  /** Key of the array in `data` whose length is the result count for per-item pricing. */
  itemsField?: string;
  /** Largest request body this endpoint accepts, in bytes (parse takes a 10 MB file). */
  bodyLimitBytes?: number;
  /** Schema of the answered `data` (./records.ts): documents the response and detects upstream format drift. */
  output?: JsonSchema;
  /** Phantom members: the operation's input and record types (never present at run time). */
  readonly [INPUT]?: I;
  readonly [OUTPUT]?: O;
}

/** The validated input of an endpoint, defaults filled. */
export type InputOf<E> = E extends EndpointDef<infer I, unknown> ? I : never;
/** The `data` an endpoint answers, as its output schema declares it. */
export type OutputOf<E> = E extends EndpointDef<unknown, infer O> ? O : never;

export function sourceOf(id: string): string {
  return id.slice(0, id.indexOf('.'));
}

export function pathOf(id: string): string {
  return '/v1/' + id.split('.').join('/');
}
