/**
 * PDF tables: tagged (the structure tree), ruled (painted grid lines) and aligned (column starts shared by
 * consecutive lines), their header rows (above, split over lines, carried over a page break), and contents lists.
 */
import { append, maxOf, minOf } from '../../lib/arrays.js';
import { codeSpan, esc } from '../inline.js';
import { fillGrid, inGrid, trimFrameBands, type Grid, type PlacedItem } from './rules.js';
import { itemSize, type TextItem } from './items.js';
import { BULLET_GLYPHS, type Cell, type Columns, type Line, readingOrder, segments, toLines } from './lines.js';
import { joinWrapped, spanOrSpace, TextBuilder, type LineBreaks } from './text.js';
import { PAGE_LABEL } from '../page-label.js';

/**
 * An item's box for grid placement. Text turned a quarter turn (column headers set vertically) advances along y and
 * its glyphs stand beside the baseline point, so its box is one text size wide and its advance tall; `y` is set so
 * that the box's middle is where `fillGrid` looks (`y + size * 0.3`).
 */
export function gridBox(it: TextItem): PlacedItem {
  const [a, b, , , e, f] = it.transform;
  const size = itemSize(it);
  const w = it.width ?? 0;
  if (Math.abs(b) <= Math.abs(a)) return { x: e, y: f, w, size, str: it.str };
  const up = b > 0;
  const mid = up ? f + w / 2 : f - w / 2;
  return { x: up ? e - size : e, y: mid - size * 0.3, w: size, size, str: it.str };
}

/**
 * Tables the structure tree marks (`Table`/`TR`/`TD`/`TH`): each cell's text read as lines and joined (see
 * `cellMarkdown`), rows aligned to the fullest (see `alignCells`). Like a ruled grid, a table of one row or of one
 * cell per row is a frame, and its text stays text. Returns the tables as lines to place (see `placeTables`) and
 * the items left to read as text.
 */
export function taggedTables(items: TextItem[], links: { rect: number[]; url: string }[]): { tables: Line[]; rest: TextItem[] } {
  const byTable = new Map<number, TextItem[]>();
  for (const it of items) if (it.cell && it.str.trim()) byTable.set(it.cell.table, append(byTable.get(it.cell.table) ?? [], [it]));
  const tables: Line[] = [];
  const taken = new Set<TextItem>();
  for (const cellItems of byTable.values()) {
    const cells = new Map<string, TextItem[]>();
    for (const it of cellItems) {
      const k = `${it.cell!.row}:${it.cell!.col}`;
      cells.set(k, append(cells.get(k) ?? [], [it]));
    }
    const byRow = new Map<number, TaggedCell[]>();
    for (const [k, its] of cells) {
      const [r, c] = k.split(':').map(Number);
      const boxes = its.map(gridBox);
      byRow.set(r, append(byRow.get(r) ?? [], [{ col: c, x0: minOf(boxes.map((p) => p.x)), x1: maxOf(boxes.map((p) => p.x + p.w)), md: cellMarkdown(toLines(its, links)) }]));
    }
    const { rows, starts } = alignCells([...byRow].sort((a, b) => a[0] - b[0]).map(([, row]) => row.sort((a, b) => a.col - b.col)));
    if (rows.length < 2 || rows.every((r) => r.filter(Boolean).length < 2)) continue;
    for (const it of cellItems) taken.add(it);
    const boxes = cellItems.map(gridBox);
    const right = maxOf(boxes.map((p) => p.x + p.w));
    tables.push({ y: maxOf(boxes.map((p) => p.y)) + 0.1, x: minOf(boxes.map((p) => p.x)), size: 0, text: '', height: 0, cells: [{ x: right, text: '' }], table: rows, columns: { at: starts, by: 'text' } });
  }
  return { tables, rest: taken.size ? items.filter((it) => !taken.has(it)) : items };
}

type TaggedCell = { col: number; x0: number; x1: number; md: string };

/**
 * A tagged table's rows as a grid. pdf.js reports neither spans nor the empty cells a page's tree leaves out, so a
 * row with fewer cells than the fullest rows places each of its cells, in order, under the column its text overlaps
 * most (the columns are where the fullest rows' cells stand); a spanning cell is written once, in its first column.
 */
function alignCells(rows: TaggedCell[][]): { rows: string[][]; starts: number[] } {
  const full = maxOf(rows.map((r) => r.length));
  const wide = rows.filter((r) => r.length === full);
  const bands = Array.from({ length: full }, (_, k) => ({ x0: minOf(wide.map((r) => r[k].x0)), x1: maxOf(wide.map((r) => r[k].x1)) }));
  const fit = (c: TaggedCell, k: number) => {
    const overlap = Math.min(c.x1, bands[k].x1) - Math.max(c.x0, bands[k].x0);
    return overlap > 0 ? overlap : -Math.abs((c.x0 + c.x1) / 2 - (bands[k].x0 + bands[k].x1) / 2);
  };
  const grid = rows.map((r) => {
    const out: string[] = new Array(full).fill('');
    if (r.length === full) return r.map((c) => c.md);
    let next = 0;
    r.forEach((c, j) => {
      let best = next;
      for (let k = next + 1; k <= full - (r.length - j); k++) if (fit(c, k) > fit(c, best)) best = k;
      out[best] = c.md;
      next = best + 1;
    });
    return out;
  });
  return { rows: grid, starts: bands.map((b) => b.x0) };
}

/** A tagged cell's lines as one line of markdown: monospace lines and words as code spans (a cell has no blocks). */
function cellMarkdown(lines: Line[]): string {
  const md = new TextBuilder();
  for (const l of lines) md.join(l.runs ? codeSpan(l.text) : (l.md ?? esc(l.text)), spanOrSpace);
  return md.toString();
}

/**
 * Ruled tables first: items inside a grid become its cells (see `pdf/rules.ts`); the rest is read as lines, and
 * each table is put back in reading order before the first line below its top that sits in its column span.
 */
export function placeTables(items: TextItem[], grids: Grid[], links: { rect: number[]; url: string }[], view: number[], plain?: Line[], tagged: Line[] = [], breaks?: LineBreaks): Line[] {
  const tables: Line[] = [...tagged];
  let rest = items;
  for (const g of grids) {
    const inside: PlacedItem[] = [];
    const keep: TextItem[] = [];
    const placed = new Map<PlacedItem, TextItem>();
    for (const it of rest) {
      if (!it.transform || typeof it.str !== 'string') continue;
      const p = gridBox(it);
      if (inGrid(g, p)) {
        inside.push(p);
        placed.set(p, it);
      } else keep.push(it);
    }
    const { grid, outside } = trimFrameBands(g, inside);
    if (!grid) continue;
    const around = new Set(outside);
    const rows = fillGrid(grid, inside.filter((p) => !around.has(p)), breaks).map((r) => r.map((c) => esc(c)));
    // A grid holding a single cell or a single row is a frame, not a table: its text stays text.
    if (rows.length < 2 || rows.every((r) => r.length < 2)) continue;
    rest = [...keep, ...outside.map((p) => placed.get(p)!)];
    tables.push({ y: grid.y1, x: grid.x0, size: 0, text: '', height: 0, cells: [{ x: grid.x1, text: '' }], table: rows, columns: { at: grid.cols, by: 'rules' } });
  }
  const lines = readingOrder(rest, links, view, tables.length ? undefined : plain);
  for (const t of tables.sort((a, b) => a.y - b.y)) {
    const right = t.cells[0].x;
    const at = lines.findIndex((l) => !l.table && l.y < t.y && l.x >= t.x - 50 && l.x <= right);
    if (at < 0) lines.push(t);
    else lines.splice(at, 0, t);
  }
  return lines;
}

/** A list item's marker standing alone as a line's first cell (a bullet glyph, "1.", "a)", "(iv)"), tab-set apart. */
const MARKER_CELL = new RegExp(`^(?:[${BULLET_GLYPHS}]|\\(?(?:\\d{1,3}|[a-z]|[ivxlc]{1,6})[.)])$`, 'u');

/** A list item whose marker is tab-set apart from its text (two cells): a list line, not a table row. */
const listLine = (l: Line) => l.cells.length === 2 && MARKER_CELL.test(l.cells[0].text.trim());

/** A section number with a point ("9.1 Title", "3. Title"), unlike a column header's figure ("12 months"). */
const SECTION = /^\d{1,2}\.(?:\d{1,2}\.?)*\s+\p{L}/u;

/** Captions and notes ("Figure 3-1 …", "Table 2: …", "Listing 1: …") are set like headings but are not ones. */
const CAPTION = /^(fig(ure)?|table|tab|listing|example|chart|exhibit|plate|source|note|abb|abbildung|tabelle|tableau)\.?\s*[\dIVXivx]+/i;

/**
 * Runs of at least 3 lines that split into 2+ wide-gap segments whose starts line up with shared columns become
 * tables (the first row is the header). Columns are clustered from segment starts (8 pt tolerance). Code lines
 * (`code`, indices) are never rows: a listing's aligned columns are its layout.
 */
export function findTables(read: Line[], code: Set<number>, breaks?: LineBreaks): Map<number, AlignedTable> {
  const lines = tightColumns(read, code);
  const out = new Map<number, AlignedTable>();
  const TOL = 8;
  let i = 0;
  let floor = 0;
  while (i < lines.length) {
    // A caption whose number and title happen to line up with the columns below names the table; it is no row.
    if (lines[i].cells.length < 2 || listLine(lines[i]) || CAPTION.test(lines[i].text) || code.has(i)) {
      i++;
      continue;
    }
    let j = i + 1;
    const cols = lines[i].cells.map((c) => c.x);
    // Whether the lines from here pad their rows apart: read ahead, since the first rows may not show it yet (worked
    // out when a lone first-column line asks).
    let pitch: Pitch | undefined | null = null;
    while (j < lines.length && !code.has(j) && !listLine(lines[j])) {
      const l = lines[j];
      const gap = lines[j - 1].y - l.y;
      if (gap > Math.max(l.size, lines[j - 1].size) * 3.5 || gap < 0) break;
      const shared = l.cells.filter((c) => cols.some((x) => Math.abs(x - c.x) < TOL)).length;
      const lo = minOf(cols) - 3 * TOL;
      const hi = maxOf(cols) + 6 * TOL;
      const inside = l.cells.every((c) => c.x >= lo && c.x <= hi);
      if (l.cells.length >= 2 ? shared < 2 && !(inside && shared >= 0 && gap < l.size * 2) : shared < 1 || l.cells.length === 0) break;
      // A lone cell in the first column starts a new row only after a row gap; at the line spacing it is the next
      // line of a multi-line cell (see `continues` below), or of a wrapped cell in a table whose rows are padded.
      // (The first column is the leftmost seen so far: the first line may start right of it, under an empty corner.)
      const left = minOf(cols);
      if (l.cells.length === 1 && !cols.some((x) => x > left + TOL && Math.abs(x - l.cells[0].x) < TOL) && !continues(lines[j - 1], l)) {
        const under = lines[j - 1].cells.some((c) => Math.abs(c.x - l.cells[0].x) < TOL);
        if (pitch === null) pitch = paddedPitch(lines, i, blockEnd(lines, i));
        if (!pitch?.strong || !under || gap > pitch.line * 1.05) break;
      }
      for (const c of l.cells) if (!cols.some((x) => Math.abs(x - c.x) < TOL)) cols.push(c.x);
      j++;
    }
    const multi = lines.slice(i, j).filter((l) => l.cells.length >= 2).length;
    if (j - i >= 3 && multi >= 3) {
      cols.sort((a, b) => a - b);
      const merged: number[] = [];
      for (const x of cols) if (!merged.length || x - merged[merged.length - 1] >= TOL) merged.push(x);
      const columnOf = (x: number) => {
        let k = 0;
        for (let m = 0; m < merged.length; m++) if (merged[m] <= x + TOL) k = m;
        return k;
      };
      const head = headerAbove(lines, i, floor, merged, headerBounds(lines.slice(i, j), merged, columnOf, TOL), TOL);
      // Its first row is set apart (a header) when it has one above, or its first line's font differs from the next's.
      const headed = head.rows.length > 0 || lines[i].font !== lines[i + 1].font;
      const rows: string[][] = head.rows;
      // A line whose cells ran together where its gap was narrower than the rest (an identifier filling its column)
      // is cut at its tighter gaps, when each of those segments starts at one of the table's columns.
      const cellsOf = (l: Line) => (l.tight?.every((c) => merged.some((x) => Math.abs(x - c.x) < TOL)) ? l.tight : l.cells);
      const spanPitch = paddedPitch(lines, i, j);
      const wrapped = wrappedLines(lines, i, j, spanPitch, columnOf, cellsOf);
      // A header whose wrapped cell's first lines stand above the others (set at the cell's foot): its last line is
      // the table's first, at the line spacing under the lines above.
      const headerGoesOn = !!spanPitch && head.rows.length > 0 && lines[i - 1].y - lines[i].y <= spanPitch.line * 1.05;
      // Where each column's text ends at its widest: a token longer than the column is cut there.
      const widest = merged.map(() => -Infinity);
      for (let li = i; li < j; li++)
        for (const c of cellsOf(lines[li])) {
          const k = columnOf(c.x);
          widest[k] = Math.max(widest[k], c.x + (c.w ?? 0));
        }
      /** The row's last line of text in each column. */
      let above: Cell[] = [];
      // A cell's lines after its first are joined once, when the table is read (see `TextBuilder`).
      const built = new Map<string[], TextBuilder[]>();
      const cellText = (row: string[], k: number) => {
        let cells = built.get(row);
        if (!cells) built.set(row, (cells = []));
        if (!cells[k]) (cells[k] = new TextBuilder()).append(row[k]);
        return cells[k];
      };
      for (let li = i; li < j; li++) {
        const l = lines[li];
        const prev = rows[rows.length - 1];
        const goesOn = !!prev && (li > i ? continues(lines[li - 1], l) || wrapped.has(li) : headerGoesOn);
        const row = goesOn ? prev : merged.map(() => '');
        if (!goesOn) above = [];
        for (const c of cellsOf(l)) {
          const k = columnOf(c.x);
          const text = esc(c.text);
          const over = above[k];
          if (!row[k]) row[k] = text;
          else if (!over) cellText(row, k).append(` ${text}`);
          else if (cutToken(over, text, widest[k], l.size, breaks)) cellText(row, k).append(text);
          else cellText(row, k).wrap(text, breaks);
          above[k] = c;
        }
        if (!goesOn) rows.push(row);
      }
      for (const [row, cells] of built) cells.forEach((text, k) => (row[k] = text.toString()));
      out.set(head.start, { end: j, rows: tidyRows(rows), columns: { at: merged, by: 'text' }, headed });
      i = floor = j;
    } else i++;
  }
  return out;
}

/**
 * A table set with little space between its columns (a browser printing a table without its stylesheet leaves a
 * few points): where three or more consecutive lines, one of them at least cut only at gaps of 0.75 em, fall into
 * the same number of segments (two or more) starting at the same places, those segments are their cells. Word gaps
 * in prose do not line up over three lines.
 */
function tightColumns(lines: Line[], code: Set<number>): Line[] {
  const segs = segments;
  const same = (a: Line, b: Line) => segs(a).length === segs(b).length && segs(a).every((c, k) => Math.abs(c.x - segs(b)[k].x) <= 1.5);
  const out = [...lines];
  for (let i = 0; i < lines.length; ) {
    let j = i + 1;
    if (segs(lines[i]).length >= 2 && !code.has(i)) while (j < lines.length && !code.has(j) && same(lines[i], lines[j])) j++;
    if (j - i >= 3 && lines.slice(i, j).some((l) => l.tight)) for (let k = i; k < j; k++) out[k] = { ...lines[k], cells: segs(lines[k]) };
    i = j;
  }
  return out;
}

interface AlignedTable {
  end: number;
  rows: string[][];
  columns: Columns;
  /** Its first row is a header set apart from the rows below. */
  headed: boolean;
}

/** A table that ended a page: its header row and where its columns stand (see `carryHeader`). */
export interface Carried {
  header: string[];
  columns: Columns;
}

/** How far two tables' columns may stand apart and still be the same columns. */
const COLUMN_TOL = { rules: 1, text: 8 } as const;

/**
 * A table opening a page in the columns of the one that ended the page before (the same number, each within a
 * tolerance), whose first row is not set apart as a header and does not repeat that table's header, is its
 * continuation: it gets that table's header row instead of having a data row promoted to one.
 */
export function carryHeader(rows: string[][], columns: Columns, carried: Carried | undefined): string[][] | undefined {
  if (!carried || !sameColumns(columns, carried.columns)) return undefined;
  if (rows[0]?.length !== carried.header.length || rowKey(rows[0]) === rowKey(carried.header)) return undefined;
  return [carried.header, ...rows];
}

const sameColumns = (a: Columns, b: Columns | undefined) => !!b && b.by === a.by && b.at.length === a.at.length && b.at.every((x, k) => Math.abs(x - a.at[k]) <= COLUMN_TOL[a.by]);
const rowKey = (r: string[]) => r.map((c) => c.replace(/\s+/g, ' ').trim().toLowerCase()).join('|');

/**
 * A row a page break split (word processors let a tall row run onto the next page). The table opens a page in the
 * columns of the one that ended the page before; its first row after the header rows it may repeat has no text in
 * its first column, and each of its filled cells goes on mid-sentence (a lower-case letter or closing punctuation)
 * from a cell of that table's last row holding two words or more (a tall row's wrapped cell: short cells end on the
 * first page). Its cells join that last row's (in place) as a cell's wrapped lines do, a word the break cut joined
 * whole where the document writes it so; the rows left are returned, none when the page holds no more of the table.
 * A group's next row under a label written once (an empty first cell; its values capitalised, figures or single
 * words) stays a row.
 */
export function joinSplitRow(rows: string[][], columns: Columns, carried: Carried & { rows: string[][] }, breaks?: LineBreaks): string[][] {
  const last = carried.rows[carried.rows.length - 1];
  if (carried.rows.length < 2 || !sameColumns(columns, carried.columns) || last.length !== rows[0]?.length || !last[0]?.trim()) return rows;
  // The header rows the page repeats (a header wrapped onto two rows repeats both).
  let at = 0;
  while (at < rows.length && at < carried.rows.length - 1 && rowKey(rows[at]) === rowKey(carried.rows[at])) at++;
  const next = rows[at];
  if (!next || next[0].trim()) return rows;
  const filled = next.map((c, k) => (c.trim() ? k : -1)).filter((k) => k >= 0);
  // Each goes on mid-sentence from a cell that wrapped (two words or more): a group's "none" over "yes" does not.
  if (!filled.length || filled.some((k) => !/^[\p{Ll})\],;:]/u.test(next[k].trim()) || !/\S\s+\S/.test(last[k]))) return rows;
  for (const k of filled) {
    const [a, b] = [last[k].trim(), next[k].trim()];
    last[k] = breaks?.isWord(a, b) ? a + b : joinWrapped(a, b, breaks);
  }
  const left = rows.filter((_, r) => r !== at);
  return left.length > at ? left : [];
}

/**
 * A column header set above a column-aligned table, often on two lines and centred over its column ("State funded"
 * over "legal aid", beside "CSOs"), shares no column start with the rows below: up to three short lines right above
 * the table (at most two line spacings apart, the table's text size), each of whose segments is centred over one
 * column without reaching another column's start, are the header row, each column's parts joined top to bottom.
 */
function headerAbove(lines: Line[], start: number, floor: number, cols: number[], bounds: number[], tol: number): { start: number; rows: string[][] } {
  const first = lines[start];
  const column = (c: { x: number; w?: number }): number => {
    const mid = c.x + (c.w ?? 0) / 2;
    let k = -1;
    for (let m = 0; m < cols.length; m++) if (bounds[m] <= mid) k = m;
    const reaches = cols.some((x, m) => m !== k && x >= c.x - tol / 2 && x < c.x + (c.w ?? 0) - tol / 2);
    return reaches ? -1 : k;
  };
  let top = start;
  while (top - 1 >= floor && start - (top - 1) <= 3) {
    const l = lines[top - 1];
    const below = lines[top];
    // A caption ("Example 2-1 Query to …") names the table, not its columns; so does a numbered section title.
    if (l.table || !l.cells.length || CAPTION.test(l.text) || SECTION.test(l.text) || Math.abs(l.size - first.size) > 1 || l.y - below.y <= 0 || l.y - below.y > l.size * 2.2) break;
    if (l.cells.some((c) => column(c) < 0)) break;
    // The last line of a paragraph (the line above it, at the line spacing, one run of text across two columns or
    // more) is no header: "… subject to per-" over "address limits." right above the table.
    const before = lines[top - 2];
    const prose = before?.cells.length === 1 && cols.filter((x) => x >= before.x - tol && x < before.x + (before.w ?? 0)).length >= 2;
    if (prose && before.y - l.y > 0 && before.y - l.y <= l.size * 1.3) break;
    top--;
  }
  if (top === start) return { start, rows: [] };
  const header = cols.map(() => '');
  for (let li = top; li < start; li++)
    for (const c of lines[li].cells) {
      const k = column(c);
      header[k] = header[k] ? `${header[k]} ${esc(c.text)}` : esc(c.text);
    }
  return header.filter(Boolean).length ? { start: top, rows: [header] } : { start, rows: [] };
}

/**
 * Where each column's header may begin (see `headerAbove`): a little left of a left-aligned column's text, and for
 * a right-aligned column of figures right after the column before it ends, since its header may start at the
 * cell's left edge, well left of the figures (a spreadsheet printed without gridlines: "second" over "5", "4", "-3").
 * A column is right-aligned when its cells' right edges agree more closely than their starts, or, all of one width,
 * when they are all figures.
 */
function headerBounds(rows: Line[], cols: number[], columnOf: (x: number) => number, tol: number): number[] {
  const edges = cols.map(() => ({ lefts: [] as number[], rights: [] as number[], figures: true }));
  for (const l of rows)
    for (const c of l.cells) {
      const e = edges[columnOf(c.x)];
      e.lefts.push(c.x);
      e.rights.push(c.x + (c.w ?? 0));
      e.figures &&= NUMERIC.test(c.text);
    }
  const spread = (xs: number[]) => maxOf(xs) - minOf(xs);
  return cols.map((x, k) => {
    const e = edges[k];
    const right = e.rights.length >= 2 && (spread(e.rights) + 1 < spread(e.lefts) || (e.figures && spread(e.lefts) < 1));
    if (!right) return x - tol;
    return k === 0 ? -Infinity : maxOf(edges[k - 1].rights) + 1;
  });
}

/** Where the block of lines from `from` ends: lines of its size (forty at most) up to a gap beyond any row pitch. */
function blockEnd(lines: Line[], from: number): number {
  let end = from + 1;
  for (let least = Infinity; end < lines.length && end - from < 40 && Math.abs(lines[end].size - lines[from].size) <= 0.5; end++) {
    const g = lines[end - 1].y - lines[end].y;
    if (g <= 0 || g > least * 1.6) break;
    least = Math.min(least, g);
  }
  return end;
}

/** The line spacing of lines `from`..`to` (excluded) when their rows are padded apart (see `wrappedLines`). */
function paddedPitch(lines: Line[], from: number, to: number): Pitch | undefined {
  const gaps: number[] = [];
  for (let k = from + 1; k < to; k++) if (lines[k - 1].y > lines[k].y) gaps.push(lines[k - 1].y - lines[k].y);
  if (!gaps.length) return undefined;
  const pitch = minOf(gaps);
  if (pitch > lines[from].size * 1.35) return undefined;
  const row = (g: number) => g >= pitch * 1.1 && g <= pitch * 1.6;
  if (gaps.slice(1).filter(row).length >= 2) return { line: pitch, strong: true };
  return gaps.some(row) ? { line: pitch, strong: false } : undefined;
}

/**
 * A table's line spacing where its rows are padded apart: `strong` when the row pitch shows twice below its first
 * row; else (one row gap seen, or only the header's: rows taller than the page) only lines whose first column is
 * empty are taken for wrapped cells, since a table set at one pitch under a header set apart looks the same.
 */
interface Pitch {
  line: number;
  strong: boolean;
}

/**
 * Where a table pads its rows (cell margins, space after a cell's paragraph: Word's and LibreOffice's tables, and
 * pandoc's), its line gaps come in two pitches: the line spacing inside a cell, the smallest, and the row pitch,
 * 1.1 to 1.6 times it (a blank line between groups of rows is more), seen at least twice below the first row. There
 * a line set at the line spacing under the line before, each of whose cells goes on with text in its column above
 * (a figure under a figure is a row of its own), holds the next lines of that row's cells. Tables set at one pitch
 * give no such sign: their rows stay as the lines are.
 */
function wrappedLines(lines: Line[], from: number, to: number, pitch: Pitch | undefined, columnOf: (x: number) => number, cellsOf: (l: Line) => Cell[]): Set<number> {
  const out = new Set<number>();
  const gap = (k: number) => lines[k - 1].y - lines[k].y;
  if (!pitch) return out;
  for (let k = from + 1; k < to; k++) {
    if (gap(k) <= 0 || gap(k) > pitch.line * 1.05) continue;
    if (!pitch.strong && cellsOf(lines[k]).some((c) => columnOf(c.x) === 0)) continue;
    const above = new Map(cellsOf(lines[k - 1]).map((c) => [columnOf(c.x), c.text]));
    const goesOn = cellsOf(lines[k]).every((c) => {
      const over = above.get(columnOf(c.x));
      return over !== undefined && !figures(over, c.text);
    });
    if (goesOn && lines[k].cells.length) out.add(k);
  }
  return out;
}

/**
 * A line of one token that reaches the end of its column (within an em of the column's widest text) was cut there
 * for want of room, with no hyphen, when it is an identifier, path, address or expression (it holds one of
 * `_ / \\ @ . { } [ ] = , :`) or when the document writes the word its letters make with the `next` line's elsewhere
 * (`breaks`): the next line goes on with no space ("QUARRY_BILLING_UR" "L", "error.retryAfterSecond" "s",
 * "libphonenum" "ber-js"). Not after a comma, semicolon or colon ending it (a list goes on there), nor after a
 * closing quote or parenthesis before a word (a string or call ends there: 'format:"date"' "rejects"; before a
 * brace it goes on: "status:'approved'" "}").
 */
const cutToken = (c: Cell, next: string, widest: number, size: number, breaks?: LineBreaks) => {
  const t = c.text.trim();
  const last = t[t.length - 1];
  // A quote closes where the token holds an even number of it; an opening one at the line's end goes on.
  const closed = /[”’)]/.test(last) || (/["']/.test(last) && t.split(last).length % 2 === 1);
  if (/\s/.test(t) || /[,;:]$/.test(t) || (closed && /^[\p{L}\d]/u.test(next))) return false;
  return c.x + (c.w ?? 0) >= widest - size && (/[_/\\@.{}[\]=,:]/.test(t) || !!breaks?.isWord(t, next));
};

/**
 * Figures do not wrap: a figure set under a figure starts a row (a subtotal), whatever the spacing. One that ends in
 * a separator or an operator ("2026-04 /" over "2024-04", "4.13.19 +" over "2.1.8") goes on there.
 */
const figures = (over: string | undefined, text: string) => over !== undefined && NUMERIC.test(over) && NUMERIC.test(text) && !/[/+\-−–,:(]\s*$/.test(over);

/**
 * A body line holding one cell, set at the line spacing under a row of several: that row's cell goes on (not a
 * figure under one of the row's figures it overlaps).
 */
const continues = (above: Line, l: Line) => {
  if (l.cells.length !== 1 || above.cells.length < 2 || above.y - l.y <= 0 || above.y - l.y >= l.size * 1.3) return false;
  const c = l.cells[0];
  const over = above.cells.find((a) => a.x < c.x + (c.w ?? 0) && c.x < a.x + (a.w ?? 0));
  return !figures(over?.text, c.text);
};

/**
 * Multi-line cells: a column that never holds text in a row where its left neighbour does (an indented
 * continuation inside a cell) is folded into that neighbour; then a body row with a single non-empty cell, not the
 * first, continues the row above (when that one has a first cell, and it is not a figure under a figure).
 */
export function tidyRows(rows: string[][]): string[][] {
  const grid = rows.map((r) => [...r]);
  for (let k = grid[0]?.length ?? 0; --k >= 1; ) {
    if (grid.some((r) => r[k] && r[k - 1])) continue;
    for (const r of grid) {
      r[k - 1] = r[k - 1] || r[k];
      r.splice(k, 1);
    }
  }
  const out: string[][] = [];
  for (const r of grid) {
    const prev = out[out.length - 1];
    const lone = r.findIndex((c) => c);
    if (out.length >= 2 && prev && !r[0] && prev[0] && r.filter((c) => c).length === 1 && !figures(prev[lone], r[lone])) {
      r.forEach((c, k) => {
        if (c) prev[k] = prev[k] ? `${prev[k]} ${c}` : c;
      });
    } else out.push(r);
  }
  return out;
}

/** Leader dots, then a page number (see `PAGE_LABEL`: "12", "2-14", "A-3", "vii"). */
const LEADER = new RegExp(String.raw`(?:\.\s?){4,}\s*(?:${PAGE_LABEL})$`, 'i');
const ENTRY = new RegExp(String.raw`^(.*?)\s*(?:\.\s?){4,}\s*(${PAGE_LABEL})$`, 'i');
/**
 * A contents entry is a line of a few hundred characters at most: a longer one is tested by neither pattern, which
 * backtrack polynomially over a long run of dots.
 */
const ENTRY_MAX = 400;
/** A line ending in leader dots and a page number. */
export const endsInLeader = (text: string) => text.length <= ENTRY_MAX && LEADER.test(text);
/** A contents entry's title and page number. */
const contentsEntry = (text: string) => (text.length <= ENTRY_MAX ? ENTRY.exec(text) : null);

/**
 * A table of contents: three or more entries in a row (title, leader dots, page number; an entry's title may wrap
 * onto the line above) become a two-column table, title and page, the leaders dropped. The first entry is the header
 * row, as in any table whose source marks none.
 */
export function contentsRun(lines: Line[], start: number): { end: number; rows: string[][] } | undefined {
  const rows: string[][] = [];
  let i = start;
  while (i < lines.length && !lines[i].table) {
    let m = contentsEntry(lines[i].text);
    let title = m?.[1];
    // A wrapped title: a line without leaders directly above its entry (within two line heights).
    if (!m && rows.length && i + 1 < lines.length && !lines[i + 1].table && (m = contentsEntry(lines[i + 1].text)) && lines[i].y - lines[i + 1].y < lines[i].size * 2) {
      title = `${lines[i].text} ${m[1]}`;
      i++;
    }
    if (!m || !title?.trim()) break;
    rows.push([esc(title.trim()), m[2]]);
    i++;
  }
  return rows.length >= 3 ? { end: i, rows } : undefined;
}

/**
 * A figure: digits with the signs, separators and units figures carry. Two patterns, each linear: one pattern with a
 * digit between two runs of the same characters backtracks quadratically on a long run of digits ending otherwise.
 */
const FIGURE_CHARS = /^[\s\d.,%$€£¥+\-−–()×x/:]*$/;
const NUMERIC = { test: (s: string) => FIGURE_CHARS.test(s) && /\d/.test(s) };

/**
 * A header set on two or three lines (a column's "#" above its "enc-layers", a group label above its columns) comes
 * out as several text rows above numeric ones: when the rows before the first mostly numeric row are two or three
 * and leave some cell empty, and most rows below are numeric too, they are one header, each column's parts joined
 * in order.
 */
export function mergeHeaderRows(rows: string[][]): string[][] {
  const numeric = (r: string[]) => {
    const filled = r.filter(Boolean);
    return filled.length > 0 && filled.filter((c) => NUMERIC.test(c)).length >= filled.length / 2;
  };
  const first = rows.findIndex(numeric);
  if (first < 2 || first > 3) return rows;
  const body = rows.slice(first);
  if (body.filter(numeric).length < Math.max(2, body.length / 2)) return rows;
  const head = rows.slice(0, first);
  // A bare number in a header row means it is data after all ("(0.75)", a unit or parameter, is not one).
  if (!head.some((r) => r.some((c) => !c)) || head.some((r) => r.some((c) => NUMERIC.test(c) && !/^\(.*\)$/.test(c.trim())))) return rows;
  const merged = head[0].map((_, k) => head.map((r) => r[k] ?? '').filter(Boolean).join(' '));
  return [merged, ...body];
}
