/**
 * Paragraphs as the walker reads them, and the blocks runs of them make: list paragraphs nested and numbered as Word
 * numbers them, table-of-contents entries as a table or a list.
 */
import type { Block, ListItem } from '../types.js';
import type { ListCounters, Numbering } from './numbering.js';

/** A paragraph as read: its kind and level, its text, its list numbering. */
export interface Para {
  kind: 'heading' | 'list' | 'text' | 'code' | 'quote' | 'toc';
  level: number;
  text: string;
  numId?: string;
  ilvl?: number;
  /** A table-of-contents entry's page number. */
  page?: string;
  /** A list item by its style's name alone (`List Number`, not `List Bullet`), without Word numbering. */
  ordered?: boolean;
}

/**
 * A table of contents, as a PDF's reads: a table of titles and page numbers, the first entry its header row. Entries
 * without page numbers (a table built to show none) are a list nested by their levels.
 */
export function contentsBlocks(entries: Para[], numbering: Numbering, counters: ListCounters): Block[] {
  if (entries.every((e) => e.page)) return [{ t: 'table', rows: entries.map((e) => [e.text, e.page!]) }];
  return listBlocks(entries.map((e) => ({ ...e, kind: 'list' })), numbering, counters);
}

/** Consecutive list paragraphs to nested list blocks, numbered as Word numbers them. */
export function listBlocks(paras: Para[], numbering: Numbering, counters: ListCounters): Block[] {
  const out: Block[] = [];
  const stack: { block: Extract<Block, { t: 'list' }>; ilvl: number; numId?: string }[] = [];
  for (const p of paras) {
    // Word has nine list levels (0-8); a file claiming more is clamped, not nested without end.
    const ilvl = Math.min(8, Math.max(0, p.ilvl || 0));
    const lvl = p.numId ? numbering.get(p.numId)?.get(ilvl) : undefined;
    const ordered = lvl ? !['bullet', 'none'].includes(lvl.fmt) : !!p.ordered;
    // Word counts a numbering's items across the document; a list by style name alone starts at 1.
    const number = p.numId ? counters.count(p.numId, ilvl, lvl?.start ?? 1) : 1;
    while (stack.length && stack[stack.length - 1].ilvl > ilvl) stack.pop();
    let top = stack[stack.length - 1];
    if (top && top.ilvl === ilvl && (top.block.ordered !== ordered || (ordered && top.numId !== p.numId))) {
      stack.pop();
      top = stack[stack.length - 1];
    }
    const item: ListItem = { text: p.text, children: [] };
    if (top && top.ilvl === ilvl) {
      top.block.items.push(item);
      continue;
    }
    const block: Extract<Block, { t: 'list' }> = { t: 'list', ordered, start: ordered ? number : 1, items: [item] };
    if (top) {
      const parentItems = top.block.items;
      parentItems[parentItems.length - 1].children.push(block);
    } else out.push(block);
    stack.push({ block, ilvl, numId: p.numId });
  }
  return out;
}
