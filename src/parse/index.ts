/**
 * The converter as a library: `convertFile(bytes, { maxPages })` sniffs the type from the bytes and returns the
 * Parse result (SPEC.md). It runs in-process; the server runs it in a worker pool (`pool.ts`).
 */
import { convertDocx } from './docx/index.js';
import { convertHtml } from './html.js';
import { writeMarkdown } from './markdown.js';
import { convertPdf } from './pdf.js';
import { convertPptx } from './pptx.js';
import { sniff } from './sniff.js';
import { CONTENT_TYPES, LIMITS, ParseError, type Converted, type Converter, type ParseKind, type ParseOptions, type ParseResult } from './types.js';
import type { ZipReader } from './zip.js';
import { convertXlsx } from './xlsx.js';

export { ParseError } from './types.js';
export type { ParseResult, ParseOptions } from './types.js';

export async function convertFile(bytes: Uint8Array, opts: ParseOptions): Promise<ParseResult> {
  const { kind } = sniff(bytes, true);
  if (kind === 'pdf') return finish('pdf', await guard('pdf', () => pdf(bytes, opts)));
  return convertFileSync(bytes, opts);
}

/** The same conversion without PDF (PDFium loads asynchronously): for callers that cannot await. */
export function convertFileSync(bytes: Uint8Array, opts: ParseOptions): ParseResult {
  const { kind, zip } = sniff(bytes);
  if (kind === 'pdf') throw new ParseError('unsupported', 'PDF conversion needs the asynchronous converter.');
  return finish(kind, guardSync(kind, () => (kind === 'html' ? fromBytes[kind](bytes, opts) : fromZip[kind](zip!, opts))));
}

/** The converters by kind, each a `Converter`: HTML and PDF read the bytes, the OOXML formats the sniffed zip. */
const fromBytes: Record<'html', Converter> = { html: convertHtml };
const fromZip: Record<'docx' | 'xlsx' | 'pptx', Converter<ZipReader>> = { docx: convertDocx, xlsx: convertXlsx, pptx: convertPptx };
const pdf: Converter<Uint8Array, Promise<Converted>> = convertPdf;

function mapError(kind: ParseKind, e: unknown): ParseError {
  if (e instanceof ParseError) return e;
  if (e instanceof RangeError && /call stack/i.test(e.message)) return new ParseError('limit', 'The document is nested too deeply.');
  return new ParseError('corrupt', `The ${kind === 'html' ? 'HTML' : kind.toUpperCase()} file is corrupt or truncated (${String((e as Error)?.message).slice(0, 120)}).`);
}

function guardSync(kind: ParseKind, fn: () => Converted): Converted {
  try {
    return fn();
  } catch (e) {
    throw mapError(kind, e);
  }
}

async function guard(kind: ParseKind, fn: () => Promise<Converted>): Promise<Converted> {
  try {
    return await fn();
  } catch (e) {
    throw mapError(kind, e);
  }
}

function finish(kind: ParseKind, c: Converted): ParseResult {
  let markdown = writeMarkdown(c.blocks);
  if (markdown.length > LIMITS.markdownChars) markdown = markdown.slice(0, LIMITS.markdownChars);
  const title = c.title?.replace(/\s+/g, ' ').trim();
  const metadata: ParseResult['metadata'] = { contentType: CONTENT_TYPES[kind] };
  if (title) metadata.title = title;
  if (c.numPages !== undefined) metadata.numPages = c.numPages;
  return { markdown, isTruncated: c.cut, metadata };
}

/** True when the result carries no text (an image-only PDF, an empty sheet): answered but not billed. */
export function isEmptyResult(r: ParseResult): boolean {
  return !r.markdown.replace(/<!--[\s\S]*?-->/g, '').trim();
}
