/**
 * Request bodies arrive as raw bytes (one catch-all parser), so every failure is ours to word: a wrong content
 * type, invalid JSON, a non-object body and one nested too deeply are all 400 invalidRequest naming the rule.
 */
import type { FastifyRequest } from 'fastify';
import { QuarryError } from '../errors.js';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i;

/**
 * Deepest nesting of objects and arrays a request body may have. Every input Quarry takes is a few levels deep; a
 * body of 10,000 levels (20 KB) overflowed the stack of the recursive walks after parsing (the Idempotency-Key
 * fingerprint, a quote's copy of its input). JSON.parse itself is not recursive, so the check runs right after it,
 * before anything else walks the value, and is itself a loop.
 */
export const MAX_BODY_DEPTH = 64;

/** Throws invalidRequest when `value` nests objects and arrays deeper than MAX_BODY_DEPTH. `what` names it. */
export function checkDepth(value: unknown, what = 'body'): void {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > MAX_BODY_DEPTH) {
      throw new QuarryError('invalidRequest', `${what}: nested deeper than ${MAX_BODY_DEPTH} levels of objects and arrays`);
    }
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
}

export function jsonBody(request: FastifyRequest): unknown {
  const type = request.headers['content-type'];
  const raw = request.body as Buffer | undefined;
  if (!type || !JSON_TYPE.test(type)) {
    throw new QuarryError('invalidRequest', `Content-Type: must be application/json (got ${type ? JSON.stringify(type) : 'none'})`);
  }
  if (!raw || raw.length === 0) throw new QuarryError('invalidRequest', 'body: must be a JSON object (the body was empty)');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch (e) {
    throw new QuarryError('invalidRequest', `body: is not valid JSON (${(e as Error).message})`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new QuarryError('invalidRequest', 'body: must be a JSON object');
  }
  checkDepth(parsed);
  return parsed;
}

/** Bodies of calls that carry nothing (revoke, approve, sign-out): an empty body counts as `{}`. */
export function optionalJsonBody(request: FastifyRequest): unknown {
  const raw = request.body as Buffer | undefined;
  return raw && raw.length > 0 ? jsonBody(request) : {};
}

/** `maxTextLength` query parameter: absent, or an integer of at least 1. */
export function maxTextLength(request: FastifyRequest): number | undefined {
  const raw = (request.query as Record<string, unknown>).maxTextLength;
  if (raw === undefined) return undefined;
  const text = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  if (typeof text !== 'string' || !/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw new QuarryError('invalidRequest', 'maxTextLength: must be an integer of at least 1');
  }
  return Number(text);
}

export function wantsMarkdown(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return typeof accept === 'string' && /\btext\/markdown\b/i.test(accept);
}
