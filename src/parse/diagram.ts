/**
 * SmartArt (a DrawingML diagram's data part, `dgm:dataModel`) as a nested `-` list: the text of its nodes in the
 * order and hierarchy of the diagram's parent-of connections. The layout, style and drawing parts only place the
 * same text, so they are not read. Used by decks (a slide's graphic frame) and Word documents (an inline drawing).
 */
import { append } from '../lib/arrays.js';
import { esc } from './inline.js';
import type { Block, ListItem } from './types.js';
import { attr, child, findAll, kids, textOf, type XNode } from './xml.js';

/** Point types that carry the diagram's own text (a missing type is `node`); the rest are connectors and layout. */
const TEXT_POINTS = new Set(['node', 'asst']);
/** List levels kept at most (0-8), as for lists everywhere else. */
const MAX_DEPTH = 9;

export function diagramBlocks(data: XNode): Block[] {
  const points = findAll(data, 'dgm:pt');
  const text = new Map<string, string>();
  const roots: string[] = [];
  for (const pt of points) {
    const id = attr(pt, 'modelId');
    if (!id) continue;
    const type = attr(pt, 'type') ?? 'node';
    if (type === 'doc') roots.push(id);
    else if (TEXT_POINTS.has(type)) text.set(id, pointText(pt));
  }
  // Parent-of connections (a missing type is `parOf`), each parent's children in source order.
  const children = new Map<string, { id: string; ord: number }[]>();
  const hasParent = new Set<string>();
  for (const cxn of findAll(data, 'dgm:cxn')) {
    if ((attr(cxn, 'type') ?? 'parOf') !== 'parOf') continue;
    const src = attr(cxn, 'srcId');
    const dest = attr(cxn, 'destId');
    if (!src || !dest || src === dest) continue;
    const list = children.get(src) ?? [];
    list.push({ id: dest, ord: Number(attr(cxn, 'srcOrd')) || 0 });
    children.set(src, list);
    hasParent.add(dest);
  }
  const below = (id: string) => (children.get(id) ?? []).sort((a, b) => a.ord - b.ord).map((c) => c.id);
  // Each point is written once, whatever cycles or shared children a hostile file declares.
  const seen = new Set<string>();
  // At the deepest level a subtree is one flat run of items, read without recursion.
  const flat = (ids: string[]): ListItem[] => {
    const out: ListItem[] = [];
    const stack = [...ids].reverse();
    while (stack.length) {
      const id = stack.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      const t = text.get(id);
      if (t) out.push({ text: t, children: [] });
      append(stack, below(id).reverse());
    }
    return out;
  };
  const itemsOf = (ids: string[], depth: number): ListItem[] => {
    if (depth >= MAX_DEPTH - 1) return flat(ids);
    const out: ListItem[] = [];
    for (const id of ids) {
      if (seen.has(id)) continue;
      seen.add(id);
      const nested = itemsOf(below(id), depth + 1);
      const t = text.get(id);
      // A node without text (the document root, an emptied shape) passes its children up.
      if (!t) append(out, nested);
      else out.push({ text: t, children: nested.length ? [{ t: 'list', ordered: false, start: 1, items: nested }] : [] });
    }
    return out;
  };
  const items = itemsOf(roots, -1);
  // Text points no connection reaches (a file that omits the connections) follow in the order the file lists them.
  for (const [id, t] of text) if (!seen.has(id) && !hasParent.has(id) && t) append(items, itemsOf([id], 0));
  return items.length ? [{ t: 'list', ordered: false, start: 1, items }] : [];
}

/** A point's paragraphs (`dgm:t`, DrawingML text) joined into one line. */
function pointText(pt: XNode): string {
  return kids(child(pt, 'dgm:t'), 'a:p')
    .map((p) =>
      kids(p)
        .map((r) => (r.name === 'a:r' || r.name === 'a:fld' ? textOf(child(r, 'a:t')) : r.name === 'a:br' ? ' ' : ''))
        .join('')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter(Boolean)
    .map(esc)
    .join(' ');
}
