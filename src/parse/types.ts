/**
 * The converter's small vocabulary: every format turns bytes into blocks, one writer turns blocks into markdown.
 * Inline text inside blocks is already markdown (escaped by `inline.ts`); the writer only lays blocks out.
 */
export type Block =
  | { t: 'h'; level: number; text: string }
  | { t: 'p'; text: string }
  | { t: 'list'; ordered: boolean; start: number; items: ListItem[] }
  | { t: 'table'; rows: string[][] }
  | { t: 'code'; text: string; lang?: string }
  | { t: 'quote'; blocks: Block[] }
  | { t: 'comment'; text: string };

export interface ListItem {
  text: string;
  children: Block[];
}

export type ParseKind = 'pdf' | 'docx' | 'xlsx' | 'pptx' | 'html';

export const CONTENT_TYPES: Record<ParseKind, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  html: 'text/html',
};

export interface ParseOptions {
  /** PDF pages, sheets or slides read at most (1-100). */
  maxPages: number;
  /** Most bytes a PDF's streams may decode to in all (default 128 MB; less for a small file, `pdf/stream-budget.ts`). */
  maxDecodedBytes?: number;
}

/** What a converter returns. */
export interface Converted {
  blocks: Block[];
  title?: string;
  /** Pages, sheets or slides in the file (not only those read). */
  numPages?: number;
  /** More pages/sheets/slides than maxPages. */
  cut: boolean;
}

export interface ParseResult {
  markdown: string;
  isTruncated: boolean;
  metadata: { title?: string; contentType: string; numPages?: number };
}

/**
 * A format's converter, the one shape every format's has: its input (the file's bytes; for the OOXML formats the
 * zip the sniffer opened) and the options, to blocks; synchronous but for PDF (its engine loads asynchronously).
 * `index.ts` holds them in one table by kind.
 */
export interface Converter<Input = Uint8Array, Output extends Converted | Promise<Converted> = Converted> {
  (input: Input, opts: ParseOptions): Output;
}

/** Why a file was refused; mapped once to the API's codes in `errors.ts`. */
export type ParseErrorKind = 'unsupported' | 'encrypted' | 'corrupt' | 'limit' | 'timeout';

export class ParseError extends Error {
  readonly kind: ParseErrorKind;
  constructor(kind: ParseErrorKind, message: string) {
    super(message);
    this.name = 'ParseError';
    this.kind = kind;
  }
}

export const LIMITS = {
  zipEntries: 2000,
  zipTotalBytes: 100 * 1024 * 1024,
  zipEntryRatio: 200,
  inflateBudgetBytes: 100 * 1024 * 1024,
  xmlDepth: 256,
  xmlNodes: 2_000_000,
  htmlDepth: 512,
  /** A 100,000-row table of four columns is 1.1 million nodes, about 400 MB of tree in the worker. */
  htmlNodes: 1_500_000,
  markdownChars: 20 * 1024 * 1024,
  sheetCells: 1_000_000,
};
