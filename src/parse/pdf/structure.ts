/**
 * Document structure pdf.js exposes besides the text: outline (bookmark) titles, the tagged-PDF structure tree's
 * headings and tables, and running headers/footers found by repetition across pages.
 */
import { maxOf, minOf } from '../../lib/arrays.js';
import { PAGE_LABEL, ROMAN_PAGE } from '../page-label.js';
import { sizeKey } from './headings.js';
import { segments, type Line } from './lines.js';

/** Outline titles (normalised) → heading level (depth + 1). */
export type Outline = Map<string, number>;

interface OutlineNode {
  title?: string;
  items?: OutlineNode[];
}

const key = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/** Flattens the outline tree (at most 2,000 entries, depth 8); titles shorter than 3 characters are skipped. */
export function outlineTitles(nodes: OutlineNode[] | null | undefined): Outline {
  const out: Outline = new Map();
  const stack: [OutlineNode, number][] = (nodes ?? []).map((n) => [n, 1] as [OutlineNode, number]).reverse();
  let seen = 0;
  while (stack.length && seen++ < 2000) {
    const [n, depth] = stack.pop()!;
    const t = key(n.title ?? '');
    if (t.length >= 3 && !out.has(t)) out.set(t, depth);
    if (depth < 8) for (const c of [...(n.items ?? [])].reverse()) stack.push([c, depth + 1]);
  }
  return out;
}

export interface StructNode {
  role?: string;
  type?: string;
  id?: string;
  /** A figure's alternate text (`/Alt`). */
  alt?: string;
  children?: StructNode[];
}

/** A table cell of the structure tree: the page's table (in tree order), its row and its cell within the row. */
export interface TagCell {
  table: number;
  row: number;
  col: number;
  /** A `TH` cell. */
  head: boolean;
}

/** What the structure tree says about one marked-content id. */
export interface Tag {
  /** Level of the `H`/`H1`-`H6` element around it (`H` counts as 1). */
  heading?: number;
  /** The `TD`/`TH` element around it; a table inside a cell belongs to the outer cell. */
  cell?: TagCell;
  /** The innermost `LI` element around it (numbered in tree order), and whether it is inside that item's `Lbl`. */
  item?: number;
  label?: boolean;
  /** The alternate text of the `Figure` element this marked content draws (its first content only). */
  alt?: string;
}

type Walk = { level: number; table?: { id: number; rows: number }; row?: { index: number; cols: number }; cell?: TagCell; item?: number; label?: boolean; alt?: { text: string; used: boolean } };

/**
 * Marked-content ids → their heading level, table cell, list item and figure alternate text, from a page's
 * structure tree (Word, LibreOffice and browsers write one in tagged PDFs). Rows are `TR` elements in tree order (inside `THead`/`TBody`/`TFoot` too),
 * cells the `TD`/`TH` elements of a row; pdf.js gives no span attributes, so a spanning cell counts once. At most
 * 100,000 nodes are read.
 */
export function structureTags(root: StructNode | null | undefined): Map<string, Tag> {
  const out = new Map<string, Tag>();
  if (!root) return out;
  let tables = 0;
  let items = 0;
  const stack: [StructNode, Walk][] = [[root, { level: 0 }]];
  let seen = 0;
  while (stack.length && seen++ < 100_000) {
    const [n, from] = stack.pop()!;
    const role = n.role ?? '';
    let here = from;
    const h = /^H([1-6])?$/.exec(role);
    if (h) here = { ...here, level: Number(h[1] ?? 1) };
    else if (role === 'LI') here = { ...here, item: items++, label: false };
    else if (role === 'Lbl') here = { ...here, label: true };
    else if (role === 'Figure') {
      const alt = usefulAlt(n.alt);
      if (alt) here = { ...here, alt: { text: alt, used: false } };
    }
    else if (!here.cell) {
      if (role === 'Table') here = { ...here, table: { id: tables++, rows: 0 }, row: undefined };
      else if (role === 'TR' && here.table) here = { ...here, row: { index: here.table.rows++, cols: 0 } };
      else if ((role === 'TD' || role === 'TH') && here.table && here.row) {
        here = { ...here, cell: { table: here.table.id, row: here.row.index, col: here.row.cols++, head: role === 'TH' } };
      }
    }
    const alt = n.type === 'content' && here.alt && !here.alt.used ? here.alt.text : undefined;
    if (alt) here.alt!.used = true;
    if (n.type === 'content' && n.id && (here.level || here.cell || here.item !== undefined || alt)) {
      out.set(n.id, { heading: here.level || undefined, cell: here.cell, item: here.item, label: here.item !== undefined ? here.label : undefined, alt });
    }
    // Children are pushed last first, so that they are visited (and rows and cells counted) in tree order.
    const kids = n.children ?? [];
    for (let k = kids.length - 1; k >= 0; k--) stack.push([kids[k], here]);
  }
  return out;
}

/**
 * A figure's alternate text worth writing: control characters dropped, at most 500 characters, and not a bare
 * generic word ("Figure", "Image 3": what a converter writes when the author gave none).
 */
function usefulAlt(alt: string | undefined): string | undefined {
  const t = (alt ?? '').replace(/[\u0000-\u001F\u007F-\u009F]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 500);
  return t && !/^(figure|image|picture|graphic|photo|img|untitled)\s*\d*$/i.test(t) ? t : undefined;
}

/**
 * Running headers and footers: a line in the top or bottom 9% of its page whose text (digits read as `#` in lines
 * of at most 60 characters) recurs in that band on at least half of the pages read (three pages at least) is
 * dropped everywhere, and so is a bare page number in those bands when such repetition exists. A book's running
 * heads alternate and follow its chapters ("Chapter 3. Access Control 27" on the right-hand pages of chapter 3
 * only), so a line set no larger than the body text (`body`) recurring at the same height on three pages is
 * running too; a larger one (a repeated title on slides) needs half of the pages. A line carrying a page number where
 * such lines stand (same band, height and size) is running as well.
 */
export function dropRunningLines(pages: Line[][], views: number[][], body = 0): Line[][] {
  // The top or bottom `share` of page i that a line stands in.
  const band = (l: Line, i: number, share = 0.09): 'top' | 'bottom' | undefined => {
    const v = views[i] ?? [0, 0, 612, 792];
    const h = v[3] - v[1];
    if (l.y > v[3] - h * share) return 'top';
    if (l.y < v[1] + h * share) return 'bottom';
    return undefined;
  };
  // Too few pages to see repetition: only a page number standing apart at the page's foot or head goes (within
  // its outer seventh: a LaTeX article sets it an inch and more above the foot, outside the 9% band).
  if (pages.length < 3) return pages.map((lines, i) => lines.filter((l) => !lonePageNumber(l, lines, band(l, i, 1 / 7))));
  // Digits are read as `#` only in short lines (page numbers, dates): a long line must repeat exactly.
  const k = (l: Line, b: string) => `${b}:${l.text.length <= 60 ? key(l.text).replace(/\d+/g, '#') : key(l.text)}`;
  const small = (l: Line) => l.size <= body + 0.5;
  // A running head stands at the same height on every page it is on; a short footnote that recurs ("12 Ibid.")
  // does not.
  const at = (l: Line, s: string) => `${s}@${Math.round(l.y / 4)}`;
  // Pages on which each band line recurs: any size, and set no larger than the body.
  const count = new Map<string, number>();
  const countSmall = new Map<string, number>();
  pages.forEach((lines, i) => {
    const seen = new Set<string>();
    const seenSmall = new Set<string>();
    for (const l of lines) {
      const b = l.table ? undefined : band(l, i);
      if (!b) continue;
      seen.add(k(l, b));
      if (small(l)) seenSmall.add(at(l, k(l, b)));
    }
    for (const s of seen) count.set(s, (count.get(s) ?? 0) + 1);
    for (const s of seenSmall) countSmall.set(s, (countSmall.get(s) ?? 0) + 1);
  });
  const min = Math.max(3, Math.ceil(pages.length * 0.5));
  const recurs = (l: Line, s: string) => (count.get(s) ?? 0) >= min || (small(l) && (countSmall.get(at(l, s)) ?? 0) >= 3);
  if (![...count.values()].some((n) => n >= min) && ![...countSmall.values()].some((n) => n >= 3)) return pages;
  // Where the running lines stand (band, height, size): a head that names a chapter of one or two pages recurs too
  // seldom to be seen, but it stands in their place and carries its page's number ("Chapter 2: Naming 3").
  // Sizes by band and whole point of height, so that a line looks up the five heights within 2 pt of its own.
  // Each line's band and whether it recurs, judged once for both passes below.
  const marks = pages.map((lines, i) =>
    lines.map((l) => {
      const b = l.table ? undefined : band(l, i);
      return { b, recurring: !!b && recurs(l, k(l, b)) };
    }),
  );
  const slots = new Map<string, Set<number>>();
  pages.forEach((lines, i) =>
    lines.forEach((l, n) => {
      const { b, recurring } = marks[i][n];
      if (!recurring) return;
      const key = `${b}@${Math.round(l.y)}`;
      const sizes = slots.get(key) ?? new Set<number>();
      slots.set(key, sizes.add(sizeKey(l.size)));
    }),
  );
  const inSlot = (l: Line, b: string) => {
    if (!FOLIO.test(l.text.trim())) return false;
    for (let dy = -2; dy <= 2; dy++) if (slots.get(`${b}@${Math.round(l.y) + dy}`)?.has(sizeKey(l.size))) return true;
    return false;
  };
  return pages.map((lines, i) =>
    lines.filter((l, n) => {
      const { b, recurring } = marks[i][n];
      if (!b || tableHeader(l, lines[n + 1])) return true;
      return !recurring && !pageNumber(l.text.trim()) && !inSlot(l, b);
    }),
  );
}

/** A line led or ended by a page number, set a space apart ("Chapter 2: Naming 3", "xii Preface"). */
const FOLIO = new RegExp(`^${PAGE_LABEL}\\s+\\S|\\S\\s+${PAGE_LABEL}$`, 'i');

/**
 * A table's header row repeated at the top of each page it runs over (a browser repeats `<thead>`): a line of two
 * segments or more right above another such line, closer than a running head stands to the text.
 */
function tableHeader(l: Line, next: Line | undefined): boolean {
  return !!next && !next.table && segments(l).length >= 2 && segments(next).length >= 2 && l.y - next.y > 0 && l.y - next.y < Math.max(l.size, next.size) * 1.8;
}

const ARABIC_PAGE = /^(page\s*)?\d{1,4}(\s*(of|\/)\s*\d{1,4})?$/i;

/** A line that is a page number alone: "7", "Page 2 of 3", or a front-matter page's lower-case roman "iv". */
const ROMAN_ALONE = new RegExp(`^${ROMAN_PAGE}$`);
const pageNumber = (text: string) => ARABIC_PAGE.test(text) || ROMAN_ALONE.test(text);

/**
 * A page number on a page whose document is too short to show it recurring: a bare number ("7", "Page 2 of 3", "iv")
 * alone near the top or bottom (`band`), the page's first or last line, at least two lines away from the text next
 * to it.
 */
function lonePageNumber(l: Line, lines: Line[], band: 'top' | 'bottom' | undefined): boolean {
  if (!band || l.table || l.cells.length > 1 || !pageNumber(l.text.trim())) return false;
  const others = lines.filter((o) => o !== l);
  if (!others.length) return false;
  const near = band === 'bottom' ? minOf(others.map((o) => o.y)) : maxOf(others.map((o) => o.y));
  return band === 'bottom' ? near - l.y >= l.size * 2 : l.y - near >= l.size * 2;
}
