/**
 * The PDFium engine: PDFium compiled to WebAssembly (`@embedpdf/pdfium`, whose .wasm ships inside the npm package;
 * nothing is downloaded), filling `PdfPage` (`engine.ts`) through PDFium's C API called on the module's exports
 * directly (no per-call argument marshalling).
 *
 * - Text: PDFium's text page gives each character its code point, origin, box, text object, font and size; runs are
 *   rebuilt from them as pdf.js cuts its items (one font and size along one baseline; a gap of 0.102 to 0.6 em is a
 *   space, a wider one or a step back starts a run of its own; spaces the file sets are cursor moves), so that the
 *   layout passes see the same shapes from either engine. The characters PDFium generates (its own spaces and line
 *   ends) are not read. A font's id is its PDFium handle; it is monospace when its flags say fixed pitch, bold when
 *   its weight is 600 or more, its flags force bold or its name says so.
 * - Marked content: each text object's marks (name and MCID), as begin/end markers around its runs.
 * - Drawing: page objects walked (form XObjects inside out, 20,000 objects at most), paths written as pdf.js's
 *   constructPath in page space, images as a transform and a paint, marks as marked content.
 * - Memory: PDFium's heap is the module's WebAssembly memory, which lives outside the worker's V8 heap and never
 *   shrinks. Its maximum is rewritten in the binary before compiling (`HEAP_MAX_BYTES`): a stream that inflates past
 *   it (a compression bomb) fails PDFium's allocation, the module aborts, and the file is refused as over the safety
 *   limits in the time it takes to inflate that much. A module that aborted, or whose heap grew past
 *   `HEAP_KEEP_BYTES` reading a document, is dropped and the next document gets a fresh instance (the compiled code
 *   is kept: about 10 ms).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { init, type WrappedPdfiumModule } from '@embedpdf/pdfium';
import { ParseError } from '../types.js';
import type { Annotation, Drawing, OutlineNode, PdfDocument, PdfEngine, PdfInfo, PdfPage, PdfText } from './engine.js';
import type { RawItem } from './items.js';
import { OP } from './matrix.js';
import { checkStreamBudget, decodeBudgetFor } from './stream-budget.js';
import type { StructNode } from './structure.js';

/** Most memory PDFium's heap may reach (WebAssembly pages of 64 KiB): past it an allocation fails and the file is refused. */
export const HEAP_MAX_BYTES = 192 * 1024 * 1024;
/** A heap grown past this reading a document is dropped after it (WebAssembly memory never shrinks). */
export const HEAP_KEEP_BYTES = 96 * 1024 * 1024;
/** Page objects read for a page's drawing at most (form XObjects' objects included). */
const MAX_OBJECTS = 20_000;
/** Characters read from one page at most (a page of text holds a few thousand; the time budget bounds the rest). */
const MAX_CHARS = 2_000_000;

type Exports = Record<string, (...args: number[]) => number>;

interface Instance {
  module: WrappedPdfiumModule;
  x: Exports;
  heap: () => { u8: Uint8Array; f32: Float32Array; f64: Float64Array; i32: Int32Array; u16: Uint16Array };
  /** Scratch memory for out-parameters (64 bytes) and a few C strings. */
  scratch: number;
  mcid: number;
  dead: boolean;
}

let compiled: Promise<WebAssembly.Module> | undefined;
let growthObserver: (() => void) | undefined;

/** Called after each growth of PDFium's heap (the conversion worker publishes its memory from here). */
export function observeHeapGrowth(fn: (() => void) | undefined): void {
  growthObserver = fn;
}
let current: Instance | undefined;

/** The .wasm with its memory maximum set to `HEAP_MAX_BYTES` (the memory section's limits, rewritten in place). */
export function cappedWasm(bytes: Uint8Array, maxBytes = HEAP_MAX_BYTES): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(bytes);
  let p = 8;
  const leb = () => {
    let r = 0;
    let s = 0;
    let c: number;
    do {
      c = b[p++]!;
      r |= (c & 0x7f) << s;
      s += 7;
    } while (c & 0x80);
    return r >>> 0;
  };
  while (p < b.length) {
    const id = b[p++]!;
    const size = leb();
    const body = p;
    if (id === 5) {
      const count = leb();
      const flags = b[p++]!;
      if (count !== 1 || !(flags & 1) || flags & 4) break;
      leb(); // the minimum
      const at = p;
      leb();
      const width = p - at;
      const pages = Math.floor(maxBytes / 65536);
      // The same number of bytes, padded (a LEB128 may carry redundant continuation bytes).
      if (pages >= 2 ** (7 * width)) break;
      for (let k = 0; k < width; k++) b[at + k] = ((pages >>> (7 * k)) & 0x7f) | (k < width - 1 ? 0x80 : 0);
      return b;
    }
    p = body + size;
  }
  throw new Error('PDFium: the WebAssembly memory maximum could not be set');
}

/** The instance being made, shared by the callers that ask meanwhile. */
let making: Promise<Instance> | undefined;

function instance(): Promise<Instance> {
  if (current && !current.dead) return Promise.resolve(current);
  making ??= makeInstance().finally(() => {
    making = undefined;
  });
  return making;
}

async function makeInstance(): Promise<Instance> {
  compiled ??= (async () => {
    const require = createRequire(import.meta.url);
    const file = require.resolve('@embedpdf/pdfium/pdfium.wasm');
    return WebAssembly.compile(cappedWasm(fs.readFileSync(file)) as Uint8Array<ArrayBuffer>);
  })();
  const wasm = await compiled;
  const module = await init({
    instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
      // Each growth of the heap is told to the observer (the worker publishes its memory from there: PDFium runs
      // without yielding, so the worker's timers cannot).
      const env = imports.env as Record<string, unknown>;
      const grow = env.emscripten_resize_heap as ((bytes: number) => number) | undefined;
      if (typeof grow === 'function') {
        env.emscripten_resize_heap = (bytes: number) => {
          const grown = grow(bytes);
          growthObserver?.();
          return grown;
        };
      }
      void WebAssembly.instantiate(wasm, imports).then((inst) => done(inst, wasm));
      return {};
    },
    print: () => {},
    printErr: () => {},
    onAbort: () => {},
  } as never);
  module.PDFiumExt_Init();
  const p = module.pdfium as unknown as { wasmExports: Exports; HEAPU8: Uint8Array; HEAPF32: Float32Array; HEAPF64: Float64Array; HEAP32: Int32Array; HEAPU16: Uint16Array };
  const x = p.wasmExports;
  const scratch = x.malloc!(256);
  const mcid = scratch + 128;
  p.HEAPU8.set([0x4d, 0x43, 0x49, 0x44, 0], mcid); // "MCID"
  const inst: Instance = {
    module,
    x,
    // The views are replaced when the memory grows: always read them through here.
    heap: () => ({ u8: p.HEAPU8, f32: p.HEAPF32, f64: p.HEAPF64, i32: p.HEAP32, u16: p.HEAPU16 }),
    scratch,
    mcid,
    dead: false,
  };
  current = inst;
  return inst;
}

const overLimit = () => new ParseError('limit', `The PDF exceeds the safety limits: reading it needs more than ${HEAP_MAX_BYTES / (1024 * 1024)} MB (its compressed streams inflate past that).`);

/** An abort (an allocation past the heap's maximum, an assertion) leaves the module unusable. */
function aborted(e: unknown): boolean {
  return e instanceof WebAssembly.RuntimeError || /Aborted|out of memory|OOM/i.test(String((e as Error)?.message ?? e));
}

const FPDF_ERR_PASSWORD = 4;

export const pdfiumEngine: PdfEngine = {
  name: 'pdfium',
  async open(bytes, opts) {
    // Compression bombs are refused before PDFium inflates anything (see `stream-budget.ts`).
    checkStreamBudget(bytes, decodeBudgetFor(bytes.length, opts.maxDecodedBytes));
    const inst = await instance();
    const { x } = inst;
    /** Runs a PDFium call; an abort kills the instance and refuses the file. */
    const call = <T>(fn: () => T): T => {
      if (inst.dead) throw overLimit();
      try {
        return fn();
      } catch (e) {
        if (aborted(e)) {
          inst.dead = true;
          if (current === inst) current = undefined;
          throw overLimit();
        }
        throw e;
      }
    };
    /** Loads `file` into the module's heap and opens it: the document and the memory holding its bytes. */
    const load = (file: Uint8Array): { doc: number; data: number } => {
      const data = call(() => x.malloc!(Math.max(1, file.length)));
      if (!data) throw overLimit();
      inst.heap().u8.set(file, data);
      const doc = call(() => x.FPDF_LoadMemDocument!(data, file.length, 0));
      if (doc) return { doc, data };
      const err = call(() => x.FPDF_GetLastError!());
      x.free!(data);
      if (err === FPDF_ERR_PASSWORD) throw new ParseError('encrypted', 'The PDF is encrypted (password-protected); send it without a password.');
      throw new ParseError('corrupt', `The PDF is corrupt or truncated (PDFium error ${err}).`);
    };
    let { doc, data } = load(bytes);
    let closed = false;
    let form = 0;
    let formInfo = 0;
    /** Whether the cross-reference table was rebuilt (once at most: see `rebuiltXref`). */
    let rebuilt = false;
    const closeDoc = () => {
      if (form) x.PDFiumExt_ExitFormFillEnvironment!(form);
      if (formInfo) x.PDFiumExt_CloseFormFillInfo!(formInfo);
      form = formInfo = 0;
      x.FPDF_CloseDocument!(doc);
      x.free!(data);
    };
    /**
     * A page PDFium cannot load where the cross-reference table points beside its objects (a damaged file pdf.js
     * reads by scanning for them): the table is rebuilt from the objects the file holds and the document reopened,
     * once. Undefined when that does not help.
     */
    const reloadPage = (n: number): number => {
      if (rebuilt) return 0;
      rebuilt = true;
      const repaired = rebuiltXref(bytes);
      if (!repaired) return 0;
      let again: { doc: number; data: number };
      try {
        again = load(repaired);
      } catch {
        return 0;
      }
      closeDoc();
      ({ doc, data } = again);
      reader.forget();
      return call(() => x.FPDF_LoadPage!(doc, n - 1));
    };
    const reader = new Reader(inst, call);
    const document: PdfDocument = {
      numPages: call(() => x.FPDF_GetPageCount!(doc)),
      tagged: !!call(() => x.FPDFCatalog_IsTagged!(doc)),
      check() {
        if (inst.dead) throw overLimit();
      },
      async outline() {
        return reader.outline(doc);
      },
      async info(): Promise<PdfInfo> {
        const meta = (tag: string) => reader.metaText(doc, tag);
        const title = meta('Title');
        return { titles: title ? [title] : [], creator: meta('Creator'), producer: meta('Producer') };
      },
      async page(n) {
        const page = call(() => x.FPDF_LoadPage!(doc, n - 1)) || reloadPage(n);
        if (!page) throw new ParseError('corrupt', `The PDF is corrupt or truncated (page ${n} could not be read).`);
        let textPage = 0;
        const p: PdfPage = {
          view: reader.view(page),
          rotate: (call(() => x.FPDFPage_GetRotation!(page)) & 3) * 90,
          async text(marked): Promise<PdfText> {
            textPage ||= call(() => x.FPDFText_LoadPage!(page));
            if (!textPage) return { items: [], mono: new Set() };
            return call(() => reader.text(page, textPage, marked));
          },
          async structTree() {
            return call(() => reader.structTree(page));
          },
          async annotations() {
            if (!form && !formInfo) {
              formInfo = call(() => x.PDFiumExt_OpenFormFillInfo!());
              form = formInfo ? call(() => x.PDFiumExt_InitFormFillEnvironment!(doc, formInfo)) : 0;
            }
            return call(() => reader.annotations(doc, page, form));
          },
          async drawing() {
            return call(() => reader.drawing(page));
          },
          close() {
            if (inst.dead) return;
            if (textPage) x.FPDFText_ClosePage!(textPage);
            x.FPDF_ClosePage!(page);
          },
        };
        return p;
      },
      async close() {
        if (closed) return;
        closed = true;
        if (!inst.dead) closeDoc();
        // WebAssembly memory never shrinks: a heap this document grew is let go with its instance.
        if (current === inst && inst.heap().u8.byteLength > HEAP_KEEP_BYTES) current = undefined;
      },
    };
    return document;
  },
};

/**
 * The file with a cross-reference table rebuilt from the objects it holds (`N G obj`, the last of each number),
 * appended with a trailer naming the last trailer's /Root, /Info and /ID; undefined when no root is named or the
 * file is encrypted (its objects are keyed to their numbers, but a rebuilt table is not worth that risk).
 * Objects inside object streams are not found this way: a file indexed by cross-reference streams stays as it was.
 */
export function rebuiltXref(bytes: Uint8Array): Uint8Array | undefined {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  if (/\/Encrypt\s/.test(text)) return undefined;
  const root = [...text.matchAll(/\/Root\s+(\d+)\s+(\d+)\s+R/g)].pop();
  if (!root) return undefined;
  const info = [...text.matchAll(/\/Info\s+(\d+)\s+(\d+)\s+R/g)].pop();
  const offsets = new Map<number, [number, number]>();
  for (const m of text.matchAll(/(?:^|[\r\n\s])(\d{1,7})\s+(\d{1,5})\s+obj\b/g)) {
    const at = m.index! + m[0].length - m[0].trimStart().length;
    offsets.set(Number(m[1]), [at, Number(m[2])]);
    if (offsets.size > 1_000_000) return undefined;
  }
  if (!offsets.size) return undefined;
  const size = Math.max(...offsets.keys()) + 1;
  const rows: string[] = ['0000000000 65535 f \n'];
  for (let n = 1; n < size; n++) {
    const o = offsets.get(n);
    rows.push(o ? `${String(o[0]).padStart(10, '0')} ${String(o[1]).padStart(5, '0')} n \n` : '0000000000 65535 f \n');
  }
  const start = bytes.length + 1;
  const tail = `\nxref\n0 ${size}\n${rows.join('')}trailer\n<< /Size ${size} /Root ${root[1]} ${root[2]} R${info ? ` /Info ${info[1]} ${info[2]} R` : ''} >>\nstartxref\n${start}\n%%EOF\n`;
  const out = new Uint8Array(bytes.length + tail.length);
  out.set(bytes);
  out.set(Buffer.from(tail, 'latin1'), bytes.length);
  return out;
}

/**
 * A space run over a gap that later text fills is no gap. PDFium's text page leaves out a character drawn again
 * where the same character already stands (fake bold, a clipped first pass of a line), so the line drawn over
 * fragments of itself ("S", "ifi", then "Specifies …") arrives as "S", a space run, "ifi", "pecifies …": without
 * the space run the pieces join as the line reads.
 */
function dropFilledGaps(items: RawItem[]): RawItem[] {
  const byLine = new Map<number, RawItem[]>();
  for (const it of items) {
    if (typeof it.str !== 'string' || !it.str.trim() || !it.transform) continue;
    const k = Math.round(it.transform[5]!);
    const list = byLine.get(k);
    if (list) list.push(it);
    else byLine.set(k, [it]);
  }
  // Text set right where the space run starts: the space was measured from a fragment, not from the line's text.
  const filled = (w: RawItem) => {
    const [, , , , x, y] = w.transform;
    for (let k = Math.round(y!) - 1; k <= Math.round(y!) + 1; k++) for (const it of byLine.get(k) ?? []) if (Math.abs(it.transform[5]! - y!) < 0.5 && Math.abs(it.transform[4]! - x!) < 0.01) return true;
    return false;
  };
  return items.some((it) => it.str === ' ' && it.height === 0) ? items.filter((it) => !(it.str === ' ' && it.height === 0 && filled(it))) : items;
}

/** A text object's or font's facts, read once per handle. */
interface ObjectFacts {
  font: string;
  facts: FontFacts;
  size: number;
  /** The object's text matrix (its scale and turn), a b c d. */
  m: [number, number, number, number];
  marks: { name: string; mcid?: number }[];
  markKey: string;
}

interface FontFacts {
  id: string;
  mono: boolean;
  bold: boolean;
  /** Advance widths seen (in ems), to tell a fixed-pitch font its flags leave unsaid, as pdf.js does by its widths. */
  narrowest: number;
  widest: number;
  widths: number;
  /** A letter a proportional face sets narrow (i, l, F, T …), or wide (m, w, C, H …), was seen. */
  narrow: boolean;
  wide: boolean;
}

/** The reading of one instance's documents (handles are the instance's). */
class Reader {
  private readonly x: Exports;
  private readonly s: number;
  private fonts = new Map<number, FontFacts>();

  /** Font handles belong to a document: forgotten when it is reopened. */
  forget(): void {
    this.fonts = new Map();
  }

  constructor(
    private readonly inst: Instance,
    private readonly call: <T>(fn: () => T) => T,
  ) {
    this.x = inst.x;
    this.s = inst.scratch;
  }

  /** A UTF-16LE string PDFium writes through `write(buffer, bytes)` (returning the bytes it needs, NUL included). */
  private utf16(write: (buf: number, len: number) => number, max = 1 << 20): string {
    const need = write(0, 0);
    if (!need || need <= 2) return '';
    const len = Math.min(need, max);
    const buf = this.x.malloc!(len);
    try {
      write(buf, len);
      const u16 = this.inst.heap().u16;
      let out = '';
      const end = (buf >> 1) + (len >> 1);
      for (let i = buf >> 1; i < end; i += 4096) out += String.fromCharCode(...u16.subarray(i, Math.min(end, i + 4096)));
      return out.replace(/\0+$/, '');
    } finally {
      this.x.free!(buf);
    }
  }

  /** A NUL-terminated byte string (Latin-1/UTF-8 as PDFium writes it). */
  private bytes(write: (buf: number, len: number) => number, max = 1 << 16): string {
    const need = write(0, 0);
    if (!need || need <= 1) return '';
    const len = Math.min(need, max);
    const buf = this.x.malloc!(len);
    try {
      write(buf, len);
      const u8 = this.inst.heap().u8;
      let end = buf;
      while (end < buf + len && u8[end]) end++;
      return Buffer.from(u8.subarray(buf, end)).toString('utf8');
    } finally {
      this.x.free!(buf);
    }
  }

  metaText(doc: number, tag: string): string | undefined {
    const x = this.x;
    const name = x.malloc!(tag.length + 1);
    this.inst.heap().u8.set([...Buffer.from(tag, 'latin1'), 0], name);
    try {
      return this.call(() => this.utf16((buf, len) => x.FPDF_GetMetaText!(doc, name, buf, len), 64 * 1024)) || undefined;
    } finally {
      x.free!(name);
    }
  }

  outline(doc: number): OutlineNode[] {
    const x = this.x;
    let seen = 0;
    const visited = new Set<number>();
    const walk = (parent: number, depth: number): OutlineNode[] => {
      const out: OutlineNode[] = [];
      for (let bm = x.FPDFBookmark_GetFirstChild!(doc, parent); bm && seen < 2000 && !visited.has(bm); bm = x.FPDFBookmark_GetNextSibling!(doc, bm)) {
        visited.add(bm);
        seen++;
        const title = this.utf16((buf, len) => x.FPDFBookmark_GetTitle!(bm, buf, len), 4096);
        out.push({ title, items: depth < 8 ? walk(bm, depth + 1) : [] });
      }
      return out;
    };
    return this.call(() => walk(0, 1));
  }

  /** The crop box inside the media box, as pdf.js's `view`. */
  view(page: number): number[] {
    const { x, s } = this;
    const box = (fn: string): number[] | undefined => {
      if (!x[fn]!(page, s, s + 4, s + 8, s + 12)) return undefined;
      const f = this.inst.heap().f32;
      const [l, b, r, t] = [f[s >> 2]!, f[(s >> 2) + 1]!, f[(s >> 2) + 2]!, f[(s >> 2) + 3]!];
      return [Math.min(l, r), Math.min(b, t), Math.max(l, r), Math.max(b, t)];
    };
    const media = this.call(() => box('FPDFPage_GetMediaBox')) ?? [0, 0, 612, 792];
    const crop = this.call(() => box('FPDFPage_GetCropBox'));
    if (!crop) return media;
    const v = [Math.max(media[0]!, crop[0]!), Math.max(media[1]!, crop[1]!), Math.min(media[2]!, crop[2]!), Math.min(media[3]!, crop[3]!)];
    return v[2]! > v[0]! && v[3]! > v[1]! ? v : media;
  }

  private font(handle: number): FontFacts {
    let f = this.fonts.get(handle);
    if (f) return f;
    const x = this.x;
    const name = handle ? this.bytes((buf, len) => x.FPDFFont_GetBaseFontName!(handle, buf, len), 512) : '';
    const flags = handle ? x.FPDFFont_GetFlags!(handle) : 0;
    const weight = handle ? x.FPDFFont_GetWeight!(handle) : -1;
    const face = name.replace(/^[A-Z]{6}\+/, '');
    f = {
      id: `f${handle}`,
      // Fixed pitch (flag 1), or a monospace face the flags leave unsaid (the standard Courier, TeX's typewriter).
      mono: (flags & 1) === 1 || /courier|mono|consol|menlo|inconsolata|typewriter|^(cm|sf|tx|lm)tt/i.test(face),
      // Weight 600 or more, ForceBold (flag 19), or the face's name.
      bold: weight >= 600 || (flags & (1 << 18)) !== 0 || /bold|black|heavy|semibold|demi/i.test(face),
      narrowest: Infinity,
      widest: 0,
      widths: 0,
      narrow: false,
      wide: false,
    };
    this.fonts.set(handle, f);
    return f;
  }

  private objectFacts(tp: number, index: number, obj: number, cache: Map<number, ObjectFacts>): ObjectFacts {
    let o = cache.get(obj);
    if (o) return o;
    const { x, s } = this;
    const font = this.font(x.FPDFTextObj_GetFont!(obj));
    let size = x.FPDFTextObj_GetFontSize!(obj, s) ? this.inst.heap().f32[s >> 2]! : 0;
    if (!(size > 0)) size = x.FPDFText_GetFontSize!(tp, index) || 1;
    let m: [number, number, number, number] = [1, 0, 0, 1];
    if (x.FPDFText_GetMatrix!(tp, index, s)) {
      const f = this.inst.heap().f32;
      const k = s >> 2;
      m = [f[k]!, f[k + 1]!, f[k + 2]!, f[k + 3]!];
    }
    const marks: { name: string; mcid?: number }[] = [];
    const n = Math.min(32, x.FPDFPageObj_CountMarks!(obj));
    for (let i = 0; i < n; i++) {
      const mark = x.FPDFPageObj_GetMark!(obj, i);
      if (!mark) continue;
      const name = this.markName(mark);
      const mcid = x.FPDFPageObjMark_GetParamIntValue!(mark, this.inst.mcid, s + 32) ? this.inst.heap().i32[(s + 32) >> 2] : undefined;
      marks.push({ name, mcid });
    }
    o = { font: font.id, facts: font, size, m, marks, markKey: marks.map((k) => `${k.name}:${k.mcid ?? ''}`).join('/') };
    cache.set(obj, o);
    return o;
  }

  private markName(mark: number): string {
    const { x, s } = this;
    // (FPDFPageObjMark_GetName writes UTF-16LE and the length it needs.)
    if (!x.FPDFPageObjMark_GetName!(mark, 0, 0, s + 48)) return '';
    const need = this.inst.heap().i32[(s + 48) >> 2]!;
    if (need <= 2 || need > 512) return '';
    const buf = x.malloc!(need);
    try {
      x.FPDFPageObjMark_GetName!(mark, buf, need, s + 48);
      const u16 = this.inst.heap().u16;
      return String.fromCharCode(...u16.subarray(buf >> 1, (buf >> 1) + (need >> 1) - 1));
    } finally {
      x.free!(buf);
    }
  }

  /**
   * The page's text as runs (see the module's comment). Each character costs five calls into the module; a text
   * object's font, size, matrix and marks are read once.
   *
   * As pdf.js cuts its items: a space the file sets between two other characters stays in the run; spaces in a row,
   * and gaps the file leaves by moving the cursor, are measured: from 0.102 to 0.6 em they are one space, wider
   * they end the run and stand as a space run of their own (which tells the line builder the file parted the two
   * runs: `spaced` in `text.ts`), as does any space or gap where the font, size or marked content changes.
   */
  text(page: number, tp: number, marked: boolean): PdfText {
    const { x, s } = this;
    const n = Math.min(MAX_CHARS, x.FPDFText_CountChars!(tp));
    const items: RawItem[] = [];
    const mono = new Set<string>();
    const objects = new Map<number, ObjectFacts>();
    const s8 = s >> 3;
    const s4 = s >> 2;
    /** Marks open before the current run, outermost first. */
    let open: { name: string; mcid?: number }[] = [];
    let openKey = '';
    // The run being built (`str` empty: none yet).
    let str = '';
    let run: ObjectFacts | undefined;
    let em = 0;
    let ux = 1;
    let uy = 0;
    let ox = 0;
    let oy = 0;
    let start = 0;
    let end = 0;
    let perp = 0;
    /** Where the last character set stood along the baseline. */
    let last = NaN;
    /** Spaces the file set since the run's last other character, and how far they advance. */
    let spaces = 0;
    let spaceAdvance = 0;
    /** Where the current glyph's characters start in `str` (a right-to-left ligature's letters go in before it). */
    let glyphAt = -1;
    /** The last letter set, where, and in which font (advances tell fixed pitch). */
    let prevLetter: string | undefined;
    let prevAlong = 0;
    let prevFont: FontFacts | undefined;
    let prevObj = 0;
    const flush = () => {
      if (str && run) {
        const [a, b, c, d] = run.m;
        const k = run.size;
        items.push({ str, transform: [a * k, b * k, c * k, d * k, ox, oy], width: Math.max(0, end - start), height: Math.hypot(c * k, d * k) || k, fontName: run.font, bold: run.facts.bold });
      }
      str = '';
    };
    const setMarks = (marks: { name: string; mcid?: number }[], key: string) => {
      if (key === openKey) return;
      let common = 0;
      while (common < open.length && common < marks.length && open[common]!.name === marks[common]!.name && open[common]!.mcid === marks[common]!.mcid) common++;
      for (let k = open.length; k > common; k--) items.push({ type: 'endMarkedContent' } as unknown as RawItem);
      for (let k = common; k < marks.length; k++) {
        const mk = marks[k]!;
        items.push({ type: 'beginMarkedContentProps', id: mk.mcid !== undefined ? `mc${mk.mcid}` : undefined, tag: mk.name } as unknown as RawItem);
      }
      open = marks;
      openKey = key;
    };
    for (const i of this.contentOrder(page, tp, n)) {
      const cp = x.FPDFText_GetUnicode!(tp, i);
      // Invisible format marks (a soft hyphen, zero-width spaces and joiners, a byte-order mark), as pdf.js skips them.
      if (cp === 0xad || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x2060 && cp <= 0x2064) || cp === 0xfeff) continue;
      const obj = x.FPDFText_GetTextObject!(tp, i);
      if (!obj) continue;
      const o = this.objectFacts(tp, i, obj, objects);
      if (!x.FPDFText_GetCharOrigin!(tp, i, s, s + 8)) continue;
      let f64 = this.inst.heap().f64;
      const cx = f64[s8]!;
      const cy = f64[s8 + 1]!;
      const f = o.facts;
      const scale = Math.hypot(o.m[0], o.m[1]) || 1;
      const oem = o.size * scale;
      const dx = o.m[0] / scale;
      const dy = o.m[1] / scale;
      const along = cx * dx + cy * dy;
      const across = -cx * dy + cy * dx;
      // The character's end along the baseline: its loose box (origin plus advance, ascent to descent) projected.
      // Text at a slant has only the box around its turned box: its advance is measured from one origin to the next
      // inside a text object (the glyphs of one show operator are set edge to edge), and guessed for the last.
      const slanted = Math.abs(dx) > 1e-3 && Math.abs(dy) > 1e-3;
      let stop = along;
      if (slanted) stop = along + oem * 0.5;
      else if (x.FPDFText_GetLooseCharBox!(tp, i, s)) {
        const f32 = this.inst.heap().f32;
        const [l, t, r, b] = [f32[s4]!, f32[s4 + 1]!, f32[s4 + 2]!, f32[s4 + 3]!];
        // No box at all (no advance, no height): a glyph that draws nothing, as a second print of a bullet set
        // right after it; pdf.js reports it at the first print's origin, where it is read once.
        if (l === r && t === b) continue;
        stop = Math.max(l * dx + t * dy, r * dx + t * dy, l * dx + b * dy, r * dx + b * dy);
      }
      f64 = this.inst.heap().f64;
      const space = cp === 0x20 || cp === 0xa0 || cp === 0x3000 || cp === 0x09;
      if (space) {
        // A space the file sets moves the cursor; the next character decides what it stands for.
        if (str) {
          spaces++;
          spaceAdvance += Math.max(0, stop - along);
        }
        continue;
      }
      const turned = !str || Math.abs(dx - ux) > 1e-3 || Math.abs(dy - uy) > 1e-3;
      const shift = Math.abs(across - perp);
      // One glyph standing for several characters (a ligature "fi"): each after the first at the same origin.
      const mark = !turned && shift < em * 0.5 && MARK.test(String.fromCodePoint(cp));
      const sameGlyph = mark || (!turned && shift < em * 0.25 && Math.abs(along - last) < 0.01);
      last = along;
      // The gap from the last character's end (spaces the file set are part of it, as in pdf.js).
      const gap = slanted && obj === prevObj && !turned ? (spaces ? em * 0.3 : 0) : along - end;
      prevObj = obj;
      // As pdf.js: one font at one font size (`Tf`) is one run, whatever scale the text matrix adds (a word stretched to
      // justify a line stays in it).
      const sameRun = !turned && shift <= em * 0.25 && o.markKey === run!.markKey && o.font === run!.font && Math.abs(o.size - run!.size) < 0.01;
      if (sameGlyph) {
        /* the same glyph's next character */
      } else if (!sameRun || gap < -em * 0.2 || gap > em * 0.6 || (gap <= em * 0.102 && gap > em * 0.03 && spaces > 0)) {
        const before = run;
        // The file parted the two runs on one line: a space run between them, as pdf.js writes one (its width in
        // the text matrix's units, as pdf.js gives it).
        const parted = !!str && !turned && shift <= em && gap > 0 && (gap > em * 0.102 || (gap > em * 0.03 && spaces > 0));
        const [ex, ey] = [end * ux - perp * uy, end * uy + perp * ux];
        const runScale = before ? Math.hypot(before.m[0], before.m[1]) || 1 : 1;
        flush();
        if (before && parted) {
          const k = before.size;
          const [a, b, c, d] = before.m;
          items.push({ str: ' ', transform: [a * k, b * k, c * k, d * k, ex, ey], width: gap / runScale, height: 0, fontName: before.font, bold: before.facts.bold });
        }
        if (marked) setMarks(o.marks, o.markKey);
        run = o;
        em = oem;
        ux = dx;
        uy = dy;
        ox = cx;
        oy = cy;
        start = along;
        end = along;
        perp = across;
        prevLetter = undefined;
      } else if (gap > em * 0.102) {
        str += ' ';
        prevLetter = undefined;
      }
      // PDFium marks a hyphen ending a line as U+0002 (a symbol font's glyph 2 is U+0002 too: a bullet).
      const text = cp === 2 && x.FPDFText_IsHyphen!(tp, i) === 1 ? '-' : String.fromCodePoint(cp > 0x10ffff ? 0xfffd : cp);
      if (sameGlyph && !mark && glyphAt >= 0 && RTL.test(text)) str = str.slice(0, glyphAt) + text + str.slice(glyphAt);
      else {
        if (!sameGlyph) glyphAt = str.length;
        str += text;
      }
      if (stop > end) end = stop;
      const ch = String.fromCodePoint(cp);
      if (!f.mono && !sameGlyph && f.widths < 400) {
        // Fixed pitch by its widths (the flags may leave it unsaid, as TeX's typewriter fonts do): letters that a
        // proportional face sets narrow and wide advance alike, from one origin to the next.
        if (prevLetter && spaces === 0 && prevFont === f) {
          f.widths++;
          const adv = (along - prevAlong) / em;
          f.narrowest = Math.min(f.narrowest, adv);
          f.widest = Math.max(f.widest, adv);
          if (NARROW.includes(prevLetter)) f.narrow = true;
          if (WIDE.includes(prevLetter)) f.wide = true;
        }
      }
      prevLetter = /\p{L}/u.test(ch) ? ch : undefined;
      prevAlong = along;
      prevFont = f;
      spaces = 0;
      spaceAdvance = 0;
      if (f.mono || (f.narrow && f.wide && f.widest - f.narrowest < 0.02)) mono.add(f.id);
    }
    flush();
    if (marked) setMarks([], '');
    return { items: dropFilledGaps(items), mono };
  }

  /**
   * The page's characters (their indices, PDFium's own generated ones left out) in the order the content stream
   * sets their text objects, as pdf.js reads them: PDFium's text page moves an object it takes for the same line as
   * the one before into that line's left-to-right order (a side head beside a paragraph's line would join it).
   */
  private contentOrder(page: number, tp: number, n: number): Int32Array {
    const x = this.x;
    const order = new Map<number, number>();
    let budget = MAX_OBJECTS;
    const visit = (obj: number, depth: number) => {
      if (budget-- <= 0) return;
      const type = x.FPDFPageObj_GetType!(obj);
      if (type === 1) order.set(obj, order.size);
      else if (type === 5 && depth < 12) {
        const count = x.FPDFFormObj_CountObjects!(obj);
        for (let k = 0; k < count && budget > 0; k++) {
          const child = x.FPDFFormObj_GetObject!(obj, k);
          if (child) visit(child, depth + 1);
        }
      }
    };
    const count = x.FPDFPage_CountObjects!(page);
    for (let k = 0; k < count && budget > 0; k++) {
      const obj = x.FPDFPage_GetObject!(page, k);
      if (obj) visit(obj, 0);
    }
    const idx: number[] = [];
    const rank: number[] = [];
    let sorted = true;
    for (let i = 0; i < n; i++) {
      if (x.FPDFText_IsGenerated!(tp, i) === 1) continue;
      const r = order.get(x.FPDFText_GetTextObject!(tp, i)) ?? order.size;
      if (rank.length && r < rank[rank.length - 1]!) sorted = false;
      idx.push(i);
      rank.push(r);
    }
    let out = Int32Array.from(idx);
    if (!sorted) {
      // Stable: characters keep PDFium's order inside their object.
      const perm = Array.from(idx.keys()).sort((a, b) => rank[a]! - rank[b]! || a - b);
      out = Int32Array.from(perm, (k) => idx[k]!);
    }
    return this.readingOrder(tp, out);
  }

  /**
   * Right-to-left text in reading order. PDFium's text page gives most right-to-left lines in reading order (as
   * pdf.js's bidi pass gives its runs), but leaves some in drawing order, left to right: there, each stretch of
   * right-to-left letters, with the spaces, marks (set higher or lower) and punctuation between them, along one
   * baseline, is reversed character by character as pdf.js reverses a right-to-left run (the letters of one ligature,
   * set at one origin, keep their order). Left-to-right words between them stay as drawn; the line builder orders the pieces by position.
   */
  private readingOrder(tp: number, order: Int32Array): Int32Array {
    const { x, s } = this;
    const chars = Array.from(order, (i) => String.fromCodePoint(Math.min(x.FPDFText_GetUnicode!(tp, i), 0x10ffff)));
    if (!chars.some((c) => RTL.test(c))) return order;
    const out = Int32Array.from(order);
    const xs = new Float64Array(order.length);
    const ys = new Float64Array(order.length);
    for (let k = 0; k < order.length; k++) {
      if (!x.FPDFText_GetCharOrigin!(tp, order[k]!, s, s + 8)) xs[k] = ys[k] = NaN;
      else [xs[k], ys[k]] = [this.inst.heap().f64[s >> 3]!, this.inst.heap().f64[(s >> 3) + 1]!];
    }
    const neutral = (k: number) => !/[\p{L}\p{N}]/u.test(chars[k]!) || MARK.test(chars[k]!);
    for (let a = 0; a < order.length; a++) {
      if (!RTL.test(chars[a]!)) continue;
      // The stretch a..b: right-to-left characters and neutral ones between them, on a's baseline.
      let b = a;
      for (let k = a + 1; k < order.length && (Math.abs(ys[k]! - ys[a]!) < 0.5 || MARK.test(chars[k]!)) && (RTL.test(chars[k]!) || neutral(k)); k++) if (RTL.test(chars[k]!)) b = k;
      if (b > a && xs[b]! > xs[a]!) {
        // Glyphs: a character and the letters set at its origin after it (a ligature's).
        const glyphs: number[][] = [];
        for (let k = a; k <= b; k++) {
          const g = glyphs[glyphs.length - 1];
          if (g && !MARK.test(chars[k]!) && !MARK.test(chars[g[0]!]!) && Math.abs(xs[k]! - xs[g[0]!]!) < 0.01) g.push(k);
          else glyphs.push([k]);
        }
        let at = a;
        for (const g of glyphs.reverse()) for (const k of g) out[at++] = order[k]!;
      }
      a = b;
    }
    return out;
  }

  structTree(page: number): StructNode | undefined {
    const x = this.x;
    const tree = x.FPDF_StructTree_GetForPage!(page);
    if (!tree) return undefined;
    let budget = 100_000;
    const str = (fn: string, elem: number, max = 4096) => this.utf16((buf, len) => x[fn]!(elem, buf, len), max);
    const walk = (elem: number, depth: number): StructNode => {
      const node: StructNode = { role: str('FPDF_StructElement_GetType', elem, 256), children: [] };
      const alt = str('FPDF_StructElement_GetAltText', elem, 4096);
      if (alt) node.alt = alt;
      const n = x.FPDF_StructElement_CountChildren!(elem);
      for (let i = 0; i < n && budget-- > 0; i++) {
        const child = x.FPDF_StructElement_GetChildAtIndex!(elem, i);
        if (child) {
          if (depth < 64) node.children!.push(walk(child, depth + 1));
        } else {
          const mcid = x.FPDF_StructElement_GetChildMarkedContentID!(elem, i);
          if (mcid >= 0) node.children!.push({ type: 'content', id: `mc${mcid}` });
        }
      }
      if (!n) {
        // An element whose own /K is a marked-content id.
        const count = x.FPDF_StructElement_GetMarkedContentIdCount!(elem);
        for (let i = 0; i < count && budget-- > 0; i++) {
          const mcid = x.FPDF_StructElement_GetMarkedContentIdAtIndex!(elem, i);
          if (mcid >= 0) node.children!.push({ type: 'content', id: `mc${mcid}` });
        }
      }
      return node;
    };
    try {
      const root: StructNode = { role: 'Root', children: [] };
      const n = x.FPDF_StructTree_CountChildren!(tree);
      for (let i = 0; i < n && budget > 0; i++) {
        const elem = x.FPDF_StructTree_GetChildAtIndex!(tree, i);
        if (elem) root.children!.push(walk(elem, 1));
      }
      return root;
    } finally {
      x.FPDF_StructTree_Close!(tree);
    }
  }

  annotations(doc: number, page: number, form: number): Annotation[] {
    const { x, s } = this;
    const out: Annotation[] = [];
    const n = Math.min(5000, x.FPDFPage_GetAnnotCount!(page));
    for (let i = 0; i < n; i++) {
      const annot = x.FPDFPage_GetAnnot!(page, i);
      if (!annot) continue;
      try {
        const subtype = x.FPDFAnnot_GetSubtype!(annot);
        if (subtype !== 2 && subtype !== 20) continue; // links and widgets
        if (!x.FPDFAnnot_GetRect!(annot, s)) continue;
        const f = this.inst.heap().f32;
        const [l, t, r, b] = [f[s >> 2]!, f[(s >> 2) + 1]!, f[(s >> 2) + 2]!, f[(s >> 2) + 3]!];
        const rect = [Math.min(l, r), Math.min(b, t), Math.max(l, r), Math.max(b, t)];
        const flags = x.FPDFAnnot_GetFlags!(annot);
        if (subtype === 2) {
          const link = x.FPDFAnnot_GetLink!(annot);
          const action = link ? x.FPDFLink_GetAction!(link) : 0;
          // PDFACTION_URI
          if (!action || x.FPDFAction_GetType!(action) !== 3) continue;
          const url = this.bytes((buf, len) => x.FPDFAction_GetURIPath!(doc, action, buf, len), 8192);
          if (url) out.push({ subtype: 'Link', rect, url });
          continue;
        }
        if (!form) continue;
        const type = x.FPDFAnnot_GetFormFieldType!(form, annot);
        const widget: Annotation = { subtype: 'Widget', rect, hidden: (flags & 2) !== 0, noView: (flags & 32) !== 0 };
        const value = () => this.utf16((buf, len) => x.FPDFAnnot_GetFormFieldValue!(form, annot, buf, len), 64 * 1024);
        // A button's value is its field's /V; it is on where that names the widget's own on state (its export value).
        const exported = () => this.utf16((buf, len) => x.FPDFAnnot_GetFormFieldExportValue!(form, annot, buf, len), 4096);
        if (type === 6) Object.assign(widget, { fieldType: 'Tx', fieldValue: value() });
        else if (type === 4 || type === 5) {
          // The options shown for those selected (their labels), else the value itself.
          const shown: string[] = [];
          const options = Math.min(1000, x.FPDFAnnot_GetOptionCount!(form, annot));
          for (let k = 0; k < options; k++) if (x.FPDFAnnot_IsOptionSelected!(form, annot, k)) shown.push(this.utf16((buf, len) => x.FPDFAnnot_GetOptionLabel!(form, annot, k, buf, len), 4096));
          Object.assign(widget, { fieldType: 'Ch', fieldValue: shown.length ? shown : value() });
        } else if (type === 2 || type === 3) {
          const v = value();
          const own = exported();
          const on = !!x.FPDFAnnot_IsChecked!(form, annot) || (!!v && v !== 'Off' && (!own || v === own));
          Object.assign(widget, { fieldType: 'Btn', checkBox: type === 2, radioButton: type === 3, fieldValue: on ? 'On' : 'Off', buttonValue: 'On' });
        } else continue;
        out.push(widget);
      } finally {
        x.FPDFPage_CloseAnnot!(annot);
      }
    }
    return out;
  }

  /** The page's paths, images and marked content (see the module's comment). */
  drawing(page: number): Drawing {
    const { x, s } = this;
    const fnArray: number[] = [];
    const argsArray: unknown[] = [];
    let budget = MAX_OBJECTS;
    let open: { name: string; mcid?: number }[] = [];
    const push = (fn: number, args: unknown) => {
      fnArray.push(fn);
      argsArray.push(args);
    };
    const matrixOf = (obj: number): number[] => {
      if (!x.FPDFPageObj_GetMatrix!(obj, s)) return [1, 0, 0, 1, 0, 0];
      const f = this.inst.heap().f32;
      const k = s >> 2;
      return [f[k]!, f[k + 1]!, f[k + 2]!, f[k + 3]!, f[k + 4]!, f[k + 5]!];
    };
    const mul = (a: number[], b: number[]) => [a[0]! * b[0]! + a[1]! * b[2]!, a[0]! * b[1]! + a[1]! * b[3]!, a[2]! * b[0]! + a[3]! * b[2]!, a[2]! * b[1]! + a[3]! * b[3]!, a[4]! * b[0]! + a[5]! * b[2]! + b[4]!, a[4]! * b[1]! + a[5]! * b[3]! + b[5]!];
    const marksOf = (obj: number) => {
      const marks: { name: string; mcid?: number }[] = [];
      const n = Math.min(32, x.FPDFPageObj_CountMarks!(obj));
      for (let i = 0; i < n; i++) {
        const mark = x.FPDFPageObj_GetMark!(obj, i);
        if (!mark) continue;
        const mcid = x.FPDFPageObjMark_GetParamIntValue!(mark, this.inst.mcid, s + 32) ? this.inst.heap().i32[(s + 32) >> 2] : undefined;
        marks.push({ name: mcid !== undefined ? '' : this.markName(mark), mcid });
      }
      return marks;
    };
    const setMarks = (marks: { name: string; mcid?: number }[]) => {
      let common = 0;
      while (common < open.length && common < marks.length && open[common]!.mcid === marks[common]!.mcid && open[common]!.name === marks[common]!.name) common++;
      for (let k = open.length; k > common; k--) push(OP.endMarkedContent, null);
      for (let k = common; k < marks.length; k++) push(OP.beginMarkedContentProps, [marks[k]!.name, marks[k]!.mcid ?? null]);
      open = marks;
    };
    const walk = (obj: number, outer: number[] | undefined, depth: number) => {
      if (budget-- <= 0) return;
      const type = x.FPDFPageObj_GetType!(obj);
      if (type === 1 || type === 4) return; // text (read as text), shading
      const m = outer ? mul(matrixOf(obj), outer) : matrixOf(obj);
      if (type === 5) {
        if (depth >= 12) return;
        const n = x.FPDFFormObj_CountObjects!(obj);
        for (let i = 0; i < n && budget > 0; i++) {
          const child = x.FPDFFormObj_GetObject!(obj, i);
          if (child) walk(child, m, depth + 1);
        }
        return;
      }
      setMarks(marksOf(obj));
      if (type === 3) {
        push(OP.save, null);
        push(OP.transform, m);
        push(PAINT_IMAGE_XOBJECT, null);
        push(OP.restore, null);
        return;
      }
      if (type !== 2) return;
      if (!x.FPDFPath_GetDrawMode!(obj, s, s + 4)) return;
      const i32 = this.inst.heap().i32;
      const fill = i32[s >> 2]!;
      const stroke = i32[(s >> 2) + 1]!;
      if (!fill && !stroke) return;
      const n = Math.min(x.FPDFPath_CountSegments!(obj), 2000);
      const path: number[] = [];
      let bezier: number[] = [];
      for (let k = 0; k < n; k++) {
        const seg = x.FPDFPath_GetPathSegment!(obj, k);
        if (!seg || !x.FPDFPathSegment_GetPoint!(seg, s, s + 4)) continue;
        const f = this.inst.heap().f32;
        const px = f[s >> 2]!;
        const py = f[(s >> 2) + 1]!;
        const X = m[0]! * px + m[2]! * py + m[4]!;
        const Y = m[1]! * px + m[3]! * py + m[5]!;
        const t = x.FPDFPathSegment_GetType!(seg);
        if (t === 2) path.push(0, X, Y); // moveTo
        else if (t === 0) path.push(1, X, Y); // lineTo
        else if (t === 1) {
          bezier.push(X, Y);
          if (bezier.length === 6) {
            path.push(2, ...bezier); // curveTo
            bezier = [];
          }
        }
        if (x.FPDFPathSegment_GetClose!(seg)) path.push(4);
      }
      // constructPath's paint: stroke (20), fill (22), fill and stroke (24).
      push(OP.constructPath, [stroke && !fill ? 20 : fill && !stroke ? 22 : 24, [path]]);
    };
    const n = x.FPDFPage_CountObjects!(page);
    for (let i = 0; i < n && budget > 0; i++) {
      const obj = x.FPDFPage_GetObject!(page, i);
      if (obj) walk(obj, undefined, 0);
    }
    setMarks([]);
    return { fnArray, argsArray };
  }
}

/** Letters every proportional face sets narrower than 0.62 em, and wider than 0.66 em (Helvetica's and Times's widths). */
const NARROW = 'ijltfrIJFLTZ';
/** A combining mark (a vowel sign, tanween): it follows its letter, wherever the file places it. */
const MARK = /^\p{M}$/u;
const RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/;
const WIDE = 'mwCDGHNOQUMW';

/** pdf.js's paintImageXObject. */
const PAINT_IMAGE_XOBJECT = 85;
