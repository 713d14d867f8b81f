/**
 * The linear tag scanner: the start tags of a page that a source asks for, with their attributes (entities decoded,
 * capped), and for raw-text elements (`script`, `style`, `title`, `textarea`) their body. It runs htmlparser2's
 * Tokenizer alone, without its Parser: the Parser keeps a stack of open elements that it grows with `unshift`, so a
 * hostile page of unclosed tags costs quadratic time (40,000 unclosed divs took 1.8 s), where the tokenizer is linear
 * and builds no tree. Use it whenever a source needs some tags of a page (meta tags, links, script islands) rather
 * than its text; `./dom.ts` builds a bounded tree when the text is needed.
 *
 *   scanTags(html, { names: ['meta', 'script'] }, (tag) => …)           // every <meta> and <script> start tag
 *   findTags(html, { names: ['script'], withText: ['script'] })         // scripts with their raw bodies
 */
import { Tokenizer } from 'htmlparser2';

export interface ScannedTag {
  /** Lower-case tag name. */
  name: string;
  /** Lower-case attribute names → values, entities decoded; the first of a repeated attribute wins. */
  attrs: Record<string, string>;
  /** The body of a raw-text element named in `withText`, as written (entities are not decoded inside scripts). */
  text?: string;
}

export interface ScanOptions {
  /** Lower-case names of the tags to report. */
  names: readonly string[];
  /** Those of `names` whose body is kept: raw-text elements only (script, style, title, textarea). */
  withText?: readonly string[];
  /** Longest body kept per element (default 16 MiB: platform state blobs reach a few MB). */
  maxText?: number;
  /** Longest attribute value kept (default 4096 characters). */
  maxAttr?: number;
}

type Callbacks = ConstructorParameters<typeof Tokenizer>[1];
const NOOP = (): void => undefined;
const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea']);
const MAX_NAME = 40;

/**
 * Calls `onTag` for every start tag named in `options.names`, in document order: at the end of the start tag, or,
 * for an element whose body is kept, at its close (an unclosed one at the end of the page). A self-closing element
 * whose body was asked for is reported with an empty body.
 */
export function scanTags(html: string, options: ScanOptions, onTag: (tag: ScannedTag) => void): void {
  const names = new Set(options.names);
  const withText = new Set((options.withText ?? []).filter((n) => RAW_TEXT.has(n)));
  const maxText = options.maxText ?? 16 * 1024 * 1024;
  const maxAttr = options.maxAttr ?? 4096;
  const longest = Math.max(0, ...[...names].map((n) => n.length));
  let tag = '';
  let attrs: Record<string, string> = {};
  let attr = '';
  let value = '';
  let open: ScannedTag | undefined;
  const append = (s: string): void => {
    if (open && open.text!.length < maxText) open.text += s.slice(0, maxText - open.text!.length);
  };
  const close = (): void => {
    if (open) onTag(open);
    open = undefined;
  };
  const cbs: Callbacks = {
    onopentagname(start, end) {
      const name = end - start <= longest ? html.slice(start, end).toLowerCase() : '';
      tag = names.has(name) ? name : '';
      attrs = {};
    },
    onattribname(start, end) {
      if (!tag) return;
      attr = html.slice(start, Math.min(end, start + MAX_NAME)).toLowerCase();
      value = '';
    },
    onattribdata(start, end) {
      if (tag && value.length < maxAttr) value += html.slice(start, Math.min(end, start + maxAttr - value.length));
    },
    onattribentity(codepoint) {
      if (tag && value.length < maxAttr) value += String.fromCodePoint(codepoint);
    },
    onattribend() {
      if (tag && !(attr in attrs)) attrs[attr] = value;
    },
    onopentagend() {
      if (!tag) return;
      if (withText.has(tag)) {
        close();
        open = { name: tag, attrs, text: '' };
      } else onTag({ name: tag, attrs });
      tag = '';
    },
    onselfclosingtag() {
      if (tag) onTag(withText.has(tag) ? { name: tag, attrs, text: '' } : { name: tag, attrs });
      tag = '';
    },
    ontext(start, end) {
      if (open) append(html.slice(start, Math.min(end, start + maxText)));
    },
    ontextentity(codepoint) {
      // Only a title's or textarea's body decodes entities; a script's is raw.
      if (open) append(String.fromCodePoint(codepoint));
    },
    onclosetag() {
      close();
    },
    oncdata: NOOP,
    oncomment: NOOP,
    ondeclaration: NOOP,
    onend: NOOP,
    onprocessinginstruction: NOOP,
  };
  const tokenizer = new Tokenizer({ decodeEntities: true }, cbs);
  tokenizer.write(html);
  tokenizer.end();
  close();
}

/** The tags `scanTags` reports, as a list. */
export function findTags(html: string, options: ScanOptions): ScannedTag[] {
  const out: ScannedTag[] = [];
  scanTags(html, options, (t) => out.push(t));
  return out;
}
