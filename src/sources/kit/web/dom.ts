/**
 * A page as a tree, for the sources that need its text and structure (contacts, SEO checks), bounded first: the page
 * is cut where its elements would nest deeper than MAX_DEPTH, by a linear scan of its tags. htmlparser2's parser
 * slows down with the square of the nesting depth, so a hostile page of a million unclosed `<div>`s would otherwise
 * hold the event loop for minutes. When only some tags are needed, `./tags.ts` scans them without any tree.
 */
import type { Document } from 'domhandler';
import { parseDocument } from 'htmlparser2';

/** Real pages nest a few dozen levels; the parser's cost grows with the square of the depth. */
export const MAX_DEPTH = 1500;

/** Elements without content, and those the parser closes on its own (they never pile up on its stack). */
const NO_DEPTH = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr', 'param',
  'p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'option', 'optgroup', 'tbody', 'thead', 'tfoot', 'colgroup', 'rb', 'rt', 'rp',
]);
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);
const TAG_AT = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)[^<>]*>/y;

/** The page parsed (entities decoded, names lower-cased) after `boundNesting`. */
export function parseHtml(html: string): Document {
  return parseDocument(boundNesting(html), { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
}

/**
 * The page cut where its elements would nest deeper than `maxDepth`, by a linear scan of the tags (comments and
 * raw-text elements skipped).
 */
export function boundNesting(html: string, maxDepth = MAX_DEPTH): string {
  let depth = 0;
  let pos = 0;
  for (;;) {
    const at = html.indexOf('<', pos);
    if (at < 0) return html;
    if (html.startsWith('<!--', at)) {
      const end = html.indexOf('-->', at + 4);
      if (end < 0) return html;
      pos = end + 3;
      continue;
    }
    TAG_AT.lastIndex = at;
    const m = TAG_AT.exec(html);
    if (!m) {
      pos = at + 1;
      continue;
    }
    pos = TAG_AT.lastIndex;
    const name = m[2].toLowerCase();
    if (m[1]) {
      if (!NO_DEPTH.has(name)) depth = Math.max(0, depth - 1);
      continue;
    }
    if (RAW_TEXT.has(name)) {
      // Searched in the page itself: a lower-cased copy can be longer than the page (`İ`), and its indices wrong.
      const closing = new RegExp(`</${name}`, 'gi');
      closing.lastIndex = pos;
      const end = closing.exec(html)?.index ?? -1;
      if (end < 0) return html;
      pos = end;
      continue;
    }
    if (NO_DEPTH.has(name) || m[0].endsWith('/>')) continue;
    if (++depth > maxDepth) return html.slice(0, at);
  }
}
