/**
 * Ruled tables: the page's painted horizontal and vertical rules (strokes, and filled rectangles thinner than
 * 3 pt) from pdf.js's operator list, with the current transformation matrix tracked through save/restore/transform,
 * grouped into grids (rules that cross). A grid with at least two row bands and two column bands becomes a table
 * whose cells hold the text items whose centres fall inside them, in reading order, so a cell's several lines
 * stay one cell.
 */
import { append, maxOf, minOf } from '../../lib/arrays.js';
import { spaced, TextBuilder, type LineBreaks } from './text.js';
import { apply, PATH as D, walkPaths } from './matrix.js';


export interface Grid {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  /** Row boundaries, top to bottom (descending y). */
  rows: number[];
  /** Column boundaries, left to right. */
  cols: number[];
  /** The grid's vertical rules (where a band has none on a column line, text may run across it: a merged cell). */
  vs?: { at: number; a: number; b: number }[];
  /** Its horizontal rules (where a row line has none over a column, the cell above runs on: a merged cell). */
  hs?: { at: number; a: number; b: number }[];
}

interface Seg {
  h: boolean;
  /** y for horizontal, x for vertical. */
  at: number;
  a: number;
  b: number;
}


/** Horizontal and vertical rules painted on the page (at most 5,000 path ops read). */
export function rulesFrom(ops: { fnArray: number[]; argsArray: unknown[] }, view: number[]): Seg[] {
  const segs: Seg[] = [];
  const pageW = (view[2] ?? 612) - (view[0] ?? 0);
  walkPaths(ops, (_paint, path, ctm) => {
    const pts: [number, number][][] = [];
    let cur: [number, number][] = [];
    for (let k = 0; k < path.length; ) {
      const op = path[k++];
      if (op === D.moveTo) {
        if (cur.length) pts.push(cur);
        cur = [apply(ctm, path[k], path[k + 1])];
        k += 2;
      } else if (op === D.lineTo) {
        cur.push(apply(ctm, path[k], path[k + 1]));
        k += 2;
      } else if (op === D.curveTo) {
        k += 6;
        cur = [];
      } else if (op === D.quadraticCurveTo) {
        k += 4;
        cur = [];
      } else if (op === D.closePath) {
        if (cur.length) cur.push(cur[0]);
      } else break;
    }
    if (cur.length) pts.push(cur);
    for (const poly of pts) {
      const [x0, x1] = [minOf(poly.map((p) => p[0])), maxOf(poly.map((p) => p[0]))];
      const [y0, y1] = [minOf(poly.map((p) => p[1])), maxOf(poly.map((p) => p[1]))];
      const w = x1 - x0;
      const h = y1 - y0;
      if (w > pageW * 0.95) continue; // page frames and backgrounds
      if (poly.length >= 4 && w < 3 && h >= 3) segs.push({ h: false, at: (x0 + x1) / 2, a: y0, b: y1 });
      else if (poly.length >= 4 && h < 3 && w >= 3) segs.push({ h: true, at: (y0 + y1) / 2, a: x0, b: x1 });
      else
        for (let k = 1; k < poly.length; k++) {
          const [x1, y1] = poly[k - 1];
          const [x2, y2] = poly[k];
          if (Math.abs(y1 - y2) < 0.5 && Math.abs(x1 - x2) >= 3) segs.push({ h: true, at: y1, a: Math.min(x1, x2), b: Math.max(x1, x2) });
          else if (Math.abs(x1 - x2) < 0.5 && Math.abs(y1 - y2) >= 3) segs.push({ h: false, at: x1, a: Math.min(y1, y2), b: Math.max(y1, y2) });
        }
    }
  });
  return segs;
}

const uniq = (xs: number[], tol: number) => {
  const out: number[] = [];
  for (const x of [...xs].sort((a, b) => a - b)) if (!out.length || x - out[out.length - 1] > tol) out.push(x);
  return out;
};

/** Collinear rules that touch or overlap (a column rule drawn one row at a time) become one rule. */
function joinCollinear(segs: Seg[]): Seg[] {
  // Rules on one line (positions within 1 pt: a frame's edge and a label box's edge differ by rounding) are merged
  // along the line in order of their start.
  const sorted = [...segs].sort((p, q) => Number(p.h) - Number(q.h) || p.at - q.at);
  const out: Seg[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i + 1;
    while (j < sorted.length && sorted[j].h === sorted[i].h && sorted[j].at - sorted[j - 1].at < 1) j++;
    const start = out.length;
    for (const s of sorted.slice(i, j).sort((p, q) => p.a - q.a)) {
      const last = out.length > start ? out[out.length - 1] : undefined;
      if (last && s.a <= last.b + 2) last.b = Math.max(last.b, s.b);
      else out.push({ ...s });
    }
    i = j;
  }
  return out;
}

/** Groups crossing rules into grids (union-find, 2 pt tolerance); keeps grids with ≥ 2 row and ≥ 2 column bands. */
export function gridsFrom(raw: Seg[]): Grid[] {
  if (raw.length < 4 || raw.length > 4000) return [];
  const segs = joinCollinear(raw);
  const parent = segs.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const T = 2;
  const H = segs.map((s, i) => [s, i] as const).filter(([s]) => s.h);
  const V = segs.map((s, i) => [s, i] as const).filter(([s]) => !s.h);
  for (const [h, i] of H)
    for (const [v, j] of V)
      if (v.at >= h.a - T && v.at <= h.b + T && h.at >= v.a - T && h.at <= v.b + T) parent[find(i)] = find(j);
  const groups = new Map<number, Seg[]>();
  segs.forEach((s, i) => {
    const r = find(i);
    if (!groups.has(r)) groups.set(r, []);
    groups.get(r)!.push(s);
  });
  const grids: Grid[] = [];
  for (const g of groups.values()) {
    const hs = g.filter((s) => s.h);
    const vs = g.filter((s) => !s.h);
    if (hs.length < 2 || vs.length < 2) continue;
    const rows = uniq(hs.map((s) => s.at), 2).reverse();
    const cols = uniq(vs.map((s) => s.at), 2);
    // Tables often leave out their outer verticals (or, less often, horizontals): rules running past the outermost
    // crossing rule bound an outer column (row) of their own.
    const hMin = minOf(hs.map((s) => s.a));
    const hMax = maxOf(hs.map((s) => s.b));
    const vMin = minOf(vs.map((s) => s.a));
    const vMax = maxOf(vs.map((s) => s.b));
    if (hMin < cols[0] - 3) cols.unshift(hMin);
    if (hMax > cols[cols.length - 1] + 3) cols.push(hMax);
    if (vMax > rows[0] + 3) rows.unshift(vMax);
    if (vMin < rows[rows.length - 1] - 3) rows.push(vMin);
    if (rows.length < 3 && cols.length < 3) continue; // a plain box (a frame around text), not a table
    if (rows.length < 2 || cols.length < 2) continue;
    grids.push({ x0: cols[0], x1: cols[cols.length - 1], y0: rows[rows.length - 1], y1: rows[0], rows, cols, vs: vs.map(({ at, a, b }) => ({ at, a, b })), hs: hs.map(({ at, a, b }) => ({ at, a, b })) });
  }
  return grids;
}

export interface PlacedItem {
  x: number;
  y: number;
  w: number;
  size: number;
  str: string;
}

/** Whether an item's centre is inside the grid. */
export const inGrid = (g: Grid, it: PlacedItem) => {
  const cx = it.x + it.w / 2;
  const cy = it.y + it.size * 0.3;
  return cx > g.x0 && cx < g.x1 && cy > g.y0 && cy < g.y1;
};

/** Whether a vertical rule of the grid runs along column line `c` through the middle of band `r`. */
function ruledAt(g: Grid, r: number, c: number): boolean {
  if (!g.vs) return true;
  const mid = (g.rows[r] + g.rows[r + 1]) / 2;
  return g.vs.some((v) => Math.abs(v.at - g.cols[c]) <= 2 && v.a - 2 <= mid && mid <= v.b + 2);
}

/** Whether a horizontal rule of the grid runs along row line `k` (between bands k-1 and k) over the middle of column `c`. */
function ruledAcross(g: Grid, k: number, c: number): boolean {
  if (!g.hs) return true;
  const mid = (g.cols[c] + g.cols[c + 1]) / 2;
  return g.hs.some((h) => Math.abs(h.at - g.rows[k]) <= 2 && h.a - 2 <= mid && mid <= h.b + 2);
}

/** Some text in these items runs across x (a line wider than the cell it starts in). */
const across = (items: PlacedItem[], x: number) => items.some((it) => it.str.trim() && it.x < x - 2 && it.x + it.w > x + 2);

const bandOf = (g: Grid, it: PlacedItem) => {
  const cy = it.y + it.size * 0.3;
  return g.rows.findIndex((y, k) => k < g.rows.length - 1 && cy <= y && cy > g.rows[k + 1]);
};

/**
 * A band at the grid's top or bottom that no inner column rule divides and whose text runs across a column line (a
 * form's letterhead inside its frame, a disclaimer paragraph under its last row) is text around the table, not a
 * row of it. Returns the grid without those bands (undefined when nothing is left of it) and the items they held.
 */
export function trimFrameBands(g: Grid, items: PlacedItem[]): { grid?: Grid; outside: PlacedItem[] } {
  const R = g.rows.length - 1;
  const inner = g.cols.slice(1, -1).map((_, k) => k + 1);
  const open = (r: number) => {
    const inBand = items.filter((it) => bandOf(g, it) === r);
    return inner.length > 0 && inner.every((c) => !ruledAt(g, r, c)) && inner.some((c) => across(inBand, g.cols[c]));
  };
  let top = 0;
  while (top < R && open(top)) top++;
  let bottom = R;
  while (bottom > top && open(bottom - 1)) bottom--;
  if (top === 0 && bottom === R) return { grid: g, outside: [] };
  const outside = items.filter((it) => {
    const r = bandOf(g, it);
    return r < top || r >= bottom;
  });
  if (bottom - top < 1) return { outside: items };
  const rows = g.rows.slice(top, bottom + 1);
  return { grid: { ...g, rows, y1: rows[0], y0: rows[rows.length - 1] }, outside };
}

/**
 * For a left-aligned cell between column lines `left` and `right`: whether a line may end inside a word the writer
 * cut there because it is wider than the cell (a package name, a URL). A word processor moves a word that does not
 * fit onto a line of its own, and cuts it only when it does not fit there either: so the line is that one word,
 * runs to the cell's text edge (within a character; the right margin taken as wide as the left one), and the word's
 * parts on both lines could not fit the cell's text width together. A cell whose lines start at different places
 * (centred, right-aligned) or whose text crosses a column line (merged) has no known edge: its words are never taken
 * as cut. Words stacked in a column sized to its widest (TeX) fill their lines too, so `fillGrid` also asks that
 * the document write the joined word elsewhere.
 */
function wordCutter(its: PlacedItem[], left: number, right: number): (prev: PlacedItem, line: string, next: PlacedItem) => boolean {
  const ink = its.filter((it) => it.str.trim());
  const starts = lineStarts(ink);
  if (!ink.length || maxOf(starts) - minOf(starts) > 1 || ink.some((it) => it.x < left - 1 || it.x + it.w > right + 1)) return () => false;
  const margin = Math.max(0, starts[0] - left);
  const edge = right - margin;
  const width = edge - starts[0];
  const charW = (it: PlacedItem) => it.w / Math.max(1, it.str.length);
  return (prev, line, next) => {
    const head = /^\S+/.exec(next.str)?.[0].length ?? 0;
    return !/\s/.test(line.trim()) && head > 0 && prev.x + prev.w >= edge - charW(prev) && line.trim().length * charW(prev) + head * charW(next) > width;
  };
}

/** The x where each line of a cell's items starts (items sorted top to bottom, then left to right). */
function lineStarts(ink: PlacedItem[]): number[] {
  const starts: number[] = [];
  let y = Infinity;
  for (const it of ink) {
    if (Math.abs(it.y - y) >= it.size * 0.5) starts.push(it.x);
    y = it.y;
  }
  return starts;
}

/**
 * The grid's cells filled with the items inside them (by centre), each cell's items in reading order (top to
 * bottom, then left to right; a gap or a new line reads as a space, see `spaced`). Empty rows and columns are dropped.
 */
export function fillGrid(g: Grid, items: PlacedItem[], breaks?: LineBreaks): string[][] {
  const R = g.rows.length - 1;
  const C = g.cols.length - 1;
  const cells: PlacedItem[][][] = Array.from({ length: R }, () => Array.from({ length: C }, () => []));
  for (const it of items) {
    const cx = it.x + it.w / 2;
    const r = bandOf(g, it);
    const c = g.cols.findIndex((x, k) => k < C && cx >= x && cx < g.cols[k + 1]);
    if (r >= 0 && c >= 0) cells[r][c].push(it);
  }
  // Merged cells: in a table of three columns or more, a cell boxed by column rules whose top line has no rule while
  // the same line is ruled over another column holding text below it (a real row line) is the cell above running on
  // (text wrapped or centred down a cell merged over rows), written once in the topmost. Its band is then one row.
  const grown = new Set<number>();
  const filled = (its: PlacedItem[]) => its.some((it) => it.str.trim());
  // (Each check walks the grid's rules: a hostile grid of thousands of rows and columns skips this.)
  if (C >= 3 && R * C <= 10_000)
    for (let c = 0; c < C; c++) {
      let owner = 0;
      for (let r = 1; r < R; r++) {
        const boxed = ruledAt(g, r, c) && ruledAt(g, r, c + 1) && ruledAt(g, owner, c) && ruledAt(g, owner, c + 1);
        const rowLine = cells[r].some((its, k) => k !== c && filled(its) && ruledAcross(g, r, k));
        if (ruledAcross(g, r, c) || !boxed || !rowLine) owner = r;
        else if (filled(cells[r][c])) {
          append(cells[owner][c], cells[r][c]);
          cells[r][c] = [];
          grown.add(owner);
        }
      }
    }
  // And where a band has no rule on a column line and its text runs across that line, the cells on both sides are
  // one, written once in the leftmost.
  for (let r = 0; r < R; r++) {
    const band = cells[r].flat();
    let owner = 0;
    for (let c = 1; c < C; c++) {
      if (!ruledAt(g, r, c) && across(band, g.cols[c])) {
        append(cells[r][owner], cells[r][c]);
        cells[r][c] = [];
      } else owner = c;
    }
  }
  // A band whose cells' lines share baselines (a form's column of labels beside a column of values) is several
  // rows drawn without rules between them: split it at each baseline. Staggered multi-line cells (a label centred
  // beside three lines of text) stay one row.
  const bands: PlacedItem[][][] = [];
  for (const [r, row] of cells.entries()) {
    if (grown.has(r)) {
      bands.push(row);
      continue;
    }
    const bases: number[] = [];
    for (const its of row) for (const it of its) if (it.str.trim() && !bases.some((b) => Math.abs(b - it.y) < 2)) bases.push(it.y);
    const shared = bases.filter((b) => row.filter((its) => its.some((it) => it.str.trim() && Math.abs(it.y - b) < 2)).length >= 2);
    const isShared = (y: number) => shared.some((b) => Math.abs(b - y) < 2);
    // Lined: most of a cell's lines (a column may hold a few more entries than its neighbour) share baselines.
    const lined = (its: PlacedItem[]) => {
      const ys = its.filter((it) => it.str.trim()).map((it) => it.y);
      return new Set(ys.map((y) => Math.round(y))).size >= 2 && ys.filter(isShared).length >= ys.length * 0.6;
    };
    // The band's first filled cell (its labels) must line up with its values, and one more cell with it (at least
    // mostly: a vehicle column's extra "Color" and "Odometer" lines beside a customer column).
    const first = row.find((its) => its.some((it) => it.str.trim()));
    const aligned = row.filter((its) => its !== first && lined(its)).length;
    if (bases.length >= 2 && shared.length >= 2 && shared.length >= bases.length * 0.6 && aligned >= 1 && first && lined(first)) {
      bases.sort((a, b) => b - a);
      for (const b of bases) bands.push(row.map((its) => its.filter((it) => Math.abs(it.y - b) < 2 || (Math.abs(it.y - b) === Math.min(...bases.map((x) => Math.abs(it.y - x)))))));
    } else bands.push(row);
  }
  const text = bands.map((row) =>
    row.map((its, c) => {
      its.sort((p, q) => (Math.abs(p.y - q.y) < Math.min(p.size, q.size) * 0.5 ? p.x - q.x : q.y - p.y));
      // (Worked out only for a cell whose line ends in part of a word the document knows.)
      let cutter: ReturnType<typeof wordCutter> | undefined;
      const cut = (prev: PlacedItem, line: string, next: PlacedItem) => (cutter ??= wordCutter(its, g.cols[c], g.cols[c + 1]))(prev, line, next);
      const s = new TextBuilder();
      /** The text of the cell's current line. */
      let line = '';
      let prev: PlacedItem | undefined;
      // Whether the file set a space run since the last text run (see `spaced`).
      let space = false;
      for (const it of its) {
        if (!it.str.trim()) {
          space = true;
          continue;
        }
        if (prev && Math.abs(prev.y - it.y) >= Math.min(prev.size, it.size) * 0.5) {
          if (breaks?.isWord(line, it.str) && cut(prev, line, it)) s.append(it.str);
          else s.wrap(it.str, breaks);
          line = it.str;
        } else {
          const gap = prev && spaced(s.end, it.str, it.x - (prev.x + prev.w), it.size, space) ? ' ' : '';
          s.append(gap + it.str);
          line += gap + it.str;
        }
        prev = it;
        space = false;
      }
      return s.toString().replace(/\s+/g, ' ').trim();
    }),
  );
  const keepCols = Array.from({ length: C }, (_, c) => text.some((r) => r[c]));
  return text.filter((r) => r.some((c) => c)).map((r) => r.filter((_, c) => keepCols[c]));
}
