/**
 * Text items as pdf.js gives them, made ready for lines: marked content resolved to structure tags, artifacts and
 * unreadable fonts dropped, symbol bullets and presentation forms normalised, figure alternate text and list labels
 * placed as text.
 */
import { image } from '../inline.js';
import type { Tag, TagCell } from './structure.js';
import type { OperatorList } from './matrix.js';
import { figureBoxes, mcidOf } from './figures.js';
import { symbolChar } from '../symbols.js';

export interface TextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  hasEOL?: boolean;
  fontName?: string;
  /** Heading level of the structure element holding this item's marked content. */
  tag?: number;
  /** The tagged table cell holding this item's marked content. */
  cell?: TagCell;
  /** The tagged list item (`LI`) holding it, and whether it is that item's label (`Lbl`). */
  item?: number;
  label?: boolean;
  /** A figure's alternate text standing in for it (written `![alt]()`). */
  image?: boolean;
  /** Set in a font the engine reports as monospace. */
  mono?: boolean;
  /** Set in a bold font (weight 600 or more, or a bold face by its name; PDFium only). */
  bold?: boolean;
}

export type RawItem = TextItem & { type?: string; id?: string };

/** Presentation forms and ligatures (what pdf.js would normalise), normalised after its bidi reordering. */
const PRESENTATION = /[\uFB00-\uFDFF\uFE70-\uFEFF]+/g;

/**
 * Word's list bullets from symbol fonts, which reach the text as private-use code points (U+F000 plus the font's
 * code): Symbol's bullet, Wingdings' square, arrowhead, check mark and diamond. Elsewhere they would be blank boxes.
 */
const SYMBOL_BULLETS: Record<string, string> = Object.fromEntries(
  ([['Symbol', 0xb7], ['Wingdings', 0xa7], ['Wingdings', 0xd8], ['Wingdings', 0xfc], ['Wingdings', 0x76]] as const).map(([font, code]) => [String.fromCharCode(0xf000 + code), symbolChar(font, code)!]),
);
const SYMBOL_BULLET = new RegExp(`[${Object.keys(SYMBOL_BULLETS).join('')}]`, 'g');

/**
 * Tracked (letter-spaced) text, as display headings are set: pdf.js reads each gap the tracking opens wider than a
 * tenth of an em as a space ("S P A C E D"). One run of four or more single letters, each a space apart, is one
 * word; the words of a tracked line arrive as runs of their own, parted by the wider word space. Figures a space
 * apart stay apart (they may be a row's cells), and so does Korean, whose words of one syllable stand a space apart.
 */
const TRACKED = /^(?:(?!\p{sc=Hangul})\p{L} ){3,}(?!\p{sc=Hangul})\p{L}$/u;

/**
 * Drops marked-content markers, artifacts (see `artifactRuns`) and the text of fonts without a usable encoding,
 * tagging each text item with the heading level, table cell and list item of the marked content it sits in and
 * whether its font is monospace, and NFKC-normalises presentation forms (pdf.js is asked not to, so that a ligature
 * glyph mapped to a single presentation form, such as lam-alef, is reversed by its bidi pass as one unit and
 * expanded afterwards).
 */
export function markItems(items: RawItem[], tags: Map<string, Tag>, mono: Set<string> = new Set()): TextItem[] {
  const out: TextItem[] = [];
  const stack: (string | undefined)[] = [];
  const unreadable = unmappedFonts(items);
  const artifacts = artifactRuns(items);
  for (const it of items) {
    if (it.type === 'beginMarkedContentProps' || it.type === 'beginMarkedContent') {
      stack.push(it.id);
      continue;
    }
    if (it.type === 'endMarkedContent') {
      stack.pop();
      continue;
    }
    if (typeof it.str !== 'string' || (it.fontName && unreadable.has(it.fontName)) || artifacts.has(it)) continue;
    let tag: Tag | undefined;
    for (let k = stack.length - 1; k >= 0 && tag === undefined; k--) if (stack[k]) tag = tags.get(stack[k]!);
    // Control characters (C0 and C1) are what a font without a usable encoding yields: nothing a reader could use;
    // so is U+FFFD, pdf.js's mark for a glyph it could not map.
    // A lone one (a symbol font's bullet or check box, as in IBM Redbooks) is read as a bullet.
    // So is one letter or symbol followed only by control characters (a dingbat font's bullet: "r\u0001").
    const clean = /^[\p{L}\p{S}]?[\u0001-\u0008\u000E-\u001F\u0080-\u009F\uFFFD]+$/u.test(it.str) && it.str.length <= 3 ? '•' : it.str.replace(PRESENTATION, (m) => m.normalize('NFKC')).replace(SYMBOL_BULLET, (m) => SYMBOL_BULLETS[m]).replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g, '');
    const str = TRACKED.test(clean) ? clean.replace(/ /g, '') : clean;
    // Written out, not spread: V8 builds `{ ...it, more }` through a slow path, 150 times the cost of this literal.
    const { transform, width, height, hasEOL, fontName, bold } = it;
    out.push({ str, transform, width, height, hasEOL, fontName, tag: tag?.heading, cell: tag?.cell, item: tag?.item, label: tag?.label, mono: !!fontName && mono.has(fontName), bold });
  }
  return out;
}

/**
 * Text a tagged PDF marks as an artifact (`/Artifact` marked content: running heads, page numbers, a browser's
 * print header and footer), which is not part of the document's content. A page whose text would be mostly
 * artifacts is taken to be mis-tagged and keeps it all.
 */
function artifactRuns(items: RawItem[]): Set<RawItem> {
  const out = new Set<RawItem>();
  let depth = 0;
  const open: boolean[] = [];
  let all = 0;
  let marked = 0;
  for (const it of items) {
    if (it.type === 'beginMarkedContentProps' || it.type === 'beginMarkedContent') {
      // pdf.js names the marked content's tag in `tag` (our own `tag` is set only later, on text runs).
      const artifact = (it as { tag?: unknown }).tag === 'Artifact';
      open.push(artifact);
      if (artifact) depth++;
      continue;
    }
    if (it.type === 'endMarkedContent') {
      if (open.pop()) depth--;
      continue;
    }
    const n = typeof it.str === 'string' ? it.str.trim().length : 0;
    all += n;
    if (depth > 0 && n) {
      out.add(it);
      marked += n;
    }
  }
  return marked * 2 < all ? out : new Set();
}

const CONTROL = /[\u0001-\u0008\u000E-\u001F\u0080-\u009F\uFFFD]/g;

/**
 * Fonts without a usable encoding: pdf.js hands out their glyph ids as characters, mostly control characters and a
 * few printable ones ("!", "#") that are just as meaningless, or U+FFFD for each glyph it could not map (a font
 * re-encoded without its names, as cairo writes one). A font whose runs longer than a bullet's are at least
 * half control characters (ten characters at least) yields no text at all.
 */
function unmappedFonts(items: RawItem[]): Set<string> {
  const seen = new Map<string, [number, number]>();
  for (const it of items) {
    if (typeof it.str !== 'string' || !it.fontName || it.str.length <= 3) continue;
    const ink = it.str.replace(/\s/g, '');
    const n = seen.get(it.fontName) ?? [0, 0];
    n[0] += ink.match(CONTROL)?.length ?? 0;
    n[1] += ink.length;
    seen.set(it.fontName, n);
  }
  return new Set([...seen].filter(([, [bad, all]]) => all >= 10 && bad >= all / 2).map(([font]) => font));
}

export const itemSize = (it: TextItem) => Math.round(Math.hypot(it.transform[0], it.transform[1]) * 10) / 10 || Math.abs(it.transform[3]) || it.height;

/**
 * Figures the structure tree gives alternate text, as runs of that text where the figure stands (see
 * `pdf/figures.ts`), set in the page's most common text size so that they rank as neither headings nor notes.
 */
export function figureRuns(ops: OperatorList, alts: [string, Tag][], text: TextItem[]): TextItem[] {
  const byMcid = new Map<number, string>();
  for (const [id, t] of alts) {
    const n = mcidOf(id);
    if (n !== undefined && t.alt) byMcid.set(n, t.alt);
  }
  const boxes = figureBoxes(ops as never, new Set(byMcid.keys()));
  const sizes = new Map<number, number>();
  for (const it of text) if (it.str.trim()) sizes.set(itemSize(it), (sizes.get(itemSize(it)) ?? 0) + it.str.length);
  const size = [...sizes].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 10;
  const out: TextItem[] = [];
  for (const [mcid, [x0, y0, x1, y1]] of boxes) {
    const alt = byMcid.get(mcid)!;
    out.push({ str: alt, transform: [size, 0, 0, size, x0, (y0 + y1) / 2], width: Math.max(1, x1 - x0), height: size, image: true });
  }
  return out;
}

/**
 * Tagged list items whose label holds marked content on this page but no text (a browser draws its bullets as
 * shapes) get a bullet before their first text, so that the list rules below read them as items: nesting still
 * follows where the items stand. An item whose label is on an earlier page (its text continues here) gets none.
 */
export function listBullets(items: TextItem[], tags: Map<string, Tag>): TextItem[] {
  const drawn = new Set<number>();
  for (const t of tags.values()) if (t.label && t.item !== undefined) drawn.add(t.item);
  if (!drawn.size) return items;
  const first = new Map<number, TextItem>();
  for (const it of items) {
    if (it.item === undefined || !it.str.trim()) continue;
    if (it.label) drawn.delete(it.item);
    if (!first.has(it.item)) first.set(it.item, it);
  }
  const bullets = new Map<TextItem, TextItem>();
  for (const [item, it] of first) {
    if (!drawn.has(item)) continue;
    const size = itemSize(it);
    const [a, b, c, d, x, y] = it.transform;
    bullets.set(it, { str: '•', transform: [a, b, c, d, x - size, y], width: size * 0.35, height: it.height, item, label: true });
  }
  if (!bullets.size) return items;
  const out: TextItem[] = [];
  for (const it of items) {
    const bullet = bullets.get(it);
    if (bullet) out.push(bullet);
    out.push(it);
  }
  return out;
}
