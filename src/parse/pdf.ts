/**
 * PDF to blocks with pdf.js (through unpdf's serverless build: no eval, no font loading, no canvas). Each page read
 * starts with `<!-- page N -->`; lines are rebuilt from text items by position; headings are lines whose font size
 * ranks above the body size (by character count), at most 4 levels; bullet glyphs become `-` items; lines join into
 * paragraphs by vertical gap. Link annotations become links where they cover a line.
 *
 * Real structure beyond font sizes (never a bold line on its own): outline (bookmark) titles matched to lines, the
 * tagged-PDF structure tree (`H`, `H1`-`H6` elements through their marked-content ids), and numbered section lines
 * ("5.1 Title", "(2) Title") set in a font or size other than the body's. Running headers and footers (the same
 * text, digits aside, in the top or bottom band of most pages) are dropped; `1.`/`1)` lines become ordered lists;
 * right-to-left lines are read right to left, and Arabic presentation forms are normalised after pdf.js's bidi pass;
 * ligature glyphs pdf.js reversed are put back from the operator list's glyphs (`pdf/ligatures.ts`).
 *
 * Layout: superscripts and fraction digits stay in their line; two-column pages are read column by column inside
 * bands cut by full-width lines (`readingOrder`); a line in the body size is never a heading for its font alone
 * (the rule: headings come from size ranks, the outline and numbered section lines, never a bold line); a table header split over text rows above numeric ones is merged (`mergeHeaderRows`); a table continued on the next
 * page repeats its header there (`carryHeader`); contents
 * entries keep their own lines. Speed: images are dropped unread (`maxImageSize`), the operator list is read only
 * for pages that look tabular or hold right-to-left text, and a page's lines are built once.
 */
import { getDocumentProxy } from 'unpdf';
import { append, maxOf, minOf } from '../lib/arrays.js';
import { codeSpan, esc, image, link, plainText } from './inline.js';
import type { Block, Converted, ParseOptions } from './types.js';
import { ParseError } from './types.js';
import { fillGrid, gridsFrom, inGrid, rulesFrom, trimFrameBands, type Grid, type PlacedItem } from './pdf/rules.js';
import { dropRunningLines, outlineTitles, structureTags, type Outline, type Tag, type TagCell } from './pdf/structure.js';
import { fixRtlLigatures, rtlLigatureFixes, type OperatorList } from './pdf/ligatures.js';
import { baselineGroups, spaced } from './pdf/text.js';
import { dropOverprints } from './pdf/overprint.js';
import { codeRuns, codeText } from './pdf/code.js';
import { fontFaceOptions } from './pdf/font-face.js';
import { fieldRuns, type Widget } from './pdf/forms.js';
import { figureBoxes, mcidOf } from './pdf/figures.js';

// pdf.js 5.6 builds operator lists with ArrayBuffer.prototype.transferToFixedLength (Node ≥ 21); on Node 20 the
// operator list silently comes back empty without it. A copy is enough for how pdf.js uses it.
const abProto = ArrayBuffer.prototype as ArrayBuffer & { transferToFixedLength?: () => ArrayBuffer };
if (typeof abProto.transferToFixedLength !== 'function') {
  Object.defineProperty(ArrayBuffer.prototype, 'transferToFixedLength', {
    value: function transferToFixedLength(this: ArrayBuffer) {
      return this.slice(0);
    },
    configurable: true,
    writable: true,
  });
}

export interface Line {
  y: number;
  /** Font carrying most of the line's characters. */
  font?: string;
  /** All of the line's text is in that one font. */
  oneFont?: boolean;
  /** Heading level from the structure tree (all of the line's text inside an `H`/`Hn` element). */
  tag?: number;
  x: number;
  size: number;
  text: string;
  height: number;
  /** Width from the first run's start to the last run's end. */
  w?: number;
  href?: string;
  /** Segments separated by wide gaps (candidate table cells); `w` is a segment's width. */
  cells: { x: number; text: string; w?: number }[];
  /** A ruled table placed here in reading order (its text is not in `text`; `cells[0].x` is its right edge). */
  table?: string[][];
  /** A ruled table's column boundaries, left to right (see `carryHeader`). */
  columns?: number[];
  /** The line's runs as set, when all of its text is in monospace fonts (a code line: see `codeText`). */
  runs?: { x: number; s: string; w: number }[];
  /** Markdown of a line mixing monospace and other fonts: its monospace words as code spans, the rest escaped. */
  md?: string;
  /** Led by a smaller raised note mark: a footnote, which starts a paragraph of its own. */
  note?: boolean;
}

const JUNK_TITLE = /^(untitled|\(anonymous\)|anonymous|document\d*|microsoft word - .*|slide \d+|powerpoint presentation)$/i;

export async function convertPdf(bytes: Uint8Array, opts: ParseOptions): Promise<Converted> {
  let doc: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    doc = await getDocumentProxy(new Uint8Array(bytes), {
      isEvalSupported: false,
      ...fontFaceOptions(),
      useSystemFonts: false,
      stopAtErrors: false,
      verbosity: 0,
      // Text needs no pixels: images above one pixel are dropped before decoding (pdf.js would otherwise inflate
      // and convert every image the operator list meets, the largest cost on illustrated pages).
      maxImageSize: 1,
    } as Parameters<typeof getDocumentProxy>[1]);
  } catch (e) {
    const name = (e as { name?: string }).name ?? '';
    if (name === 'PasswordException') throw new ParseError('encrypted', 'The PDF is encrypted (password-protected); send it without a password.');
    throw new ParseError('corrupt', `The PDF is corrupt or truncated (${(e as Error).message?.slice(0, 100) ?? 'unreadable'}).`);
  }
  try {
    const numPages = doc.numPages;
    const pages = Math.min(numPages, opts.maxPages);
    const perPage: Line[][] = [];
    const views: number[][] = [];
    let outline: Outline = new Map();
    /** Fonts pdf.js reports as monospace (code, not titles). */
    const mono = new Set<string>();
    try {
      outline = outlineTitles((await doc.getOutline()) as never);
    } catch {
      /* no outline */
    }
    let tagged = false;
    try {
      tagged = !!((await doc.getMarkInfo()) as { Marked?: boolean } | null)?.Marked;
    } catch {
      /* no mark info */
    }
    for (let i = 1; i <= pages; i++) {
      const page = await doc.getPage(i);
      const content = await page.getTextContent({ includeMarkedContent: tagged, disableNormalization: true } as never);
      const pageMono = new Set<string>();
      for (const [name, style] of Object.entries((content as { styles?: Record<string, { fontFamily?: string }> }).styles ?? {})) if (style?.fontFamily === 'monospace') pageMono.add(name);
      for (const name of pageMono) mono.add(name);
      let tags = new Map<string, Tag>();
      if (tagged) {
        try {
          tags = structureTags(await page.getStructTree());
        } catch {
          /* no structure tree */
        }
      }
      let annotations: (Widget & { url?: string })[] = [];
      try {
        annotations = (await page.getAnnotations()) as typeof annotations;
      } catch {
        /* annotations are optional */
      }
      const links = annotations.filter((a) => a.subtype === 'Link' && a.url && a.rect).map((a) => ({ rect: a.rect!, url: a.url! }));
      // The operator list costs a second pass over the page: read only for right-to-left text (its glyphs tell
      // which ligatures pdf.js reversed), for figures the structure tree describes, or when the text itself looks
      // tabular (two lines or more split by wide gaps into three cells or more: its rules may draw a table).
      let ops: OperatorList | undefined;
      const operators = async () => {
        try {
          return (ops ??= (await page.getOperatorList()) as never);
        } catch {
          return undefined;
        }
      };
      const pageItems = append(dropOverprints(markItems(content.items as unknown as RawItem[], tags, pageMono)), fieldRuns(annotations));
      const alts = [...tags].filter(([, t]) => t.alt);
      if (alts.length) {
        const list = await operators();
        if (list) append(pageItems, figureRuns(list, alts, pageItems));
      }
      const marked = taggedTables(listBullets(pageItems, tags), links);
      let items = marked.rest;
      if (items.some((it) => /[\u0590-\u08FF]/.test(it.str))) {
        const list = await operators();
        if (list) items = fixRtlLigatures(items, rtlLigatureFixes(list));
      }
      const plain = toLines(items, links);
      let grids: Grid[] = [];
      if (items.length >= 6 && plain.filter((l) => l.cells.length >= 3).length >= 2) {
        const list = await operators();
        // No rules: tables come from alignment only.
        if (list) grids = gridsFrom(rulesFrom(list, page.view as number[]));
      }
      perPage.push(placeTables(items, grids, links, page.view as number[], plain, marked.tables));
      views.push(page.view as number[]);
      page.cleanup();
    }
    const title = await pdfTitle(doc);
    const all = perPage.flat();
    const blocks = layout(dropRunningLines(perPage, views, heaviest(sizeWeights(all, codeIsBody(all)))), outline, mono);
    const firstH = blocks.find((b) => b.t === 'h') as { text: string } | undefined;
    return { blocks, title: title ?? (firstH && plainText(firstH.text)), numPages, cut: numPages > pages };
  } finally {
    await doc.destroy();
  }
}

async function pdfTitle(doc: Awaited<ReturnType<typeof getDocumentProxy>>): Promise<string | undefined> {
  try {
    const meta = await doc.getMetadata();
    const info = (meta.info ?? {}) as { Title?: unknown };
    const candidates = [typeof info.Title === 'string' ? info.Title : undefined, (meta.metadata as { get?(k: string): unknown } | null)?.get?.('dc:title') as string | undefined];
    for (const c of candidates) {
      const t = (c ?? '').replace(/\s+/g, ' ').trim();
      if (t && !JUNK_TITLE.test(t)) return t;
    }
  } catch {
    /* no metadata */
  }
  return undefined;
}

interface TextItem {
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
  /** Set in a font pdf.js reports as monospace. */
  mono?: boolean;
}

type RawItem = TextItem & { type?: string; id?: string };

/** Presentation forms and ligatures (what pdf.js would normalise), normalised after its bidi reordering. */
const PRESENTATION = /[\uFB00-\uFDFF\uFE70-\uFEFF]+/g;

/**
 * Word's list bullets from symbol fonts, which reach the text as private-use code points (U+F000 plus the font's
 * code): Symbol's bullet, Wingdings' square, arrowhead, check mark and diamond. Elsewhere they would be blank boxes.
 */
const SYMBOL_BULLETS: Record<string, string> = { '\uF0B7': '•', '\uF0A7': '▪', '\uF0D8': '➢', '\uF0FC': '✓', '\uF076': '❖' };
const SYMBOL_BULLET = /[\uF0B7\uF0A7\uF0D8\uF0FC\uF076]/g;

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
    // Control characters (C0 and C1) are what a font without a usable encoding yields: nothing a reader could use.
    // A lone one (a symbol font's bullet or check box, as in IBM Redbooks) is read as a bullet.
    // So is one letter or symbol followed only by control characters (a dingbat font's bullet: "r\u0001").
    const str = /^[\p{L}\p{S}]?[\u0001-\u0008\u000E-\u001F\u0080-\u009F]+$/u.test(it.str) && it.str.length <= 3 ? '•' : it.str.replace(PRESENTATION, (m) => m.normalize('NFKC')).replace(SYMBOL_BULLET, (m) => SYMBOL_BULLETS[m]).replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g, '');
    out.push({ ...it, str, tag: tag?.heading, cell: tag?.cell, item: tag?.item, label: tag?.label, mono: !!it.fontName && mono.has(it.fontName) });
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

const CONTROL = /[\u0001-\u0008\u000E-\u001F\u0080-\u009F]/g;

/**
 * Fonts without a usable encoding: pdf.js hands out their glyph ids as characters, mostly control characters and a
 * few printable ones ("!", "#") that are just as meaningless. A font whose runs longer than a bullet's are at least
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

const itemSize = (it: TextItem) => Math.round(Math.hypot(it.transform[0], it.transform[1]) * 10) / 10 || Math.abs(it.transform[3]) || it.height;

/**
 * An item's box for grid placement. Text turned a quarter turn (column headers set vertically) advances along y and
 * its glyphs stand beside the baseline point, so its box is one text size wide and its advance tall; `y` is set so
 * that the box's middle is where `fillGrid` looks (`y + size * 0.3`).
 */
function gridBox(it: TextItem): PlacedItem {
  const [a, b, , , e, f] = it.transform;
  const size = itemSize(it);
  const w = it.width ?? 0;
  if (Math.abs(b) <= Math.abs(a)) return { x: e, y: f, w, size, str: it.str };
  const up = b > 0;
  const mid = up ? f + w / 2 : f - w / 2;
  return { x: up ? e - size : e, y: mid - size * 0.3, w: size, size, str: it.str };
}

/**
 * Figures the structure tree gives alternate text, as runs of that text where the figure stands (see
 * `pdf/figures.ts`), set in the page's most common text size so that they rank as neither headings nor notes.
 */
function figureRuns(ops: OperatorList, alts: [string, Tag][], text: TextItem[]): TextItem[] {
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
    const rows = alignCells([...byRow].sort((a, b) => a[0] - b[0]).map(([, row]) => row.sort((a, b) => a.col - b.col)));
    if (rows.length < 2 || rows.every((r) => r.filter(Boolean).length < 2)) continue;
    for (const it of cellItems) taken.add(it);
    const boxes = cellItems.map(gridBox);
    const right = maxOf(boxes.map((p) => p.x + p.w));
    tables.push({ y: maxOf(boxes.map((p) => p.y)) + 0.1, x: minOf(boxes.map((p) => p.x)), size: 0, text: '', height: 0, cells: [{ x: right, text: '' }], table: rows });
  }
  return { tables, rest: taken.size ? items.filter((it) => !taken.has(it)) : items };
}

type TaggedCell = { col: number; x0: number; x1: number; md: string };

/**
 * A tagged table's rows as a grid. pdf.js reports neither spans nor the empty cells a page's tree leaves out, so a
 * row with fewer cells than the fullest rows places each of its cells, in order, under the column its text overlaps
 * most (the columns are where the fullest rows' cells stand); a spanning cell is written once, in its first column.
 */
function alignCells(rows: TaggedCell[][]): string[][] {
  const full = maxOf(rows.map((r) => r.length));
  const wide = rows.filter((r) => r.length === full);
  const bands = Array.from({ length: full }, (_, k) => ({ x0: minOf(wide.map((r) => r[k].x0)), x1: maxOf(wide.map((r) => r[k].x1)) }));
  const fit = (c: TaggedCell, k: number) => {
    const overlap = Math.min(c.x1, bands[k].x1) - Math.max(c.x0, bands[k].x0);
    return overlap > 0 ? overlap : -Math.abs((c.x0 + c.x1) / 2 - (bands[k].x0 + bands[k].x1) / 2);
  };
  return rows.map((r) => {
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
}

/** A tagged cell's lines as one line of markdown: monospace lines and words as code spans (a cell has no blocks). */
const cellMarkdown = (lines: Line[]) => lines.map((l) => (l.runs ? codeSpan(l.text) : (l.md ?? esc(l.text)))).join(' ');

/**
 * Ruled tables first: items inside a grid become its cells (see `pdf/rules.ts`); the rest is read as lines, and
 * each table is put back in reading order before the first line below its top that sits in its column span.
 */
function placeTables(items: TextItem[], grids: Grid[], links: { rect: number[]; url: string }[], view: number[], plain?: Line[], tagged: Line[] = []): Line[] {
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
    const rows = fillGrid(grid, inside.filter((p) => !around.has(p))).map((r) => r.map((c) => esc(c)));
    // A grid holding a single cell or a single row is a frame, not a table: its text stays text.
    if (rows.length < 2 || rows.every((r) => r.length < 2)) continue;
    rest = [...keep, ...outside.map((p) => placed.get(p)!)];
    tables.push({ y: grid.y1, x: grid.x0, size: 0, text: '', height: 0, cells: [{ x: grid.x1, text: '' }], table: rows, columns: grid.cols });
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
  const bins = new Int32Array(Math.ceil(width) + 1);
  for (const it of narrow) {
    const a = Math.max(0, Math.floor(it.transform[4] - x0));
    const b = Math.min(bins.length - 1, Math.ceil(it.transform[4] - x0 + it.width));
    for (let i = a; i <= b; i++) bins[i]++;
  }
  const allowed = Math.max(1, Math.floor(narrow.length * 0.03));
  let best: [number, number] | undefined;
  let start = -1;
  for (let i = Math.floor(width * 0.3); i <= Math.ceil(width * 0.7); i++) {
    if (bins[i] <= allowed) {
      if (start < 0) start = i;
      if (!best || i - start > best[1] - best[0]) best = [start, i];
    } else start = -1;
  }
  if (!best || best[1] - best[0] < 6) return whole();
  const gutter = x0 + (best[0] + best[1]) / 2;
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
  // Each side carries a fifth of the text where both sides have text (two columns under a single-column top
  // half count), and something of the page's.
  const ys = (xs: TextItem[]) => xs.filter((it) => it.str?.trim()).map((it) => it.transform[5]);
  const [lys, rys] = [ys(left), ys(right)];
  const top = Math.min(maxOf(lys), maxOf(rys));
  const bottom = Math.max(minOf(lys), minOf(rys));
  const within = (xs: TextItem[]) => chars(xs.filter((it) => it.transform[5] >= bottom - 1 && it.transform[5] <= top + 1));
  const both = within(left) + within(right);
  if (within(left) < both * 0.2 || within(right) < both * 0.2 || chars(left) < chars(text) * 0.05 || chars(right) < chars(text) * 0.05) return whole();
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
function sameLine(l: { y: number; size: number; height: number; left: number; right: number }, x: number, y: number, w: number, size: number, glyph: boolean): boolean {
  const ls = l.size || l.height;
  // Text of clearly different sizes far apart on one baseline belongs to different columns (a sidebar's heading
  // beside a column's body line).
  if (Math.min(ls, size) < Math.max(ls, size) * 0.85 && Math.max(x - l.right, l.left - (x + w)) > Math.max(ls, size) * 3) return false;
  if (Math.abs(l.y - y) < Math.max(2, Math.min(ls, size) * 0.5)) return true;
  if (glyph) return false;
  const [small, smallY, big, bigY] = size < ls ? [size, y, ls, l.y] : [ls, l.y, size, y];
  if (small > big * 0.8) return false;
  const near = x <= l.right + big && x + w >= l.left - big;
  // A note mark may reach a little above the line's own ascenders (8 pt raised 4 pt over 10 pt text); a
  // subscript of the line above starts at least most of a line spacing higher.
  return near && smallY >= bigY - big * 0.3 && smallY + small * 0.7 <= bigY + big * 1.05;
}

function toLines(items: TextItem[], links: { rect: number[]; url: string }[]): Line[] {
  type Part = { x: number; y: number; s: string; w: number; size: number; font?: string; tag?: number; mono?: boolean; image?: boolean };
  type Open = Line & { parts: Part[]; left: number; right: number };
  const lines: Open[] = [];
  // Items mostly arrive line by line: the line that took the previous item is tried first (O(n) on ordinary pages).
  let recent: Open | undefined;
  for (const it of items) {
    if (typeof it.str !== 'string' || !it.transform || !it.str) continue;
    const [a, b, , d, x, y] = it.transform;
    const size = Math.round(Math.hypot(a, b) * 10) / 10 || Math.abs(d) || it.height;
    // A space run joins a line as the text it sits beside does (after a raised note mark too); a bullet or
    // check-box glyph only on the line's baseline.
    const blank = !it.str.trim();
    const glyph = !blank && GLYPH_ONLY.test(it.str);
    const fits = (l: Open) => sameLine(l, x, y, it.width, size, glyph);
    let line = recent && fits(recent) ? recent : lines.find(fits);
    // A space run that fits no line would open an inkless one that captures the next text.
    if (!line && blank) continue;
    if (!line) {
      line = { y, x, size: 0, text: '', height: size, parts: [], cells: [], left: x, right: x + it.width };
      lines.push(line);
    }
    recent = line;
    line.parts.push({ x, y, s: it.str, w: it.width, size, font: it.fontName, tag: it.tag, mono: it.mono, image: it.image });
    line.left = Math.min(line.left, x);
    line.right = Math.max(line.right, x + it.width);
    // A bullet or check-box glyph (often set larger) does not lift the line's size; the line's baseline is its
    // largest text's (a superscript that started the line gives way).
    if (!glyph && !blank && size > line.size) {
      if (!line.size || size >= line.size * 1.2) line.y = y;
      line.size = size;
    }
  }
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
    const cells: { x: number; text: string; w?: number }[] = [];
    const fonts = new Map<string, number>();
    let tag: number | undefined = Infinity;
    // Whether the file set a space run since the last text run (see `spaced`).
    let space = false;
    for (const p of l.parts) {
      if (!p.s.trim()) {
        space = true;
        continue;
      }
      if (p.font) fonts.set(p.font, (fonts.get(p.font) ?? 0) + p.s.trim().length);
      if (tag !== undefined) tag = p.tag === undefined ? undefined : Math.min(tag, p.tag);
      if (!cells.length || p.x - end > Math.max(l.size, 6) * 1.0) cells.push({ x: p.x, text: p.s });
      else {
        const cell = cells[cells.length - 1];
        cell.text += (spaced(cell.text, p.s, p.x - end, l.size, space) ? ' ' : '') + p.s;
      }
      space = false;
      end = p.x + p.w;
      cells[cells.length - 1].w = end - cells[cells.length - 1].x;
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
    for (const p of order) {
      if (!p.s.trim()) {
        space = true;
        continue;
      }
      const gap = rtl ? start - (p.x + p.w) : p.x - end;
      const scriptChange = rtl && /[\u0590-\u08FF][^\S]*$/.test(text) !== /^[^\S]*[\u0590-\u08FF]/.test(p.s) && /\p{L}$/u.test(text) && /^\p{L}/u.test(p.s);
      const pieces = linkPieces(p);
      // A note mark (a smaller raised number or dagger) after a word is set apart from it ("Center 1", not
      // "Center1"); after a single letter it is an exponent and stays ("a2").
      const mark = !rtl && p.size < l.size * 0.85 && p.y > l.y + l.size * 0.2 && NOTE_MARK.test(p.s) && /\p{L}{2,}[.,;:)]?$/u.test(text);
      if (text && (mark || spaced(text, p.s, gap, l.size, space) || (scriptChange && !/\s$/.test(text) && !/^\s/.test(p.s)))) {
        text += ' ';
        const last = segs[segs.length - 1];
        add(' ', !!p.mono && !!last?.mono, pieces[0].href && last?.href === pieces[0].href ? pieces[0].href : undefined);
      }
      space = false;
      text += p.s;
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
    const font = [...fonts].sort((p, q) => q[1] - p[1])[0]?.[0];
    // A monospace footnote (its line led by a smaller note mark) is not a listing line.
    const runs = ink.every((p) => p.mono) && ink[0].size > l.size * 0.85 ? ink.map((p) => ({ x: p.x, s: p.s, w: p.w })) : undefined;
    const partLinks = !hit && segs.some((g) => g.href);
    const md = !rtl && !runs && (partLinks || segs.some((g) => g.image || (g.mono && codeLike(g.s)))) ? lineMarkdown(hit ? segs.map((g) => ({ ...g, href: undefined })) : segs) : undefined;
    out.push({ y: l.y, x, size: l.size, text, height: l.size, w: right - x, oneFont: fonts.size === 1, href: hit?.url, cells: cells.filter((c) => c.text), font, tag: tag === Infinity ? undefined : tag, runs, md, note: !!lead || undefined });
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

const ascii = (s: string) => {
  const ink = s.replace(/\s/g, '');
  return (ink.match(/[\x21-\x7e\u2190-\u21ff\u2500-\u25ff]/g)?.length ?? 0) >= ink.length / 2;
};

/** An inline code stretch: ASCII with a letter or digit (quotes set in a typewriter font are punctuation). */
const codeLike = (s: string) => ascii(s) && /[A-Za-z0-9]/.test(s);

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
  const edges = (s: string) => /^(\s*)(.*?)(\s*)$/s.exec(s)!;
  const parts = segs.map((g, i) => {
    const s = g.s.replace(/\s+/g, ' ');
    if (g.image) return ` ${image(s.trim())} `;
    const glued = (word.test(segs[i - 1]?.s.slice(-1) ?? '') && word.test(s[0])) || (word.test(segs[i + 1]?.s[0] ?? '') && word.test(s.slice(-1)));
    if (!g.mono || glued || !codeLike(s)) return esc(s);
    const m = edges(s);
    return m[1] + codeSpan(m[2]) + m[3];
  });
  let out = '';
  for (let i = 0; i < segs.length; ) {
    let j = i;
    let inner = '';
    while (j < segs.length && segs[j].href === segs[i].href) inner += parts[j++];
    if (segs[i].href) {
      const m = edges(inner);
      out += m[1] + link(m[2], segs[i].href) + m[3];
    } else out += inner;
    i = j;
  }
  return out.trim();
}

/** Bullet glyphs, check boxes and private-use symbol-font glyphs (Wingdings/Symbol bullets) starting a line. */
const BULLET = /^([•●▪■◦○‣∙·\-–—*☐☑☒□◆◇►▶➢✓✔\uE000-\uF8FF])\s*(?=\S)(?<=[\uE000-\uF8FF☐☑☒□◆◇►▶➢✓✔]\s*|\s)/u;
const GLYPH_ONLY = /^[\s•●▪■◦○‣∙·☐☑☒□◆◇►▶➢✓✔\uE000-\uF8FF]+$/u;
/** A list item's marker standing alone as a line's first cell (a bullet glyph, "1.", "a)", "(iv)"), tab-set apart. */
const MARKER_CELL = /^(?:[•●▪■◦○‣∙·\-–—*☐☑☒□◆◇►▶➢✓✔\uE000-\uF8FF]|\(?(?:\d{1,3}|[a-z]|[ivxlc]{1,6})[.)])$/u;
/** A list item whose marker is tab-set apart from its text (two cells): a list line, not a table row. */
const listLine = (l: Line) => l.cells.length === 2 && MARKER_CELL.test(l.cells[0].text.trim());

/** "5.1 Title", "2. Title", "(3) Title": a numbered section line; the level is the number's depth. */
const NUMBERED = /^(?:(\d{1,2}(?:\.\d{1,2}){0,4})\.?|\((\d{1,2})\))\s+(?=\S)(?!\d)/;
const ORDERED = /^(\d{1,3})[.)]\s+(?=\S)/;

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

/** The heading level a line earns from real structure, or 0. */
export function headingLevel(l: Line, ctx: { levels: Map<number, number>; bodySize: number; bodyFont?: string; outline: Outline; leading?: number; measure?: number; pageBody?: number }, prev?: Line, next?: Line): number {
  const plain = l.text;
  if (plain.length > 200 || !/\p{L}/u.test(plain) || BULLET.test(plain)) return 0;
  if (l.tag) return Math.min(4, l.tag);
  const o = ctx.outline.get(outlineKey(plain));
  if (o) return Math.min(4, o);
  const level = ctx.levels.get(sizeKey(l.size));
  if (level) return level;
  // A page set smaller than the document (a brochure or insert page) ranks its own sizes: a short line well above
  // that page's body size, standing apart, is a heading at the lowest level.
  const page = ctx.pageBody ?? ctx.bodySize;
  if (page <= ctx.bodySize - 1 && l.size >= page * 1.2 && standsAlone(l, prev, next, ctx)) return 4;
  const n = NUMBERED.exec(plain);
  if (n && standsAlone(l, prev, next, ctx) && (l.size >= ctx.bodySize + 0.5 || (!!l.oneFont && !!l.font && !!ctx.bodyFont && l.font !== ctx.bodyFont && l.size >= ctx.bodySize - 0.25))) {
    const depth = n[1] ? n[1].split('.').length : 3;
    return Math.min(4, depth + (ctx.levels.size ? 1 : 0));
  }
  return 0;
}

export const outlineKey = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

function layout(pages: Line[][], outline: Outline = new Map(), mono = new Set<string>()): Block[] {
  // Body size: the size carrying most characters (of prose, see `codeIsBody`); any size may rank as a heading's.
  const codeCounts = codeIsBody(pages.flat());
  const weight = sizeWeights(pages.flat());
  const body = heaviest(sizeWeights(pages.flat(), codeCounts)) ?? 10;
  const total = [...weight.values()].reduce((a, b) => a + b, 0);
  const headingSizes = [...weight.keys()].filter((s) => s >= body + 1 && s >= body * 1.05 && (weight.get(s) ?? 0) < total * 0.3).sort((a, b) => b - a);
  // Levels rank the sizes headings take on body pages (half their text or more in the body size): a cover's or an
  // insert's own sizes would otherwise take the top levels and push a book's chapters and sections to the last one.
  const pageWeights = pages.map((p) => sizeWeights(p, codeCounts));
  const onBodyPages = new Set<number>();
  pages.forEach((p, i) => {
    const w = pageWeights[i];
    if ((w.get(body) ?? 0) * 2 < [...w.values()].reduce((a, b) => a + b, 0)) return;
    for (const l of p) if (/\p{L}/u.test(l.text)) onBodyPages.add(sizeKey(l.size));
  });
  const ranked = headingSizes.filter((s) => onBodyPages.has(s));
  // Body font: the font carrying most characters at the body size.
  const fonts = new Map<string, number>();
  for (const p of pages) for (const l of p) if (l.font && sizeKey(l.size) === body) fonts.set(l.font, (fonts.get(l.font) ?? 0) + l.text.length);
  const bodyFont = [...fonts].sort((p, q) => q[1] - p[1])[0]?.[0];
  const ctx = { levels: sizeLevels(headingSizes, ranked), bodySize: body, bodyFont, outline, leading: bodyLeading(pages, body, bodyFont), measure: bodyMeasure(pages, body, bodyFont) };
  // Code: monospace lines below the heading sizes, in a document whose body is not itself set monospace (a
  // typewritten or plain-text page is prose).
  const monoBody = !!bodyFont && mono.has(bodyFont);
  const isCode = (l: Line) => !monoBody && !!l.runs && !l.table && l.size < body + 1 && ascii(l.text);
  // A line's markdown: code spans for its monospace words unless the body itself is monospace.
  const inline = (l: Line, marker = '') => (l.md && !monoBody && l.md.startsWith(esc(marker)) ? l.md.slice(esc(marker).length).trimStart() : esc(l.text.slice(marker.length)));
  const blocks: Block[] = [];
  // The table that ended the page before, for one that opens this page in its columns (see `carryHeader`).
  let carried: Carried | undefined;
  pages.forEach((read, i) => {
    blocks.push({ t: 'comment', text: `page ${i + 1}` });
    const opening = blocks.length;
    let ending: (Carried & { block: Block }) | undefined;
    const pushTable = (rows: string[][], columns: number[], tol: number, headed: boolean) => {
      const own = mergeHeaderRows(rows);
      const table: Block = { t: 'table', rows: (!headed && own === rows && blocks.length === opening && carryHeader(rows, columns, tol, carried)) || own };
      blocks.push(table);
      ending = { header: table.rows[0], columns, tol, block: table };
    };
    const lines = untangle(read);
    const pageCtx = { ...ctx, pageBody: heaviest(pageWeights[i]) ?? body };
    const code = codeRuns(lines, isCode);
    const inCode = new Set<number>();
    for (const [start, end] of code) for (let k = start; k < end; k++) inCode.add(k);
    const tables = findTables(lines, inCode);
    let para: string[] = [];
    let last: Line | undefined;
    // Open lists, outermost first, each with where its markers stand: an item whose marker stands clearly right of
    // the open one's nests under that one's last item.
    let lists: { list: Extract<Block, { t: 'list' }>; x: number }[] = [];
    // Where the current list item's marker line starts: its wrapped lines are indented past it.
    let itemX = 0;
    const flush = () => {
      if (para.length) blocks.push({ t: 'p', text: joinLines(para) });
      para = [];
    };
    for (let li = 0; li < lines.length; li++) {
      const l = lines[li];
      if (l.table) {
        flush();
        lists = [];
        if (l.columns) pushTable(l.table, l.columns, 1, false);
        else blocks.push({ t: 'table', rows: mergeHeaderRows(l.table) });
        last = undefined;
        continue;
      }
      const codeEnd = code.get(li);
      if (codeEnd) {
        flush();
        lists = [];
        blocks.push({ t: 'code', text: codeText(lines.slice(li, codeEnd)) });
        li = codeEnd - 1;
        last = undefined;
        continue;
      }
      const contents = contentsRun(lines, li);
      if (contents) {
        flush();
        lists = [];
        blocks.push({ t: 'table', rows: contents.rows });
        li = contents.end - 1;
        last = undefined;
        continue;
      }
      const table = tables.get(li);
      if (table) {
        flush();
        lists = [];
        pushTable(table.rows, table.columns, 8, table.headed);
        li = table.end - 1;
        last = lines[li];
        continue;
      }
      const level = headingLevel(l, pageCtx, lines[li - 1], lines[li + 1]);
      const text = l.href ? link(inline(l), l.href) : inline(l);
      if (level) {
        flush();
        lists = [];
        const prev = blocks[blocks.length - 1];
        if (prev?.t === 'h' && prev.level === level && last && Math.abs(last.size - l.size) < 0.5 && last.y - l.y < l.size * 1.8 && !NUMBERED.test(l.text)) prev.text += ' ' + text;
        else blocks.push({ t: 'h', level, text });
        last = l;
        continue;
      }
      // A footnote led by a raised "*" is no bullet item.
      const bullet = l.note ? null : BULLET.exec(l.text);
      const num = bullet ? null : ORDERED.exec(l.text);
      if (bullet || num) {
        const marker = (bullet ?? num)![0];
        const ordered = !!num;
        // A check box marker is a task: `[ ]` when empty, `[x]` when ticked (a filled form's ☒).
        const task = bullet?.[1] === '☐' || bullet?.[1] === '□' ? '[ ] ' : bullet?.[1] === '☒' || bullet?.[1] === '☑' ? '[x] ' : '';
        const item = { text: task + (l.href ? link(inline(l, marker), l.href) : inline(l, marker)), children: [] };
        // Markers of one level line up within most of a character (right-aligned numbers "9." and "10." differ).
        const tol = l.size * 0.7;
        while (lists.length && lists[lists.length - 1].x > l.x + tol) lists.pop();
        const open = lists[lists.length - 1];
        // Nesting stops at eight levels (a hostile file could indent each item a little further for ever).
        const same = open && (Math.abs(open.x - l.x) <= tol || lists.length >= 8) ? open : undefined;
        if (same && same.list.ordered === ordered && (!ordered || Number(num![1]) === same.list.start + same.list.items.length)) same.list.items.push(item);
        else {
          flush();
          if (same) lists.pop();
          const list: Extract<Block, { t: 'list' }> = { t: 'list', ordered, start: ordered ? Number(num![1]) : 1, items: [item] };
          const parent = lists[lists.length - 1];
          if (parent) parent.list.items[parent.list.items.length - 1].children.push(list);
          else blocks.push(list);
          lists.push({ list, x: l.x });
        }
        itemX = l.x;
        last = l;
        continue;
      }
      const gap = last ? last.y - l.y : 0;
      const open = lists[lists.length - 1]?.list;
      if (open && last && gap < l.size * 1.6 && l.x > itemX + 2) {
        const it = open.items[open.items.length - 1];
        it.text = joinLines([it.text, text]);
        last = l;
        continue;
      }
      lists = [];
      // A short line standing apart in a font of its own (a run-in title set bold at the body size, which the
      // convention does not make a heading) is a paragraph of its own, not the start of the text below it.
      const label = !!l.font && !!ctx.bodyFont && l.font !== ctx.bodyFont && !!l.oneFont && standsAlone(l, lines[li - 1], lines[li + 1], ctx);
      // A new paragraph: a gap of 1.6 lines, or, between body lines, a fifth more than the body's line spacing
      // after a line that could end one (closing punctuation, or short of the full measure): manuals set paragraphs
      // only slightly apart, while a justified line spread by a tall formula runs full width into the next.
      const parted =
        !!ctx.leading && !!last && sizeKey(l.size) === body && sizeKey(last.size) === body && gap > ctx.leading * 1.2 && couldEnd(last, ctx.measure);
      if (label || l.note || (last && (gap > Math.max(l.size, last.size) * 1.6 || parted || indents(l, last, lines[li + 1], ctx.measure) || gap < 0 || Math.abs(last.size - l.size) > 1))) flush();
      para.push(text);
      last = l;
      // A lone contents entry (leader dots, then a page number) is a line of its own, not part of running text.
      if (label || LEADER.test(l.text)) flush();
    }
    flush();
    carried = ending && blocks[blocks.length - 1] === ending.block ? ending : undefined;
  });
  return blocks;
}

/** Two lines of one paragraph: the same start, font and size, the second at most 1.6 lines below the first. */
const continuous = (a: Line, b: Line) =>
  !a.table && !b.table && Math.abs(a.x - b.x) < 2 && a.font === b.font && Math.abs(a.size - b.size) < 0.5 && a.y - b.y > 0 && a.y - b.y <= a.size * 1.6;

/**
 * A line set in another size beside a paragraph (a sidebar's heading or label) whose baseline falls between two of
 * the paragraph's lines comes after the paragraph instead of splitting it, when no column split told them apart.
 */
function untangle(lines: Line[]): Line[] {
  const out = [...lines];
  for (let i = 1; i + 1 < out.length; i++) {
    const [a, l, b] = [out[i - 1], out[i], out[i + 1]];
    if (l.table || !continuous(a, b) || Math.abs(l.size - a.size) < 1) continue;
    const beside = (m: Line) => l.x + (l.w ?? 0) < m.x - m.size || l.x > m.x + (m.w ?? 0) + m.size;
    if (!beside(a) || !beside(b)) continue;
    let end = i + 1;
    while (end + 1 < out.length && continuous(out[end], out[end + 1])) end++;
    out.splice(i, 1);
    out.splice(end, 0, l);
  }
  return out;
}

const sizeKey = (s: number) => Math.round(s * 2) / 2;

/** Characters carried by each text size (half-point steps) in these lines; code lines only when `code` says so. */
function sizeWeights(lines: Line[], code = true): Map<number, number> {
  const weight = new Map<number, number>();
  for (const l of lines) if (code || !l.runs) weight.set(sizeKey(l.size), (weight.get(sizeKey(l.size)) ?? 0) + l.text.length);
  return weight;
}

/**
 * Whether lines set wholly in a monospace font count toward the body size: only where they carry most of the text
 * (a typewritten page, a receipt). Code is usually set smaller than the prose around it, and a page of listings
 * or of a table of names would otherwise make its prose look like headings.
 */
function codeIsBody(lines: Line[]): boolean {
  let prose = 0;
  let all = 0;
  for (const l of lines) {
    all += l.text.length;
    if (!l.runs) prose += l.text.length;
  }
  return prose < all * 0.25;
}

/** The size carrying most characters (the first of equals), undefined when there is none. */
const heaviest = (weight: Map<number, number>) => [...weight].sort((p, q) => q[1] - p[1])[0]?.[0];

/** A short line that does not end like a sentence and stands apart from the text around it (see `apart`). */
const standsAlone = (l: Line, prev: Line | undefined, next: Line | undefined, ctx: { leading?: number; measure?: number }) =>
  l.text.length <= 90 && !/[.,;:]$/.test(l.text) && apart(l, prev, next, ctx);

/**
 * A line that is not part of a paragraph: it neither wraps into the next line (same font and size at the line
 * spacing) nor continues the previous one (at the line spacing, after a line that does not end a paragraph).
 */
function apart(l: Line, prev: Line | undefined, next: Line | undefined, ctx: { leading?: number; measure?: number }): boolean {
  const step = (a: Line, b: Line) => a.y - b.y > 0 && a.y - b.y <= Math.max((ctx.leading ?? 0) * 1.05, Math.max(a.size, b.size) * 1.75);
  if (next && !next.table && next.font === l.font && Math.abs(next.size - l.size) < 0.5 && step(l, next)) return false;
  if (prev && !prev.table && step(prev, l) && !ended(prev, ctx.measure)) return false;
  return true;
}

/**
 * A paragraph's indented first line (books and papers set paragraphs apart this way, not by space): indented by
 * one to four text sizes from the line above, which ends its paragraph, while the line below returns to the margin.
 */
function indents(l: Line, prev: Line | undefined, next: Line | undefined, measure = 0): boolean {
  if (!prev || prev.table || !next || next.table || Math.abs(next.x - prev.x) > 1.5) return false;
  const by = l.x - prev.x;
  return by >= l.size && by <= l.size * 4 && ended(prev, measure) && prev.y - l.y < l.size * 1.6 && l.y - next.y < l.size * 1.6;
}

/** A line that ends its paragraph: sentence punctuation, or clearly shorter than a full line. */
const ended = (l: Line, measure = 0) => /[.!?:]$/.test(l.text) || (!!measure && (l.w ?? 0) < measure * 0.75);

/** A line that may end its paragraph when space follows it: `ended`, or closing `;`/`)`, or short of the measure. */
const couldEnd = (l: Line, measure = 0) => ended(l, measure) || /[;)]$/.test(l.text) || (l.w ?? 0) < measure * 0.9;

/** Captions and notes ("Figure 3-1 …", "Table 2: …", "Listing 1: …") are set like headings but are not ones. */
const CAPTION = /^(fig(ure)?|table|tab|listing|example|chart|exhibit|plate|source|note|abb|abbildung|tabelle|tableau)\.?\s*[\dIVXivx]+/i;

/** The most common baseline-to-baseline distance between consecutive body lines (0 when there is none). */
function bodyLeading(pages: Line[][], body: number, bodyFont?: string): number {
  const gaps = new Map<number, number>();
  for (const p of pages)
    for (let i = 1; i < p.length; i++) {
      const [a, b] = [p[i - 1], p[i]];
      if (a.table || b.table || sizeKey(a.size) !== body || sizeKey(b.size) !== body || a.font !== bodyFont || b.font !== bodyFont) continue;
      const g = Math.round((a.y - b.y) * 2) / 2;
      if (g >= body * 0.9 && g <= body * 2) gaps.set(g, (gaps.get(g) ?? 0) + 1);
    }
  return [...gaps].sort((p, q) => q[1] - p[1] || p[0] - q[0])[0]?.[0] ?? 0;
}

/** The usual width of a full body line (the 80th percentile of body line widths). */
function bodyMeasure(pages: Line[][], body: number, bodyFont?: string): number {
  const ws = pages.flatMap((p) => p.filter((l) => !l.table && sizeKey(l.size) === body && l.font === bodyFont).map((l) => l.w ?? 0)).sort((a, b) => a - b);
  return ws[Math.floor(ws.length * 0.8)] ?? 0;
}

/**
 * Runs of at least 3 lines that split into 2+ wide-gap segments whose starts line up with shared columns become
 * tables (the first row is the header). Columns are clustered from segment starts (8 pt tolerance). Code lines
 * (`code`, indices) are never rows: a listing's aligned columns are its layout.
 */
function findTables(lines: Line[], code: Set<number>): Map<number, AlignedTable> {
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
      // line of a multi-line cell (see `continues` below).
      if (l.cells.length === 1 && !cols.slice(1).some((x) => Math.abs(x - l.cells[0].x) < TOL) && !continues(lines[j - 1], l)) break;
      for (const c of l.cells) if (!cols.some((x) => Math.abs(x - c.x) < TOL)) cols.push(c.x);
      j++;
    }
    const multi = lines.slice(i, j).filter((l) => l.cells.length >= 2).length;
    if (j - i >= 3 && multi >= 3) {
      cols.sort((a, b) => a - b);
      const merged: number[] = [];
      for (const x of cols) if (!merged.length || x - merged[merged.length - 1] >= TOL) merged.push(x);
      const head = headerAbove(lines, i, floor, merged, TOL);
      // Its first row is set apart (a header) when it has one above, or its first line's font differs from the next's.
      const headed = head.rows.length > 0 || lines[i].font !== lines[i + 1].font;
      const rows: string[][] = head.rows;
      for (let li = i; li < j; li++) {
        const l = lines[li];
        const prev = rows[rows.length - 1];
        const row = prev && li > i && continues(lines[li - 1], l) ? prev : merged.map(() => '');
        for (const c of l.cells) {
          let k = 0;
          for (let m = 0; m < merged.length; m++) if (merged[m] <= c.x + TOL) k = m;
          row[k] = row[k] ? `${row[k]} ${esc(c.text)}` : esc(c.text);
        }
        if (row !== prev) rows.push(row);
      }
      out.set(head.start, { end: j, rows: tidyRows(rows), columns: merged, headed });
      i = floor = j;
    } else i++;
  }
  return out;
}

interface AlignedTable {
  end: number;
  rows: string[][];
  /** Where its columns start. */
  columns: number[];
  /** Its first row is a header set apart from the rows below. */
  headed: boolean;
}

/** A table that ended a page: its header row and where its columns stand (see `carryHeader`). */
interface Carried {
  header: string[];
  columns: number[];
  tol: number;
}

/**
 * A table opening a page in the columns of the one that ended the page before (the same number, each within a
 * tolerance), whose first row is not set apart as a header and does not repeat that table's header, is its
 * continuation: it gets that table's header row instead of having a data row promoted to one.
 */
export function carryHeader(rows: string[][], columns: number[], tol: number, carried: Carried | undefined): string[][] | undefined {
  if (!carried || carried.tol !== tol || carried.columns.length !== columns.length || carried.columns.some((x, k) => Math.abs(x - columns[k]) > tol)) return undefined;
  const key = (r: string[]) => r.map((c) => c.replace(/\s+/g, ' ').trim().toLowerCase()).join('|');
  if (rows[0]?.length !== carried.header.length || key(rows[0]) === key(carried.header)) return undefined;
  return [carried.header, ...rows];
}

/**
 * A column header set above a column-aligned table, often on two lines and centred over its column ("State funded"
 * over "legal aid", beside "CSOs"), shares no column start with the rows below: up to three short lines right above
 * the table (at most two line spacings apart, the table's text size), each of whose segments is centred over one
 * column without reaching another column's start, are the header row, each column's parts joined top to bottom.
 */
function headerAbove(lines: Line[], start: number, floor: number, cols: number[], tol: number): { start: number; rows: string[][] } {
  const first = lines[start];
  const column = (c: { x: number; w?: number }): number => {
    const mid = c.x + (c.w ?? 0) / 2;
    let k = -1;
    for (let m = 0; m < cols.length; m++) if (cols[m] - tol <= mid) k = m;
    const reaches = cols.some((x, m) => m !== k && x >= c.x - tol / 2 && x < c.x + (c.w ?? 0) - tol / 2);
    return reaches ? -1 : k;
  };
  let top = start;
  while (top - 1 >= floor && start - (top - 1) <= 3) {
    const l = lines[top - 1];
    const below = lines[top];
    // A caption ("Example 2-1 Query to …") names the table, not its columns.
    if (l.table || !l.cells.length || CAPTION.test(l.text) || Math.abs(l.size - first.size) > 1 || l.y - below.y <= 0 || l.y - below.y > l.size * 2.2) break;
    if (l.cells.some((c) => column(c) < 0)) break;
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

/** A body line holding one cell, set at the line spacing under a row of several: that row's cell goes on. */
const continues = (above: Line, l: Line) => l.cells.length === 1 && above.cells.length >= 2 && above.y - l.y > 0 && above.y - l.y < l.size * 1.3;

/**
 * Multi-line cells: a column that never holds text in a row where its left neighbour does (an indented
 * continuation inside a cell) is folded into that neighbour; then a body row with a single non-empty cell, not the
 * first, continues the row above (when that one has a first cell).
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
    if (out.length >= 2 && prev && !r[0] && prev[0] && r.filter((c) => c).length === 1) {
      r.forEach((c, k) => {
        if (c) prev[k] = prev[k] ? `${prev[k]} ${c}` : c;
      });
    } else out.push(r);
  }
  return out;
}

const LEADER = /(?:\.\s?){4,}\s*(?:\d{1,4}|[ivxlc]{1,6})$/i;
const ENTRY = /^(.*?)\s*(?:\.\s?){4,}\s*(\d{1,4}|[ivxlc]{1,6})$/i;

/**
 * A table of contents: three or more entries in a row (title, leader dots, page number; an entry's title may wrap
 * onto the line above) become a two-column table, title and page, the leaders dropped. The first entry is the header
 * row, as in any table whose source marks none.
 */
function contentsRun(lines: Line[], start: number): { end: number; rows: string[][] } | undefined {
  const rows: string[][] = [];
  let i = start;
  while (i < lines.length && !lines[i].table) {
    let m = ENTRY.exec(lines[i].text);
    let title = m?.[1];
    // A wrapped title: a line without leaders directly above its entry (within two line heights).
    if (!m && rows.length && i + 1 < lines.length && !lines[i + 1].table && (m = ENTRY.exec(lines[i + 1].text)) && lines[i].y - lines[i + 1].y < lines[i].size * 2) {
      title = `${lines[i].text} ${m[1]}`;
      i++;
    }
    if (!m || !title?.trim()) break;
    rows.push([esc(title.trim()), m[2]]);
    i++;
  }
  return rows.length >= 3 ? { end: i, rows } : undefined;
}

const NUMERIC = /^[\s\d.,%$€£¥+\-−–()×x/:]*\d[\s\d.,%$€£¥+\-−–()×x/:]*$/;

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

function joinLines(lines: string[]): string {
  let out = '';
  for (const l of lines) {
    if (!out) out = l;
    else if (/[a-z]-$/.test(out) && /^[a-z]/.test(l)) out = out.slice(0, -1) + l;
    else out += ' ' + l;
  }
  // A link wrapped onto the next line is one link.
  for (let before = ''; before !== out; ) {
    before = out;
    out = out.replace(WRAPPED_LINK, ' $2]($1)');
  }
  return out;
}

/** `](url) [more](url)`: the end of a link followed by another to the same address. */
const WRAPPED_LINK = /\]\(([^()\s]+)\) \[((?:[^[\]\\]|\\.)*)\]\(\1\)/g;
