/** Word tables to blocks: spans and vertical merges written once, a header row marked or a title row taken out. */
import { flattenBlocks } from '../html.js';
import { captionedTable } from '../markdown.js';
import type { Block } from '../types.js';
import { attr, child, find, kids, type XNode } from '../xml.js';

/**
 * A table's blocks: its title rows (see `captionedTable`) unless its first row is marked a header, then the table.
 * A table of one cell is a box drawn around its content (a callout, a framed note): read as that content, its
 * headings and lists kept. `read` reads a cell's content (the walker's body).
 */
export function tableBlocks(tbl: XNode, read: (cell: XNode) => Block[]): Block[] {
  const trs = kids(tbl, 'w:tr');
  // A row's cells, a content control's cell included.
  const cellsOf = (tr: XNode) =>
    kids(tr)
      .filter((c) => c.name === 'w:tc' || c.name === 'w:sdt')
      .map((c) => (c.name === 'w:sdt' ? find(c, 'w:tc') : c))
      .filter((c): c is XNode => !!c);
  const only = trs.length === 1 ? cellsOf(trs[0]) : [];
  if (only.length === 1) return read(only[0]);
  const rows: string[][] = [];
  for (const tr of trs) {
    const row: string[] = [];
    const skip = Number(attr(child(child(tr, 'w:trPr'), 'w:gridBefore'), 'w:val') ?? 0);
    for (let i = 0; i < skip; i++) row.push('');
    for (const cell of cellsOf(tr)) {
      const tcpr = child(cell, 'w:tcPr');
      const span = Math.min(64, Number(attr(child(tcpr, 'w:gridSpan'), 'w:val') ?? 1) || 1);
      const vmerge = child(tcpr, 'w:vMerge');
      const continued = !!vmerge && attr(vmerge, 'w:val') !== 'restart';
      row.push(continued ? '' : flattenBlocks(read(cell)));
      for (let i = 1; i < span; i++) row.push('');
    }
    rows.push(row);
  }
  const headed = !!child(child(trs[0], 'w:trPr'), 'w:tblHeader');
  return headed ? [{ t: 'table', rows }] : captionedTable(rows);
}
