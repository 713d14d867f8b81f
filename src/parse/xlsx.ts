/**
 * Excel .xlsx to blocks: `## <sheet>` per visible sheet, each data region (cells connected through non-empty
 * neighbours, merged areas included) as its own table, a lone cell as a paragraph; values shown as the cell's
 * number format shows them (dates ISO, percentages, currencies, thousands separators).
 */
import { append } from '../lib/arrays.js';
import { chartBlocks } from './chart.js';
import { formatNumber, formatText, isDateCode } from './number-format.js';
import { commentLine, esc, link } from './inline.js';
import { captionedTable } from './markdown.js';
import type { Block, Converted, ParseOptions } from './types.js';
import { LIMITS, ParseError } from './types.js';
import { attr, child, coreTitle, findAll, kids, parseXml, readRels, relsPath, textOf, type XNode } from './xml.js';
import { cellRef, scanShared, scanSheet, type SheetCell } from './xlsx-sheet.js';
import type { ZipReader } from './zip.js';

const BUILTIN: Record<number, string> = {
  0: 'General', 1: '0', 2: '0.00', 3: '#,##0', 4: '#,##0.00', 9: '0%', 10: '0.00%', 11: '0.00E+00', 12: '# ?/?', 13: '# ??/??',
  14: 'yyyy-mm-dd', 15: 'yyyy-mm-dd', 16: 'yyyy-mm-dd', 17: 'yyyy-mm', 18: 'h:mm AM/PM', 19: 'h:mm:ss AM/PM', 20: 'h:mm', 21: 'h:mm:ss',
  22: 'yyyy-mm-dd h:mm', 37: '#,##0 ;(#,##0)', 38: '#,##0 ;[Red](#,##0)', 39: '#,##0.00;(#,##0.00)', 40: '#,##0.00;[Red](#,##0.00)',
  45: 'mm:ss', 46: '[h]:mm:ss', 47: 'mmss.0', 48: '##0.0E+0', 49: '@',
};

/** Number format codes a workbook may define (Excel itself allows about 250). */
const MAX_CUSTOM_FORMATS = 1000;

export function convertXlsx(zip: ZipReader, opts: ParseOptions): Converted {
  const wb = parseXml(zip.text('xl/workbook.xml') ?? '');
  const rels = readRels(zip.text('xl/_rels/workbook.xml.rels'), 'xl/workbook.xml');
  const date1904 = attr(findAll(wb, 'workbookPr')[0], 'date1904') === '1' || attr(findAll(wb, 'workbookPr')[0], 'date1904') === 'true';
  const shared = readShared(zip.text('xl/sharedStrings.xml'));
  const formats = readFormats(zip.text('xl/styles.xml'));
  const persons = readPersons(zip, rels);
  const sheets = findAll(wb, 'sheet');
  const blocks: Block[] = [];
  let read = 0;
  let cut = false;
  for (const s of sheets) {
    if (attr(s, 'state') === 'hidden' || attr(s, 'state') === 'veryHidden') continue;
    if (read >= opts.maxPages) {
      cut = true;
      break;
    }
    read++;
    const name = attr(s, 'name') ?? `Sheet ${read}`;
    blocks.push({ t: 'h', level: 2, text: esc(name) });
    const rel = rels.get(attr(s, 'r:id') ?? '');
    // A sheet part is read once, however many entries name it (see `ZipReader.readOnce`).
    const xml = zip.textOnce(rel);
    const sheetRels: Rels = rel ? readRels(zip.text(relsPath(rel.target)), rel.target) : new Map();
    if (xml) append(blocks, sheetBlocks(xml, shared, formats, date1904, sheetRels));
    if (rel) append(blocks, sheetCharts(zip, rel.target));
    append(blocks, sheetComments(zip, sheetRels, persons));
  }
  return { blocks, title: coreTitle(zip.text('docProps/core.xml')), numPages: sheets.length, cut };
}

/** The people of Excel 365's threaded comments (the workbook's persons part): display names by id. */
function readPersons(zip: ZipReader, rels: Rels): Map<string, string> {
  const out = new Map<string, string>();
  for (const rel of rels.values()) {
    if (!rel.type.endsWith('/person') || rel.external || !zip.has(rel.target)) continue;
    for (const p of findAll(parseXml(zip.text(rel.target) ?? ''), 'person')) out.set(attr(p, 'id') ?? '', attr(p, 'displayName') ?? '');
  }
  return out;
}

/**
 * A sheet's comments, written as decks' and documents' are, after its tables and charts, in cell order:
 * `> **Comment (author, date-time) on B3:** text`. Excel 365's threaded comments (`threadedComments`, replies
 * each a comment of their own) and notes (`comments`). Excel writes a note copying each thread for older readers
 * (author `tc={id}`, text "[Threaded comment] … Comment: …"): left out where the thread is read, else its comment
 * taken from it. A note's text starts with its author's name and a colon, which the author already says.
 */
function sheetComments(zip: ZipReader, rels: Rels, persons: Map<string, string>): Block[] {
  const found: { ref: string; line: string }[] = [];
  const threaded = new Set<string>();
  const part = (type: string) =>
    [...rels.values()]
      .filter((r) => r.type.endsWith(type))
      .map((r) => zip.textOnce(r))
      .filter((xml): xml is string => xml !== undefined)
      .map((xml) => parseXml(xml));
  const flat = (t: string) => esc(t.replace(/\s+/g, ' ').trim());
  for (const root of part('/threadedComment'))
    for (const c of findAll(root, 'threadedComment')) {
      const ref = attr(c, 'ref') ?? '';
      threaded.add(ref);
      const text = flat(textOf(child(c, 'text')));
      if (text) found.push({ ref, line: commentLine(persons.get(attr(c, 'personId') ?? ''), attr(c, 'dT'), text, ref) });
    }
  for (const root of part('/comments')) {
    const authors = findAll(root, 'author').map((a) => textOf(a));
    for (const c of findAll(root, 'comment')) {
      const ref = attr(c, 'ref') ?? '';
      let author: string | undefined = authors[Number(attr(c, 'authorId'))];
      let text = stringItem(child(c, 'text'));
      if (author?.startsWith('tc=')) {
        if (threaded.has(ref)) continue;
        // The copy of a thread whose part is missing: its comment and replies, after Excel's notice.
        const start = text.indexOf('Comment:');
        text = (start >= 0 ? text.slice(start + 'Comment:'.length) : text).replace(/\n[ \t]*Reply:/g, ' ·');
        author = undefined;
      } else if (author && text.startsWith(`${author}:`)) text = text.slice(author.length + 1);
      const line = flat(text);
      if (line) found.push({ ref, line: commentLine(author, undefined, line, ref) });
    }
  }
  return found
    .map((f, i) => ({ ...f, i, pos: cellRef(f.ref) }))
    .sort((a, b) => a.pos[0] - b.pos[0] || a.pos[1] - b.pos[1] || a.i - b.i)
    .map((f) => ({ t: 'quote', blocks: [{ t: 'p', text: f.line }] }) as Block);
}

/** Charts drawn on a sheet: sheet → drawing → chart, each by relationship. */
function sheetCharts(zip: ZipReader, sheetPath: string): Block[] {
  const out: Block[] = [];
  for (const d of readRels(zip.text(relsPath(sheetPath)), sheetPath).values()) {
    if (!d.type.endsWith('/drawing') || !zip.has(d.target)) continue;
    const drawing = parseXml(zip.text(d.target) ?? '');
    const rels = readRels(zip.text(relsPath(d.target)), d.target);
    for (const c of findAll(drawing, 'c:chart')) {
      const xml = zip.textOnce(rels.get(attr(c, 'r:id') ?? ''));
      if (xml !== undefined) append(out, chartBlocks(parseXml(xml)));
    }
  }
  return out;
}

function readShared(xml: string | undefined): string[] {
  return xml ? scanShared(xml).map(unescapeXstring) : [];
}

/**
 * A string item's text (a shared string's `si`, an inline string's `is`): its plain text or its rich runs' text,
 * not the phonetic guide (`rPh`, furigana over Japanese), with the characters XML cannot carry unescaped.
 */
function stringItem(item: XNode | undefined): string {
  const t = kids(item).filter((k) => k.name === 't' || k.name === 'r');
  return unescapeXstring(t.map((k) => (k.name === 't' ? textOf(k) : textOf(child(k, 't')))).join(''));
}

/**
 * ECMA-376's escape for characters XML 1.0 cannot hold (ST_Xstring): `_xHHHH_`, four hex digits, as Excel writes a
 * carriage return (`_x000D_`); `_x005F_` is an underscore, so a literal "_x0041_" is stored as `_x005F_x0041_`.
 */
function unescapeXstring(s: string): string {
  return s.includes('_x') ? s.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : s;
}

function readFormats(xml: string | undefined): string[] {
  if (!xml) return [];
  const root = parseXml(xml);
  const custom = new Map<number, string>();
  // Excel allows 255 characters in a format code, and a workbook about 250 codes of its own; a longer code, or one
  // past the thousandth (hostile: each costs the formatter time and memory, see `number-format.ts`), shows the value
  // as General does.
  for (const f of findAll(root, 'numFmt')) {
    const code = attr(f, 'formatCode') ?? 'General';
    custom.set(Number(attr(f, 'numFmtId')), code.length <= 255 && custom.size < MAX_CUSTOM_FORMATS ? code : 'General');
  }
  const xfs = findAll(root, 'cellXfs')[0];
  return kids(xfs, 'xf').map((xf) => {
    const id = Number(attr(xf, 'numFmtId') ?? 0);
    return custom.get(id) ?? BUILTIN[id] ?? 'General';
  });
}

/** Slots and cells are keyed by row × this + column (columns are 0-16,383, rows below 2^20: exact in a double). */
const W = 16_384;

function sheetBlocks(xml: string, shared: string[], formats: string[], date1904: boolean, rels: Rels): Block[] {
  /** Shown values by cell (row × W + column), and addresses a `HYPERLINK` formula gives. */
  const values = new Map<number, string>();
  const formulas = new Map<number, string>();
  const frame = scanSheet(xml, (c, { hiddenCols }) => {
    if (c.r > 1_048_575 || c.c > 16_383 || hiddenCols[c.c]) return;
    const value = cellValue(c, shared, formats, date1904);
    if (value === '') return;
    if (values.size >= LIMITS.sheetCells) throw new ParseError('limit', `A sheet has more than ${LIMITS.sheetCells} cells.`);
    values.set(c.r * W + c.c, value);
    const url = formulaLink(c.f);
    if (url) formulas.set(c.r * W + c.c, url);
  });
  const hiddenCol = frame.hiddenCols;
  // Hidden rows and columns are not shown, so not read (as hidden sheets are not), and the shown grid closes over
  // them: slots are counted in shown rows and columns, so the cells on either side of a hidden column stay
  // neighbours.
  const colsBefore = new Int32Array(W + 1);
  for (let c = 0; c < W; c++) colsBefore[c + 1] = colsBefore[c] + hiddenCol[c];
  const hiddenRows = [...frame.hiddenRows].sort((a, b) => a - b);
  const rowsBefore = (r: number) => {
    let lo = 0;
    let hi = hiddenRows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (hiddenRows[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const slot = (r: number, c: number) => (r - rowsBefore(r)) * W + (c - colsBefore[c]);
  const targets = cellLinks(frame.hyperlinks, rels);
  const cells = new Map<number, string>();
  /** Link addresses by slot. */
  const links = new Map<number, string>();
  for (const [key, value] of values) {
    const [r, c] = [Math.floor(key / W), key % W];
    // A column hidden by a declaration after the cells (the schema puts them first).
    if (hiddenCol[c]) continue;
    cells.set(slot(r, c), value);
    const url = targets.get(key) ?? formulas.get(key);
    if (url) links.set(slot(r, c), url);
  }
  values.clear();
  // Merged areas join a region (their covered slots stay empty, the text is written once).
  const merged = new Set<number>();
  for (const ref of frame.merges) {
    const [a, b] = ref.split(':');
    if (!a || !b) continue;
    const [r1, c1] = cellRef(a);
    const [r2, c2] = cellRef(b);
    if (r1 < 0 || r2 < 0 || r2 > 1_048_575 || c2 > 16_383 || (r2 - r1 + 1) * (c2 - c1 + 1) > 10_000) continue;
    for (let r = r1; r <= r2; r++) for (let c = c1; c <= c2; c++) if (r !== r1 || c !== c1) merged.add(slot(r, c));
  }
  // Connected components over occupied slots.
  const occupied = (k: number) => cells.has(k) || merged.has(k);
  const seen = new Set<number>();
  const regions: Box[] = [];
  for (const key of cells.keys()) {
    if (seen.has(key)) continue;
    const box = { r1: Infinity, c1: Infinity, r2: -1, c2: -1 };
    const stack = [key];
    seen.add(key);
    while (stack.length) {
      const k = stack.pop()!;
      const [r, c] = [Math.floor(k / W), k % W];
      box.r1 = Math.min(box.r1, r);
      box.c1 = Math.min(box.c1, c);
      box.r2 = Math.max(box.r2, r);
      box.c2 = Math.max(box.c2, c);
      for (const n of [k + W, k - W, c < W - 1 ? k + 1 : -1, c > 0 ? k - 1 : -1]) {
        if (n >= 0 && !seen.has(n) && occupied(n)) {
          seen.add(n);
          stack.push(n);
        }
      }
    }
    regions.push(box);
  }
  // Boxes that overlap are one region.
  const boxes = mergeOverlapping(regions);
  boxes.sort((a, b) => a.r1 - b.r1 || a.c1 - b.c1);
  return boxes.map((g) => {
    const rows: string[][] = [];
    for (let r = g.r1; r <= g.r2; r++) {
      const row: string[] = [];
      for (let c = g.c1; c <= g.c2; c++) row.push(link(esc(cells.get(r * W + c) ?? ''), links.get(r * W + c)));
      rows.push(row);
    }
    return captionedTable(rows);
  }).flat();
}

/**
 * A cell stored as an ISO 8601 date-time (`t="d"`, as SheetJS writes dates) shown as a serial date would be: through
 * its date format, else with the parts it has (a midnight is a date). Text that is no date stays as it is.
 */
function isoCell(v: string, code: string): string {
  const m = /^(\d{4})-(\d\d)-(\d\d)(?:T(\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,3})\d*)?)?)?(Z|[+-]\d\d:?\d\d)?$/.exec(v.trim());
  if (!m) return v;
  const [, y, mo, d, h = '00', mi = '00', sec = '00', ms = '0'] = m;
  const serial = Date.UTC(+y, +mo - 1, +d, +h, +mi, +sec, Number(ms.padEnd(3, '0'))) / 86_400_000 + 25_569;
  if (!Number.isFinite(serial)) return v;
  if (isDateCode(code)) return formatNumber(serial, code);
  return h === '00' && mi === '00' && sec === '00' ? `${y}-${mo}-${d}` : `${y}-${mo}-${d} ${h}:${mi}${sec === '00' ? '' : `:${sec}`}`;
}

type Rels = ReturnType<typeof readRels>;

const MAX_LINKED_CELLS = 100_000;

/**
 * The sheet's cell hyperlinks (`<hyperlink ref="A1" r:id>`, the address an external relationship), by cell
 * (row × W + column, 0-based); a range's link covers each of its cells (10,000 at most, as merged areas, and 100,000
 * in all: a hostile sheet's ranges would otherwise cost memory by the cell). A link to a place in the workbook
 * (`location`) has no address to keep.
 */
function cellLinks(hyperlinks: { ref: string; id: string }[], rels: Rels): Map<number, string> {
  const out = new Map<number, string>();
  for (const h of hyperlinks) {
    const rel = rels.get(h.id);
    if (!rel?.external) continue;
    const [a, b = a] = h.ref.split(':');
    const [r1, c1] = cellRef(a ?? '');
    const [r2, c2] = cellRef(b ?? '');
    const area = (r2 - r1 + 1) * (c2 - c1 + 1);
    // Past the grid's last column a key would name the next row's cell.
    if (r1 < 0 || r2 < r1 || c2 < c1 || c2 >= W || area > 10_000 || out.size + area > MAX_LINKED_CELLS) continue;
    for (let r = r1; r <= r2; r++) for (let c = c1; c <= c2; c++) out.set(r * W + c, rel.target);
  }
  return out;
}

/** The address of a `HYPERLINK("…", …)` formula given as a string literal (the cell's value is its shown text). */
function formulaLink(f: string): string | undefined {
  const m = f ? /^\s*HYPERLINK\(\s*"((?:[^"]|"")*)"/i.exec(f) : null;
  return m ? m[1].replace(/""/g, '"') : undefined;
}

function cellValue(c: SheetCell, shared: string[], formats: string[], date1904: boolean): string {
  const { t, v } = c;
  const code = formats[c.s] ?? 'General';
  switch (t) {
    case 's':
      return formatText(shared[Number(v)] ?? '', code);
    case 'inlineStr':
      return formatText(unescapeXstring(c.inline), code);
    case 'str':
      return formatText(unescapeXstring(v), code);
    case 'b':
      return v === '1' ? 'TRUE' : v === '0' ? 'FALSE' : v;
    case 'e':
      return v;
    case 'd':
      return isoCell(v, code);
    default: {
      if (v === '') return '';
      const n = Number(v);
      if (!Number.isFinite(n)) return v;
      return formatNumber(n, code, date1904);
    }
  }
}

interface Box {
  r1: number;
  c1: number;
  r2: number;
  c2: number;
}

/**
 * Boxes that overlap become one (repeated until none do). A sweep down the rows keeps only the boxes still open at
 * the current row, so a sheet of many scattered cells costs about n log n, not n² per merge.
 */
function mergeOverlapping(input: Box[]): Box[] {
  let list = input.map((b) => ({ ...b }));
  for (;;) {
    list.sort((a, b) => a.r1 - b.r1 || a.c1 - b.c1);
    const out: Box[] = [];
    let open: Box[] = [];
    let changed = false;
    for (const g of list) {
      if (open.length && open.some((o) => o.r2 < g.r1)) open = open.filter((o) => o.r2 >= g.r1);
      const hit = open.find((o) => o.c1 <= g.c2 && g.c1 <= o.c2);
      if (hit) {
        hit.r2 = Math.max(hit.r2, g.r2);
        hit.c1 = Math.min(hit.c1, g.c1);
        hit.c2 = Math.max(hit.c2, g.c2);
        changed = true;
      } else {
        out.push(g);
        open.push(g);
      }
    }
    list = out;
    if (!changed) return list;
  }
}
