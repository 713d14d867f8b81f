/**
 * Request bodies arrive as raw bytes (one catch-all parser), so every failure is ours to word: a wrong content
 * type, invalid JSON and a non-object body are all 400 invalidRequest naming the rule (issue 2.3).
 */
import type { FastifyRequest } from 'fastify';
import { QuarryError } from '../errors.js';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i;

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
  return parsed;
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
