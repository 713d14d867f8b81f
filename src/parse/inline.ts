/** Inline markdown helpers shared by every converter: escaping, links (http(s)/mailto only), images as alt text. */

/** Escapes characters that would start markdown inline syntax. Whitespace is collapsed by the caller. */
export function esc(text: string): string {
  return text.replace(/[\\`*_[\]<>]/g, (c) => '\\' + c);
}

/** An inline code span: the text as is, fenced by backticks (two, space-padded, when it holds one). */
export function codeSpan(text: string): string {
  return text.trim() ? (text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``) : text;
}

const SAFE_URL = /^(https?:\/\/|mailto:)/i;

export function isSafeUrl(href: string | undefined): href is string {
  return !!href && SAFE_URL.test(href.trim());
}

/** `[text](url)` when the address is http(s) or mailto, else the text alone. `text` is already markdown. */
export function link(text: string, href: string | undefined): string {
  if (!text.trim()) return text;
  if (!isSafeUrl(href)) return text;
  const url = href.trim().replace(/[ ()<>]/g, (c) => encodeURIComponent(c));
  return `[${text}](${url})`;
}

/** Images never carry data: `![alt](url)` for an http(s) address, `![alt]()` when embedded, nothing without alt. */
export function image(alt: string | undefined, src?: string): string {
  const a = (alt ?? '').replace(/\s+/g, ' ').trim();
  if (!a) return '';
  return `![${esc(a)}](${isSafeUrl(src) ? src.trim().replace(/[ ()<>]/g, (c) => encodeURIComponent(c)) : ''})`;
}

/** Wraps text in a delimiter, keeping surrounding spaces outside (`** x**` is not emphasis). */
export function wrap(text: string, mark: string): string {
  // Trims, not a pattern: /^(\s*)([\s\S]*?)(\s*)$/ backtracks quadratically over a long run of spaces.
  const start = text.length - text.trimStart().length;
  const end = text.trimEnd().length;
  if (start >= end) return text;
  return `${text.slice(0, start)}${mark}${text.slice(start, end)}${mark}${text.slice(end)}`;
}

export function collapse(text: string): string {
  return text.replace(/[ \t\r\n\f\u00a0]+/g, ' ');
}

/**
 * A markdown snippet as plain text (a title taken from a heading): link and image syntax to their text, code spans
 * to their content as is, emphasis markers dropped, escapes undone (an escaped `_` stays, a marker goes).
 */
export function plainText(md: string): string {
  // One pass, left to right: a code span, an escape, link brackets and their address, an emphasis marker.
  return md
    .replace(/(`+)([\s\S]*?)\1|\\(.)|!?\[|\]\([^)]*\)|[*_~]/g, (_m, ticks: string | undefined, code: string, escaped: string | undefined) =>
      ticks ? code.replace(/^ ([\s\S]*) $/, '$1') : (escaped ?? ''),
    )
    .replace(/\s+/g, ' ')
    .trim();
}

/** A reviewer comment's line (docx and pptx): `**Comment (author, date-time):** text`, who and when when known. */
export function commentLine(who: (string | undefined)[], text: string): string {
  const by = who.filter(Boolean).map((x) => esc(x!)).join(', ');
  return `**Comment${by ? ` (${by})` : ''}:** ${text}`;
}
