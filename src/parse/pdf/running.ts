/**
 * Running headers, footers and page numbers, found by repetition across pages and dropped (a step of its own after
 * lines are built: `pdf.ts`).
 */
import { maxOf, minOf } from '../../lib/arrays.js';
import { PAGE_LABEL, ROMAN_PAGE } from '../page-label.js';
import { sizeKey } from './headings.js';
import { segments, type Line } from './lines.js';
import { key } from './structure.js';

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
