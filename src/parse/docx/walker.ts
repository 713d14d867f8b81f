/**
 * The walk over a document's body: paragraphs (headings, list items, code, quotes, contents entries) and their runs,
 * tables, text boxes, SmartArt, charts and imported parts after the paragraph that holds them, reviewer comments after
 * their block, notes as GFM footnotes.
 */
import { append } from '../../lib/arrays.js';
import { chartBlocks } from '../chart.js';
import { diagramBlocks } from '../diagram.js';
import { commentLine, esc, image, link, MONO_FONT, plainText, renderRuns, squeeze, type Run } from '../inline.js';
import { mathMarkdown } from '../omml.js';
import { symbolText } from '../symbols.js';
import type { Block } from '../types.js';
import { attr, child, find, kids, textOf, type XNode } from '../xml.js';
import { TOC_TAB, tocEntry } from './contents.js';
import { contentsBlocks, listBlocks, type Para } from './lists.js';
import { ListCounters, type Numbering } from './numbering.js';
import { fieldUrl, formFieldText, joinDeletedMarks, shownRuns, symCharacter, CONTAINERS } from './runs.js';
import { tableBlocks } from './tables.js';
import { CODE_CHAR_STYLE, CODE_STYLE, headingStyleLevel, HEADING_STYLE, QUOTE_STYLE, runFont, toggle, type Style } from './styles.js';
/** Elements named `name` under `n` that are not inside another one (a text box inside a text box is read by it). */
function outermost(n: XNode, name: string, out: XNode[] = []): XNode[] {
  for (const c of kids(n)) {
    if (c.name === name) out.push(c);
    else outermost(c, name, out);
  }
  return out;
}


export class DocxWalker {
  titleText: string | undefined;
  /** The current paragraph style's font (runs without their own font are set in it). */
  private paraFont: string | undefined;
  /** Whether the current paragraph style hides its runs' text (runs may say otherwise). */
  private paraHidden = false;
  /** Whether the current paragraph is a table-of-contents entry, whose tabs are marked (see `TOC_TAB`). */
  private tocEntry = false;

  /** The lists' counts, shared by numbered headings and list items of one list. */
  private readonly counters: ListCounters;

  constructor(
    private readonly styles: Map<string, Style>,
    private readonly numbering: Numbering,
    private readonly rels: Map<string, { target: string; external: boolean }>,
    private readonly notes: Map<string, XNode> = new Map(),
    private readonly comments: Map<string, XNode> = new Map(),
    /** A part the document relates to, parsed (SmartArt data), or undefined. */
    private readonly part: (relId: string | undefined) => XNode | undefined = () => undefined,
    /** The blocks of a part imported whole (`w:altChunk`, see `alt-chunk.ts`). */
    private readonly chunk: (relId: string | undefined) => Block[] = () => [],
  ) {
    this.counters = new ListCounters(numbering);
  }

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
      if (pending.length) append(out, listBlocks(pending, this.numbering, this.counters));
      pending = [];
      if (toc.length) append(out, contentsBlocks(toc, this.numbering, this.counters));
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
          append(out, tableBlocks(c, (cell) => this.body(cell)));
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
      const label = numbered ? this.counters.label(numId!, Math.min(8, Math.max(0, ilvl ?? 0))) : undefined;
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
}
