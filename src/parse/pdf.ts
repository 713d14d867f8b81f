/**
 * PDF to blocks. An engine reads the file (`pdf/engine.ts`: PDFium compiled to WebAssembly, `pdf/pdfium.ts`) and
 * fills one `PdfPage` per page; Quarry's own passes do the rest. Each page read starts with `<!-- page N -->`. The
 * pipeline, one module per step:
 *
 * - `pdf/turn.ts`: a page whose text mostly runs sideways or upside down is turned upright first, all it holds;
 *   text at a slant (watermarks, stamps) or sideways outside a table (margin notes) is written after its page's.
 * - `pdf/items.ts`: the engine's text runs made ready: marked content resolved against the tagged structure tree
 *   (`pdf/structure.ts`), artifacts and unreadable fonts dropped, symbol bullets and presentation forms normalised,
 *   figure alternate text and list labels placed as text; overprinted runs read once (`pdf/overprint.ts`), form
 *   fields' values (`pdf/forms.ts`).
 * - `pdf/tables.ts` and `pdf/lines.ts`: tagged and ruled tables (`pdf/rules.ts`) taken out first, the rest rebuilt
 *   into lines by position and read column by column inside bands cut by full-width lines.
 * - `pdf/running.ts`: running headers, footers and page numbers dropped across pages.
 * - `pdf/layout.ts`: lines into headings (`pdf/headings.ts`: font-size ranks, the outline, tagged headings and
 *   numbered section lines; bold body-size lines by `boldHeadings`), paragraphs, nested lists (bullets a browser
 *   drew as shapes: `pdf/bullets.ts`), code (`pdf/code.ts`), aligned tables and contents lists.
 *
 * Speed: what a page draws is read only for pages that look tabular, hold figures, or (printed by a browser) look
 * like lists, and a page's lines are built once.
 */
import { append, minOf } from '../lib/arrays.js';
import { plainText } from './inline.js';
import type { Converted, ParseOptions } from './types.js';
import { gridsFrom, inGrid, rulesFrom, type Grid } from './pdf/rules.js';
import { outlineTitles, structureTags, type Outline, type Tag } from './pdf/structure.js';
import { dropRunningLines } from './pdf/running.js';
import { dropOverprints } from './pdf/overprint.js';
import { fieldRuns } from './pdf/forms.js';
import { codeIsBody, heaviest, sizeWeights } from './pdf/headings.js';
import { figureRuns, listBullets, markItems, type RawItem } from './pdf/items.js';
import { layout } from './pdf/layout.js';
import { type Line, toLines } from './pdf/lines.js';
import { gridBox, placeTables, taggedTables } from './pdf/tables.js';
import { documentWords, type LineBreaks } from './pdf/text.js';
import { markShapes, mayHoldShapeBullets, shapeBullets } from './pdf/bullets.js';
import { readingTurn, setApart, textsOf, turnBox, turnOperators, turnRuns, withSlants } from './pdf/turn.js';
import type { Annotation, Drawing, PdfDocument, PdfEngine, PdfInfo } from './pdf/engine.js';
import { pdfiumEngine } from './pdf/pdfium.js';

const JUNK_TITLE = /^(untitled|\(anonymous\)|anonymous|document\d*|microsoft word - .*|slide \d+|powerpoint presentation)$/i;

export async function convertPdf(bytes: Uint8Array, opts: ParseOptions, engine: PdfEngine = pdfiumEngine): Promise<Converted> {
  const doc = await engine.open(bytes, { maxDecodedBytes: opts.maxDecodedBytes });
  try {
    return await readPdf(doc, opts);
  } catch (e) {
    // An engine often catches a decoder's failure and reads on: its refusal (a spent budget) is the answer.
    doc.check();
    throw e;
  } finally {
    await doc.close();
  }
}

async function readPdf(doc: PdfDocument, opts: ParseOptions): Promise<Converted> {
  /** A spent budget ends the document at the next step. */
  const checkBudget = () => doc.check();
  {
    const numPages = doc.numPages;
    const pages = Math.min(numPages, opts.maxPages);
    /** Each page's lines, or, for a page with ruled tables, what places them once every page is read. */
    const placements: (Line[] | ((breaks: LineBreaks) => Line[]))[] = [];
    const words = documentWords();
    const views: number[][] = [];
    /** Each page's text set at a slant (see `setApart`), written after its page's text. */
    const slants: string[][] = [];
    const outline: Outline = outlineTitles(await doc.outline());
    /** Fonts the engine reports as monospace (code, not titles). */
    const mono = new Set<string>();
    const meta = await doc.info();
    checkBudget();
    const browser = browserMade(meta);
    /** The leftmost line start on the pages read so far (see `mayHoldShapeBullets`). */
    let margin = Infinity;
    const tagged = doc.tagged;
    for (let i = 1; i <= pages; i++) {
      checkBudget();
      const page = await doc.page(i);
      const content = await page.text(tagged);
      checkBudget();
      // A page whose text mostly runs sideways or upside down is read turned upright (see `pdf/turn.ts`).
      const turn = readingTurn(content.items, page.rotate);
      const view = turn ? turnBox(page.view, turn) : page.view;
      const pageMono = content.mono;
      for (const name of pageMono) mono.add(name);
      let tags = new Map<string, Tag>();
      if (tagged) tags = structureTags(await page.structTree());
      let annotations: Annotation[] = await page.annotations();
      if (turn) annotations = annotations.map((a) => (Array.isArray(a.rect) && a.rect.length >= 4 ? Object.assign({}, a, { rect: turnBox(a.rect, turn) }) : a));
      const links = annotations.filter((a) => a.subtype === 'Link' && a.url && a.rect).map((a) => ({ rect: a.rect!, url: a.url! }));
      // What the page draws costs a second pass over it: read only for figures the structure tree describes, or when
      // the text itself looks tabular (two lines or more split by wide gaps into three cells or more: its rules may
      // draw a table), or for a browser's drawn bullets.
      let ops: Drawing | undefined;
      const operators = async () => {
        if (!ops) {
          const list = await page.drawing();
          if (!list) return undefined;
          // Turned once for every reader of it (see `pdf/turn.ts`).
          ops = turn ? turnOperators(list, turn) : list;
        }
        return ops;
      };
      const raw: RawItem[] = content.items;
      // Text at a slant, and sideways text outside a table, is read apart (see `setApart`); a tagged table's vertical
      // column heads stay, as do a ruled one's (below).
      const { straight, slant, side } = setApart(dropOverprints(markItems(turn ? turnRuns(raw, turn) : raw, tags, pageMono)));
      const pageItems = append(append(straight, side.filter((it) => it.cell)), fieldRuns(annotations));
      const alts = [...tags].filter(([, t]) => t.alt);
      if (alts.length) {
        const list = await operators();
        if (list) append(pageItems, figureRuns(list, alts, pageItems));
      }
      const marked = taggedTables(listBullets(pageItems, tags), links);
      let items = marked.rest;
      let plain = toLines(items, links);
      // A browser printing an untagged page draws its list bullets as shapes: where its lines look like a list, the
      // marks read from the operator list become bullet glyphs.
      if (browser && !tagged && mayHoldShapeBullets(plain, margin)) {
        const list = await operators();
        const drawn = list ? shapeBullets(markShapes(list), plain) : [];
        if (drawn.length) {
          items = [...items, ...drawn];
          plain = toLines(items, links);
        }
      }
      if (browser && plain.length) margin = Math.min(margin, minOf(plain.map((l) => l.x)));
      let grids: Grid[] = [];
      if (items.length >= 6 && plain.filter((l) => l.cells.length >= 3).length >= 2) {
        const list = await operators();
        // No rules: tables come from alignment only.
        if (list) grids = gridsFrom(rulesFrom(list, view));
      }
      const heads = new Set(side.filter((it) => !it.cell && grids.some((g) => inGrid(g, gridBox(it)))));
      if (heads.size) items = [...items, ...heads];
      slants.push([...textsOf(slant), ...textsOf(side.filter((it) => !it.cell && !heads.has(it)))]);
      for (const it of items) words.read(it.str);
      // A ruled table's cells wait for the last page: their wrapped words are judged by the whole document's, as
      // paragraphs' are (see `documentWords`). Other pages are placed now, so that their items are not kept.
      const place = (breaks?: LineBreaks) => placeTables(items, grids, links, view, plain, marked.tables, breaks);
      placements.push(grids.length ? place : place());
      views.push(view);
      page.close();
    }
    checkBudget();
    const title = pdfTitle(meta);
    // A browser does not hyphenate: its line-end hyphens are compounds' own unless the document says otherwise.
    const breaks = words.lineBreaks(browser ? 1 : 0);
    const perPage = placements.map((placed) => (typeof placed === 'function' ? placed(breaks) : placed));
    const all = perPage.flat();
    const blocks = withSlants(layout(dropRunningLines(perPage, views, heaviest(sizeWeights(all, codeIsBody(all)))), outline, mono, breaks, pages === numPages), slants);
    const firstH = blocks.find((b) => b.t === 'h') as { text: string } | undefined;
    return { blocks, title: title ?? (firstH && plainText(firstH.text)), numPages, cut: numPages > pages };
  }
}

function pdfTitle(meta: PdfInfo): string | undefined {
  for (const c of meta.titles) {
    const t = (c ?? '').replace(/\s+/g, ' ').trim();
    if (t && !JUNK_TITLE.test(t)) return t;
  }
  return undefined;
}

/** A browser engine names itself as the file's creator or producer (Chrome's Skia, Firefox's cairo, WebKit, Qt). */
const BROWSER = /Skia\/PDF|HeadlessChrome|Chrom(e|ium)\/|Mozilla\/|WebKit|cairo|wkhtmltopdf|\bQt\b/i;

/** Whether a browser printed the file: it draws list bullets as shapes (see `pdf/bullets.ts`). */
function browserMade(meta: PdfInfo): boolean {
  return [meta.creator, meta.producer].some((v) => typeof v === 'string' && BROWSER.test(v));
}
