/**
 * LinkedIn's guest pages read as a tree: the open-web toolkit's bounded DOM (src/sources/kit/web/dom.ts, nesting cut
 * where a hostile page would make the parser slow), walked iteratively. Comments are kept: LinkedIn puts values in
 * `<code id="…"><!--"…"--></code>`.
 */
import { isComment, isTag, isText, type AnyNode, type Element, type ParentNode } from 'domhandler';
import { blockText } from '../kit/web/block-text.js';
import { parseHtml } from '../kit/web/dom.js';

export type El = Element;
export { parseHtml };

/** Every element under `from` (document order) that `test` accepts. */
export function findAll(from: ParentNode, test: (el: Element) => boolean, limit = Infinity): Element[] {
  const out: Element[] = [];
  const todo: AnyNode[] = [...from.children].reverse();
  while (todo.length && out.length < limit) {
    const n = todo.pop()!;
    if (!isTag(n)) continue;
    if (test(n)) out.push(n);
    for (let i = n.children.length - 1; i >= 0; i--) todo.push(n.children[i]);
  }
  return out;
}

export const findOne = (from: ParentNode, test: (el: Element) => boolean): Element | undefined => findAll(from, test, 1)[0];

/** A test for an element carrying this class (among others). */
export function byClass(cls: string, name?: string): (el: Element) => boolean {
  return (el) => (!name || el.name === name) && (el.attribs.class ?? '').split(/\s+/).includes(cls);
}

const SKIPPED = new Set(['script', 'style', 'template']);

/** The element's text, whitespace collapsed to single spaces (scripts and styles left out). */
export function textOf(el: Element | undefined): string | undefined {
  if (!el) return undefined;
  const parts: string[] = [];
  const todo: AnyNode[] = [el];
  while (todo.length) {
    const n = todo.pop()!;
    if (isText(n)) parts.push(n.data);
    else if (isTag(n) && !SKIPPED.has(n.name)) for (let i = n.children.length - 1; i >= 0; i--) todo.push(n.children[i]);
  }
  const t = parts.join(' ').replace(/\s+/g, ' ').trim();
  return t || undefined;
}

/** Rich text as plain text with its line structure (the kit's `blockText`). */
export const blockTextOf = (el: Element | undefined): string | undefined => blockText(el);

/** The JSON value LinkedIn keeps in a `<code id="…"><!--…--></code>` element. */
export function codeValue(root: ParentNode, id: string): unknown {
  const el = findOne(root, (e) => e.name === 'code' && e.attribs.id === id);
  const comment = el?.children.find(isComment)?.data;
  if (comment === undefined) return undefined;
  try {
    return JSON.parse(comment);
  } catch {
    return undefined;
  }
}
