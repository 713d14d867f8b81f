/**
 * PowerPoint .pptx to blocks: slides in presentation order (`sldIdLst`, never zip order), each `<!-- slide N -->`
 * then `## <title>`, shapes in visual order (top to bottom, then left to right), bullets and numbering from the
 * paragraph properties (placeholders bulleted unless `buNone`), tables with merges written once, chart data as a
 * table, and speaker notes only when present, found through the slide's notesSlide relationship.
 */
import { append } from '../lib/arrays.js';
import { chartBlocks } from './chart.js';
import { diagramBlocks } from './diagram.js';
import { commentLine, esc, image, link, MONO_FONT, plainText, renderRuns, squeeze, type Run } from './inline.js';
import { captionedTable } from './markdown.js';
import type { Block, Converted, ListItem, ParseOptions } from './types.js';
import { attr, child, coreTitle, find, findAll, kids, parseXml, readRels, relsPath, textOf, type XNode } from './xml.js';
import type { ZipReader } from './zip.js';
import { trimEndOf } from '../lib/strings.js';
import { mathMarkdown } from './omml.js';
import { symbolText } from './symbols.js';

interface Shape {
  y: number;
  x: number;
  blocks: Block[];
  title?: string;
}

export function convertPptx(zip: ZipReader, opts: ParseOptions): Converted {
  const pres = parseXml(zip.text('ppt/presentation.xml') ?? '');
  const presRels = readRels(zip.text('ppt/_rels/presentation.xml.rels'), 'ppt/presentation.xml');
  const ids = findAll(pres, 'p:sldId');
  const authors = new Map<string, string>();
  const authorsXml = zip.text('ppt/commentAuthors.xml');
  if (authorsXml) for (const a of byLocalName(parseXml(authorsXml), 'cmAuthor')) authors.set(attr(a, 'id') ?? '', attr(a, 'name') ?? '');
  const blocks: Block[] = [];
  let firstTitle: string | undefined;
  let read = 0;
  let cut = false;
  for (const [i, sid] of ids.entries()) {
    const rel = presRels.get(attr(sid, 'r:id') ?? '');
    if (!rel) continue;
    // A hidden slide (`show="0"`) is left out of the show, as a hidden sheet is of the workbook: counted in
    // `numPages`, not read. Slides keep their numbers in the deck.
    // A slide part is read once, however many entries name it (see `ZipReader.readOnce`).
    const xml = zip.textOnce(rel);
    if (xml === undefined) continue;
    const slide = parseXml(xml);
    if (attr(child(slide, 'p:sld'), 'show') === '0') continue;
    if (read >= opts.maxPages) {
      cut = true;
      break;
    }
    read++;
    blocks.push({ t: 'comment', text: `slide ${i + 1}` });
    const { title, body, notes, comments } = readSlide(zip, slide, rel.target, authors);
    firstTitle ??= title;
    // An untitled slide gets no invented heading: its `<!-- slide N -->` marker stands alone (chunkers split on it).
    if (title) blocks.push({ t: 'h', level: 2, text: title });
    append(blocks, body);
    for (const c of comments) blocks.push({ t: 'quote', blocks: [{ t: 'p', text: c }] });
    if (notes.length) blocks.push({ t: 'quote', blocks: [{ t: 'p', text: `**Notes:** ${notes.map((b) => (b.t === 'p' ? b.text : '')).join('\n')}` }] });
  }
  const title = coreTitle(zip.text('docProps/core.xml')) ?? (firstTitle && plainText(firstTitle));
  return { blocks, title, numPages: ids.length, cut };
}

function byLocalName(n: XNode | undefined, local: string, out: XNode[] = []): XNode[] {
  for (const c of n?.children ?? []) {
    if (c.name === local || c.name?.endsWith(`:${local}`)) out.push(c);
    byLocalName(c, local, out);
  }
  return out;
}

function readSlide(zip: ZipReader, slide: XNode, path: string, authors: Map<string, string>): { title?: string; body: Block[]; notes: Block[]; comments: string[] } {
  const rels = readRels(zip.text(relsPath(path)), path);
  const layoutRel = [...rels.values()].find((r) => r.type.endsWith('/slideLayout'));
  const layoutPos = new Map<string, { x: number; y: number }>();
  if (layoutRel) {
    const layout = parseXml(zip.text(layoutRel.target) ?? '');
    for (const sp of findAll(layout, 'p:sp')) {
      const ph = find(sp, 'p:ph');
      const off = find(child(sp, 'p:spPr'), 'a:off');
      if (ph && off) {
        const pos = { x: Number(attr(off, 'x') ?? 0), y: Number(attr(off, 'y') ?? 0) };
        layoutPos.set(`type:${attr(ph, 'type') ?? 'body'}`, pos);
        if (attr(ph, 'idx')) layoutPos.set(`idx:${attr(ph, 'idx')}`, pos);
      }
    }
  }
  const shapes: Shape[] = [];
  const tree = find(slide, 'p:spTree');
  collectShapes(tree, shapes, rels, zip, layoutPos, [1, 0], [1, 0], 0);
  // Visual order with a row tolerance of a quarter inch.
  const TOL = 228600;
  shapes.sort((a, b) => (Math.abs(a.y - b.y) > TOL ? a.y - b.y : a.x - b.x));
  const titleShape = shapes.find((s) => s.title);
  const body: Block[] = [];
  for (const s of shapes) if (s !== titleShape) append(body, s.blocks);
  let notes: Block[] = [];
  const notesRel = [...rels.values()].find((r) => r.type.endsWith('/notesSlide'));
  if (notesRel && zip.has(notesRel.target)) {
    const n = parseXml(zip.text(notesRel.target) ?? '');
    for (const sp of findAll(n, 'p:sp')) {
      const ph = find(sp, 'p:ph');
      if (attr(ph, 'type') !== 'body') continue;
      notes = textBody(child(sp, 'p:txBody'), false, rels, false).filter((b) => b.t === 'p' || b.t === 'list');
      notes = notes.map((b) => (b.t === 'list' ? { t: 'p', text: b.items.map((i) => i.text).join('\n') } : b));
    }
  }
  // Reviewer comments (legacy p:cmLst), found through the slide's comments relationship.
  const comments: string[] = [];
  for (const r of rels.values()) {
    if (!r.type.endsWith('/comments') || !zip.has(r.target)) continue;
    for (const cm of byLocalName(parseXml(zip.text(r.target) ?? ''), 'cm')) {
      const text = textOf(byLocalName(cm, 'text')[0]).replace(/\s+/g, ' ').trim();
      // Who and when, as the file says (`dt` is an ISO date-time); either may be missing.
      if (text) comments.push(commentLine(authors.get(attr(cm, 'authorId') ?? ''), attr(cm, 'dt'), esc(text)));
    }
  }
  return { title: titleShape?.title, body, notes, comments };
}

/** A coordinate's map onto the slide along one axis: `scale * v + shift`. */
type Axis = [scale: number, shift: number];

const place = (v: number, [scale, shift]: Axis) => scale * v + shift;

/**
 * A group's children are placed in its own coordinates (`a:chOff`, `a:chExt`), which PowerPoint keeps when the group
 * is moved or resized (`a:off`, `a:ext`): a child's place on the slide is the group's map of it, then the parent's.
 */
function groupAxis(parent: Axis, xfrm: XNode | undefined, at: 'x' | 'y', size: 'cx' | 'cy'): Axis {
  const num = (el: string, name: string) => Number(attr(child(xfrm, el), name) ?? 0) || 0;
  const ext = num('a:ext', size);
  const chExt = num('a:chExt', size);
  const scale = ext > 0 && chExt > 0 ? ext / chExt : 1;
  return [parent[0] * scale, place(num('a:off', at) - scale * num('a:chOff', at), parent)];
}

function collectShapes(
  tree: XNode | undefined,
  out: Shape[],
  rels: Map<string, { target: string; external: boolean; type: string }>,
  zip: ZipReader,
  layoutPos: Map<string, { x: number; y: number }>,
  tx: Axis,
  ty: Axis,
  depth: number,
): void {
  if (!tree || depth > 20) return;
  for (const sh of kids(tree)) {
    const off = find(child(sh, sh.name === 'p:grpSp' ? 'p:grpSpPr' : sh.name === 'p:graphicFrame' ? 'p:xfrm' : 'p:spPr'), 'a:off') ?? (sh.name === 'p:graphicFrame' ? find(child(sh, 'p:xfrm'), 'a:off') : undefined);
    const ph = find(find(sh, 'p:nvPr') ?? sh, 'p:ph');
    let pos = off ? { x: Number(attr(off, 'x') ?? 0), y: Number(attr(off, 'y') ?? 0) } : undefined;
    if (!pos && ph) pos = layoutPos.get(`idx:${attr(ph, 'idx')}`) ?? layoutPos.get(`type:${attr(ph, 'type') ?? 'body'}`);
    const x = place(pos?.x ?? 0, tx);
    const y = place(pos?.y ?? (ph && /title/i.test(attr(ph, 'type') ?? '') ? 0 : 1e12), ty);
    if (sh.name === 'p:grpSp') {
      const xfrm = child(child(sh, 'p:grpSpPr'), 'a:xfrm');
      collectShapes(sh, out, rels, zip, layoutPos, groupAxis(tx, xfrm, 'x', 'cx'), groupAxis(ty, xfrm, 'y', 'cy'), depth + 1);
    } else if (sh.name === 'mc:AlternateContent') {
      // A shape PowerPoint writes twice, for newer readers (an equation, ink, a 3D model) and as a fallback picture:
      // the newer form is the one with text.
      collectShapes(child(sh, 'mc:Choice') ?? child(sh, 'mc:Fallback'), out, rels, zip, layoutPos, tx, ty, depth + 1);
    } else if (sh.name === 'p:sp') {
      const type = attr(ph, 'type');
      const isTitle = type === 'title' || type === 'ctrTitle';
      const bulleted = !!ph && !isTitle && type !== 'subTitle' && type !== 'ctrTitle' && !['dt', 'ftr', 'sldNum', 'hdr'].includes(type ?? '');
      if (ph && ['dt', 'ftr', 'sldNum', 'hdr'].includes(type ?? '')) continue;
      const blocks = textBody(child(sh, 'p:txBody'), bulleted, rels, !isTitle);
      if (isTitle) {
        const t = blocks.map((b) => (b.t === 'p' ? b.text : b.t === 'list' ? b.items.map((i) => i.text).join(' ') : '')).join(' ').replace(/\s+/g, ' ').trim();
        if (t && !out.some((s) => s.title)) out.push({ x, y, blocks: [], title: t });
        else if (t) out.push({ x, y, blocks: [{ t: 'p', text: t }] });
      } else if (blocks.length) out.push({ x, y, blocks });
    } else if (sh.name === 'p:pic') {
      const pr = find(sh, 'p:cNvPr');
      const img = image(attr(pr, 'descr') || attr(pr, 'title'));
      if (img) out.push({ x, y, blocks: [{ t: 'p', text: img }] });
    } else if (sh.name === 'p:graphicFrame') {
      const tbl = find(sh, 'a:tbl');
      if (tbl) out.push({ x, y, blocks: tableBlocks(tbl, rels) });
      const chart = find(sh, 'c:chart');
      if (chart) {
        const xml = zip.textOnce(rels.get(attr(chart, 'r:id') ?? ''));
        if (xml !== undefined) out.push({ x, y, blocks: chartBlocks(parseXml(xml)) });
      }
      // SmartArt: its data part's text as a nested list.
      const data = zip.textOnce(rels.get(attr(find(sh, 'dgm:relIds'), 'r:dm') ?? ''));
      if (data !== undefined) out.push({ x, y, blocks: diagramBlocks(parseXml(data)) });
    }
  }
}

/**
 * A paragraph's runs as markdown (see `renderRuns`): bold, italic, struck out, a run in a monospace font as code, and the runs
 * one hyperlink covers as one link.
 */
function runsText(p: XNode, rels: Map<string, { target: string; external: boolean }>): string {
  const out: Run[] = [];
  /** The runs of the hyperlink open now; `href` is '' for a link that goes nowhere outside the deck. */
  let linked: { href: string; runs: Run[] } | undefined;
  const close = () => {
    if (linked) out.push({ text: link(renderRuns(linked.runs), linked.href || undefined), raw: true });
    linked = undefined;
  };
  for (const r of kids(p)) {
    if (r.name === 'a:br') {
      close();
      out.push({ text: '\n', raw: true });
    } else if (r.name === 'a14:m') {
      // An equation (Office Math inside DrawingML).
      for (const m of kids(r)) if (m.name === 'm:oMathPara' || m.name === 'm:oMath') out.push({ text: mathMarkdown(m), raw: true });
    } else if (r.name === 'a:r' || r.name === 'a:fld') {
      const rpr = child(r, 'a:rPr');
      const code = MONO_FONT.test(attr(child(rpr, 'a:latin'), 'typeface') ?? '');
      // A symbol font's characters (Insert Symbol) arrive as private-use code points, the font named by `a:sym`.
      const text = symbolText(attr(child(rpr, 'a:sym'), 'typeface'), textOf(child(r, 'a:t')), false);
      const strike = attr(rpr, 'strike');
      // `baseline` is the shift in thousandths of a percent of the size: raised is a superscript, lowered a subscript.
      const baseline = Number(attr(rpr, 'baseline') ?? 0);
      const v = baseline > 0 ? ('sup' as const) : baseline < 0 ? ('sub' as const) : undefined;
      const run: Run = { text: code ? text : esc(text), b: attr(rpr, 'b') === '1', i: attr(rpr, 'i') === '1', s: !!strike && strike !== 'noStrike', code, v };
      const hl = child(rpr, 'a:hlinkClick');
      const rel = hl ? rels.get(attr(hl, 'r:id') ?? '') : undefined;
      const href = hl ? (rel?.external ? rel.target : '') : undefined;
      if (linked && linked.href !== href) close();
      if (href === undefined) out.push(run);
      else (linked ??= { href, runs: [] }).runs.push(run);
    }
  }
  close();
  return squeeze(renderRuns(out)).trim();
}

/** The text of a paragraph whose every run with text is set in a monospace font, as typed; else undefined. */
function codeText(p: XNode): string | undefined {
  let text = '';
  let any = false;
  for (const r of kids(p)) {
    if (r.name === 'a:br') text += '\n';
    else if (r.name === 'a:r' || r.name === 'a:fld') {
      const t = textOf(child(r, 'a:t'));
      if (!t.trim()) {
        text += t;
        continue;
      }
      if (!MONO_FONT.test(attr(child(child(r, 'a:rPr'), 'a:latin'), 'typeface') ?? '')) return undefined;
      text += t;
      any = true;
    } else if (r.name === 'a14:m') return undefined;
  }
  return any ? trimEndOf(text, ' \t\n') : undefined;
}

/** Paragraphs of a text body; bulleted ones grouped into nested lists by `lvl`. */
function textBody(body: XNode | undefined, bulletedByDefault: boolean, rels: Map<string, { target: string; external: boolean }>, codeBlocks = true): Block[] {
  const out: Block[] = [];
  let stack: { block: Extract<Block, { t: 'list' }>; lvl: number }[] = [];
  let lastWasCode = false;
  for (const p of kids(body, 'a:p')) {
    const ppr = child(p, 'a:pPr');
    const auto = child(ppr, 'a:buAutoNum');
    const bullet = !child(ppr, 'a:buNone') && (bulletedByDefault || !!child(ppr, 'a:buChar') || !!auto);
    // A paragraph (not a list item) set wholly in a monospace font is code, as in docx: consecutive ones are one
    // fenced block.
    const code = codeBlocks && !bullet ? codeText(p) : undefined;
    if (code !== undefined) {
      stack = [];
      const last = out[out.length - 1];
      if (last?.t === 'code' && lastWasCode) last.text += `\n${code}`;
      else out.push({ t: 'code', text: code });
      lastWasCode = true;
      continue;
    }
    lastWasCode = false;
    const text = runsText(p, rels);
    if (!text) continue;
    // Nine levels (0-8) as in DrawingML; a file claiming more is clamped, not nested without end.
    const lvl = Math.min(8, Math.max(0, Number(attr(ppr, 'lvl') ?? 0) || 0));
    if (!bullet) {
      stack = [];
      out.push({ t: 'p', text });
      continue;
    }
    const ordered = !!auto;
    while (stack.length && stack[stack.length - 1].lvl > lvl) stack.pop();
    let top = stack[stack.length - 1];
    if (top && top.lvl === lvl && top.block.ordered !== ordered) {
      stack.pop();
      top = stack[stack.length - 1];
    }
    const item: ListItem = { text, children: [] };
    if (top && top.lvl === lvl) {
      top.block.items.push(item);
      continue;
    }
    const block: Extract<Block, { t: 'list' }> = { t: 'list', ordered, start: Number(attr(auto, 'startAt') ?? 1), items: [item] };
    if (top) top.block.items[top.block.items.length - 1].children.push(block);
    else out.push(block);
    stack.push({ block, lvl });
  }
  return out;
}

/** A table's blocks: title rows as captions (see `captionedTable`) unless its first row is styled as a header (`firstRow`). */
function tableBlocks(tbl: XNode, rels: Map<string, { target: string; external: boolean }>): Block[] {
  const rows = kids(tbl, 'a:tr').map((tr) =>
    kids(tr, 'a:tc').map((tc) => {
      if (attr(tc, 'hMerge') === '1' || attr(tc, 'vMerge') === '1') return '';
      return kids(child(tc, 'a:txBody'), 'a:p')
        .map((p) => runsText(p, rels))
        .filter(Boolean)
        .join('\n');
    }),
  );
  return ['1', 'true'].includes(attr(child(tbl, 'a:tblPr'), 'firstRow') ?? '') ? [{ t: 'table', rows }] : captionedTable(rows);
}
