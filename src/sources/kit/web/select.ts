/**
 * Small readers over the bounded DOM (./dom.ts) for sources that read product cards and detail pages: elements by
 * id, class or attribute, and an element's visible text (scripts, styles and templates skipped, whitespace folded).
 * Pages are hostile: every walk is over the tree `parseHtml` already bounded, and texts are cut to a length.
 */
import { isTag, isText, type AnyNode, type Element } from 'domhandler';
import { findAll, findOne } from 'domutils';

export type Match = (e: Element) => boolean;

const INVISIBLE = new Set(['script', 'style', 'noscript', 'template', 'svg']);

export const hasClass = (name: string): Match => (e) => (e.attribs.class ?? '').split(/\s+/).includes(name);
export const withId = (id: string): Match => (e) => e.attribs.id === id;
/** An attribute present, or equal to `value` when given. */
export const withAttr = (name: string, value?: string): Match => (e) => (value === undefined ? name in e.attribs : e.attribs[name] === value);
export const named = (tag: string): Match => (e) => e.name === tag;
export const both = (...all: Match[]): Match => (e) => all.every((m) => m(e));

const kids = (root: AnyNode | AnyNode[] | undefined): AnyNode[] =>
  root === undefined ? [] : Array.isArray(root) ? root : 'children' in root ? (root.children as AnyNode[]) : [];

/** Every element under `root` (not `root` itself) that matches, in document order. */
export function all(root: AnyNode | AnyNode[] | undefined, match: Match): Element[] {
  return findAll(match, kids(root));
}

/** The first element under `root` that matches. */
export function first(root: AnyNode | AnyNode[] | undefined, match: Match): Element | undefined {
  return findOne(match, kids(root)) ?? undefined;
}

/** An attribute's value, trimmed; undefined when absent or empty. */
export function attr(e: Element | undefined, name: string): string | undefined {
  const v = e?.attribs[name]?.trim();
  return v ? v : undefined;
}

/** The text a reader sees in `node`: no scripts or styles, whitespace folded, at most `max` characters. */
export function textOf(node: AnyNode | undefined, max = 100_000): string | undefined {
  if (!node) return undefined;
  const parts: string[] = [];
  let length = 0;
  const walk = (n: AnyNode): void => {
    if (length > max) return;
    if (isText(n)) {
      parts.push(n.data);
      length += n.data.length;
    } else if (isTag(n)) {
      if (n.name === 'br') parts.push('\n');
      else if (!INVISIBLE.has(n.name)) for (const c of n.children) walk(c);
    } else if ('children' in n) for (const c of n.children as AnyNode[]) walk(c);
  };
  walk(node);
  const text = parts.join(' ').replace(/[ \t\r\f\v\u00a0\u200e\u200f]+/g, ' ').replace(/ *\n */g, '\n').replace(/\n{3,}/g, '\n\n').trim();
  return text ? text.slice(0, max) : undefined;
}

/** `textOf` on one line (line breaks folded too). */
export function lineOf(node: AnyNode | undefined, max = 10_000): string | undefined {
  return textOf(node, max)?.replace(/\s+/g, ' ');
}
