/**
 * A document's lines into blocks: headings, paragraphs (by gap, indent and line spacing), lists nested by marker
 * position, code, tables and footnotes, page by page.
 */
import { append, maxOf } from '../../lib/arrays.js';
import { codeSpan, esc, link, plainText } from '../inline.js';
import { captionedTable } from '../markdown.js';
import type { Block } from '../types.js';
import type { Outline } from './structure.js';
import { codeRuns, codeText } from './code.js';
import { joinWrapped, joinWrappedAll, type LineBreaks, SENTENCE_ENDED, sentenceEnd } from './text.js';
import { codeIsBody, figureLabels, HEADING_MAX, headingLevel, heaviest, NUMBERED, sizeKey, sizeLevels, sizeWeights, standsAlone, wrappedHeadingLevel } from './headings.js';
import { ascii, BULLET, type Columns, couldEnd, ended, type Line, sameFace } from './lines.js';
import { type Carried, carryHeader, contentsRun, endsInLeader, findTables, joinSplitRow, mergeHeaderRows } from './tables.js';

const ORDERED = /^(\d{1,3})[.)]\s+(?=\S)/;

/** `toEnd`: the pages run to the document's last (not cut by `maxPages`), so the last one may be its back cover. */
export function layout(pages: Line[][], outline: Outline = new Map(), mono = new Set<string>(), breaks?: LineBreaks, toEnd = true): Block[] {
  const joinLines = (lines: string[]) => joinWrappedLines(lines, breaks);
  // Body size: the size carrying most characters (of prose, see `codeIsBody`); any size may rank as a heading's.
  const codeCounts = codeIsBody(pages.flat());
  const weight = sizeWeights(pages.flat());
  const body = heaviest(sizeWeights(pages.flat(), codeCounts)) ?? 10;
  const total = [...weight.values()].reduce((a, b) => a + b, 0);
  const headingSizes = [...weight.keys()].filter((s) => s >= body + 1 && s >= body * 1.05 && (weight.get(s) ?? 0) < total * 0.3).sort((a, b) => b - a);
  // Levels rank the sizes headings take on body pages (half their text or more in the body size, and, in a document
  // of four pages or more, neither the first nor the last: a back cover's blurb may outweigh its titles): a cover's
  // or an insert's own sizes would otherwise take the top levels and push a book's chapters and sections to the last one.
  const pageWeights = pages.map((p) => sizeWeights(p, codeCounts));
  const isCover = (i: number) => pages.length >= 4 && (i === 0 || (toEnd && i === pages.length - 1));
  const onBodyPages = new Set<number>();
  pages.forEach((p, i) => {
    const w = pageWeights[i];
    if (isCover(i)) return;
    if ((w.get(body) ?? 0) * 2 < [...w.values()].reduce((a, b) => a + b, 0)) return;
    for (const l of p) if (/\p{L}/u.test(l.text)) onBodyPages.add(sizeKey(l.size));
  });
  const ranked = headingSizes.filter((s) => onBodyPages.has(s));
  // On a cover, a size no body page uses is a heading only at the top level (the cover's title): its smaller sizes
  // are a blurb, side heads, authors, a web address.
  const coverOnly = new Set(headingSizes.filter((s) => !onBodyPages.has(s)));
  // Body font: the font carrying most characters at the body size.
  const fonts = new Map<string, number>();
  for (const p of pages) for (const l of p) if (l.font && sizeKey(l.size) === body) fonts.set(l.font, (fonts.get(l.font) ?? 0) + l.text.length);
  const bodyFont = [...fonts].sort((p, q) => q[1] - p[1])[0]?.[0];
  const ctx = { levels: sizeLevels(headingSizes, ranked), bodySize: body, bodyFont, outline, leading: bodyLeading(pages, body, bodyFont), measure: bodyMeasure(pages, body, bodyFont) };
  // Bold lines at the body size that head the text (decision 1 of issue 36, see `boldHeadings`), a level below the
  // size-ranked headings; and a first line set bold, the document's title.
  const bold = boldHeadings(pages, ctx);
  const boldLevel = Math.min(4, maxOf([0, ...ctx.levels.values()]) + 1);
  // Lines are apart past 1.6 of their size. A body line running the full measure goes on into the next body line up
  // to 1.3 of the body's own line spacing where that is wider (a Korean report set at 1.65 lines, 19 pt apart at
  // 11.5 pt, whose lines would each stand alone); short lines at such spacing (a form's, an address's) stay apart.
  const apartGap = (a: Line | undefined, b: Line) => {
    const runsFull = !!a && sizeKey(a.size) === body && sizeKey(b.size) === body && !!ctx.measure && (a.w ?? 0) >= ctx.measure * 0.9;
    return Math.max(Math.max(a?.size ?? 0, b.size) * 1.6, runsFull ? ctx.leading * 1.3 : 0);
  };
  // Code: monospace lines below the heading sizes, in a document whose body is not itself set monospace (a
  // typewritten or plain-text page is prose).
  const monoBody = !!bodyFont && mono.has(bodyFont);
  const isCode = (l: Line) => !monoBody && !!l.runs && !l.table && l.size < body + 1 && ascii(l.text);
  // A line's markdown: code spans for its monospace words unless the body itself is monospace.
  // A line all in monospace that is no code block (inline code wrapped onto it) is one code span.
  const inline = (l: Line, marker = '') =>
    l.md && !monoBody && l.md.startsWith(esc(marker)) ? l.md.slice(esc(marker).length).trimStart() : l.runs && !monoBody && !marker ? codeSpan(l.text.trim()) : esc(l.text.slice(marker.length));
  const blocks: Block[] = [];
  // Texts built line by line (a list item's, a heading's) keep their lines here and are joined once, after the
  // last page: joining each line onto the text so far would copy that text every time.
  const growing = new Map<{ text: string }, string[]>();
  const grow = (holder: { text: string }, line: string) => {
    const lines = growing.get(holder);
    if (lines) lines.push(line);
    else growing.set(holder, [holder.text, line]);
  };
  // The table that ended the page before, for one that opens this page in its columns (see `carryHeader`).
  let carried: (Carried & { block: Block }) | undefined;
  pages.forEach((read, i) => {
    blocks.push({ t: 'comment', text: `page ${i + 1}` });
    const opening = blocks.length;
    let ending: (Carried & { block: Block }) | undefined;
    const pushTable = (rows: string[][], columns: Columns, headed: boolean) => {
      // A row the page break split joins the table before (see `joinSplitRow`).
      if (blocks.length === opening && carried?.block.t === 'table') rows = joinSplitRow(rows, columns, { ...carried, rows: carried.block.rows }, breaks);
      if (!rows.length) return;
      const own = mergeHeaderRows(rows);
      const continued = !headed && own === rows && blocks.length === opening && carryHeader(rows, columns, carried);
      // A table's own title rows (one filled cell over a row of several, inside its rules) are its caption, as in
      // the other formats' tables that mark no header (see `captionedTable`); a table going on from the page
      // before has none.
      const parts = continued || headed ? [] : captionedTable(own);
      const captioned = parts[parts.length - 1];
      for (const caption of parts.slice(0, -1)) blocks.push(caption);
      const table: Block = { t: 'table', rows: continued || (captioned?.t === 'table' ? captioned.rows : own) };
      blocks.push(table);
      ending = { header: table.rows[0], columns, block: table };
    };
    const { lines, carried: goesOn } = carryAcrossColumns(untangle(read), ctx.measure);
    const pageCtx = { ...ctx, pageBody: heaviest(pageWeights[i]) ?? body, coverOnly: isCover(i) ? coverOnly : undefined };
    const code = codeRuns(lines, isCode);
    // Monospace lines right under a line of text that ends in a code span, at the line spacing, carry that span on
    // (a long inline code wrapped over lines): they are the text's lines, not a block of code. So are monospace
    // lines between two lines of text at the line spacing, the one under them starting with a code span (the span
    // begins on a line of its own).
    // At the line spacing: the body's own (a browser sets 1.5 and more) or, in a smaller face, 1.3 of its size.
    const spaced = (a: Line | undefined, b: Line | undefined) => !!a && !!b && a.y - b.y > 0 && a.y - b.y <= Math.max(a.size * 1.3, (ctx.leading ?? 0) * 1.05);
    const prose = (l: Line | undefined) => !!l && !l.runs && !l.table;
    /** Lines carrying a code span on in the text: below, they are measured as the text's lines. */
    const spanLines = new Set<number>();
    for (const [start, end] of [...code]) {
      const above = lines[start - 1];
      const below = lines[end];
      if (prose(above) && spaced(above, lines[start]) && (above.md?.endsWith('`') || (prose(below) && below.md?.startsWith('`') && spaced(lines[end - 1], below)))) {
        code.delete(start);
        for (let k = start; k < end; k++) spanLines.add(k);
      }
    }
    const inCode = new Set<number>();
    for (const [start, end] of code) for (let k = start; k < end; k++) inCode.add(k);
    // So does a monospace line too short to be code, right under text ending in a code span.
    lines.forEach((l, k) => {
      if (l.runs && !inCode.has(k) && prose(lines[k - 1]) && spaced(lines[k - 1], l) && lines[k - 1].md?.endsWith('`')) spanLines.add(k);
    });
    const tables = findTables(lines, inCode, breaks);
    const labels = figureLabels(lines, ctx);
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
        if (l.columns) pushTable(l.table, l.columns, false);
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
        const sideBySide = listColumns(table.rows);
        if (sideBySide) append(blocks, sideBySide);
        else pushTable(table.rows, table.columns, table.headed);
        li = table.end - 1;
        last = lines[li];
        continue;
      }
      const text = l.href ? link(inline(l), l.href) : inline(l);
      // A heading's wrapped line: the same face and size right under a heading line that ran long (a line without
      // letters, "20.20.2)", too).
      const heading = blocks[blocks.length - 1];
      if (heading?.t === 'h' && !para.length && !lists.length && last === lines[li - 1] && sameFace(l, last) && last.y - l.y > 0 && last.y - l.y < l.size * 1.8 && (last.w ?? 0) >= ctx.measure * 0.6 && !NUMBERED.test(l.text) && !BULLET.test(l.text)) {
        grow(heading, text);
        last = l;
        continue;
      }
      const level = labels.has(li)
        ? 0
        : headingLevel(l, pageCtx, lines[li - 1], lines[li + 1]) ||
          (lines[li + 1] ? wrappedHeadingLevel(l, lines[li + 1], pageCtx, lines[li - 1], lines[li + 2]) : 0) ||
          (l === bold.title ? 1 : bold.lines.has(l) ? boldLevel : 0);
      if (level) {
        flush();
        lists = [];
        const prev = blocks[blocks.length - 1];
        if (prev?.t === 'h' && prev.level === level && last && Math.abs(last.size - l.size) < 0.5 && last.y - l.y < l.size * 1.8 && !NUMBERED.test(l.text)) grow(prev, text);
        else blocks.push({ t: 'h', level, text });
        last = l;
        continue;
      }
      // A footnote led by a raised "*" is no bullet item; nor is a dash, an asterisk or a number no open list
      // expects (not 1, not the next number) that running text wrapped onto the start of a line: the line above,
      // the paragraph's at the same start or an open item's past its marker, runs to the full measure without
      // ending, or the line itself does and the text goes on below at its start (an item's lines hang past its marker).
      const next = lines[li + 1];
      // (A line of running text: at least twenty ems long, whatever the measure says on a page of short lines.)
      const runsOn = (a: Line, b: Line) => a.y - b.y > 0 && a.y - b.y < l.size * 1.6 && (a.w ?? 0) >= l.size * 20 && !couldEnd(a, ctx.measure);
      const sameStart = (a: Line, b: Line) => Math.abs(a.x - b.x) < l.size * 0.5;
      const numbered = ORDERED.exec(l.text);
      const openList = lists[lists.length - 1]?.list;
      const unexpected = !!numbered && Number(numbered[1]) !== 1 && !(openList?.ordered && Number(numbered[1]) === openList.start + openList.items.length);
      // (So is a bullet proper or a check box the paragraph's running line wrapped onto: "an item led by ☐ is a task,
      // by" "☒ or ☑ …".)
      const dashLike = /^[-–—*·]\s/.test(l.text) || unexpected;
      const runsOnto = !!last && runsOn(last, l);
      const wrappedOnto =
        (!!last && runsOnto && !!para.length && sameStart(last, l) && (dashLike || BULLET.test(l.text))) ||
        (dashLike &&
          ((runsOnto && !!lists.length && l.x > itemX + 2) ||
            (!!next && !BULLET.test(next.text) && !ORDERED.test(next.text) && sameStart(l, next) && runsOn(l, next))));
      const bullet = l.note || wrappedOnto ? null : BULLET.exec(l.text);
      const num = bullet || wrappedOnto ? null : numbered;
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
      // A monospace line carrying a code span on in running text (see `code` above) is set smaller than the text
      // (a browser's code is 0.85 of it) at the text's line spacing: it takes that spacing and a size a fifth apart.
      const inlineCode = !!last && (spanLines.has(li) || (spanLines.has(li - 1) && last === lines[li - 1])) && l.size >= last.size * 0.8 && l.size <= last.size * 1.25;
      const within = (steps: number) => gap < (inlineCode ? Math.max(Math.max(l.size, last!.size) * steps, (ctx.leading ?? 0) * 1.05) : l.size * steps);
      const open = lists[lists.length - 1]?.list;
      // An item's wrapped line: indented past its marker, or back at the marker where the line above runs on
      // without ending (a plain layout that hangs no indent: "… for critical" "items. 3. Schedule …").
      const wraps = !!last && (l.x > itemX + 2 || (Math.abs(l.x - itemX) <= 2 && runsOn(last, l)));
      if (open && last && within(1.6) && wraps && l.size >= last.size * 0.8 && l.size <= last.size * 1.25) {
        const it = open.items[open.items.length - 1];
        grow(it, text);
        last = l;
        continue;
      }
      lists = [];
      // A short line standing apart in a font of its own (a run-in title set bold at the body size, which the
      // convention does not make a heading) is a paragraph of its own, not the start of the text below it.
      // (A code span's line of its own, carried on from the text, is no such title.)
      // (A line right under one in its face and size, at the line spacing, goes on from it: a blurb set in narrow
      // lines, each short of the body's measure.)
      const above = lines[li - 1];
      const goesOnFrom = !!above && !above.table && sameFace(above, l) && above.y - l.y > 0 && above.y - l.y <= l.size * 1.5;
      const label = !spanLines.has(li) && !!l.font && !!ctx.bodyFont && l.font !== ctx.bodyFont && !!l.oneFont && !goesOnFrom && standsAlone(l, above, lines[li + 1], ctx);
      // A new paragraph: a gap of 1.6 lines, or, between body lines, a fifth more than the body's line spacing
      // after a line that could end one (closing punctuation, or short of the full measure): manuals set paragraphs
      // only slightly apart, while a justified line spread by a tall formula runs full width into the next. A raised
      // note mark's height is no part of the gap: a browser sets its line further down ("campaign[43]").
      const parted =
        !!ctx.leading && !!last && sizeKey(l.size) === body && sizeKey(last.size) === body && gap - (l.rise ?? 0) > ctx.leading * 1.2 && couldEnd(last, ctx.measure);
      const apart = inlineCode ? !within(1.6) : gap > apartGap(last, l) || Math.abs((last?.size ?? l.size) - l.size) > 1;
      if (label || l.note || (last && !goesOn.has(l) && (apart || parted || indents(l, last, lines[li + 1], ctx.measure, apartGap) || gap < 0))) flush();
      para.push(text);
      last = l;
      // A lone contents entry (leader dots, then a page number) is a line of its own, not part of running text.
      if (label || endsInLeader(l.text)) flush();
    }
    flush();
    carried = ending && blocks[blocks.length - 1] === ending.block ? ending : undefined;
  });
  for (const [holder, lines] of growing) holder.text = joinLines(lines);
  // So is a heading whose wrapped lines ran past a heading's length (a back cover's blurb in a heading size).
  blocks.forEach((b, k) => {
    if (b.t === 'h' && plainText(b.text).length > HEADING_MAX) blocks[k] = { t: 'p', text: b.text };
  });
  joinAcrossPages(blocks, breaks);
  return blocks;
}

/** A bold line that may head text: 60 characters at most, with letters, not ending like a sentence, no list item. */
const BOLD_HEAD_MAX = 60;
const boldShaped = (l: Line, body: number, max = BOLD_HEAD_MAX) =>
  !!l.bold && !l.table && !l.runs && !l.tag && sizeKey(l.size) === body && l.text.length <= max && /\p{L}/u.test(l.text) && !/[.,;:!?…]$/.test(l.text) && !BULLET.test(l.text) && !ORDERED.test(l.text) && !NUMBERED.test(l.text) && !endsInLeader(l.text);

/**
 * Decision 1 of issue 36: bold lines at the body size may be headings. Such a line is one when it stands apart from
 * the text around it (see `standsAlone`: it neither wraps into the line below in its face nor goes on from a line
 * above that runs on), is at most 60 characters, does not end like a sentence (nor in a colon: a form's label), is
 * no list item nor a numbered section line (those have rules of their own), is not its page's last line (a running
 * foot), and the file holds at least two of them, at most one in five of its lines at the body size (a glossary's
 * or a form's bold terms, each over a line or two of its own text, are its entries, not its sections).
 * A bold run inside a line of other text never counts (the line is bold only when all its lettered runs are).
 * Besides: the document's first line, set bold at the body size, standing apart from the text under it, is its
 * title (`#`), even alone.
 */
export function boldHeadings(pages: Line[][], ctx: { bodySize: number; leading?: number; measure?: number }): { lines: Set<Line>; title?: Line } {
  const body = sizeKey(ctx.bodySize);
  const found: Line[] = [];
  let bodyLines = 0;
  let title: Line | undefined;
  pages.forEach((p, i) => {
    p.forEach((l, k) => {
      if (sizeKey(l.size) === body && !l.table) bodyLines++;
      if (p[k + 1] && boldShaped(l, body) && standsAlone(l, p[k - 1], p[k + 1], ctx)) found.push(l);
    });
    if (i === 0) {
      const k = p.findIndex((l) => /\p{L}/u.test(l.text));
      const first = p[k];
      if (first && boldShaped(first, body, 120) && standsAlone({ ...first, text: first.text.slice(0, 90) }, undefined, p[k + 1], ctx)) title = first;
    }
  });
  const lines = found.length >= 2 && found.length * 5 <= bodyLines ? new Set(found) : new Set<Line>();
  if (title) lines.delete(title);
  return { lines, title };
}

/**
 * A sentence a page break cut ("members of the same" at a page's foot, "family. Divided among …" atop the next): the
 * rest of the sentence joins the text before the page marker, as a line's wrap joins (a hyphen judged as there:
 * "com-" "puter"), and that page's text goes on from its next sentence. A paragraph (or a list's last item) that
 * does not end like a sentence goes on where the next page opens with a paragraph in lower case, the rule a column's
 * foot follows (see `carryAcrossColumns`); a capital there may open a paragraph of its own, and is left alone.
 */
function joinAcrossPages(blocks: Block[], breaks?: LineBreaks): void {
  for (let k = 1; k + 1 < blocks.length; k++) {
    const [before, mark, after] = [blocks[k - 1], blocks[k], blocks[k + 1]];
    if (mark.t !== 'comment' || after.t !== 'p') continue;
    const holder = before.t === 'p' ? before : before.t === 'list' ? lastItem(before) : undefined;
    if (!holder || SENTENCE_ENDED.test(holder.text) || !/^\p{Ll}/u.test(after.text)) continue;
    const cut = sentenceEnd(after.text);
    holder.text = joinWrapped(holder.text, after.text.slice(0, cut), breaks);
    after.text = after.text.slice(cut).trimStart();
    if (!after.text) blocks.splice(k + 1, 1);
  }
}

/** A list's last item, in its last nested list where it has one: the text printed last. */
function lastItem(list: Extract<Block, { t: 'list' }>): { text: string } | undefined {
  const item = list.items[list.items.length - 1];
  const nested = item?.children[item.children.length - 1];
  return nested?.t === 'list' ? lastItem(nested) : item;
}

/**
 * Lists set side by side (a slide's text boxes, parallel lists on a page) line up like a table's rows: an aligned
 * table whose cells mostly (three in five, four at least) start with a list marker, in two columns or more, is
 * read column by column instead, each column's cells as list items (a cell holding several bullets as several)
 * and the cells without a marker as paragraphs.
 */
function listColumns(rows: string[][]): Block[] | undefined {
  // (Cells are markdown: a `*` marker arrives escaped.)
  const marker = (cell: string) => {
    const bare = cell.replace(/^\\/, '');
    const bullet = BULLET.exec(bare);
    const number = bullet ? null : ORDERED.exec(bare);
    return bullet || number ? { bullet: !!bullet, start: number ? Number(number[1]) : 1, text: bare.slice((bullet ?? number)![0].length).trim() } : undefined;
  };
  const cells = rows.flat().filter((c) => c.trim());
  const marked = cells.filter((c) => marker(c));
  const width = maxOf(rows.map((r) => r.length));
  const markedCols = Array.from({ length: width }, (_, c) => rows.some((r) => r[c] && marker(r[c]))).filter(Boolean).length;
  if (marked.length < 4 || marked.length < cells.length * 0.6 || markedCols < 2) return undefined;
  const out: Block[] = [];
  for (let c = 0; c < width; c++) {
    let list: Extract<Block, { t: 'list' }> | undefined;
    for (const row of rows) {
      for (const part of (row[c] ?? '').split(/\s+(?=[•●▪‣◦○■]\s)/u)) {
        if (!part.trim()) continue;
        const m = marker(part);
        if (!m) {
          list = undefined;
          out.push({ t: 'p', text: part.trim() });
          continue;
        }
        const ordered = !m.bullet;
        if (!list || list.ordered !== ordered || (ordered && m.start !== list.start + list.items.length)) {
          list = { t: 'list', ordered, start: m.start, items: [] };
          out.push(list);
        }
        list.items.push({ text: m.text, children: [] });
      }
    }
  }
  return out;
}

/** Two lines of one paragraph: the same start, font and size, the second at most 1.6 lines below the first. */
const continuous = (a: Line, b: Line) =>
  !a.table && !b.table && Math.abs(a.x - b.x) < 2 && sameFace(a, b) && a.y - b.y > 0 && a.y - b.y <= a.size * 1.6;

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

/**
 * A sentence a column's foot cut goes on at the head of the next column: a line in the paragraph's size and face,
 * higher up and to the right, starting in lower case, after a line that runs to the full measure without ending.
 * Smaller lines set between them (a figure's labels and caption, footnotes at the column's foot) are floats: they
 * move after the paragraph's last line there. `carried` holds the lines that go on with the line before them.
 */
function carryAcrossColumns(lines: Line[], measure: number): { lines: Line[]; carried: Set<Line> } {
  const out = [...lines];
  const carried = new Set<Line>();
  // (`couldEnd` holds a line short of nine tenths of the measure too.)
  const runsOn = (a: Line) => !a.table && !couldEnd(a, measure);
  for (let i = 0; i + 1 < out.length; i++) {
    const a = out[i];
    if (!runsOn(a)) continue;
    // The floats: up to 60 smaller lines, none of them a table.
    let j = i + 1;
    while (j < out.length && j - i <= 60 && !out[j].table && out[j].size < a.size - 0.5) j++;
    const b = out[j];
    if (!b || b.table || !sameFace(a, b) || b.y <= a.y || b.x < a.x + (a.w ?? 0) * 0.5 || !/^\p{Ll}/u.test(b.text)) continue;
    carried.add(b);
    if (j === i + 1) continue;
    let end = j;
    while (end + 1 < out.length && continuous(out[end], out[end + 1])) end++;
    const floats = out.splice(i + 1, j - i - 1);
    out.splice(end - floats.length + 1, 0, ...floats);
  }
  return { lines: out, carried };
}

/**
 * A paragraph's indented first line (books and papers set paragraphs apart this way, not by space): indented by
 * 0.8 to four text sizes from the line above (a Korean report indents by one character less its side bearing:
 * 10 pt at 11.5 pt), which ends its paragraph, while the line below returns to the margin; the three lines no
 * further apart than lines of one block (`apartGap`).
 */
function indents(l: Line, prev: Line | undefined, next: Line | undefined, measure: number | undefined, apartGap: (a: Line, b: Line) => number): boolean {
  if (!prev || prev.table || !next || next.table || Math.abs(next.x - prev.x) > 1.5) return false;
  const by = l.x - prev.x;
  return by >= l.size * 0.8 && by <= l.size * 4 && ended(prev, measure ?? 0) && prev.y - l.y <= apartGap(prev, l) && l.y - next.y <= apartGap(l, next);
}

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

function joinWrappedLines(lines: string[], breaks: LineBreaks | undefined): string {
  let out = joinWrappedAll(lines, breaks);
  // A link wrapped onto the next line is one link.
  for (let before = ''; before !== out; ) {
    before = out;
    out = out.replace(WRAPPED_LINK, ' $2]($1)');
  }
  return out;
}

/** `](url) [more](url)`: the end of a link followed by another to the same address. */
const WRAPPED_LINK = /\]\(([^()\s]+)\) \[((?:[^[\]\\]|\\.)*)\]\(\1\)/g;
