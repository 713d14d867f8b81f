/**
 * A docx `w:altChunk`: content Word imports whole when it opens the file, kept in a part of its own. Generators
 * write whole documents this way (html-docx-js: a `document.xml` holding only an altChunk of MIME HTML,
 * `afchunk.mht`), so without it such a file reads as empty. HTML and MIME HTML (its first `text/html` part,
 * quoted-printable or base64) are read as HTML pages are; plain text as paragraphs. Other chunks (RTF, another
 * .docx) are not read.
 */
import { convertHtml } from './html.js';
import { esc } from './inline.js';
import type { Block } from './types.js';

export function chunkBlocks(bytes: Uint8Array): Block[] {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 4096)).toString('latin1');
  if (/^\s*(MIME-Version|Content-Type)\s*:/i.test(head)) {
    const html = mimeHtml(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'));
    return html ? convertHtml(html).blocks : [];
  }
  if (/<(!doctype html|html|body|p|div|table|h[1-6])\b/i.test(head)) return convertHtml(bytes).blocks;
  if (head.startsWith('{\\rtf') || head.startsWith('PK')) return [];
  const text = new TextDecoder('utf-8').decode(bytes);
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .map((p) => ({ t: 'p', text: esc(p) }));
}

/**
 * The first `text/html` part of a MIME message (an .mht), its transfer encoding undone, as bytes for the HTML
 * reader (which decodes them by BOM or `<meta charset>`; the part's own charset is passed on as a BOM-less meta
 * when the page names none).
 */
function mimeHtml(message: string): Uint8Array | undefined {
  const { headers, body } = splitPart(message);
  const type = headers.get('content-type') ?? '';
  const boundary = /boundary\s*=\s*"?([^";\r\n]+)"?/i.exec(type)?.[1];
  const parts = boundary && /^multipart\//i.test(type) ? body.split(`--${boundary}`).slice(1).map(splitPart) : [{ headers, body }];
  const html = parts.find((p) => /^text\/html\b/i.test(p.headers.get('content-type') ?? ''));
  if (!html) return undefined;
  const encoding = (html.headers.get('content-transfer-encoding') ?? '').trim().toLowerCase();
  const raw = encoding === 'base64' ? Buffer.from(html.body.replace(/\s+/g, ''), 'base64') : encoding === 'quoted-printable' ? quotedPrintable(html.body) : Buffer.from(html.body, 'latin1');
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(html.headers.get('content-type') ?? '')?.[1];
  if (!charset || /<meta[^>]+charset/i.test(raw.subarray(0, 4096).toString('latin1'))) return raw;
  return Buffer.concat([Buffer.from(`<meta charset="${charset}">`), raw]);
}

/** A MIME part's headers (names lower-cased, folded lines joined) and its body. */
function splitPart(part: string): { headers: Map<string, string>; body: string } {
  const text = part.replace(/^\r?\n/, '');
  const end = /\r?\n\r?\n/.exec(text);
  const head = end ? text.slice(0, end.index) : text;
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: end ? text.slice(end.index + end[0].length) : '' };
}

/** Quoted-printable to bytes: soft line breaks (`=` at a line's end) removed, `=XX` the byte XX. */
function quotedPrintable(body: string): Buffer {
  const joined = body.replace(/=\r?\n/g, '');
  const out = Buffer.alloc(joined.length);
  let n = 0;
  for (let i = 0; i < joined.length; i++) {
    const c = joined.charCodeAt(i);
    if (c === 0x3d && /^[0-9A-Fa-f]{2}$/.test(joined.slice(i + 1, i + 3))) {
      out[n++] = parseInt(joined.slice(i + 1, i + 3), 16);
      i += 2;
    } else out[n++] = c & 0xff;
  }
  return out.subarray(0, n);
}
