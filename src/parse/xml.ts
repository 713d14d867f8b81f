/**
 * Safe XML for OOXML parts: htmlparser2 in XML mode never expands DTD entities (only the five predefined ones and
 * numeric references), and a part that declares a DTD is refused outright. Depth and node counts are bounded.
 */
import { DomHandler, type ChildNode } from 'domhandler';
import { Parser } from 'htmlparser2';
import { LIMITS, ParseError } from './types.js';

export interface XNode {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: XNode[];
  parent?: XNode | null;
}

export function parseXml(text: string): XNode {
  refuseDtd(text);
  return parseBounded(text, { xmlMode: true, maxNodes: LIMITS.xmlNodes, maxDepth: LIMITS.xmlDepth, what: 'XML' });
}

/** Refuses a part that declares a DTD (entities expanded without end are the classic XML bomb). */
export function refuseDtd(text: string): void {
  if (/<!DOCTYPE/i.test(text.slice(0, 4096)) || /<!ENTITY/i.test(text)) {
    throw new ParseError('limit', 'The file contains XML entity declarations (a DTD), which are refused for safety.');
  }
}

/**
 * A tree (XML, or HTML when not `xmlMode`), refused as it is built once it passes `maxNodes` nodes or `maxDepth`
 * levels, so a hostile tree never reaches a recursive walker nor fills the heap: checked after the build, a 7 MB
 * page of bare `<p>` tags (2.4 million elements) had already run the worker out of memory, eight seconds in.
 */
export function parseBounded(text: string, o: { xmlMode: boolean; maxNodes: number; maxDepth: number; what: string }): XNode {
  let nodes = 0;
  const handler = new (class extends DomHandler {
    protected override addNode(node: ChildNode): void {
      if (++nodes > o.maxNodes) throw new ParseError('limit', `The ${o.what} has more than ${o.maxNodes} nodes.`);
      // The stack holds the document itself under the open elements.
      if (this.tagStack.length > o.maxDepth) throw new ParseError('limit', `The ${o.what} is nested more than ${o.maxDepth} levels deep.`);
      super.addNode(node);
    }
  })(undefined, { xmlMode: o.xmlMode });
  new Parser(handler, { xmlMode: o.xmlMode, decodeEntities: true, lowerCaseTags: !o.xmlMode }).end(text);
  return handler.root as unknown as XNode;
}

export const kids = (n: XNode | undefined, name?: string): XNode[] =>
  (n?.children ?? []).filter((c) => (c.type === 'tag' || c.type === 'script' || c.type === 'style') && (!name || c.name === name));

export const child = (n: XNode | undefined, name: string): XNode | undefined => kids(n, name)[0];

/** First descendant by name, depth-first. */
export function find(n: XNode | undefined, name: string): XNode | undefined {
  if (!n?.children) return undefined;
  for (const c of n.children) {
    if (c.name === name) return c;
    const f = find(c, name);
    if (f) return f;
  }
  return undefined;
}

export function findAll(n: XNode | undefined, name: string, out: XNode[] = []): XNode[] {
  if (!n?.children) return out;
  for (const c of n.children) {
    if (c.name === name) out.push(c);
    findAll(c, name, out);
  }
  return out;
}

export function textOf(n: XNode | undefined): string {
  if (!n) return '';
  if (n.type === 'text' || n.type === 'cdata') return n.data ?? (n.children ?? []).map(textOf).join('');
  return (n.children ?? []).map(textOf).join('');
}

export const attr = (n: XNode | undefined, name: string): string | undefined => n?.attribs?.[name];

/** Relationships of a part: id -> { target (resolved against the part's folder), external, type }. */
export function readRels(xml: string | undefined, partPath: string): Map<string, { target: string; external: boolean; type: string }> {
  const out = new Map<string, { target: string; external: boolean; type: string }>();
  if (!xml) return out;
  const dir = partPath.includes('/') ? partPath.slice(0, partPath.lastIndexOf('/')) : '';
  for (const r of findAll(parseXml(xml), 'Relationship')) {
    const id = attr(r, 'Id');
    const target = attr(r, 'Target') ?? '';
    if (!id) continue;
    const external = attr(r, 'TargetMode') === 'External';
    out.set(id, { target: external ? target : resolvePath(dir, target), external, type: attr(r, 'Type') ?? '' });
  }
  return out;
}

export function relsPath(part: string): string {
  const i = part.lastIndexOf('/');
  return `${part.slice(0, i + 1)}_rels/${part.slice(i + 1)}.rels`;
}

function resolvePath(dir: string, target: string): string {
  const parts = target.startsWith('/') ? [] : dir.split('/').filter(Boolean);
  for (const seg of target.replace(/^\//, '').split('/')) {
    if (seg === '..') parts.pop();
    else if (seg && seg !== '.') parts.push(seg);
  }
  return parts.join('/');
}

/** dc:title of docProps/core.xml. */
export function coreTitle(xml: string | undefined): string | undefined {
  if (!xml) return undefined;
  const t = textOf(find(parseXml(xml), 'dc:title')).trim();
  return t || undefined;
}
