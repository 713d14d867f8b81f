/**
 * PDF to blocks with pdf.js (through unpdf's serverless build: no eval, no font loading, no canvas). Each page read
 * starts with `<!-- page N -->`. The pipeline, one module per step:
 *
 * - `pdf/turn.ts`: a page whose text mostly runs sideways or upside down is turned upright first, all it holds;
 *   text at a slant (watermarks, stamps) or sideways outside a table (margin notes) is written after its page's.
 * - `pdf/items.ts`: pdf.js's text items made ready: marked content resolved against the tagged structure tree
 *   (`pdf/structure.ts`), artifacts and unreadable fonts dropped, symbol bullets and presentation forms normalised,
 *   figure alternate text and list labels placed as text; overprinted runs read once (`pdf/overprint.ts`), form
 *   fields' values (`pdf/forms.ts`), reversed ligatures put back (`pdf/ligatures.ts`).
 * - `pdf/tables.ts` and `pdf/lines.ts`: tagged and ruled tables (`pdf/rules.ts`) taken out first, the rest rebuilt
 *   into lines by position and read column by column inside bands cut by full-width lines.
 * - `pdf/structure.ts`: running headers, footers and page numbers dropped across pages.
 * - `pdf/layout.ts`: lines into headings (`pdf/headings.ts`: font-size ranks, the outline, tagged headings and
 *   numbered section lines, never a bold line on its own), paragraphs, nested lists (bullets a browser drew as
 *   shapes: `pdf/bullets.ts`), code (`pdf/code.ts`), aligned tables and contents lists.
 *
 * Speed: images are dropped unread (`maxImageSize`), the operator list is read only for pages that look tabular,
 * hold right-to-left text or figures, or (printed by a browser) look like lists, and a page's lines are built once.
 */
import { getDocumentProxy } from 'unpdf';
import { append, minOf } from '../lib/arrays.js';
import { plainText } from './inline.js';
import type { Converted, ParseOptions } from './types.js';
import { ParseError } from './types.js';
import { gridsFrom, inGrid, rulesFrom, type Grid } from './pdf/rules.js';
import { dropRunningLines, outlineTitles, structureTags, type Outline, type Tag } from './pdf/structure.js';
import { fixRtlLigatures, rtlLigatureFixes, type OperatorList } from './pdf/ligatures.js';
import { dropOverprints } from './pdf/overprint.js';
import { fontFaceOptions } from './pdf/font-face.js';
import { fieldRuns, type Widget } from './pdf/forms.js';
import { codeIsBody, heaviest, sizeWeights } from './pdf/headings.js';
import { figureRuns, listBullets, markItems, type RawItem } from './pdf/items.js';
import { layout } from './pdf/layout.js';
import { type Line, toLines } from './pdf/lines.js';
import { gridBox, placeTables, taggedTables } from './pdf/tables.js';
import { documentWords, type LineBreaks } from './pdf/text.js';
import { markShapes, mayHoldShapeBullets, shapeBullets } from './pdf/bullets.js';
import { readingTurn, setApart, textsOf, turnBox, turnOperators, turnRuns, withSlants } from './pdf/turn.js';
import { decodeBudgetFor, installDecodeBudget, openDecodeBudget, type DocumentBudget } from './pdf/decode-budget.js';

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

/**
 * pdf.js's `AnnotationMode.DISABLE`: the operator list leaves out annotations' appearance streams. Rules come from
 * the page's own content, links and form values from `getAnnotations`; drawing the appearances cost about a quarter
 * of the operator list's time on the corpus.
 */
const ANNOTATIONS_DISABLED = 0;

const JUNK_TITLE = /^(untitled|\(anonymous\)|anonymous|document\d*|microsoft word - .*|slide \d+|powerpoint presentation)$/i;

function openPdf(bytes: Uint8Array): ReturnType<typeof getDocumentProxy> {
  return getDocumentProxy(new Uint8Array(bytes), {
    isEvalSupported: false,
    ...fontFaceOptions(),
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
    // Text needs no pixels: images above one pixel are dropped before decoding (pdf.js would otherwise inflate
    // and convert every image the operator list meets, the largest cost on illustrated pages).
    maxImageSize: 1,
  } as Parameters<typeof getDocumentProxy>[1]);
}

/** The refusal of a document whose streams decode past the budget (a compression bomb). */
function overBudget(budget: DocumentBudget): ParseError {
  return new ParseError('limit', `The PDF exceeds the safety limits: its compressed streams inflate to more than ${Math.round(budget.limit / (1024 * 1024))} MB.`);
}

export async function convertPdf(bytes: Uint8Array, opts: ParseOptions): Promise<Converted> {
  // Every decoder pdf.js runs is charged to one budget per document, scaled to the file (see `pdf/decode-budget.ts`).
  await installDecodeBudget(openPdf);
  const budget = openDecodeBudget(decodeBudgetFor(bytes.length, opts.maxDecodedBytes));
  try {
    return await readPdf(bytes, opts, budget);
  } catch (e) {
    if (budget.spent) throw overBudget(budget);
    throw e;
  } finally {
    budget.close();
  }
}

async function readPdf(bytes: Uint8Array, opts: ParseOptions, budget: DocumentBudget): Promise<Converted> {
  let doc: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    doc = await openPdf(bytes);
  } catch (e) {
    const name = (e as { name?: string }).name ?? '';
    if (name === 'PasswordException') throw new ParseError('encrypted', 'The PDF is encrypted (password-protected); send it without a password.');
    throw new ParseError('corrupt', `The PDF is corrupt or truncated (${(e as Error).message?.slice(0, 100) ?? 'unreadable'}).`);
  }
  /** pdf.js often catches a decoder's failure and reads on: a spent budget ends the document at the next step. */
  const checkBudget = () => {
    if (budget.spent) throw overBudget(budget);
  };
  try {
    const numPages = doc.numPages;
    const pages = Math.min(numPages, opts.maxPages);
    /** Each page's lines, or, for a page with ruled tables, what places them once every page is read. */
    const placements: (Line[] | ((breaks: LineBreaks) => Line[]))[] = [];
    const words = documentWords();
    const views: number[][] = [];
    /** Each page's text set at a slant (see `setApart`), written after its page's text. */
    const slants: string[][] = [];
    let outline: Outline = new Map();
    /** Fonts pdf.js reports as monospace (code, not titles). */
    const mono = new Set<string>();
    try {
      outline = outlineTitles((await doc.getOutline()) as never);
    } catch {
      /* no outline */
    }
    let meta: Metadata | undefined;
    try {
      meta = await doc.getMetadata();
    } catch {
      /* no metadata */
    }
    checkBudget();
    const browser = browserMade(meta);
    /** The leftmost line start on the pages read so far (see `mayHoldShapeBullets`). */
    let margin = Infinity;
    let tagged = false;
    try {
      tagged = !!((await doc.getMarkInfo()) as { Marked?: boolean } | null)?.Marked;
    } catch {
      /* no mark info */
    }
    for (let i = 1; i <= pages; i++) {
      checkBudget();
      const page = await doc.getPage(i);
      const content = await page.getTextContent({ includeMarkedContent: tagged, disableNormalization: true } as never);
      checkBudget();
      // A page whose text mostly runs sideways or upside down is read turned upright (see `pdf/turn.ts`).
      const turn = readingTurn(content.items as RawItem[], (page as { rotate?: number }).rotate);
      const view = turn ? turnBox(page.view as number[], turn) : (page.view as number[]);
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
        if (turn) annotations = annotations.map((a) => (Array.isArray(a.rect) && a.rect.length >= 4 ? Object.assign({}, a, { rect: turnBox(a.rect, turn) }) : a));
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
          if (!ops) {
            const list = (await page.getOperatorList({ annotationMode: ANNOTATIONS_DISABLED })) as never;
            // Turned once for every reader of it (see `pdf/turn.ts`).
            ops = turn ? turnOperators(list, turn) : list;
          }
          return ops;
        } catch {
          return undefined;
        }
      };
      const raw = content.items as unknown as RawItem[];
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
      if (items.some((it) => /[\u0590-\u08FF]/.test(it.str))) {
        const list = await operators();
        if (list) items = fixRtlLigatures(items, rtlLigatureFixes(list));
      }
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
      page.cleanup();
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
  } finally {
    await doc.destroy();
  }
}

type Metadata = Awaited<ReturnType<Awaited<ReturnType<typeof getDocumentProxy>>['getMetadata']>>;

function pdfTitle(meta: Metadata | undefined): string | undefined {
  if (!meta) return undefined;
  const info = (meta.info ?? {}) as { Title?: unknown };
  const candidates = [typeof info.Title === 'string' ? info.Title : undefined, (meta.metadata as { get?(k: string): unknown } | null)?.get?.('dc:title') as string | undefined];
  for (const c of candidates) {
    const t = (c ?? '').replace(/\s+/g, ' ').trim();
    if (t && !JUNK_TITLE.test(t)) return t;
  }
  return undefined;
}

/** A browser engine names itself as the file's creator or producer (Chrome's Skia, Firefox's cairo, WebKit, Qt). */
const BROWSER = /Skia\/PDF|HeadlessChrome|Chrom(e|ium)\/|Mozilla\/|WebKit|cairo|wkhtmltopdf|\bQt\b/i;

/** Whether a browser printed the file: it draws list bullets as shapes (see `pdf/bullets.ts`). */
function browserMade(meta: Metadata | undefined): boolean {
  const info = (meta?.info ?? {}) as { Creator?: unknown; Producer?: unknown };
  return [info.Creator, info.Producer].some((v) => typeof v === 'string' && BROWSER.test(v));
}
