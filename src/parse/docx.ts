/**
 * Word .docx to blocks, straight from the XML: headings from Heading N / Title styles (and outline levels, through
 * `basedOn`), lists from numbering.xml (bullet vs numbered, nesting by ilvl, start numbers and restarts), tables
 * with gridSpan/vMerge written once, hyperlinks by relationship, drawings as alt text, code paragraphs (a code style,
 * or text wholly in a monospace font) as fenced blocks, footnotes and endnotes as GFM footnotes, reviewer comments as
 * quotes after the block they are anchored in, text boxes, SmartArt and chart data after the paragraph that anchors
 * them.
 */
import { append } from '../lib/arrays.js';
import { commentLine, esc, image, link, MONO_FONT, plainText, renderRuns, squeeze, type Run } from './inline.js';
import { flattenBlocks, firstHeading } from './html.js';
import { captionedTable } from './markdown.js';
import { PAGE_LABEL } from './page-label.js';
import type { Block, Converted, ListItem } from './types.js';
import { attr, child, coreTitle, find, findAll, kids, parseXml, readRels, textOf, type XNode } from './xml.js';
import type { ZipReader } from './zip.js';
import { chartBlocks } from './chart.js';
import { diagramBlocks } from './diagram.js';
import { chunkBlocks } from './alt-chunk.js';
import { mathMarkdown } from './omml.js';
import { symbolChar, symbolText } from './symbols.js';

interface Style {
  name: string;
  basedOn?: string;
  /** The style's Latin font (`w:rFonts w:ascii`). */
  font?: string;
  outline?: number;
  numId?: string;
  ilvl?: number;
  /** Whether the style hides its text (`w:vanish`), when it says. */
  vanish?: boolean;
}

interface Level {
  fmt: string;
  start: number;
  /** The level's label pattern (`w:lvlText`, "%1.%2."). */
  text?: string;
}

/** A list count in a level's number format: decimal, with a leading zero, letters (27 is "aa"), or roman. */
function numberText(n: number, fmt: string): string {
  switch (fmt) {
    case 'decimalZero':
      return n < 10 ? `0${n}` : String(n);
    case 'lowerLetter':
    case 'upperLetter': {
      if (n < 1) return String(n);
      const letter = String.fromCharCode(97 + ((n - 1) % 26)).repeat(Math.min(10, Math.ceil(n / 26)));
      return fmt === 'upperLetter' ? letter.toUpperCase() : letter;
    }
    case 'lowerRoman':
    case 'upperRoman': {
      if (n < 1 || n > 3999) return String(n);
      let out = '';
      let v = n;
      for (const [k, r] of ROMAN)
        while (v >= k) {
          out += r;
          v -= k;
        }
      return fmt === 'upperRoman' ? out : out.toLowerCase();
    }
    default:
      return String(n);
  }
}

const ROMAN: [number, string][] = [[1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'], [50, 'L'], [40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I']];

export function convertDocx(zip: ZipReader): Converted {
  const doc = parseXml(zip.text('word/document.xml') ?? '');
  const styles = readStyles(zip.text('word/styles.xml'));
  const numbering = readNumbering(zip.text('word/numbering.xml'));
  const rels = readRels(zip.text('word/_rels/document.xml.rels'), 'word/document.xml');
  const body = find(doc, 'w:body');
  const notes = readNotes(zip.text('word/footnotes.xml'), 'f', readNotes(zip.text('word/endnotes.xml'), 'e'));
  const comments = new Map(findAll(parseXml(zip.text('word/comments.xml') ?? ''), 'w:comment').map((c) => [attr(c, 'w:id') ?? '', c]));
  const part = (id: string | undefined) => {
    const xml = zip.textOnce(rels.get(id ?? ''));
    return xml === undefined ? undefined : parseXml(xml);
  };
  const chunk = (id: string | undefined) => {
    const bytes = zip.readOnce(rels.get(id ?? ''));
    return bytes ? chunkBlocks(bytes) : [];
  };
  const ctx = new DocxWalker(styles, numbering, rels, notes, comments, part, chunk);
  const blocks = append(ctx.body(body), ctx.noteBlocks());
  const title = coreTitle(zip.text('docProps/core.xml')) ?? ctx.titleText ?? firstHeading(blocks);
  return { blocks, title, cut: false };
}

/** The address of a `HYPERLINK "url"` field instruction; a local one (`\\l "bookmark"`) has none. */
function fieldUrl(instr: string): string | undefined {
  const m = /^\s*HYPERLINK\s+(?:"([^"]+)"|([^\s\\]+))/i.exec(instr);
  return m ? (m[1] ?? m[2]).trim() : undefined;
}

function readStyles(xml: string | undefined): Map<string, Style> {
  const map = new Map<string, Style>();
  if (!xml) return map;
  for (const s of findAll(parseXml(xml), 'w:style')) {
    const id = attr(s, 'w:styleId');
    if (!id) continue;
    const ppr = child(s, 'w:pPr');
    const numPr = child(ppr, 'w:numPr');
    const outline = attr(child(ppr, 'w:outlineLvl'), 'w:val');
    map.set(id, {
      name: attr(child(s, 'w:name'), 'w:val') ?? id,
      basedOn: attr(child(s, 'w:basedOn'), 'w:val'),
      font: runFont(child(s, 'w:rPr')),
      outline: outline !== undefined ? Number(outline) : undefined,
      numId: attr(child(numPr, 'w:numId'), 'w:val'),
      ilvl: numPr ? Number(attr(child(numPr, 'w:ilvl'), 'w:val') ?? 0) : undefined,
      vanish: toggle(child(child(s, 'w:rPr'), 'w:vanish')),
    });
  }
  return map;
}

/** Elements named `name` under `n` that are not inside another one (a text box inside a text box is read by it). */
function outermost(n: XNode, name: string, out: XNode[] = []): XNode[] {
  for (const c of kids(n)) {
    if (c.name === name) out.push(c);
    else outermost(c, name, out);
  }
  return out;
}

/** Footnotes (`f:<id>`) or endnotes (`e:<id>`) by id; Word's separator notes carry no text and are skipped. */
function readNotes(xml: string | undefined, kind: 'f' | 'e', into = new Map<string, XNode>()): Map<string, XNode> {
  if (!xml) return into;
  for (const n of findAll(parseXml(xml), kind === 'f' ? 'w:footnote' : 'w:endnote')) {
    const type = attr(n, 'w:type');
    if (type && type !== 'normal') continue;
    into.set(`${kind}:${attr(n, 'w:id') ?? ''}`, n);
  }
  return into;
}

function readNumbering(xml: string | undefined): Map<string, Map<number, Level>> {
  const out = new Map<string, Map<number, Level>>();
  if (!xml) return out;
  const root = parseXml(xml);
  const abstract = new Map<string, Map<number, Level>>();
  for (const a of findAll(root, 'w:abstractNum')) {
    const levels = new Map<number, Level>();
    for (const l of kids(a, 'w:lvl')) {
      levels.set(Number(attr(l, 'w:ilvl') ?? 0), {
        fmt: attr(child(l, 'w:numFmt'), 'w:val') ?? 'bullet',
        start: Number(attr(child(l, 'w:start'), 'w:val') ?? 1),
        text: attr(child(l, 'w:lvlText'), 'w:val'),
      });
    }
    abstract.set(attr(a, 'w:abstractNumId') ?? '', levels);
  }
  for (const n of findAll(root, 'w:num')) {
    const base = abstract.get(attr(child(n, 'w:abstractNumId'), 'w:val') ?? '') ?? new Map<number, Level>();
    const levels = new Map<number, Level>([...base].map(([k, v]) => [k, { ...v }]));
    for (const o of kids(n, 'w:lvlOverride')) {
      const i = Number(attr(o, 'w:ilvl') ?? 0);
      const so = attr(child(o, 'w:startOverride'), 'w:val');
      const lv = levels.get(i) ?? { fmt: 'decimal', start: 1 };
      if (so !== undefined) lv.start = Number(so);
      const ol = child(o, 'w:lvl');
      if (ol) {
        lv.fmt = attr(child(ol, 'w:numFmt'), 'w:val') ?? lv.fmt;
        lv.text = attr(child(ol, 'w:lvlText'), 'w:val') ?? lv.text;
      }
      levels.set(i, lv);
    }
    out.set(attr(n, 'w:numId') ?? '', levels);
  }
  return out;
}

/** A toggle property's setting: undefined when absent, else on unless its value says off (`w:val="0"`). */
function toggle(e: XNode | undefined): boolean | undefined {
  return e ? !['0', 'false', 'off', 'none'].includes(attr(e, 'w:val') ?? '') : undefined;
}

/**
 * What a legacy form field shows that its result runs do not carry: a check box (`FORMCHECKBOX`) as ☒ or ☐, checked
 * if it says so, else by its default; a drop-down (`FORMDROPDOWN`) as its chosen entry. A text field's result is
 * ordinary runs.
 */
function formFieldText(instr: string, form: XNode): string | undefined {
  if (/^\s*FORMCHECKBOX\b/.test(instr)) {
    const box = child(form, 'w:checkBox');
    const checked = toggle(child(box, 'w:checked')) ?? toggle(child(box, 'w:default')) ?? false;
    return checked ? '☒' : '☐';
  }
  if (/^\s*FORMDROPDOWN\b/.test(instr)) {
    const list = child(form, 'w:ddList');
    const entries = kids(list, 'w:listEntry').map((e) => attr(e, 'w:val') ?? '');
    return entries[Number(attr(child(list, 'w:result'), 'w:val') ?? 0) || 0];
  }
  return undefined;
}

/** Quotation paragraph styles: Word's "Quote" and "Intense Quote", pandoc's "Block Text", LibreOffice's "Quotations". */
const QUOTE_STYLE = /^(quote|intense quote|block text|quotations?)$/;

/**
 * Elements that only wrap a paragraph's runs (or a body's paragraphs) and show them: content controls, custom XML,
 * smart tags, tracked insertions and a move's new place, and bidirectional embeddings (`w:dir`, `w:bdo`). A tracked
 * deletion and a move's old place (`w:del`, `w:moveFrom`) are not shown: the document reads as with every change
 * accepted.
 */
const CONTAINERS = new Set(['w:sdtContent', 'w:customXml', 'w:smartTag', 'w:ins', 'w:moveTo', 'w:dir', 'w:bdo']);

/** A paragraph's shown runs in order: inside containers, hyperlinks, simple fields and ruby bases (see `CONTAINERS`). */
function shownRuns(n: XNode | undefined, out: XNode[] = []): XNode[] {
  for (const c of kids(n)) {
    if (c.name === 'w:r') {
      const ruby = child(c, 'w:ruby');
      if (ruby) shownRuns(child(ruby, 'w:rubyBase'), out);
      else out.push(c);
    } else if (c.name === 'w:sdt') shownRuns(child(c, 'w:sdtContent'), out);
    else if (CONTAINERS.has(c.name ?? '') || c.name === 'w:hyperlink' || c.name === 'w:fldSimple') shownRuns(c, out);
  }
  return out;
}

/** Marks between paragraphs that neither end nor start one: bookmarks, comment ranges, proofing and permission marks. */
const BETWEEN = /^w:(bookmark|commentRange|moveFromRange|moveToRange|proofErr|perm)/;

/**
 * Body children with paragraphs joined where a tracked change deleted the mark between them (`w:pPr/w:rPr/w:del`):
 * accepted, the change makes one paragraph of the two, with the first one's properties, as LibreOffice accepts it.
 * A paragraph whose content went with its mark leaves the next as it was, and a table after a deleted mark stays a
 * table.
 */
function joinDeletedMarks(nodes: XNode[]): XNode[] {
  const out: XNode[] = [];
  let open = -1; // index in `out` of the paragraph whose mark was deleted, the next paragraph joins it
  let joined: XNode[] | undefined; // that paragraph's children, copied once however many paragraphs join it
  for (const n of nodes) {
    if (n.name === 'w:p' && open >= 0) {
      if (!joined) out[open] = { ...out[open], children: (joined = [...(out[open].children ?? [])]) };
      for (const c of kids(n)) if (c.name !== 'w:pPr') joined.push(c);
      if (!markDeleted(n)) open = -1;
      continue;
    }
    out.push(n);
    if (n.name === 'w:p') {
      joined = undefined;
      open = markDeleted(n) && shownRuns(n).some((r) => kids(r).some((c) => c.name !== 'w:rPr')) ? out.length - 1 : -1;
    } else if (!BETWEEN.test(n.name ?? '')) open = -1;
  }
  return out;
}

const markDeleted = (p: XNode) => !!child(child(child(p, 'w:pPr'), 'w:rPr'), 'w:del');

/** Code paragraph styles (Word's own and common template names). */
const CODE_STYLE = /^(code|source ?code|html preformatted|preformatted( text)?|plain text|macro text|verbatim)\b/i;
/** Inline code character styles ("HTML Code", pandoc's "Verbatim Char"). */
const CODE_CHAR_STYLE = /^(html (code|typewriter|keyboard|sample)|verbatim char|code char|inline code|source code char)\b/i;

/** A `w:sym` (Insert Symbol: a font and the character's code in hex) as the character it shows, or nothing. */
const symCharacter = (sym: XNode) => symbolChar(attr(sym, 'w:font'), parseInt(attr(sym, 'w:char') ?? '', 16)) ?? '';

const runFont = (rpr: XNode | undefined) => {
  const f = child(rpr, 'w:rFonts');
  return attr(f, 'w:ascii') ?? attr(f, 'w:hAnsi');
};

/** Heading styles by name, in the languages Word names them (`Heading 2`, `Überschrift 2`, …). */
const HEADING_STYLE = /^(heading|überschrift|titre|titolo|título)\s*(\d)$/;

/** The level of the heading style a style is based on, if any (a `TOC Heading` is based on `Heading 1`). */
const headingStyleLevel = (chain: Style[]) => {
  const m = chain.map((st) => HEADING_STYLE.exec(st.name.toLowerCase())).find(Boolean);
  return m ? Math.min(6, Number(m[2])) : undefined;
};

/** Marks a tab inside a table-of-contents entry until its page number is split off (a private-use character). */
const TOC_TAB = '\uE000';

const TOC_PAGE = new RegExp(`^${PAGE_LABEL}$`, 'i');

/** A table-of-contents entry: its text up to the last tab, and what follows when that is a page number. */
function tocEntry(text: string): { title: string; page?: string } {
  const at = text.lastIndexOf(TOC_TAB);
  const page = at < 0 ? '' : text.slice(at + 1).trim();
  const numbered = at >= 0 && TOC_PAGE.test(page);
  return { title: (numbered ? text.slice(0, at) : text).replaceAll(TOC_TAB, ' ').trim(), page: numbered ? page : undefined };
}

interface Para {
  kind: 'heading' | 'list' | 'text' | 'code' | 'quote' | 'toc';
  level: number;
  text: string;
  numId?: string;
  ilvl?: number;
  /** A table-of-contents entry's page number. */
  page?: string;
  /** A list item by its style's name alone (`List Number`, not `List Bullet`), without Word numbering. */
  ordered?: boolean;
}

class DocxWalker {
  titleText: string | undefined;
  /** The current paragraph style's font (runs without their own font are set in it). */
  private paraFont: string | undefined;
  /** Whether the current paragraph style hides its runs' text (runs may say otherwise). */
  private paraHidden = false;
  /** Whether the current paragraph is a table-of-contents entry, whose tabs are marked (see `TOC_TAB`). */
  private tocEntry = false;
  private counters = new Map<string, number[]>();

  constructor(
    private readonly styles: Map<string, Style>,
    private readonly numbering: Map<string, Map<number, Level>>,
    private readonly rels: Map<string, { target: string; external: boolean }>,
    private readonly notes: Map<string, XNode> = new Map(),
    private readonly comments: Map<string, XNode> = new Map(),
    /** A part the document relates to, parsed (SmartArt data), or undefined. */
    private readonly part: (relId: string | undefined) => XNode | undefined = () => undefined,
    /** The blocks of a part imported whole (`w:altChunk`, see `alt-chunk.ts`). */
    private readonly chunk: (relId: string | undefined) => Block[] = () => [],
  ) {}

  /** How deep `body` is (table cells read their own); reviewer comments are written at the top level only. */
  private depth = 0;
  /** Comments referred to since the last top-level block, written after it (after a list or a table as a whole). */
  private heldComments: string[] = [];
  /** Every comment ever held: each is written once. */
  private commentsHeld = new Set<string>();
  /** Text boxes (their content), SmartArt and charts (as blocks) met in the paragraph being read, written after it. */
  private heldBoxes: (XNode | Block)[] = [];

  /** A reviewer comment as the quote pptx comments use: `> **Comment (author, date):** text`. */
  private commentBlock(id: string): Block {
    const c = this.comments.get(id)!;
    const text = kids(c)
      .filter((x) => x.name === 'w:p')
      .map((x) => squeeze(this.runs(x).replace(/\s/g, ' ')).trim())
      .filter(Boolean)
      .join(' ');
    return { t: 'quote', blocks: [{ t: 'p', text: commentLine(attr(c, 'w:author'), attr(c, 'w:date'), text) }] };
  }

  /** Notes in the order the text first refers to them: GFM footnote labels 1, 2, … */
  private noteOrder: string[] = [];
  private noteLabels = new Map<string, number>();

  private noteLabel(key: string): number {
    let label = this.noteLabels.get(key);
    if (label === undefined) this.noteLabels.set(key, (label = this.noteOrder.push(key)));
    return label;
  }

  /** The referenced notes as GFM footnote definitions (`[^1]: …`), one paragraph each, in label order. */
  noteBlocks(): Block[] {
    const out: Block[] = [];
    this.paraFont = undefined;
    this.paraHidden = false;
    // A note may refer to another note, which then joins the end of the order.
    for (let i = 0; i < this.noteOrder.length; i++) {
      const note = this.notes.get(this.noteOrder[i]);
      const text = kids(note)
        .filter((c) => c.name === 'w:p')
        .map((p) => squeeze(this.runs(p).replace(/\s/g, ' ')).trim())
        .filter(Boolean)
        .join(' ');
      out.push({ t: 'p', text: `[^${i + 1}]: ${text}` });
    }
    return out;
  }

  body(body: XNode | undefined): Block[] {
    const out: Block[] = [];
    let pending: Para[] = [];
    let toc: Para[] = [];
    let code: string[] = [];
    let quote: Extract<Block, { t: 'quote' }> | undefined;
    this.depth++;
    // Writes the first `n` held comments (those of the blocks written so far); nested bodies (cells) hold theirs
    // for the top level.
    const comments = (n = this.heldComments.length) => {
      if (this.depth !== 1) return;
      for (const id of this.heldComments.splice(0, n)) out.push(this.commentBlock(id));
    };
    const flush = () => {
      if (pending.length) append(out, this.lists(pending));
      pending = [];
      if (toc.length) append(out, this.contents(toc));
      toc = [];
      // Consecutive code paragraphs are one block; empty ones inside it are its blank lines.
      while (code.length && !code[code.length - 1].trim()) code.pop();
      if (code.length) out.push({ t: 'code', text: code.join('\n') });
      code = [];
    };
    const visit = (n: XNode) => {
      for (const c of joinDeletedMarks(kids(n))) {
        if (c.name === 'w:p') {
          const held = this.heldComments.length;
          const p = this.paragraph(c);
          const boxes = this.heldBoxes.splice(0);
          // A list item's or a code line's text boxes wait for the next paragraph of text.
          if (p.kind === 'list' || p.kind === 'code') this.heldBoxes = boxes;
          // An empty paragraph inside a listing is one of its blank lines.
          if (p.kind === 'code' || (code.length && !p.text.trim())) {
            if (pending.length || toc.length) flush();
            if (code.length || p.text.trim()) code.push(p.text);
            continue;
          }
          if (p.kind === 'list') {
            if (code.length || toc.length) flush();
            pending.push(p);
            continue;
          }
          // An empty paragraph between list items is spacing (Word numbers on across it): the list goes on.
          if (pending.length && !p.text.trim() && !boxes.length && p.kind !== 'heading') continue;
          if (p.kind === 'toc') {
            if (code.length || pending.length) flush();
            if (p.text) toc.push(p);
            continue;
          }
          flush();
          comments(held);
          if (p.text.trim() && p.kind === 'quote') {
            // Consecutive quotation paragraphs are one quote.
            if (quote && out[out.length - 1] === quote) quote.blocks.push({ t: 'p', text: p.text });
            else out.push((quote = { t: 'quote', blocks: [{ t: 'p', text: p.text }] }));
          } else if (p.text.trim()) out.push(p.kind === 'heading' ? { t: 'h', level: p.level, text: p.text } : { t: 'p', text: p.text });
          for (const box of boxes) append(out, 't' in box ? [box] : this.body(box));
          comments();
        } else if (c.name === 'w:tbl') {
          flush();
          comments();
          append(out, this.table(c));
          comments();
        } else if (c.name === 'w:sdt' || CONTAINERS.has(c.name ?? '')) {
          visit(c.name === 'w:sdt' ? child(c, 'w:sdtContent') ?? c : c);
        } else if (c.name === 'w:altChunk') {
          flush();
          append(out, this.chunk(attr(c, 'r:id')));
        } else if (c.name === 'm:oMathPara' || c.name === 'm:oMath') {
          // An equation may stand in the body outside any paragraph.
          flush();
          const text = mathMarkdown(c);
          if (text) out.push({ t: 'p', text });
        }
      }
    };
    if (body) visit(body);
    flush();
    comments();
    this.depth--;
    return out;
  }

  private styleChain(id: string | undefined): Style[] {
    const chain: Style[] = [];
    for (let i = 0; id && i < 20; i++) {
      const s = this.styles.get(id);
      if (!s) break;
      chain.push(s);
      id = s.basedOn;
    }
    return chain;
  }

  paragraph(p: XNode): Para {
    const ppr = child(p, 'w:pPr');
    const styleId = attr(child(ppr, 'w:pStyle'), 'w:val');
    const chain = this.styleChain(styleId);
    this.paraFont = chain.find((s) => s.font)?.font;
    this.paraHidden = chain.find((s) => s.vanish !== undefined)?.vanish ?? false;
    const name = (chain[0]?.name ?? styleId ?? '').toLowerCase();
    const toc = /^toc (\d)$/.exec(name) ?? /^TOC(\d)$/.exec(styleId ?? '');
    this.tocEntry = !!toc;
    const text = squeeze(this.runs(p)).replace(/ ?\n ?/g, '\n').trim();
    this.tocEntry = false;
    // A table of contents' entry: its title and the page number its last tab leads to (see `contents`).
    if (toc) {
      const { title, page } = tocEntry(text);
      return { kind: 'toc', level: 0, text: title, page, ilvl: Number(toc[1]) - 1 };
    }
    // Its heading ("Contents") is kept out of the outline, but shown as the heading style it is based on.
    if (name === 'toc heading') return { kind: 'heading', level: headingStyleLevel(chain) ?? 1, text };
    let heading = HEADING_STYLE.exec(name);
    const outline = attr(child(ppr, 'w:outlineLvl'), 'w:val') ?? chain.find((s) => s.outline !== undefined)?.outline;
    if (name === 'title') {
      if (!this.titleText && text) this.titleText = plainText(text);
      return { kind: 'heading', level: 1, text };
    }
    if (!heading && /^heading(\d)$/i.test(styleId ?? '')) heading = ['', '', /(\d)$/.exec(styleId!)![1]] as unknown as RegExpExecArray;
    const numPr = child(ppr, 'w:numPr');
    let numId = attr(child(numPr, 'w:numId'), 'w:val');
    let ilvl = numPr ? Number(attr(child(numPr, 'w:ilvl'), 'w:val') ?? 0) : undefined;
    if (!numId) {
      const s = chain.find((x) => x.numId);
      numId = s?.numId;
      ilvl ??= s?.ilvl ?? 0;
    }
    const numbered = !!numId && numId !== '0' && this.numbering.has(numId);
    // A heading tied to a multilevel list ("1.2 Scope") shows its number: part of its text.
    const numberedText = () => {
      const label = numbered ? this.label(numId!, Math.min(8, Math.max(0, ilvl ?? 0))) : undefined;
      return label && text ? `${esc(label)} ${text}` : text;
    };
    if (heading) return { kind: 'heading', level: Math.min(6, Number(heading[2])), text: numberedText() };
    if (outline !== undefined && Number(outline) < 6 && name !== 'normal') return { kind: 'heading', level: Number(outline) + 1, text: numberedText() };
    if (numbered) return { kind: 'list', level: 0, text, numId, ilvl: ilvl ?? 0 };
    if (this.isCode(p, chain)) return { kind: 'code', level: 0, text: this.plain(p) };
    if (/^list (bullet|number)/.test(name)) return { kind: 'list', level: 0, text, ilvl: Number(/(\d)$/.exec(name)?.[1] ?? 1) - 1, ordered: name.startsWith('list number') };
    if (QUOTE_STYLE.test(name)) return { kind: 'quote', level: 0, text };
    return { kind: 'text', level: 0, text };
  }

  /**
   * A code paragraph: a code style in its chain, or all of its text in monospace fonts (the run's own font, else
   * its paragraph style's); an empty paragraph only by its style.
   */
  private isCode(p: XNode, chain: Style[]): boolean {
    if (chain.some((s) => CODE_STYLE.test(s.name))) return true;
    const styleFont = chain.find((s) => s.font)?.font;
    const runs = shownRuns(p).filter((r) => !this.hidden(r) && kids(r, 'w:t').some((t) => (t.children ?? []).some((x) => x.data?.trim())));
    return runs.length > 0 && runs.every((r) => MONO_FONT.test(runFont(child(r, 'w:rPr')) ?? styleFont ?? ''));
  }

  /** A code paragraph's text as typed: nothing escaped, tabs and line breaks kept. */
  private plain(p: XNode): string {
    let out = '';
    for (const r of shownRuns(p).filter((x) => !this.hidden(x)))
      for (const c of kids(r)) {
        if (c.name === 'w:t') out += symbolText(runFont(child(r, 'w:rPr')), (c.children ?? []).map((x) => x.data ?? '').join(''));
        else if (c.name === 'w:sym') out += symCharacter(c);
        else if (c.name === 'w:tab') out += '\t';
        else if (c.name === 'w:noBreakHyphen') out += '-';
        else if (c.name === 'w:br' || c.name === 'w:cr') out += '\n';
      }
    return out.trimEnd();
  }

  /** Runs of a paragraph as markdown (see `renderRuns`). */
  runs(n: XNode): string {
    const segs: Run[] = [];
    this.collect(n, segs, []);
    return renderRuns(segs);
  }

  /**
   * A paragraph's runs as segments. Fields: a `HYPERLINK` field (simple, or complex: `fldChar` begin, its
   * `instrText`, separate, the shown result, end) links its result, as `w:hyperlink` does; other fields give their
   * result as it stands. A field left open at the paragraph's end (a table of contents spans paragraphs) links
   * nothing.
   */
  private collect(n: XNode | undefined, segs: Run[], fields: { instr: string; start: number; form?: XNode }[]): void {
    for (const c of kids(n)) {
      switch (c.name) {
        case 'w:r': {
          const type = attr(child(c, 'w:fldChar'), 'w:fldCharType');
          const instr = child(c, 'w:instrText');
          const open = fields[fields.length - 1];
          if (type === 'begin') fields.push({ instr: '', start: -1, form: child(child(c, 'w:fldChar'), 'w:ffData') });
          else if (instr && open && open.start < 0) open.instr += textOf(instr);
          else if (type === 'separate' && open) open.start = segs.length;
          else if (type === 'end') {
            const f = fields.pop();
            const url = f && f.start >= 0 ? fieldUrl(f.instr) : undefined;
            if (url) segs.push({ text: link(renderRuns(segs.splice(f!.start)), url), raw: true });
            else if (f?.form) {
              const shown = formFieldText(f.instr, f.form);
              if (shown) segs.push({ text: esc(shown) });
            }
          } else this.run(c, segs);
          break;
        }
        case 'w:hyperlink': {
          const rel = this.rels.get(attr(c, 'r:id') ?? '');
          segs.push({ text: link(this.runs(c), rel?.external ? rel.target : undefined), raw: true });
          break;
        }
        case 'w:fldSimple': {
          const url = fieldUrl(attr(c, 'w:instr') ?? '');
          if (url) segs.push({ text: link(this.runs(c), url), raw: true });
          else this.collect(c, segs, fields);
          break;
        }
        case 'm:oMath':
        case 'm:oMathPara':
          segs.push({ text: mathMarkdown(c), raw: true });
          break;
        default:
          if (CONTAINERS.has(c.name ?? '')) this.collect(c, segs, fields);
      }
    }
  }

  /**
   * Whether a run is hidden text (`w:vanish`: Word neither shows nor prints it): its own setting, else its character
   * style's, else its paragraph style's. Hidden text is not written, as hidden rows and sheets are not.
   */
  private hidden(r: XNode): boolean {
    const rpr = child(r, 'w:rPr');
    const own = toggle(child(rpr, 'w:vanish'));
    if (own !== undefined) return own;
    return this.styleChain(attr(child(rpr, 'w:rStyle'), 'w:val')).find((s) => s.vanish !== undefined)?.vanish ?? this.paraHidden;
  }

  run(r: XNode, segs: Run[]): void {
    if (this.hidden(r)) return;
    const rpr = child(r, 'w:rPr');
    const on = (name: string) => toggle(child(rpr, name)) ?? false;
    // Inline code: a code character style, or a monospace font in a paragraph that is not itself monospace.
    const charStyle = this.styleChain(attr(child(rpr, 'w:rStyle'), 'w:val'));
    const font = runFont(rpr) ?? charStyle.find((s) => s.font)?.font;
    const code = charStyle.some((s) => CODE_CHAR_STYLE.test(s.name)) || (!!font && MONO_FONT.test(font) && !MONO_FONT.test(this.paraFont ?? ''));
    const align = attr(child(rpr, 'w:vertAlign'), 'w:val');
    const fmt = { b: on('w:b'), i: on('w:i'), s: on('w:strike'), code, v: align === 'superscript' ? ('sup' as const) : align === 'subscript' ? ('sub' as const) : undefined };
    // A drawing Word writes twice (`mc:AlternateContent`: a DrawingML choice and a VML fallback) is read once.
    const parts = kids(r).flatMap((c) => (c.name === 'mc:AlternateContent' ? kids(child(c, 'mc:Choice') ?? child(c, 'mc:Fallback')) : [c]));
    for (const c of parts) {
      // Ruby (furigana over Japanese): the base text; the small reading above it is a guide, as xlsx's `rPh` is.
      if (c.name === 'w:ruby') this.collect(child(c, 'w:rubyBase'), segs, []);
      else if (c.name === 'w:t' || c.name === 'w:sym') {
        const t = c.name === 'w:t' ? symbolText(font, (c.children ?? []).map((x) => x.data ?? '').join('')) : symCharacter(c);
        segs.push({ text: code ? t : esc(t), ...fmt });
      } else if (c.name === 'w:tab') segs.push(this.tocEntry ? { text: TOC_TAB, raw: true } : { text: ' ', ...fmt });
      // A non-breaking hyphen (Word's Ctrl+Shift+-) is a hyphen shown; an optional one (`w:softHyphen`) is not.
      else if (c.name === 'w:noBreakHyphen') segs.push({ text: '-', ...fmt });
      else if (c.name === 'w:br' || c.name === 'w:cr') segs.push({ text: '\n', raw: true });
      else if (c.name === 'w:commentReference') {
        const id = attr(c, 'w:id') ?? '';
        // Written once, after the block of its first anchor: a hostile body anchoring one long comment in 20,000
        // paragraphs would have it written 20,000 times.
        if (this.comments.has(id) && !this.commentsHeld.has(id)) {
          this.commentsHeld.add(id);
          this.heldComments.push(id);
        }
      } else if (c.name === 'w:footnoteReference' || c.name === 'w:endnoteReference') {
        const key = `${c.name === 'w:footnoteReference' ? 'f' : 'e'}:${attr(c, 'w:id') ?? ''}`;
        if (this.notes.has(key)) segs.push({ text: `[^${this.noteLabel(key)}]`, raw: true });
      } else if (c.name === 'w:drawing' || c.name === 'w:pict') {
        const pr = find(c, 'wp:docPr') ?? find(c, 'pic:cNvPr');
        const img = image(attr(pr, 'descr') || attr(pr, 'title'));
        if (img) segs.push({ text: ` ${img} `, raw: true });
        // A text box's paragraphs are blocks of their own, written after the paragraph that anchors the box, and so
        // are a SmartArt diagram's text and a chart's data.
        append(this.heldBoxes, outermost(c, 'w:txbxContent'));
        const diagram = this.part(attr(find(c, 'dgm:relIds'), 'r:dm'));
        if (diagram) append(this.heldBoxes, diagramBlocks(diagram));
        // A chart's data, as decks give it: `Chart: <title>` and a table.
        const chart = this.part(attr(find(c, 'c:chart'), 'r:id'));
        if (chart) append(this.heldBoxes, chartBlocks(chart));
      }
    }
  }

  /**
   * A table of contents, as a PDF's reads: a table of titles and page numbers, the first entry its header row. Entries
   * without page numbers (a table built to show none) are a list nested by their levels.
   */
  contents(entries: Para[]): Block[] {
    if (entries.every((e) => e.page)) return [{ t: 'table', rows: entries.map((e) => [e.text, e.page!]) }];
    return this.lists(entries.map((e) => ({ ...e, kind: 'list' })));
  }

  /** Consecutive list paragraphs to nested list blocks, numbered as Word numbers them. */
  lists(paras: Para[]): Block[] {
    const out: Block[] = [];
    const stack: { block: Extract<Block, { t: 'list' }>; ilvl: number; numId?: string }[] = [];
    for (const p of paras) {
      // Word has nine list levels (0-8); a file claiming more is clamped, not nested without end.
      const ilvl = Math.min(8, Math.max(0, p.ilvl || 0));
      const lvl = p.numId ? this.numbering.get(p.numId)?.get(ilvl) : undefined;
      const ordered = lvl ? !['bullet', 'none'].includes(lvl.fmt) : !!p.ordered;
      // Word counts a numbering's items across the document; a list by style name alone starts at 1.
      const number = p.numId ? this.count(p.numId, ilvl, lvl?.start ?? 1) : 1;
      while (stack.length && stack[stack.length - 1].ilvl > ilvl) stack.pop();
      let top = stack[stack.length - 1];
      if (top && top.ilvl === ilvl && (top.block.ordered !== ordered || (ordered && top.numId !== p.numId))) {
        stack.pop();
        top = stack[stack.length - 1];
      }
      const item: ListItem = { text: p.text, children: [] };
      if (top && top.ilvl === ilvl) {
        top.block.items.push(item);
        continue;
      }
      const block: Extract<Block, { t: 'list' }> = { t: 'list', ordered, start: ordered ? number : 1, items: [item] };
      if (top) {
        const parentItems = top.block.items;
        parentItems[parentItems.length - 1].children.push(block);
      } else out.push(block);
      stack.push({ block, ilvl, numId: p.numId });
    }
    return out;
  }

  /**
   * A numbered heading's label as Word shows it: its level's text (`%1.%2`) with each level's count in that level's
   * format, counting on the list's counters (a heading and list items of one list number together). Bullets and
   * levels without a number give none.
   */
  private label(numId: string, ilvl: number): string | undefined {
    const levels = this.numbering.get(numId);
    const lvl = levels?.get(ilvl);
    if (!lvl?.text || lvl.fmt === 'bullet' || lvl.fmt === 'none') return undefined;
    this.count(numId, ilvl, lvl.start);
    const counts = this.counters.get(numId) ?? [];
    return lvl.text.replace(/%([1-9])/g, (_, d: string) => {
      const k = Number(d) - 1;
      const at = levels!.get(k);
      return numberText(counts[k] ?? at?.start ?? 1, at?.fmt ?? 'decimal');
    });
  }

  private count(numId: string | undefined, ilvl: number, start: number): number {
    const key = numId ?? '';
    const c = this.counters.get(key) ?? [];
    const value = c[ilvl] === undefined ? start : c[ilvl] + 1;
    c[ilvl] = value;
    c.length = ilvl + 1;
    this.counters.set(key, c);
    return value;
  }

  /**
   * A table's blocks: its title rows (see `captionedTable`) unless its first row is marked a header, then the table.
   * A table of one cell is a box drawn around its content (a callout, a framed note): read as that content, its
   * headings and lists kept.
   */
  table(tbl: XNode): Block[] {
    const trs = kids(tbl, 'w:tr');
    // A row's cells, a content control's cell included.
    const cellsOf = (tr: XNode) =>
      kids(tr)
        .filter((c) => c.name === 'w:tc' || c.name === 'w:sdt')
        .map((c) => (c.name === 'w:sdt' ? find(c, 'w:tc') : c))
        .filter((c): c is XNode => !!c);
    const only = trs.length === 1 ? cellsOf(trs[0]) : [];
    if (only.length === 1) return this.body(only[0]);
    const rows: string[][] = [];
    for (const tr of trs) {
      const row: string[] = [];
      const skip = Number(attr(child(child(tr, 'w:trPr'), 'w:gridBefore'), 'w:val') ?? 0);
      for (let i = 0; i < skip; i++) row.push('');
      for (const cell of cellsOf(tr)) {
        const tcpr = child(cell, 'w:tcPr');
        const span = Math.min(64, Number(attr(child(tcpr, 'w:gridSpan'), 'w:val') ?? 1) || 1);
        const vmerge = child(tcpr, 'w:vMerge');
        const continued = !!vmerge && attr(vmerge, 'w:val') !== 'restart';
        row.push(continued ? '' : flattenBlocks(this.body(cell)));
        for (let i = 1; i < span; i++) row.push('');
      }
      rows.push(row);
    }
    const headed = !!child(child(trs[0], 'w:trPr'), 'w:tblHeader');
    return headed ? [{ t: 'table', rows }] : captionedTable(rows);
  }
}
