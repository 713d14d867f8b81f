/**
 * The one markdown writer (README "Markdown convention"): GFM, ATX headings, `-`/`1.` lists indented to the
 * parent's text column, pipe tables with a real header row, `|` escaped and line breaks as `<br>`, one blank line
 * between blocks, no trailing spaces.
 */
import { append, maxOf } from '../lib/arrays.js';
import { trimEndOf } from '../lib/strings.js';
import { squeeze } from './inline.js';
import type { Block, ListItem } from './types.js';

export function writeMarkdown(blocks: Block[]): string {
  // A carriage return is a line ending to a markdown reader: written as one (table cells turn theirs into `<br>`).
  const out = renderBlocks(bounded(blocks)).join('\n\n').replace(/\r\n?/g, '\n');
  const lines = out.split('\n').map((line) => trimEndOf(line, ' \t'));
  // Soft hyphens (only hints where a line may break) and stray byte-order marks are invisible in every source:
  // left in, they split words for search.
  return lines.join('\n').replace(/[\u00AD\uFEFF]/g, '').replace(/\n{3,}/g, '\n\n').trim().normalize('NFC') + (out.trim() ? '\n' : '');
}

/** Quotes and list items nested in one another deeper than this are written at this depth. */
export const MAX_NESTING = 16;

/**
 * The blocks with quotes and lists nested past `MAX_NESTING` levels flattened into the deepest one kept: a quote's
 * blocks and a list item's text and blocks stand in its place. Each level prefixes every line inside it (`> `, an
 * item's indent), so a hostile page's thousands of levels cost the square of its size (a 4.8 MB page of nested
 * quotes: 89 s); past the cap they cost at most `MAX_NESTING` prefixes a line. Nothing is dropped, and no real
 * document nests this deep.
 */
function bounded(blocks: Block[], depth = 0): Block[] {
  if (!blocks.some((b) => b.t === 'quote' || b.t === 'list')) return blocks;
  const out: Block[] = [];
  for (const b of blocks) {
    if (b.t === 'quote') {
      if (depth < MAX_NESTING) out.push({ t: 'quote', blocks: bounded(b.blocks, depth + 1) });
      else append(out, bounded(b.blocks, depth));
    } else if (b.t === 'list') {
      if (depth < MAX_NESTING) out.push({ ...b, items: b.items.map((it) => ({ text: it.text, children: bounded(it.children, depth + 1) })) });
      else
        for (const it of b.items) {
          if (it.text.trim()) out.push({ t: 'p', text: it.text });
          append(out, bounded(it.children, depth));
        }
    } else out.push(b);
  }
  return out;
}

/** Line-start characters that would turn a paragraph into another block. */
function guardLineStart(line: string): string {
  return line.replace(/^(\s*)(#{1,6}\s|[-+*]\s|>|(\d{1,9})([.)])\s|={3,}|-{3,}|`{3,}|~{3,})/, (m, sp: string, _w, num?: string, d?: string) => {
    if (num !== undefined) return `${sp}${num}\\${d} `;
    return `${sp}\\${m.slice(sp.length)}`;
  });
}

/**
 * Blocks rendered in order. Two lists of one kind in a row are parted by an empty comment, as pandoc parts them:
 * markdown would read them as one list (a list goes on past a blank line, whatever its items' numbers say).
 */
function renderBlocks(blocks: Block[]): string[] {
  const parts: string[] = [];
  let last: Block | undefined;
  for (const b of blocks) {
    const s = renderBlock(b);
    if (!s.trim()) continue;
    if (b.t === 'list' && last?.t === 'list' && last.ordered === b.ordered) parts.push('<!-- -->');
    parts.push(s);
    last = b;
  }
  return parts;
}

function oneLine(text: string): string {
  return text.split('\n').map((part) => part.trim()).join(' ').replace(/[ \t]+/g, ' ').trim();
}

/**
 * A heading's or header cell's text without a bold or italic that covers all of it (a slide title or a Word heading
 * set bold: `**Title**` says no more than `#` does; a table style's bold header row that LibreOffice writes into
 * the runs). An emphasis over part of it stays.
 */
function unemphasised(text: string): string {
  for (;;) {
    const m = /^(\*\*?)(?=\S)([^]*\S)\1$/.exec(text);
    // `**a** and **b**` is two emphases, not one around it all: the marker must not stand inside unescaped.
    if (!m || (m[1] === '**' ? /(?<!\\)\*\*/ : /(?<!\\)\*/).test(m[2])) return text;
    text = m[2];
  }
}

function renderBlock(b: Block): string {
  switch (b.t) {
    case 'h': {
      const text = unemphasised(oneLine(b.text));
      if (!text) return '';
      return `${'#'.repeat(Math.min(6, Math.max(1, b.level)))} ${text}`;
    }
    case 'p':
      return b.text
        .split('\n')
        .map((l) => guardLineStart(l.trim()))
        .filter((l) => l)
        // A line break inside a paragraph (HTML <br>, Word's and PowerPoint's breaks) is a hard break, written as
        // GFM's backslash break (pandoc does the same; trailing spaces are not allowed): a plain newline would
        // render as a space.
        .join('\\\n');
    case 'code': {
      const fence = b.text.includes('```') ? '~~~~' : '```';
      // The info string names the language when the source did (HTML `language-js`), nothing else.
      const lang = b.lang && /^[\w+#.-]{1,30}$/.test(b.lang) ? b.lang : '';
      return `${fence}${lang}\n${trimEndOf(b.text, '\n')}\n${fence}`;
    }
    case 'quote':
      return renderBlocks(b.blocks)
        .join('\n\n')
        .split('\n')
        .map((l) => (l ? `> ${l}` : '>'))
        .join('\n');
    case 'comment':
      return `<!-- ${b.text.replace(/--/g, '- -')} -->`;
    case 'list':
      return renderList(b.ordered, b.start, b.items);
    case 'table':
      return renderTable(b.rows);
  }
}

function renderList(ordered: boolean, start: number, items: ListItem[]): string {
  const lines: string[] = [];
  let n = start;
  // An item holding a block of its own (a paragraph, a table: written after a blank line) makes the list loose in
  // CommonMark whatever the spacing; its items are then set a blank line apart too, as pandoc writes them, so that
  // one item's last block does not run into the next marker.
  const rendered = items.map((item) => item.children.map((c) => renderBlock(c)));
  // An item opening with a heading (a card in a list of links) carries it on its marker's line: `- ### Title`.
  const carriesHeading = (item: ListItem) => !item.text.trim() && item.children[0]?.t === 'h';
  const loose = items.some((item, k) => item.children.some((c, j) => c.t !== 'list' && !(j === 0 && carriesHeading(item)) && rendered[k][j].trim()));
  items.forEach((item, k) => {
    if (loose && lines.length) lines.push('');
    const marker = ordered ? `${n++}. ` : '- ';
    const pad = ' '.repeat(marker.length);
    const text = item.text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    // An item's own line breaks are hard breaks, as a paragraph's are.
    const hard = (i: number) => (i < text.length - 1 ? '\\' : '');
    const heading = carriesHeading(item) ? rendered[k][0] : '';
    lines.push(marker + (heading || guardLineStart(text[0] ?? '').trimStart() + hard(0)));
    text.slice(1).forEach((l, i) => lines.push(pad + guardLineStart(l) + hard(i + 1)));
    item.children.forEach((child, j) => {
      const s = rendered[k][j];
      if ((heading && j === 0) || !s.trim()) return;
      if (child.t !== 'list') lines.push('');
      for (const l of s.split('\n')) lines.push(l ? pad + l : '');
    });
  });
  return lines.join('\n');
}

/** Cell text that `cell` would write unchanged: words a single space apart, no break, pipe or backslash. */
const PLAIN_CELL = /^(?:[^\s|\\]+(?: [^\s|\\]+)*)?$/;

export function cell(text: string): string {
  // Most cells of a large sheet are a number or a word or two: they skip the passes below.
  if (PLAIN_CELL.test(text)) return text;
  const md = text
    .replace(/\r\n?/g, '\n')
    .trim()
    // A paragraph's hard break (a backslash no other backslash escapes, then a newline) is a `<br>` like any break.
    .replace(/(?<!\\)((?:\\\\)*)\\\n/g, '$1\n')
    .split('\n')
    .map((part) => part.trim())
    .filter(Boolean)
    .join('<br>')
    .replace(/\\\|/g, '|')
    .replace(/\|/g, '\\|');
  // Spacing inside a code span is the code's own.
  return squeeze(md);
}

/**
 * A table from a source that marks no header row (a sheet; a Word table without a repeated header row, a slide's
 * without a header row style, an HTML table without `<thead>` or `<th>` in its first row), its title rows taken out:
 * leading rows of one filled cell (often merged across the width) over a row of several, with data below, are the
 * table's caption, not its header. Each is a paragraph above the table, and the row under them heads it.
 */
export function captionedTable(rows: string[][]): Block[] {
  const filled = (r: string[]) => r.filter((c) => c.trim()).length;
  let head = 0;
  while (head < rows.length && filled(rows[head]) <= 1) head++;
  if (head === 0 || head >= rows.length || !rows.slice(head + 1).some(filled)) return [{ t: 'table', rows }];
  const titles = rows.slice(0, head).filter((r) => filled(r) === 1);
  // The cell's text as a paragraph: its line breaks (`<br>` in a cell) the paragraph's.
  const title = (r: string[]): Block => ({ t: 'p', text: cell(r.find((c) => c.trim())!).replace(/<br>/g, '\n') });
  return [...titles.map(title), { t: 'table', rows: rows.slice(head) }];
}

/** Drops empty rows and columns; the first remaining row is the header. A 1x1 table is a paragraph. */
export function renderTable(input: string[][]): string {
  let rows = input.map((r) => r.map(cell)).filter((r) => r.some((c) => c !== ''));
  if (!rows.length) return '';
  const width = maxOf(rows.map((r) => r.length));
  rows = rows.map((r) => [...r, ...Array<string>(width - r.length).fill('')]);
  const keep: number[] = [];
  for (let c = 0; c < width; c++) if (rows.some((r) => r[c] !== '')) keep.push(c);
  rows = rows.map((r) => keep.map((c) => r[c]));
  if (rows.length === 1 && keep.length === 1) return rows[0][0].replace(/<br>/g, '\\\n');
  // An empty cell is one space between its pipes.
  const line = (r: string[]) => `|${r.map((c) => (c ? ` ${c} ` : ' ')).join('|')}|`;
  const [first, ...body] = rows;
  // A header row set bold as a whole, every cell, says no more than its place (see `unemphasised`); one cell set
  // apart from the others keeps its emphasis.
  const bare = first.map(unemphasised);
  const head = first.every((c, k) => !c || bare[k] !== c) ? bare : first;
  return [line(head), `|${head.map(() => ' --- ').join('|')}|`, ...body.map(line)].join('\n');
}
