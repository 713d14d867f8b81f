/**
 * LinkedIn's guest pages read as a small tree. Pages are hostile, so the tree is built on htmlparser2's Tokenizer
 * alone (linear; its Parser grows a stack with `unshift`, quadratic on unclosed tags), with the element count capped,
 * close tags looking only so far down the open elements, and every walk below iterative (no recursion to overflow). Comments are kept: LinkedIn puts
 * values in `<code id="…"><!--"…"--></code>`.
 *
 * Kept local to this source until the shared open-web toolkit (src/sources/kit/web/) carries a tree of its own.
 */
import { Tokenizer } from 'htmlparser2';

export interface El {
  name: string;
  attrs: Record<string, string>;
  children: Node[];
  parent?: El;
}
export type Node = El | { text: string } | { comment: string };

const MAX_ELEMENTS = 200_000;
/** How far down the open elements a close tag looks for its element (bounds the work of stray close tags). */
const CLOSE_SEARCH = 512;
const MAX_ATTR = 8192;
/** Elements that never have content. */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr', 'icon']);
/** Elements whose body is not markup. */
const RAW = new Set(['script', 'style']);

type Callbacks = ConstructorParameters<typeof Tokenizer>[1];

export const isEl = (n: Node): n is El => 'name' in n;

/** The page as a tree under a synthetic root element. */
export function parseHtml(html: string): El {
  const root: El = { name: '#root', attrs: {}, children: [] };
  const stack: El[] = [root];
  let count = 0;
  let tag: El | undefined;
  let attr = '';
  let value = '';
  let text = '';
  let raw: string | undefined;
  const top = () => stack[stack.length - 1];
  const flush = () => {
    if (text) top().children.push({ text });
    text = '';
  };
  const cbs: Callbacks = {
    onopentagname(start, end) {
      flush();
      tag = { name: html.slice(start, end).toLowerCase(), attrs: {}, children: [] };
    },
    onattribname(start, end) {
      attr = html.slice(start, Math.min(end, start + 100)).toLowerCase();
      value = '';
    },
    onattribdata(start, end) {
      if (value.length < MAX_ATTR) value += html.slice(start, Math.min(end, start + MAX_ATTR));
    },
    onattribentity(codepoint) {
      if (value.length < MAX_ATTR) value += String.fromCodePoint(codepoint);
    },
    onattribend() {
      if (tag && !(attr in tag.attrs)) tag.attrs[attr] = value;
    },
    onopentagend() {
      if (!tag) return;
      const el = tag;
      tag = undefined;
      if (count >= MAX_ELEMENTS) return;
      count++;
      el.parent = top();
      top().children.push(el);
      if (VOID.has(el.name)) return;
      if (RAW.has(el.name)) raw = el.name;
      stack.push(el);
    },
    onselfclosingtag() {
      if (!tag) return;
      const el = tag;
      tag = undefined;
      if (count >= MAX_ELEMENTS) return;
      count++;
      el.parent = top();
      top().children.push(el);
    },
    ontext(start, end) {
      text += html.slice(start, end);
    },
    ontextentity(codepoint) {
      text += String.fromCodePoint(codepoint);
    },
    onclosetag(start, end) {
      const name = html.slice(start, end).toLowerCase();
      if (raw && name !== raw) return;
      raw = undefined;
      flush();
      // Close the nearest open element of that name; a stray close tag closes nothing.
      for (let i = stack.length - 1; i > 0 && i >= stack.length - CLOSE_SEARCH; i--) {
        if (stack[i].name === name) {
          stack.length = i;
          return;
        }
      }
    },
    oncomment(start, end, offset) {
      flush();
      top().children.push({ comment: html.slice(start, end - offset) });
    },
    oncdata() {},
    ondeclaration() {},
    onend() {
      flush();
    },
    onprocessinginstruction() {},
  };
  const tokenizer = new Tokenizer({ decodeEntities: true }, cbs);
  tokenizer.write(html);
  tokenizer.end();
  return root;
}

/** Every element under `from` (document order) that `test` accepts. */
export function findAll(from: El, test: (el: El) => boolean, limit = Infinity): El[] {
  const out: El[] = [];
  const todo: Node[] = [...from.children].reverse();
  while (todo.length && out.length < limit) {
    const n = todo.pop()!;
    if (!isEl(n)) continue;
    if (test(n)) out.push(n);
    for (let i = n.children.length - 1; i >= 0; i--) todo.push(n.children[i]);
  }
  return out;
}

export const findOne = (from: El, test: (el: El) => boolean): El | undefined => findAll(from, test, 1)[0];

/** A test for an element carrying this class (among others). */
export function byClass(cls: string, name?: string): (el: El) => boolean {
  return (el) => (!name || el.name === name) && (el.attrs.class ?? '').split(/\s+/).includes(cls);
}

export const byId = (id: string) => (el: El) => el.attrs.id === id;

/** The element's text, whitespace collapsed to single spaces (scripts and styles left out). */
export function textOf(el: El | undefined): string | undefined {
  if (!el) return undefined;
  const parts: string[] = [];
  const todo: Node[] = [el];
  while (todo.length) {
    const n = todo.pop()!;
    if ('text' in n) parts.push(n.text);
    else if (isEl(n) && !RAW.has(n.name)) for (let i = n.children.length - 1; i >= 0; i--) todo.push(n.children[i]);
  }
  const t = parts.join(' ').replace(/\s+/g, ' ').trim();
  return t || undefined;
}

const BLOCK = new Set(['p', 'div', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'tr', 'blockquote']);
const PARAGRAPH = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote']);

/**
 * Rich text as plain text with its line structure: blocks start lines, paragraphs and headings end with a blank
 * line, `<br>` breaks a line, list items get "- ", runs of blank lines shrink to one.
 */
export function blockTextOf(el: El | undefined): string | undefined {
  if (!el) return undefined;
  let out = '';
  const line = () => {
    if (out && !out.endsWith('\n')) out += '\n';
  };
  const todo: (Node | 'line' | 'para')[] = [el];
  while (todo.length) {
    const n = todo.pop()!;
    if (n === 'line') line();
    else if (n === 'para') {
      line();
      out += '\n';
    } else if ('text' in n) out += n.text.replace(/\s+/g, ' ');
    else if (isEl(n) && !RAW.has(n.name)) {
      if (n.name === 'br') {
        out += '\n';
        continue;
      }
      if (BLOCK.has(n.name) && n !== el) {
        line();
        todo.push(PARAGRAPH.has(n.name) ? 'para' : 'line');
      }
      if (n.name === 'li') out += '- ';
      for (let i = n.children.length - 1; i >= 0; i--) todo.push(n.children[i]);
    }
  }
  const t = out
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return t || undefined;
}

/** The JSON value LinkedIn keeps in a `<code id="…"><!--…--></code>` element. */
export function codeValue(root: El, id: string): unknown {
  const el = findOne(root, (e) => e.name === 'code' && e.attrs.id === id);
  const comment = el?.children.find((c): c is { comment: string } => 'comment' in c)?.comment;
  if (comment === undefined) return undefined;
  try {
    return JSON.parse(comment);
  } catch {
    return undefined;
  }
}
