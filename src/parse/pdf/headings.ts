/**
 * Heading levels from real structure: font-size ranks on body pages, outline titles, tagged headings and numbered
 * section lines set apart; bold body-size lines only by `boldHeadings` (layout.ts, issue 36 decision 1).
 */
import type { Outline } from './structure.js';
import { BULLET, ended, type Line, sameFace } from './lines.js';

/** "5.1 Title", "2. Title", "(3) Title": a numbered section line; the level is the number's depth. */
export const NUMBERED = /^(?:(\d{1,2}(?:\.\d{1,2}){0,4})\.?|\((\d{1,2})\))\s+(?=\S)(?!\d)/;

/**
 * Heading levels (1-4) of the heading sizes, largest first. `ranked` are the sizes body pages use; a size only a
 * cover or an insert uses takes the level of the next ranked size below it, and sizes above all ranked ones share
 * level 1, one above the first ranked size when the four levels leave room (a title page over sections).
 * Without ranked sizes every size ranks.
 */
export function sizeLevels(sizes: number[], ranked: number[]): Map<number, number> {
  const ranks = ranked.length ? ranked : sizes;
  const lift = ranks.length < 4 && sizes.some((s) => s > ranks[0]) ? 1 : 0;
  return new Map(
    sizes.map((size) => {
      const rank = ranks.findIndex((s) => s <= size);
      if (rank === 0 && size > ranks[0]) return [size, 1];
      return [size, Math.min(4, (rank < 0 ? ranks.length : rank) + 1 + lift)];
    }),
  );
}

/** The longest heading, in characters: longer text in a heading's size is a lead paragraph or a blurb. */
export const HEADING_MAX = 200;

/** The heading level a line earns from real structure, or 0. */
export function headingLevel(l: Line, ctx: { levels: Map<number, number>; bodySize: number; bodyFont?: string; outline: Outline; leading?: number; measure?: number; pageBody?: number; coverOnly?: Set<number> }, prev?: Line, next?: Line): number {
  const plain = l.text;
  if (plain.length > HEADING_MAX || !/\p{L}/u.test(plain) || BULLET.test(plain)) return 0;
  if (l.tag) return Math.min(4, l.tag);
  const o = outlineLevel(ctx.outline, plain);
  if (o) return o;
  const level = ctx.levels.get(sizeKey(l.size));
  // On a cover, a size no body page uses heads only at the top level, the cover's title (see `layout`).
  if (level) return level > 1 && ctx.coverOnly?.has(sizeKey(l.size)) ? 0 : level;
  // A page set smaller than the document (a brochure or insert page) ranks its own sizes: a short line well above
  // that page's body size, standing apart, is a heading at the lowest level.
  const page = ctx.pageBody ?? ctx.bodySize;
  if (page <= ctx.bodySize - 1 && l.size >= page * 1.2 && standsAlone(l, prev, next, ctx)) return 4;
  return standsAlone(l, prev, next, ctx) ? numberedLevel(l, ctx) : 0;
}

type HeadingContext = Parameters<typeof headingLevel>[1];

/**
 * Lines of a page that a heading size alone would make headings but that label a figure: lines of one heading
 * size in three or more groups, each group parted from the next by one or two lines smaller than the body and by
 * nothing else (a syntax diagram's clauses at 11.5 pt between their 9 pt callouts, a flow chart's boxes between
 * the arrows' notes). A section holds text at the body size; these hold only each other's captions, so a last group
 * that body text follows at once is a heading after all (the section under a figure's caption). Lines the
 * structure tree or the bookmarks make headings are left to them, and lines in a row are one group (a title
 * wrapped over three lines is one heading).
 */
export function figureLabels(lines: Line[], ctx: Pick<HeadingContext, 'levels' | 'bodySize' | 'outline'>): Set<number> {
  const labels = new Set<number>();
  let run: number[] = [];
  let groups = 0;
  let lastGroup = 0;
  let between = 0;
  const close = (bodyFollows: boolean) => {
    if (bodyFollows && !between && groups) [run, groups] = [run.slice(0, lastGroup), groups - 1];
    if (groups >= 3) for (const k of run) labels.add(k);
    [run, groups, between] = [[], 0, 0];
  };
  lines.forEach((l, k) => {
    const size = sizeKey(l.size);
    const sized = !l.table && !l.tag && ctx.levels.has(size) && /\p{L}/u.test(l.text) && !outlineLevel(ctx.outline, l.text);
    if (sized) {
      if (run.length && sizeKey(lines[run[0]].size) !== size) close(false);
      if (!run.length || between) [groups, lastGroup] = [groups + 1, run.length];
      run.push(k);
      between = 0;
    } else if (!l.table && size < sizeKey(ctx.bodySize) && run.length && between < 2) between++;
    else close(!l.table && size === sizeKey(ctx.bodySize));
  });
  close(false);
  return labels;
}

/** A numbered section line larger than the body, or in a face of its own at about its size: its number's depth. */
function numberedLevel(l: Line, ctx: HeadingContext): number {
  const n = NUMBERED.exec(l.text);
  if (!n || !(l.size >= ctx.bodySize + 0.5 || (!!l.oneFont && !!l.font && !!ctx.bodyFont && l.font !== ctx.bodyFont && l.size >= ctx.bodySize - 0.25))) return 0;
  const depth = n[1] ? n[1].split('.').length : 3;
  return Math.min(4, depth + (ctx.levels.size ? 1 : 0));
}

/**
 * A line wrapped onto a second line in the same face and size, at the line spacing, that together make a heading:
 * a bookmark's title (its depth), or a numbered section line, the pair set apart from the text before and after
 * it, 120 characters at most and not ending like a sentence or a question (a numbered question in bold is a list
 * item). The pair's heading level, or 0 (the first line alone never stands apart, its second line follows it).
 */
export function wrappedHeadingLevel(l: Line, second: Line, ctx: HeadingContext, prev?: Line, after?: Line): number {
  if (!second.oneFont || !sameFace(second, l) || BULLET.test(second.text) || NUMBERED.test(second.text)) return 0;
  if (!(l.y - second.y > 0 && l.y - second.y <= l.size * 1.75)) return 0;
  const o = outlineLevel(ctx.outline, `${l.text} ${second.text}`);
  if (o) return o;
  if (l.text.length + second.text.length > 120 || /[.,;:?!]$/.test(second.text)) return 0;
  if (!apart(l, prev, undefined, ctx) || !apart(second, undefined, after, ctx)) return 0;
  return numberedLevel(l, ctx);
}

export const outlineKey = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/** The depth of the bookmark titled `text` (4 at most), or 0; a document without bookmarks costs no key. */
const outlineLevel = (outline: Outline, text: string) => (outline.size ? Math.min(4, outline.get(outlineKey(text)) ?? 0) : 0);

export const sizeKey = (s: number) => Math.round(s * 2) / 2;

/** Characters carried by each text size (half-point steps) in these lines; code lines only when `code` says so. */
export function sizeWeights(lines: Line[], code = true): Map<number, number> {
  const weight = new Map<number, number>();
  for (const l of lines) if (code || !l.runs) weight.set(sizeKey(l.size), (weight.get(sizeKey(l.size)) ?? 0) + l.text.length);
  return weight;
}

/**
 * Whether lines set wholly in a monospace font count toward the body size: only where they carry most of the text
 * (a typewritten page, a receipt). Code is usually set smaller than the prose around it, and a page of listings
 * or of a table of names would otherwise make its prose look like headings.
 */
export function codeIsBody(lines: Line[]): boolean {
  let prose = 0;
  let all = 0;
  for (const l of lines) {
    all += l.text.length;
    if (!l.runs) prose += l.text.length;
  }
  return prose < all * 0.25;
}

/** The size carrying most characters (the first of equals), undefined when there is none. */
export const heaviest = (weight: Map<number, number>) => [...weight].sort((p, q) => q[1] - p[1])[0]?.[0];

/** A short line that does not end like a sentence and stands apart from the text around it (see `apart`). */
export const standsAlone = (l: Line, prev: Line | undefined, next: Line | undefined, ctx: { leading?: number; measure?: number }) =>
  l.text.length <= 90 && !/[.,;:]$/.test(l.text) && apart(l, prev, next, ctx);

/**
 * A line that is not part of a paragraph: it neither wraps into the next line (same font and size at the line
 * spacing) nor continues the previous one (at the line spacing, after a line that does not end a paragraph).
 */
function apart(l: Line, prev: Line | undefined, next: Line | undefined, ctx: { leading?: number; measure?: number }): boolean {
  const step = (a: Line, b: Line) => a.y - b.y > 0 && a.y - b.y <= Math.max((ctx.leading ?? 0) * 1.05, Math.max(a.size, b.size) * 1.75);
  if (next && !next.table && sameFace(next, l) && step(l, next)) return false;
  if (prev && !prev.table && step(prev, l) && !ended(prev, ctx.measure)) return false;
  return true;
}
