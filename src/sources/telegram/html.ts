/**
 * The few DOM reads Telegram's preview pages need, on the open-web toolkit's bounded tree (kit/web/dom.ts): elements
 * by class, an element's text as a reader sees it (runs of white space collapsed, `<br>` a line break), and the
 * address in a `background-image` style. Every walk is iterative, so a hostile page cannot exhaust the stack.
 */
import type { AnyNode, Element } from 'domhandler';
import { findAll, findOne, getAttributeValue } from 'domutils';

export const isElement = (n: AnyNode): n is Element => n.type === 'tag' || n.type === 'script' || n.type === 'style';

export const classesOf = (el: Element): string[] => (getAttributeValue(el, 'class') ?? '').split(/\s+/).filter(Boolean);
export const hasClass = (el: Element, cls: string): boolean => classesOf(el).includes(cls);

/** Every element under `root` (itself excluded) carrying `cls`, in document order. */
export function allByClass(root: AnyNode | AnyNode[], cls: string): Element[] {
  return findAll((el) => hasClass(el, cls), Array.isArray(root) ? root : childrenOf(root));
}

/** The first element under `root` carrying `cls`. */
export function byClass(root: AnyNode | AnyNode[], cls: string): Element | undefined {
  return findOne((el) => hasClass(el, cls), Array.isArray(root) ? root : childrenOf(root)) ?? undefined;
}

export const byTag = (root: AnyNode, name: string): Element | undefined =>
  findOne((el) => el.name === name, childrenOf(root)) ?? undefined;

export const attr = (el: Element | undefined, name: string): string | undefined => {
  const v = el ? getAttributeValue(el, name) : undefined;
  return v === undefined || v.trim() === '' ? undefined : v.trim();
};

function childrenOf(n: AnyNode): AnyNode[] {
  return 'children' in n ? (n.children as AnyNode[]) : [];
}

/** Whether `el` sits inside an element carrying `cls` (below `stop`). */
export function inside(el: Element, cls: string, stop?: AnyNode): boolean {
  for (let p = el.parent; p && p !== stop; p = p.parent) if (isElement(p) && hasClass(p, cls)) return true;
  return false;
}

/** Text as shown: white-space runs become one space, `<br>` a line break, lines trimmed; undefined when empty. */
export function textOf(el: AnyNode | undefined): string | undefined {
  if (!el) return undefined;
  let out = '';
  const stack: AnyNode[] = [el];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.type === 'text') out += (n as { data: string }).data.replace(/[ \t\n\r\f]+/g, ' ');
    else if (isElement(n)) {
      if (n.name === 'br') out += '\n';
      else if (n.name !== 'script' && n.name !== 'style') for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
    }
  }
  const text = out
    .split('\n')
    .map((line) => line.replace(/^ +| +$/g, ''))
    .join('\n')
    .replace(/\u00a0/g, ' ')
    .trim();
  return text === '' ? undefined : text;
}

/** The text nodes directly under `el` (a reaction's count sits beside its emoji, not inside it). */
export function ownText(el: Element): string {
  return el.children.flatMap((c) => (c.type === 'text' ? [(c as { data: string }).data] : [])).join('').trim();
}

/** The address of a `background-image:url(…)` in an element's style. */
export function backgroundUrl(el: Element | undefined): string | undefined {
  const style = attr(el, 'style');
  const m = style ? /background-image\s*:\s*url\(\s*(['"]?)(.*?)\1\s*\)/i.exec(style) : null;
  return m?.[2] ? absolute(m[2]) : undefined;
}

/** Telegram writes some addresses protocol-relative (`//telegram.org/…`). */
export function absolute(url: string): string {
  return url.startsWith('//') ? `https:${url}` : url;
}
