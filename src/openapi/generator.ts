/**
 * The one OpenAPI 3.1 generator behind `GET /openapi.json`. Each part of the server declares its routes as
 * `OperationSpec`s (the catalogue's data endpoints: src/catalogue/openapi.ts; the gateway's own routes, MCP and the
 * pages: src/server/openapi.ts; the account side: src/identity/openapi.ts; the legacy paths: src/legacy/openapi.ts), and
 * `operation()` here turns every one of them into an operation the same way: an operationId, one declared tag,
 * `x-credits` (0 when free), its security, its success answers and the failure answers of its convention.
 * `openApiDocument()` joins the parts and refuses a document that breaks those rules (an undeclared tag or security
 * scheme, a repeated operationId or path, a price that is not a whole number of credits), so a server with such a
 * declaration does not start.
 *
 * test/gateway/openapi.test.ts lints the served document with Spectral's `spectral:oas` rules and checks that every
 * route Fastify registers is in it.
 */
import { ERROR_OBJECT_PROPERTIES, ERRORS } from '../errors.js';

export type Schema = Record<string, unknown>;

/**
 * Who may call. `key`: a Bearer API key. `key-optional`: a key, or none (keyless endpoints, limited per address).
 * `session`: the dashboard's session cookie. `session-or-key`: either. `none`: anyone (or a key in the path).
 */
export type Security = 'none' | 'key' | 'key-optional' | 'session' | 'session-or-key';

export interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  schema: Schema;
  /** Path parameters are always required; the others default to optional. */
  required?: boolean;
  description?: string;
}

export interface Header {
  description?: string;
  schema: Schema;
}

/** One answer: a JSON body (`json`), bodies of other media types (`content`), or none; and its headers. */
export interface Answer {
  description: string;
  json?: Schema;
  content?: Record<string, Schema>;
  headers?: Record<string, Header>;
}

/**
 * How failures are answered: `envelope` is `{success: false, error: {code, message, …}}` (4XX and 5XX); anything else
 * is given as answers by status.
 */
export type Failures = 'envelope' | Record<string, Answer>;

export interface OperationSpec {
  /** operationId, unique in the document. */
  id: string;
  summary: string;
  description: string;
  /** The operation's one tag; every tag used is declared by a part. */
  tag: string;
  /** `x-credits`: what a successful call costs at least; 0 when free. */
  credits: number;
  security: Security;
  params?: Param[];
  /** A JSON request body. */
  body?: { schema: Schema; example?: unknown };
  /** Success answers by status (`200`, `202`, `302`…). */
  answers: Record<string, Answer>;
  failures: Failures;
  /** Further `x-` extensions, after `x-credits`. */
  extensions?: Record<`x-${string}`, unknown>;
}

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type PathSpecs = Record<string, Partial<Record<Method, OperationSpec>>>;

/** What one part of the server adds to the document. */
export interface Part {
  tags: { name: string; description: string }[];
  paths: PathSpecs;
  securitySchemes?: Record<string, Schema>;
}

// ------------------------------------------------------------------------------------------------ shared schemas

export const str = { type: 'string' };
export const int = { type: 'integer' };
export const bool = { type: 'boolean' };
export const isoTime = { type: 'string', format: 'date-time' };
export const obj = (properties: Record<string, unknown>, required?: string[]): Schema => ({
  type: 'object',
  ...(required?.length ? { required } : {}),
  properties,
});
export const arrayOf = (items: Schema): Schema => ({ type: 'array', items });

/** `{success: false, error}`: every failure of the REST API and the account side (src/server/reply.ts). */
export const ERROR_ENVELOPE: Schema = {
  type: 'object',
  required: ['success', 'error'],
  properties: {
    success: { const: false },
    error: {
      type: 'object',
      required: ['code', 'message', 'retryable', 'requestId'],
      properties: ERROR_OBJECT_PROPERTIES,
    },
  },
};

/** `{success: false, code, error, details: null}`: the legacy convention's failures (legacy paths, MCP's key check, logs variant B). */
export const FLAT_ERROR: Schema = {
  type: 'object',
  required: ['success', 'code', 'error', 'details'],
  properties: {
    success: { const: false },
    code: { type: 'string', enum: [...new Set(Object.values(ERRORS).map((e) => e.legacy))] },
    error: { type: 'string' },
    details: { type: 'null' },
  },
};

/** The success envelope; `creditsUsed` on the API's answers, not on the account side's. */
export function envelope(data: Schema, withCredits = true): Schema {
  return {
    type: 'object',
    required: ['success', 'data', ...(withCredits ? ['creditsUsed'] : []), 'requestId'],
    properties: { success: { const: true }, data, ...(withCredits ? { creditsUsed: int } : {}), requestId: str },
  };
}

// ------------------------------------------------------------------------------------------------ the builder

const SECURITY: Record<Security, Record<string, string[]>[]> = {
  none: [],
  key: [{ bearer: [] }],
  'key-optional': [{ bearer: [] }, {}],
  session: [{ session: [] }],
  'session-or-key': [{ session: [] }, { bearer: [] }],
};

const ENVELOPE_FAILURES: Record<string, Answer> = {
  '4XX': { description: 'Error envelope', json: ERROR_ENVELOPE },
  '5XX': { description: 'Error envelope', json: ERROR_ENVELOPE },
};

function response(a: Answer): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  if (a.json) content['application/json'] = { schema: a.json };
  for (const [type, schema] of Object.entries(a.content ?? {})) content[type] = { schema };
  return {
    description: a.description,
    ...(a.headers ? { headers: a.headers } : {}),
    ...(Object.keys(content).length ? { content } : {}),
  };
}

/** One operation of the document, built from its declaration. */
export function operation(o: OperationSpec): Record<string, unknown> {
  const failures = o.failures === 'envelope' ? ENVELOPE_FAILURES : o.failures;
  const params = (o.params ?? []).map(({ name, in: where, required, description, schema }) => ({
    name,
    in: where,
    required: where === 'path' ? true : (required ?? false),
    ...(description ? { description } : {}),
    schema,
  }));
  const responses: Record<string, unknown> = {};
  for (const [status, a] of Object.entries({ ...o.answers, ...failures })) responses[status] = response(a);
  return {
    operationId: o.id,
    summary: o.summary,
    description: o.description,
    tags: [o.tag],
    'x-credits': o.credits,
    ...o.extensions,
    security: SECURITY[o.security],
    ...(params.length ? { parameters: params } : {}),
    ...(o.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: o.body.schema, ...(o.body.example !== undefined ? { example: o.body.example } : {}) } },
          },
        }
      : {}),
    responses,
  };
}

// ------------------------------------------------------------------------------------------------ the document

export interface DocumentOptions {
  baseUrl: string;
  /** Where people reach the operator of this server (its billing page or address). */
  contactUrl: string;
  parts: Part[];
}

const DESCRIPTION = [
  'Structured data from public web sources, and documents to markdown.',
  '',
  'Every operation carries `x-credits`: what a successful call costs at least, in credits (0 when it is free). A data',
  'endpoint costs that per call, or per `x-per-items` items; a legacy path costs what the cheapest endpoint it is',
  "priced as (`x-legacy-of`) costs; over MCP, a data tool's call costs `x-credits-per-tool-call`. Failed calls are",
  'never billed.',
  '',
  'A data or legacy path asked with another method than POST answers 405 with `Allow: POST`; so do GET and DELETE on',
  'the MCP paths.',
].join('\n');

/** The whole document from its parts, in their order; throws on a declaration that breaks the generator's rules. */
export function openApiDocument(o: DocumentOptions): Record<string, unknown> {
  const problems: string[] = [];
  const tags = new Map<string, string>();
  const schemes: Record<string, Schema> = { bearer: { type: 'http', scheme: 'bearer' } };
  for (const part of o.parts) {
    for (const t of part.tags) {
      if (tags.has(t.name)) problems.push(`tag ${t.name} is declared twice`);
      tags.set(t.name, t.description);
    }
    for (const [name, scheme] of Object.entries(part.securitySchemes ?? {})) {
      if (schemes[name]) problems.push(`security scheme ${name} is declared twice`);
      schemes[name] = scheme;
    }
  }

  const paths: Record<string, Record<string, unknown>> = {};
  const ids = new Set<string>();
  for (const part of o.parts) {
    for (const [path, methods] of Object.entries(part.paths)) {
      const item = (paths[path] ??= {});
      for (const [method, spec] of Object.entries(methods) as [Method, OperationSpec][]) {
        const where = `${method.toUpperCase()} ${path}`;
        if (item[method]) problems.push(`${where} is declared twice`);
        if (ids.has(spec.id)) problems.push(`${where}: operationId ${spec.id} is used twice`);
        ids.add(spec.id);
        if (!tags.has(spec.tag)) problems.push(`${where}: tag ${spec.tag} is not declared`);
        if (!Number.isInteger(spec.credits) || spec.credits < 0) problems.push(`${where}: x-credits must be a whole number of credits, 0 when free`);
        for (const requirement of SECURITY[spec.security]) {
          for (const name of Object.keys(requirement)) if (!schemes[name]) problems.push(`${where}: security scheme ${name} is not declared`);
        }
        item[method] = operation(spec);
      }
    }
  }
  if (problems.length) throw new Error(`OpenAPI declarations: ${problems.join('; ')}`);

  return {
    openapi: '3.1.0',
    info: {
      title: 'Quarry',
      version: '1',
      description: DESCRIPTION,
      contact: { name: 'The operator of this server', url: o.contactUrl },
    },
    servers: [{ url: o.baseUrl }],
    tags: [...tags].map(([name, description]) => ({ name, description })),
    components: { securitySchemes: schemes },
    paths,
  };
}
