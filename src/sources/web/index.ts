/**
 * The web source. `web.parse` (SPEC.md "Parse endpoint") converts an uploaded document to markdown; it is real in
 * both modes (nothing goes upstream), and both run in the worker pool (`src/parse/pool.ts`).
 */
import { QuarryError } from '../../errors.js';
import { isEmptyResult } from '../../parse/index.js';
import { sharedPool } from '../../parse/pool.js';
import { ParseError, type ParseResult } from '../../parse/types.js';
import { WEB } from '../../catalogue/endpoints/web.js';
import type { InputOf, OutputOf } from '../../catalogue/types.js';
import { operation } from '../kit/operation.js';
import type { OperationResult, SourceModule } from '../types.js';
import { contacts } from './contacts/index.js';
import { CONTACTS_SETTINGS } from './contacts/crawl.js';
import { SEARCH_SETTINGS, news, search } from './search/index.js';

/** Strict base64 (standard or URL-safe alphabet, optional padding, whitespace ignored); anything else is a 400. */
export function decodeBase64(file: unknown): Uint8Array {
  if (typeof file !== 'string' || !file.length) throw new QuarryError('invalidRequest', '`file` is required: the document as base64.');
  const s = file.replace(/[\r\n\t ]+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(s) || s.length % 4 === 1 || !s.replace(/=+$/, '').length) {
    throw new QuarryError('invalidRequest', '`file` is not valid base64.');
  }
  return new Uint8Array(Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
}

export function toQuarry(e: unknown): never {
  if (e instanceof ParseError) {
    if (e.kind === 'unsupported') throw new QuarryError('unsupportedMediaType', e.message);
    throw new QuarryError('invalidRequest', e.message, { retryable: false });
  }
  throw e;
}

function answer(r: ParseResult): OperationResult<OutputOf<typeof WEB.parse>> {
  const data = { markdown: r.markdown, isTruncated: r.isTruncated, metadata: r.metadata };
  return isEmptyResult(r) ? { data: { ...data, markdown: '' }, free: true } : { data };
}

const maxPagesOf = (input: Record<string, unknown>) => (typeof input.maxPages === 'number' ? input.maxPages : 100);

/** Parse is real in both modes (CONTRACT.md "Keys"): test-mode calls convert in the same worker pool. */
async function parse(input: InputOf<typeof WEB.parse>): Promise<OperationResult<OutputOf<typeof WEB.parse>>> {
  const bytes = decodeBase64(input.file);
  try {
    return answer(await sharedPool().convert(bytes, maxPagesOf(input)));
  } catch (e) {
    return toQuarry(e);
  }
}

const web: SourceModule = {
  id: 'web',
  needs: { settings: [...SEARCH_SETTINGS, ...CONTACTS_SETTINGS] },
  operations: [operation(WEB.parse, { run: parse, sample: parse }), contacts, search, news],
};

export default web;
