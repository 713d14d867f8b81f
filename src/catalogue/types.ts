/** A JSON Schema (draft 2020-12 subset that Ajv, OpenAPI 3.1 and MCP all read). */
export type JsonSchema = {
  type?: string | string[];
  description?: string;
  [keyword: string]: unknown;
};

export interface ObjectSchema extends JsonSchema {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties: false;
}

/**
 * One endpoint, declared once as data. Validation, GET /v1/catalogue, OpenAPI, the MCP tools and the docs are
 * all generated from these declarations; nothing restates them.
 */
export interface EndpointDef {
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
}

export function sourceOf(id: string): string {
  return id.slice(0, id.indexOf('.'));
}

export function pathOf(id: string): string {
  return '/v1/' + id.split('.').join('/');
}
