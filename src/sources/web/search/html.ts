/** Small DOM helpers for the result pages and snippets web.search reads: iterative (hostile pages nest deep). */
import type { AnyNode, Element } from 'domhandler';
import { parseHtml } from '../../kit/web/dom.js';
import { clean } from './filters.js';

const MAX_PAGE = 4 * 1024 * 1024;

export const parsePage = (html: string) => parseHtml(html.slice(0, MAX_PAGE));

const BLOCKS = new Set(['p', 'div', 'li', 'br', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'td', 'th', 'tr', 'ul', 'ol', 'section', 'article', 'header', 'footer', 'cite']);

/** The text under a node, whitespace collapsed: inline elements join as written, blocks apart. */
export function textOf(node: AnyNode | undefined): string | undefined {
  if (!node) return undefined;
  const out: string[] = [];
  const stack: (AnyNode | ' ')[] = [node];
  let length = 0;
  while (stack.length && length < 20_000) {
    const n = stack.pop()!;
    if (n === ' ') {
      out.push(' ');
    } else if (n.type === 'text') {
      const data = (n as unknown as { data: string }).data;
      out.push(data);
      length += data.length;
    } else if ('children' in n && n.type !== 'script' && n.type !== 'style') {
      const block = n.type === 'tag' && BLOCKS.has((n as Element).name);
      if (block) stack.push(' ');
      const children = (n as Element).children;
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
      if (block) out.push(' ');
    }
  }
  return clean(out.join(''));
}

/** An HTML fragment's text (Brave's snippets carry `<strong>`), entities decoded. */
export function fragmentText(html: string | undefined): string | undefined {
  return html ? textOf(parseHtml(html.slice(0, 20_000))) : undefined;
}

const classes = (el: Element): string[] => (el.attribs.class ?? '').split(/\s+/).filter(Boolean);
export const hasClass = (el: Element, name: string): boolean => classes(el).includes(name);

/** Every element under `root` (document order) that passes `test`; iterative. */
export function findAllIn(root: AnyNode | AnyNode[], test: (el: Element) => boolean, max = 500): Element[] {
  const out: Element[] = [];
  const stack: AnyNode[] = Array.isArray(root) ? [...root].reverse() : [root];
  while (stack.length && out.length < max) {
    const n = stack.pop()!;
    if (n.type !== 'tag' && n.type !== 'script' && n.type !== 'style' && n.type !== 'root') continue;
    if (n.type === 'tag' && test(n as Element)) out.push(n as Element);
    const children = (n as Element).children ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return out;
}

export const firstIn = (root: AnyNode | AnyNode[], test: (el: Element) => boolean): Element | undefined => findAllIn(root, test, 1)[0];
