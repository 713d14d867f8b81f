/**
 * Worksheets and shared strings read as a stream of tags (htmlparser2's parser without a tree). A sheet is most of
 * a workbook's bytes, and as a tree each cell cost three nodes: 50,000 rows of ten columns (a 2.9 MB file, a
 * 26 MB sheet part) took 870 MB and 11 s and failed the worker's memory limit; read as a stream, only the values
 * are kept. The guards of `parseXml` hold: a part declaring a DTD is refused, and nesting is bounded.
 */
import { Parser } from 'htmlparser2';
import { LIMITS, ParseError } from './types.js';
import { refuseDtd } from './xml.js';

/** A cell as the sheet stores it: 0-based position, type (`t`), style index (`s`), value, and its formula's text. */
export interface SheetCell {
  r: number;
  c: number;
  t: string;
  s: number;
  v: string;
  /** An inline string's text (`t="inlineStr"`). */
  inline: string;
  f: string;
}

/** What a sheet says beside its cells. */
export interface SheetFrame {
  /** 1 for each hidden column (0-based, 16,384 columns). */
  hiddenCols: Uint8Array;
  /** Hidden rows (0-based), in the order met. */
  hiddenRows: number[];
  /** Merged areas (`A1:C2`). */
  merges: string[];
  hyperlinks: { ref: string; id: string }[];
}

const isHidden = (a: Record<string, string>) => a.hidden === '1' || a.hidden === 'true';

/** "B3" → [2, 1] (row, column, 0-based); [-1, -1] for anything else. */
export function cellRef(ref: string): [number, number] {
  const m = /^([A-Z]{1,3})(\d{1,7})$/.exec(ref);
  if (!m) return [-1, -1];
  let c = 0;
  for (const ch of m[1]) c = c * 26 + ch.charCodeAt(0) - 64;
  return [Number(m[2]) - 1, c - 1];
}

/**
 * Runs `xml` through the parser with a stack of open element names: `open` and `close` see each element, `text`
 * each piece of text with the names of the element it is in and of that element's parent.
 */
function stream(xml: string, on: { open(name: string, attrs: Record<string, string>): void; close(name: string): void; text(data: string, inside: string | undefined, parent: string | undefined): void }): void {
  refuseDtd(xml);
  const stack: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (stack.length >= LIMITS.xmlDepth) throw new ParseError('limit', `The XML is nested more than ${LIMITS.xmlDepth} levels deep.`);
        on.open(name, attrs);
        stack.push(name);
      },
      onclosetag(name) {
        stack.pop();
        on.close(name);
      },
      ontext(data) {
        on.text(data, stack[stack.length - 1], stack[stack.length - 2]);
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
}

/**
 * A string item's text (a shared string's `si`, an inline string's `is`): its `t`, or its rich runs' `r/t`, not the
 * phonetic guide (`rPh/t`, furigana over Japanese). Text in a `t` whose parent is the item or a run.
 */
const itemText = (inside: string | undefined, parent: string | undefined, item: string) => inside === 't' && (parent === item || parent === 'r');

/** The shared string table's items, raw (see `unescapeXstring` in `xlsx.ts`). */
export function scanShared(xml: string): string[] {
  const out: string[] = [];
  let item: string[] | undefined;
  let inPhonetic = 0;
  stream(xml, {
    open(name) {
      if (name === 'si') item = [];
      else if (name === 'rPh') inPhonetic++;
    },
    close(name) {
      if (name === 'si' && item) {
        out.push(item.join(''));
        item = undefined;
      } else if (name === 'rPh' && inPhonetic) inPhonetic--;
    },
    text(data, inside, parent) {
      if (item && !inPhonetic && itemText(inside, parent, 'si')) item.push(data);
    },
  });
  return out;
}

/**
 * A sheet's cells, each handed to `onCell` as its element closes with what the sheet has said beside them so far
 * (cells in hidden rows are skipped, as their rows are not shown), and in the end all it says beside them.
 */
export function scanSheet(xml: string, onCell: (cell: SheetCell, frame: SheetFrame) => void): SheetFrame {
  const frame: SheetFrame = { hiddenCols: new Uint8Array(16_384), hiddenRows: [], merges: [], hyperlinks: [] };
  let rowNum = -1;
  let autoC = 0;
  let skipRow = false;
  let cell: SheetCell | undefined;
  let inInline = false;
  let inPhonetic = 0;
  const v: string[] = [];
  const f: string[] = [];
  const inline: string[] = [];
  stream(xml, {
    open(name, a) {
      switch (name) {
        case 'col':
          if (isHidden(a)) {
            const min = Math.max(1, Number(a.min) || 1);
            const max = Math.min(16_384, Number(a.max) || min);
            frame.hiddenCols.fill(1, min - 1, max);
          }
          break;
        case 'row':
          rowNum = Number(a.r ?? 0) - 1;
          autoC = 0;
          skipRow = isHidden(a);
          if (skipRow) frame.hiddenRows.push(rowNum);
          break;
        case 'c': {
          if (skipRow) break;
          // A cell without a reference follows the one before it in its row.
          const [r, c] = a.r ? cellRef(a.r) : [rowNum, autoC];
          if (r < 0) break;
          autoC = c + 1;
          cell = { r, c, t: a.t ?? 'n', s: Number(a.s ?? 0), v: '', inline: '', f: '' };
          v.length = f.length = inline.length = 0;
          break;
        }
        case 'is':
          inInline = !!cell;
          break;
        case 'rPh':
          inPhonetic++;
          break;
        case 'mergeCell':
          if (a.ref) frame.merges.push(a.ref);
          break;
        case 'hyperlink':
          if (a['r:id']) frame.hyperlinks.push({ ref: a.ref ?? '', id: a['r:id'] });
          break;
      }
    },
    close(name) {
      if (name === 'c' && cell) {
        cell.v = v.join('');
        cell.f = f.join('');
        cell.inline = inline.join('');
        onCell(cell, frame);
        cell = undefined;
      } else if (name === 'is') inInline = false;
      else if (name === 'rPh' && inPhonetic) inPhonetic--;
    },
    text(data, inside, parent) {
      if (!cell) return;
      if (inInline) {
        if (!inPhonetic && itemText(inside, parent, 'is')) inline.push(data);
      } else if (inside === 'v' && parent === 'c') v.push(data);
      else if (inside === 'f' && parent === 'c') f.push(data);
    },
  });
  return frame;
}
