/**
 * The one reading interface between a PDF engine and Quarry's layout passes (lines, columns, tables, headings,
 * running lines). An engine opens a document and fills, page by page, what those passes read:
 *
 * - text runs in content order (`RawItem`: a string set in one font and size along one baseline, its transform,
 *   advance width and height, its font's id, whether that font is monospace or bold), with the marked content they
 *   sit in as begin/end markers (`type` 'beginMarkedContentProps' with `id` and `tag`, 'endMarkedContent');
 * - the tagged structure tree of the page, whose content nodes name those markers' ids (`StructNode`);
 * - the page's annotations: links (`url`, `rect`) and form widgets (`Widget`);
 * - what the page draws (`Drawing`): paths, images and marked content in the operator vocabulary `matrix.ts` names,
 *   read only on pages that need it (rules, figures, drawn bullets, right-to-left glyphs);
 * - the document's outline, its Info title, creator and producer, and whether it is tagged.
 *
 * PDFium compiled to WebAssembly fills it (`pdfium.ts`); pdf.js filled the same shapes until issue 36 measured the
 * two side by side (README, decisions). Refusals are `ParseError`s ('encrypted', 'corrupt', 'limit').
 */
import type { Widget } from './forms.js';
import type { RawItem } from './items.js';
import type { OperatorList } from './matrix.js';
import type { StructNode } from './structure.js';

/** What a page draws, in pdf.js's operator vocabulary (`matrix.ts`: save/restore, transform, constructPath, images, marked content, shown glyphs). */
export type Drawing = OperatorList;

export interface Annotation extends Widget {
  /** A link's http(s) or mailto address. */
  url?: string;
}

export interface PdfText {
  items: RawItem[];
  /** Font ids whose glyphs are monospace. */
  mono: Set<string>;
}

export interface PdfPage {
  /** The page's box, x0, y0, x1, y1, in PDF units. */
  readonly view: number[];
  /** Its /Rotate, in degrees. */
  readonly rotate: number;
  /** Its text runs; marked-content markers only when `marked` (a tagged document). */
  text(marked: boolean): Promise<PdfText>;
  structTree(): Promise<StructNode | undefined>;
  annotations(): Promise<Annotation[]>;
  /** What the page draws; undefined when the engine could not read it. */
  drawing(): Promise<Drawing | undefined>;
  close(): void;
}

export interface OutlineNode {
  title?: string;
  items?: OutlineNode[];
}

export interface PdfInfo {
  /** Info /Title, and the XMP `dc:title` where the engine reads it. */
  titles: string[];
  creator?: string;
  producer?: string;
}

export interface PdfDocument {
  readonly numPages: number;
  /** The catalog's /MarkInfo says the document is tagged. */
  readonly tagged: boolean;
  outline(): Promise<OutlineNode[]>;
  info(): Promise<PdfInfo>;
  page(n: number): Promise<PdfPage>;
  /** Throws the engine's refusal when a limit was passed since the last call (a decode budget, a memory cap). */
  check(): void;
  close(): Promise<void>;
}

export interface PdfEngine {
  readonly name: string;
  /** Opens a document; the options bound what it may decode. */
  open(bytes: Uint8Array, opts: { maxDecodedBytes?: number }): Promise<PdfDocument>;
}
