/** Reads the type from the bytes (the filename is only a hint and is never trusted). */
import { ZipReader } from './zip.js';
import { ParseError, type ParseKind } from './types.js';

const unsupported = (what: string) =>
  new ParseError('unsupported', `This file is ${what}; send a PDF, Word .docx, Excel .xlsx, PowerPoint .pptx or HTML file.`);

export interface Sniffed {
  kind: ParseKind;
  zip?: ZipReader;
}

const starts = (b: Uint8Array, sig: number[], at = 0) => sig.every((x, i) => b[at + i] === x);

/** With `headOnly`, a zip is only recognised (its directory is checked later by the full sniff). */
export function sniff(bytes: Uint8Array, headOnly = false): Sniffed {
  if (bytes.length === 0) throw unsupported('empty');
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (head.includes('%PDF-')) return { kind: 'pdf' };
  if (headOnly && starts(bytes, [0x50, 0x4b])) return { kind: 'docx' };
  if (starts(bytes, [0x50, 0x4b, 0x03, 0x04]) || starts(bytes, [0x50, 0x4b, 0x05, 0x06])) {
    const zip = new ZipReader(bytes);
    if (zip.has('word/document.xml')) return { kind: 'docx', zip };
    if (zip.has('xl/workbook.xml')) return { kind: 'xlsx', zip };
    if (zip.has('ppt/presentation.xml')) return { kind: 'pptx', zip };
    if (zip.has('mimetype')) throw unsupported('an OpenDocument or other zip-based format');
    throw unsupported('a zip archive that is not an Office document');
  }
  if (starts(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    const utf16 = Buffer.from('EncryptedPackage', 'utf16le');
    if (Buffer.from(bytes).includes(utf16)) {
      throw new ParseError('encrypted', 'The Office document is encrypted (password-protected); send it without a password.');
    }
    throw unsupported('a legacy Office file (.doc, .xls or .ppt)');
  }
  if (starts(bytes, [0x89, 0x50, 0x4e, 0x47]) || starts(bytes, [0xff, 0xd8, 0xff]) || head.startsWith('GIF8') || (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP')) {
    throw unsupported('an image');
  }
  if (looksLikeHtml(bytes)) return { kind: 'html' };
  throw unsupported(bytes.subarray(0, 4096).includes(0) ? 'binary data of an unknown type' : 'plain text or an unknown type');
}

function looksLikeHtml(bytes: Uint8Array): boolean {
  let text: string;
  if (starts(bytes, [0xff, 0xfe])) text = Buffer.from(bytes.subarray(2, 2050)).toString('utf16le');
  else if (starts(bytes, [0xfe, 0xff])) text = Buffer.from(bytes.subarray(2, 2050)).swap16().toString('utf16le');
  else {
    if (bytes.subarray(0, 4096).includes(0)) return false;
    text = Buffer.from(bytes.subarray(0, 2048)).toString('latin1');
  }
  // Comments and an XML declaration may come first (a saved fragment opens with `<!---->`).
  const s = text
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart()
    .toLowerCase()
    .replace(/^(?:<!--[\s\S]*?-->\s*|<\?xml[^>]*>\s*)*/, '');
  if (/^<!doctype html|^<html[\s>]|^<head[\s>]|^<body[\s>]|^<meta[\s>]/.test(s)) return true;
  // A fragment: it opens with an element of a page's body and closes one.
  return /^<(div|p|h[1-6]|table|title|article|main|section|header|footer|nav|aside|ul|ol|li|dl|blockquote|pre|figure|form|span|a|img)[\s>]/.test(s) && /<\/[a-z0-9]+>/.test(s);
}
