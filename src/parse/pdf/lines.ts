/**
 * Lines rebuilt from text items by position: baselines, superscripts and note marks, cells split at wide gaps, links
 * over words, monospace runs, right-to-left order; and the reading order of a page, column by column inside bands.
 */
import { append, maxOf, minOf } from '../../lib/arrays.js';
import { codeSpan, esc, image, keepEdges, link } from '../inline.js';
import { baselineGroups, spaced } from './text.js';
import { itemSize, type TextItem } from './items.js';

/** Where a table's columns stand, left to right: its grid's column lines (`rules`) or where its cells' text starts (`text`). */
export interface Columns {
  at: number[];
  by: 'rules' | 'text';
}

/** A segment of a line: where it starts, its text and its width. */
export interface Cell {
  x: number;
  text: string;
  w?: number;
}

export interface Line {
  y: number;
  /** Font carrying most of the line's characters. */
  font?: string;
  /** All of the line's text is in that one font, code spans (monospace runs among other text) aside. */
  oneFont?: boolean;
  /** Every run holding a letter is set in a bold font (the engine says so: PDFium's weight or the face's name). */
  bold?: boolean;
  /** Heading level from the structure tree (all of the line's text inside an `H`/`Hn` element). */
  tag?: number;
  x: number;
  size: number;
  text: string;
  height: number;
  /** Width from the first run's start to the last run's end. */
  w?: number;
  href?: string;
  /** Segments separated by wide gaps (candidate table cells). */
  cells: Cell[];
  /** Segments separated by gaps of 0.75 em, when there are more of them than `cells` (see `tightColumns`). */
  tight?: Cell[];
  /** A ruled table placed here in reading order (its text is not in `text`; `cells[0].x` is its right edge). */
  table?: string[][];
  /** A ruled or tagged table's columns (see `carryHeader`). */
  columns?: Columns;
  /** The line's runs as set, when all of its text is in monospace fonts (a code line: see `codeText`). */
  runs?: { x: number; s: string; w: number }[];
  /** Markdown of a line mixing monospace and other fonts: its monospace words as code spans, the rest escaped. */
  md?: string;
  /** Led by a smaller raised note mark: a footnote, which starts a paragraph of its own. */
  note?: boolean;
  /** How far smaller raised text (a note mark, an exponent) reaches above the line's own text, when it does. */
  rise?: number;
}

/**
 * Column pages: a vertical gutter in the middle of the page that (almost) no narrow text item crosses splits
 * the items into columns, and each side is split again the same way (three columns). Wide lines that cross it (titles, abstracts, full-width blocks) cut the page into bands,
 * and each band is read left column, then right column. Both sides must read as prose (lines filling most of their
 * column) or keep their own baselines, so that a form or a table with a blank middle (rows whose halves share a
 * baseline) is not torn into two halves.
 */
export function readingOrder(items: TextItem[], links: { rect: number[]; url: string }[], view: number[], plain?: Line[]): Line[] {
  return columns(items, links, view, plain, 0).lines;
}

/** `readingOrder` at a nesting depth; `split` tells whether a gutter divided these items. */
function columns(items: TextItem[], links: { rect: number[]; url: string }[], view: number[], plain: Line[] | undefined, depth: number): { lines: Line[]; split: boolean } {
  const whole = () => ({ lines: plain ?? toLines(items, links), split: false });
  const x0 = view?.[0] ?? 0;
  const width = (view?.[2] ?? 612) - x0;
  const text = items.filter((it) => typeof it.str === 'string' && it.str.trim() && it.transform);
  if (text.length < 20 || width <= 0) return whole();
  // Full-width runs do not vote on the gutter.
  const narrow = text.filter((it) => (it.width ?? 0) < width * 0.5);
  // Bins of a point, coarser across a page wider than 4,000 points (a hostile MediaBox would size the array).
  const unit = Math.max(1, width / 4000);
  const bins = coverage(narrow, x0, unit, 0, Math.ceil(width / unit));
  const allowed = Math.max(1, Math.floor(narrow.length * 0.03));
  let best: [number, number] | undefined;
  let start = -1;
  // The gutter may stand anywhere in the middle three fifths: side heads beside a body column, or a sidebar at the
  // edge, leave theirs at a quarter of the width or three quarters.
  for (let i = Math.floor((width / unit) * 0.2); i <= Math.ceil((width / unit) * 0.8); i++) {
    if (bins[i] <= allowed) {
      if (start < 0) start = i;
      if (!best || i - start > best[1] - best[0]) best = [start, i];
    } else start = -1;
  }
  if (!best || (best[1] - best[0]) * unit < 6) return whole();
  const gutter = x0 + unit * clearest(text, x0, unit, best);
  const left: TextItem[] = [];
  const right: TextItem[] = [];
  const full: TextItem[] = [];
  for (const it of items) {
    if (!it.transform) continue;
    const a = it.transform[4];
    const b = a + (it.width ?? 0);
    if (b <= gutter + 1) left.push(it);
    else if (a >= gutter - 1) right.push(it);
    else full.push(it);
  }
  joinCrossingLines(full, left, right);
  const chars = (xs: TextItem[]) => xs.reduce((n, it) => n + (it.str?.trim().length ?? 0), 0);
  // Each side carries a tenth of the text where both sides have text (two columns under a single-column top half
  // count; side heads carry about that much beside their body column), and something of the page's.
  const ys = (xs: TextItem[]) => xs.filter((it) => it.str?.trim()).map((it) => it.transform[5]);
  const [lys, rys] = [ys(left), ys(right)];
  const top = Math.min(maxOf(lys), maxOf(rys));
  const bottom = Math.max(minOf(lys), minOf(rys));
  const within = (xs: TextItem[]) => chars(xs.filter((it) => it.transform[5] >= bottom - 1 && it.transform[5] <= top + 1));
  const both = within(left) + within(right);
  if (within(left) < both * 0.1 || within(right) < both * 0.1 || chars(left) < chars(text) * 0.05 || chars(right) < chars(text) * 0.05) return whole();
  // Each side may hold columns of its own (a three-column page splits again on one side of its first gutter); a
  // side read as columns counts as prose.
  const side = (xs: TextItem[], a: number, b: number) => (depth < 2 ? columns(xs, links, [a, view?.[1] ?? 0, b, view?.[3] ?? 792], undefined, depth + 1) : { lines: toLines(xs, links), split: false });
  const leftSide = side(left, x0, gutter);
  const rightSide = side(right, gutter, x0 + width);
  const [L, R] = [leftSide.lines, rightSide.lines];
  if (!((leftSide.split || prose(L)) && (rightSide.split || prose(R))) && sharedBaselines(L, R) >= 0.5) return whole();
  // Crossing lines wide enough to span both columns cut the page into bands; a narrow one joins the column its
  // centre is in (in a side read as columns, before the first line below it that it overlaps).
  const F: Line[] = [];
  const byY = (p: Line, q: Line) => q.y - p.y || p.x - q.x;
  for (const l of toLines(full, links)) {
    if ((l.w ?? 0) >= width * 0.4) F.push(l);
    else {
      const [lines, split] = l.x + (l.w ?? 0) / 2 < gutter ? [L, leftSide.split] : [R, rightSide.split];
      const at = split ? lines.findIndex((m) => m.y < l.y && m.x < l.x + (l.w ?? 0) && m.x + (m.w ?? 0) > l.x) : -1;
      if (at >= 0) lines.splice(at, 0, l);
      else lines.push(l);
    }
  }
  if (!leftSide.split) L.sort(byY);
  if (!rightSide.split) R.sort(byY);
  F.sort(byY);
  const out: Line[] = [];
  let upper = Infinity;
  for (const f of [...F, undefined]) {
    const lower = f?.y ?? -Infinity;
    const band = (l: Line) => l.y < upper && l.y >= lower;
    append(append(out, L.filter(band)), R.filter(band));
    if (f) out.push(f);
    upper = lower;
  }
  return { lines: out, split: true };
}

/** How many runs cover each bin of `unit` points from x0, for the bins a to b. */
function coverage(runs: TextItem[], x0: number, unit: number, a: number, b: number): Int32Array {
  const bins = new Int32Array(b - a + 1);
  for (const it of runs) {
    const from = Math.max(a, Math.floor((it.transform[4] - x0) / unit));
    const to = Math.min(b, Math.ceil((it.transform[4] - x0 + (it.width ?? 0)) / unit));
    for (let i = from; i <= to; i++) bins[i - a]++;
  }
  return bins;
}

/**
 * Where in the gutter's range, bins a to b, the fewest runs cross, full-width ones included: the middle of the
 * longest stretch they cross least. Full-width runs do not find the gutter, but the long lines of a column beside a
 * narrow box (a browser's side panel) reach into the range its few narrow runs leave clear.
 */
function clearest(text: TextItem[], x0: number, unit: number, [a, b]: [number, number]): number {
  const bins = coverage(text, x0, unit, a, b);
  const least = minOf(bins);
  let best: [number, number] | undefined;
  let start = -1;
  for (let i = 0; i < bins.length; i++) {
    if (bins[i] !== least) {
      start = -1;
      continue;
    }
    if (start < 0) start = i;
    if (!best || i - start > best[1] - best[0]) best = [start, i];
  }
  return a + (best![0] + best![1]) / 2;
}

/**
 * A run crossing the gutter takes the text runs set beside it on its baseline (within two text sizes, chained),
 * from either side: no column runs through that line, so a list number left of a long item ("4." and "Fourth step …")
 * stays in the item's line instead of being read with the left column.
 */
function joinCrossingLines(full: TextItem[], left: TextItem[], right: TextItem[]): void {
  if (!full.length) return;
  // Space runs neither join nor bridge (`baselineGroups` leaves them out): one spanning a gutter would chain two
  // columns' lines.
  const sides = baselineGroups([...left, ...right]);
  const moved = new Set<TextItem>();
  for (const f of full) {
    if (!f.str.trim()) continue;
    const size = itemSize(f);
    const y = f.transform[5];
    const near = sides.near(y).filter((it) => Math.abs(it.transform[5] - y) <= size * 0.5);
    let [lo, hi] = [f.transform[4], f.transform[4] + f.width];
    for (let grew = true; grew; ) {
      grew = false;
      for (const it of near) {
        const [a, b] = [it.transform[4], it.transform[4] + it.width];
        if (moved.has(it) || b < lo - size * 2 || a > hi + size * 2) continue;
        moved.add(it);
        [lo, hi] = [Math.min(lo, a), Math.max(hi, b)];
        grew = true;
      }
    }
  }
  if (!moved.size) return;
  for (const side of [left, right]) {
    const keep = side.filter((it) => !moved.has(it));
    side.length = 0;
    append(side, keep);
  }
  append(full, [...moved]);
}

/** Share of the smaller side's lines that sit on a baseline of the other side (rows of one table or form). */
function sharedBaselines(a: Line[], b: Line[]): number {
  const [small, big] = a.length <= b.length ? [a, b] : [b, a];
  if (!small.length) return 0;
  return small.filter((l) => big.some((m) => Math.abs(m.y - l.y) < 1)).length / small.length;
}

/** Lines that mostly fill their column's width and run to some length (running text), not labels or cells. */
function prose(lines: Line[]): boolean {
  const ws = lines.filter((l) => l.text.length >= 3).map((l) => l.w ?? 0);
  if (ws.length < 3) return false;
  const left = minOf(lines.map((l) => l.x));
  const right = maxOf(lines.map((l) => l.x + (l.w ?? 0)));
  const median = [...ws].sort((a, b) => a - b)[Math.floor(ws.length / 2)];
  const chars = lines.map((l) => l.text.length).sort((a, b) => a - b)[Math.floor(lines.length / 2)];
  return median >= (right - left) * 0.5 && chars >= 20;
}

const RTL = /[\u0590-\u08FF]/g;
const LTR = /[A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF]/g;

/**
 * Whether an item continues a line: baselines within half the smaller size, or (superscripts, subscripts, fraction
 * digits) a markedly smaller item whose glyphs sit inside the other's vertical extent right next to it.
 */
function sameLine(l: { y: number; size: number; height: number; left: number; right: number; ink: number; letter: boolean }, x: number, y: number, w: number, size: number, glyph: boolean, ink: number, letter: boolean): boolean {
  const ls = l.size || l.height;
  // Text of clearly different sizes far apart on one baseline belongs to different columns (a sidebar's heading
  // beside a column's body line).
  if (Math.min(ls, size) < Math.max(ls, size) * 0.85 && Math.max(x - l.right, l.left - (x + w)) > Math.max(ls, size) * 3) return false;
  // A drop cap (a lone letter two lines tall or more) is no line for the text set beside it, nor its superscript:
  // it goes to its first line (see `dropCaps`).
  const [smallInk, bigLetter] = size < ls ? [ink, l.letter] : [l.ink, letter];
  if (bigLetter && Math.max(ls, size) >= Math.min(ls, size) * 2 && smallInk >= 3) return false;
  if (Math.abs(l.y - y) < Math.max(2, Math.min(ls, size) * 0.5)) return true;
  if (glyph) return false;
  const [small, smallY, big, bigY] = size < ls ? [size, y, ls, l.y] : [ls, l.y, size, y];
  if (small > big * 0.8) return false;
  const near = x <= l.right + big && x + w >= l.left - big;
  // A note mark may reach a little above the line's own ascenders (8 pt raised 4 pt over 10 pt text); a
  // subscript of the line above starts at least most of a line spacing higher.
  return near && smallY >= bigY - big * 0.3 && smallY + small * 0.7 <= bigY + big * 1.05;
}

/**
 * Drop caps: a line that is one letter, at least twice the size of the lines set right beside it, joins the topmost
 * of them, set in its size; the lines below stay as they are. With no space where that line starts with a lower-case
 * letter (the rest of the word: "O" and "nce upon a time"), else with one (a big "Q" before a question).
 */
function dropCaps(lines: { y: number; size: number; left: number; right: number; ink: number; letter: boolean; parts: { x: number; y: number; s: string; w: number; size: number }[] }[]): void {
  for (let i = lines.length - 1; i >= 0; i--) {
    const cap = lines[i];
    if (!cap.letter) continue;
    let first: (typeof lines)[number] | undefined;
    for (const l of lines) {
      if (l === cap || l.size * 2 > cap.size || l.left < cap.right - 1 || l.left > cap.right + cap.size || l.y < cap.y - 2 || l.y > cap.y + cap.size) continue;
      if (!first || l.y > first.y) first = l;
    }
    const lead = first && [...first.parts].sort((p, q) => p.x - q.x).find((p) => p.s.trim());
    if (!first || !lead) continue;
    // The letter's box runs up to the text it starts, or to a space's width before it.
    const gap = /^\p{Ll}/u.test(lead.s.trim()) ? 0 : first.size;
    for (const p of cap.parts) first.parts.push({ ...p, y: first.y, size: first.size, w: lead.x - p.x - gap });
    first.left = Math.min(first.left, cap.left);
    first.ink += cap.ink;
    first.letter = false;
    lines.splice(i, 1);
  }
}

export function toLines(items: TextItem[], links: { rect: number[]; url: string }[]): Line[] {
  type Part = { x: number; y: number; s: string; w: number; size: number; font?: string; tag?: number; mono?: boolean; image?: boolean; bold?: boolean };
  /** `ink`: characters other than spaces; `letter`: they are one letter. */
  type Open = Line & { parts: Part[]; left: number; right: number; ink: number; letter: boolean; order: number };
  const lines: Open[] = [];
  // Items mostly arrive line by line: the line that took the previous item is tried first (O(n) on ordinary pages).
  let recent: Open | undefined;
  // Else the first line it fits among those whose baselines are near enough: `sameLine` joins text at most 1.05 of
  // the larger size (or 2 pt) from a line's baseline. Lines are kept by baseline rounded to the point, so that a
  // page of many lines is not searched whole for each run (quadratic: 20,000 lines took seconds).
  const byBaseline = new Map<number, Open[]>();
  let tallest = 0;
  const file = (l: Open) => {
    const k = Math.round(l.y);
    const group = byBaseline.get(k);
    if (group) group.push(l);
    else byBaseline.set(k, [l]);
  };
  const rebase = (l: Open, y: number) => {
    if (Math.round(y) !== Math.round(l.y)) {
      const group = byBaseline.get(Math.round(l.y))!;
      group.splice(group.indexOf(l), 1);
      l.y = y;
      file(l);
    } else l.y = y;
  };
  const firstFitting = (fits: (l: Open) => boolean, y: number, size: number) => {
    const reach = Math.max(2, Math.max(tallest, size) * 1.05) + 1;
    const [lo, hi] = [Math.floor(y - reach), Math.ceil(y + reach)];
    if (hi - lo >= lines.length) return lines.find(fits);
    let first: Open | undefined;
    for (let k = lo; k <= hi; k++) for (const l of byBaseline.get(k) ?? []) if ((!first || l.order < first.order) && fits(l)) first = l;
    return first;
  };
  for (const it of items) {
    if (typeof it.str !== 'string' || !it.transform || !it.str) continue;
    const [a, b, , d, x, y] = it.transform;
    const size = Math.round(Math.hypot(a, b) * 10) / 10 || Math.abs(d) || it.height;
    // A space run joins a line as the text it sits beside does (after a raised note mark too); a bullet or
    // check-box glyph only on the line's baseline.
    const blank = !it.str.trim();
    const glyph = !blank && GLYPH_ONLY.test(it.str);
    const ink = it.str.replace(/\s+/g, '').length;
    const letter = ink === 1 && /\p{L}/u.test(it.str);
    const fits = (l: Open) => sameLine(l, x, y, it.width, size, glyph, ink, letter);
    let line = recent && fits(recent) ? recent : firstFitting(fits, y, size);
    // A space run that fits no line would open an inkless one that captures the next text.
    if (!line && blank) continue;
    if (!line) {
      line = { y, x, size: 0, text: '', height: size, parts: [], cells: [], left: x, right: x + it.width, ink: 0, letter: false, order: lines.length };
      lines.push(line);
      file(line);
      tallest = Math.max(tallest, size);
    }
    recent = line;
    line.parts.push({ x, y, s: it.str, w: it.width, size, font: it.fontName, tag: it.tag, mono: it.mono, image: it.image, bold: it.bold });
    line.letter = line.ink === 0 ? letter : line.letter && ink === 0;
    line.ink += ink;
    line.left = Math.min(line.left, x);
    line.right = Math.max(line.right, x + it.width);
    // A bullet or check-box glyph (often set larger) does not lift the line's size; the line's baseline is its
    // largest text's (a superscript that started the line gives way).
    if (!glyph && !blank && size > line.size) {
      if (!line.size || size >= line.size * 1.2) rebase(line, y);
      line.size = size;
      tallest = Math.max(tallest, size);
    }
  }
  dropCaps(lines);
  const out: Line[] = [];
  for (const l of lines) {
    l.parts.sort((p, q) => p.x - q.x);
    wordBullet(l.parts, l.size);
    const all = l.parts.map((p) => p.s).join('');
    // A right-to-left line (more Hebrew/Arabic letters than Latin, Greek or Cyrillic ones) reads right to left:
    // pdf.js already gives each run in logical order, so only the runs' order flips.
    const rtl = (all.match(RTL)?.length ?? 0) > (all.match(LTR)?.length ?? 0);
    const order = rtl ? [...l.parts].reverse() : l.parts;
    let text = '';
    let end = -Infinity;
    let start = Infinity;
    const cells: Cell[] = [];
    // The same line cut at narrower gaps (three quarters of an em, wider than a monospace space): a table set with
    // little space between its columns.
    const tight: Cell[] = [];
    const fonts = new Map<string, number>();
    /** Characters per font outside code spans (monospace runs in a line of other text). */
    const proseChars = new Map<string, number>();
    let tag: number | undefined = Infinity;
    // Whether the file set a space run since the last text run (see `spaced`).
    let space = false;
    // The last text run taken, whose end is each list's last cell's (see `spaced`).
    let taken = '';
    for (const p of l.parts) {
      if (!p.s.trim()) {
        space = true;
        continue;
      }
      if (p.font) fonts.set(p.font, (fonts.get(p.font) ?? 0) + p.s.trim().length);
      if (p.font && !p.mono) proseChars.set(p.font, (proseChars.get(p.font) ?? 0) + p.s.trim().length);
      if (tag !== undefined) tag = p.tag === undefined ? undefined : Math.min(tag, p.tag);
      for (const [list, factor] of [[cells, 1], [tight, 0.75]] as const) {
        if (!list.length || p.x - end > Math.max(l.size, 6) * factor) list.push({ x: p.x, text: p.s });
        else {
          const cell = list[list.length - 1];
          cell.text += (spaced(taken, p.s, p.x - end, l.size, space) ? ' ' : '') + p.s;
        }
        list[list.length - 1].w = p.x + p.w - list[list.length - 1].x;
      }
      space = false;
      end = p.x + p.w;
      taken = p.s;
    }
    end = -Infinity;
    space = false;
    // A footnote: the line is led by a smaller raised note mark set apart from the note (a raised "14" touching
    // "C dating" is an isotope's), which is no part of the note's code or link.
    const ink = l.parts.filter((p) => p.s.trim());
    const apart = ink.length > 1 && ink[1].x - (ink[0].x + ink[0].w) > ink[1].size * 0.15;
    const lead = !rtl && apart && ink[0].size < ink[1].size * 0.85 && ink[0].y > ink[1].y + ink[1].size * 0.2 && NOTE_MARK.test(ink[0].s) ? ink[0] : undefined;
    // The line's text in runs of one kind (monospace or not, inside one link or none), for `md`.
    const segs: Seg[] = [];
    const add = (str: string, mono: boolean, href?: string, image?: boolean) => {
      const last = segs[segs.length - 1];
      if (last && last.mono === mono && last.href === href && !image && !last.image) last.s += str;
      else segs.push({ s: str, mono, href, image });
    };
    // A link annotation over only part of the line (a link inside a sentence) takes the words whose middle it
    // covers. pdf.js may have merged the words on either side of its edge into one run: such a run is split into
    // its words, each placed by its share of the run's characters.
    const lineLinks = rtl ? [] : links.filter((k) => k.rect[1] - 2 <= l.y && l.y <= k.rect[3] + 2);
    const linkAt = (x: number) => lineLinks.find((k) => k.rect[0] <= x && x <= k.rect[2])?.url;
    const linkPieces = (p: Part): { s: string; href?: string }[] => {
      if (!lineLinks.length) return [{ s: p.s }];
      const cut = lineLinks.some((k) => k.rect[0] < p.x + p.w && k.rect[2] > p.x && (k.rect[0] > p.x + 1 || k.rect[2] < p.x + p.w - 1));
      if (!cut || p.s.length < 2) return [{ s: p.s, href: linkAt(p.x + p.w / 2) }];
      const per = p.w / p.s.length;
      let at = 0;
      return p.s.split(/(\s+)/).filter(Boolean).map((w) => {
        const piece = { s: w, href: linkAt(p.x + (at + w.length / 2) * per) };
        at += w.length;
        return piece;
      });
    };
    // The text's last 200 characters: the patterns below look at its end, and the text grows by each run.
    let tail = '';
    for (const p of order) {
      if (!p.s.trim()) {
        space = true;
        continue;
      }
      const gap = rtl ? start - (p.x + p.w) : p.x - end;
      const scriptChange = rtl && /[\u0590-\u08FF][^\S]*$/.test(tail) !== /^[^\S]*[\u0590-\u08FF]/.test(p.s) && /\p{L}$/u.test(tail) && /^\p{L}/u.test(p.s);
      const pieces = linkPieces(p);
      // A note mark (a smaller raised number or dagger) after a word is set apart from it ("Center 1", not
      // "Center1"); after a single letter it is an exponent and stays ("a2").
      const mark = !rtl && p.size < l.size * 0.85 && p.y > l.y + l.size * 0.2 && NOTE_MARK.test(p.s) && /\p{L}{2,}[.,;:)]?$/u.test(tail.slice(-40));
      if (text && (mark || spaced(tail, p.s, gap, l.size, space) || (scriptChange && !/\s$/.test(tail) && !/^\s/.test(p.s)))) {
        text += ' ';
        tail += ' ';
        const last = segs[segs.length - 1];
        add(' ', !!p.mono && !!last?.mono, pieces[0].href && last?.href === pieces[0].href ? pieces[0].href : undefined);
      }
      space = false;
      text += p.s;
      tail = (tail + p.s).slice(-200);
      for (const piece of pieces) add(piece.s, !!p.mono && p !== lead, piece.href, p.image);
      end = Math.max(end, p.x + p.w);
      start = Math.min(start, p.x);
    }
    if (rtl) cells.reverse();
    for (const c of cells) c.text = c.text.replace(/\s+/g, ' ').trim();
    text = text.replace(/\s+/g, ' ').trim();
    // A lam-alef ligature with hamza whose two-letter mapping pdf.js's bidi pass reversed ("اإل" for "الإ"):
    // alef followed by a hamza alef does not occur in Arabic words.
    if (rtl) text = text.replace(/\u0627([\u0622\u0623\u0625])\u0644/g, '\u0627\u0644$1');
    if (!text) continue;
    const x = l.parts[0].x;
    const right = maxOf(l.parts.map((p) => p.x + p.w));
    const hit = links.find((k) => k.rect[1] - 2 <= l.y && l.y <= k.rect[3] + 2 && k.rect[0] <= x + 5 && k.rect[2] >= right - 5);
    // The line's face: the font carrying most of its characters, code spans aside unless they are all it holds.
    const font = [...(proseChars.size ? proseChars : fonts)].sort((p, q) => q[1] - p[1])[0]?.[0];
    // A monospace footnote (its line led by a smaller note mark) is not a listing line.
    const runs = ink.every((p) => p.mono) && ink[0].size > l.size * 0.85 ? ink.map((p) => ({ x: p.x, s: p.s, w: p.w })) : undefined;
    const partLinks = !hit && segs.some((g) => g.href);
    const md = !rtl && !runs && (partLinks || segs.some((g, i) => g.image || codeSeg(segs, i))) ? lineMarkdown(hit ? segs.map((g) => ({ ...g, href: undefined })) : segs) : undefined;
    const rise = maxOf(ink.map((p) => (p.size < l.size * 0.9 && p.y > l.y ? p.y + p.size - (l.y + l.size) : 0)));
    // Bold: every run that holds a letter is set bold (a bold run inside a line of other text leaves it plain).
    const lettered = l.parts.filter((p) => /\p{L}/u.test(p.s));
    const bold = lettered.length > 0 && lettered.every((p) => p.bold) ? true : undefined;
    out.push({ y: l.y, x, size: l.size, text, rise: rise > 0 ? rise : undefined, height: l.size, w: right - x, oneFont: (proseChars.size || fonts.size) === 1, bold, href: hit?.url, cells: cells.filter((c) => c.text), tight: tight.length > cells.length ? tight : undefined, font, tag: tag === Infinity ? undefined : tag, runs, md, note: !!lead || undefined });
  }
  out.sort((p, q) => q.y - p.y || p.x - q.x);
  return out;
}

/**
 * Code is mostly ASCII, arrows and box drawing (a diagram's "│" and "▼" lines): a CJK font flagged fixed-pitch
 * sets prose.
 */
/**
 * Word's second-level bullet is a letter "o" in Courier New: a lone "o" leading the line in a font of its own, set
 * apart from the text after it, is a bullet (`◦`), not a word or code. A word "o" ("or" in Portuguese) shares the
 * sentence's font.
 */
function wordBullet(parts: { x: number; s: string; w: number; font?: string; mono?: boolean }[], size: number): void {
  const ink = parts.filter((p) => p.s.trim());
  const [o, next] = ink;
  if (!next || o.s.trim() !== 'o' || o.font === next.font || next.x - (o.x + o.w) < size * 0.4) return;
  o.s = '◦';
  o.mono = false;
}

export const ascii = (s: string) => {
  const ink = s.replace(/\s/g, '');
  return (ink.match(/[\x21-\x7e\u2190-\u21ff\u2500-\u25ff]/g)?.length ?? 0) >= ink.length / 2;
};

/** An inline code stretch: ASCII with a letter or digit (quotes set in a typewriter font are punctuation). */
const codeLike = (s: string) => ascii(s) && /[A-Za-z0-9]/.test(s);

/** A monospace stretch that reads as code: `codeLike`, or code cut after its hyphens at the line's end ("--" of "--json"). */
const codeSeg = (segs: Seg[], i: number) => segs[i].mono && (codeLike(segs[i].s) || (i === segs.length - 1 && /^\s*[-_/]+\s*$/.test(segs[i].s)));

/** A footnote mark: a number, or an asterisk or dagger sign. */
const NOTE_MARK = /^\s*(\d{1,3}|[*†‡§¶]{1,3})\s*$/;

/** A stretch of a line in one font kind, inside one link or none; or a figure's alternate text. */
type Seg = { s: string; mono: boolean; href?: string; image?: boolean };

/**
 * A line's markdown: its monospace stretches as code spans, and the stretches a link covers as one link each (spaces
 * at their edges kept outside). A monospace stretch glued to a letter or digit on either side is part of a word (a
 * ligature glyph from another font), not code.
 */
function lineMarkdown(segs: Seg[]): string {
  const word = /[\p{L}\p{N}]/u;
  const parts = segs.map((g, i) => {
    const s = g.s.replace(/\s+/g, ' ');
    if (g.image) return ` ${image(s.trim())} `;
    const glued = (word.test(segs[i - 1]?.s.slice(-1) ?? '') && word.test(s[0])) || (word.test(segs[i + 1]?.s[0] ?? '') && word.test(s.slice(-1)));
    if (glued || !codeSeg(segs, i)) return esc(s);
    return keepEdges(s, codeSpan);
  });
  let out = '';
  for (let i = 0; i < segs.length; ) {
    let j = i;
    let inner = '';
    while (j < segs.length && segs[j].href === segs[i].href) inner += parts[j++];
    const href = segs[i].href;
    out += href ? keepEdges(inner, (core) => link(core, href)) : inner;
    i = j;
  }
  return out.trim();
}

/** The glyphs that may mark a list item (a character class's body, shared with the tab-set marker cell). */
export const BULLET_GLYPHS = '•●▪■◦○‣∙·\\-–—*☐☑☒□◆◇►▶➢✓✔\\uE000-\\uF8FF';
/**
 * Bullet glyphs, check boxes and private-use symbol-font glyphs (Wingdings/Symbol bullets) starting a line. A dash,
 * asterisk or middle dot needs a space after it ("-5 °C", "*Note*"); a bullet proper may touch its text, as a deck
 * exported to PDF sets it ("•With foo").
 */
export const BULLET = new RegExp(`^([${BULLET_GLYPHS}])\\s*(?=\\S)(?<=[\\uE000-\\uF8FF☐☑☒□◆◇►▶➢✓✔•●▪■◦○‣]\\s*|\\s)`, 'u');
const GLYPH_ONLY = /^[\s•●▪■◦○‣∙·☐☑☒□◆◇►▶➢✓✔\uE000-\uF8FF]+$/u;

/** A line's segments at the narrower cut when it has one (see `tight`), else its cells. */
export const segments = (l: Line) => l.tight ?? l.cells;

/** Two lines set in one face: the same font and size (within half a point). */
export const sameFace = (a: Line, b: Line) => a.font === b.font && Math.abs(a.size - b.size) < 0.5;

/** A line that ends its paragraph: sentence punctuation, or clearly shorter than a full line. */
export const ended = (l: Line, measure = 0) => /[.!?:]$/.test(l.text) || (!!measure && (l.w ?? 0) < measure * 0.75);

/** A line that may end its paragraph when space follows it: `ended`, or closing `;`/`)`, or short of the measure. */
export const couldEnd = (l: Line, measure = 0) => ended(l, measure) || /[;)]$/.test(l.text) || (l.w ?? 0) < measure * 0.9;
