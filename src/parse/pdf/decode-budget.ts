/**
 * One budget of decoded bytes per PDF, charged by every decoder pdf.js runs.
 *
 * A Flate stream of a few hundred kilobytes can inflate to gigabytes, and decoded bytes live in ArrayBuffers,
 * outside the V8 heap, so the worker's heap limit never sees them. pdf.js decodes a stream in one of two ways:
 * through `DecompressionStream` (our synchronous inflate, `inflate.ts`, which charges this budget for what it
 * produces) or, when that fails, through its own JavaScript decoders (Flate, LZW, run-length, ASCII85/hex, Brotli,
 * predictors, decryption, and the concatenation of a page's content streams). All of those grow their output
 * through one method, `DecodeStream.prototype.ensureBuffer`; that method is wrapped here so each growth is charged
 * before it is allocated. Once the document's budget is spent every further growth throws at once, so pdf.js's
 * fallback after a refused inflate fails on its first block instead of inflating the bomb uncapped.
 *
 * pdf.js's Brotli decoder is the exception: it writes its whole output at once, past `ensureBuffer`, so it is
 * replaced by zlib's, capped and charged the same way.
 *
 * pdf.js does not export its decoder classes. `DecodeStream`'s constructor assigns `this._rawMinBufferLength`; a
 * setter of that name on `Object.prototype` sees the instances being built and, through their prototype chains, the
 * classes. `installDecodeBudget()` sets it only while it reads a tiny built-in PDF (one Flate stream, one Brotli
 * stream), before any caller's document is opened; should pdf.js ever stop matching, it throws, and every PDF is
 * refused rather than read unbounded (the tests would say so on an upgrade).
 *
 * The budget is per thread: the conversion worker reads one document at a time. An in-process caller reading
 * several PDFs at once shares one budget between them.
 */
import { brotliCompressSync, brotliDecompressSync, deflateSync } from 'node:zlib';

/** Largest output of one stream (a page's content stream is rarely above a few MB). */
export const MAX_STREAM_BYTES = 64 * 1024 * 1024;

/** Decoded bytes one document may produce at most, counted over all its streams (default; the pool passes its own). */
export const DEFAULT_MAX_DECODED_BYTES = 128 * 1024 * 1024;
/** Every document may decode this much, however small the file. */
export const MIN_DECODED_BYTES = 32 * 1024 * 1024;
/**
 * Beyond the floor, a document decodes at most this many times its own size: text and fonts compress a few times
 * over (the corpus: 8 at most), a bomb a thousand. The count includes pdf.js decoding a page's content twice (text,
 * then operators) and joining content arrays, hence the room.
 */
export const DECODED_PER_FILE_BYTE = 100;

/** The budget of a file of `fileBytes` under a ceiling of `maxBytes`. */
export function decodeBudgetFor(fileBytes: number, maxBytes = DEFAULT_MAX_DECODED_BYTES): number {
  return Math.min(maxBytes, Math.max(MIN_DECODED_BYTES, fileBytes * DECODED_PER_FILE_BYTE));
}

/** Thrown by a decoder (ours or pdf.js's) once the document's budget is spent. */
export class DecodeBudgetError extends Error {
  constructor(limit: number) {
    super(`the PDF's streams decode to more than ${Math.round(limit / (1024 * 1024))} MB`);
    this.name = 'DecodeBudgetError';
  }
}

interface Budget {
  limit: number;
  used: number;
  spent: boolean;
}

let current: Budget | undefined;
let observer: (() => void) | undefined;

/**
 * Called after each charged growth: the conversion worker publishes its memory from here, so the pool sees a
 * decoder that grows without ever yielding to the worker's timers.
 */
export function observeDecoding(fn: (() => void) | undefined): void {
  observer = fn;
}

/** Charges `bytes` of decoded output to the document being read; throws once its budget is spent. */
export function chargeDecoded(bytes: number): void {
  const b = current;
  if (!b || bytes <= 0) return;
  if (b.spent || b.used + bytes > b.limit) {
    b.spent = true;
    throw new DecodeBudgetError(b.limit);
  }
  b.used += bytes;
  observer?.();
}

/** What the document may still decode (Infinity outside a document). */
export function decodeBytesLeft(): number {
  const b = current;
  return b ? (b.spent ? 0 : b.limit - b.used) : Infinity;
}

/** Marks the budget spent (a single stream past its own cap counts as the whole document's). */
export function spendDecodeBudget(): void {
  if (current) current.spent = true;
}

/** A document's budget, from its opening to `close()`; `spent` tells whether any decoder ran past it. */
export interface DocumentBudget {
  readonly limit: number;
  readonly used: number;
  readonly spent: boolean;
  close(): void;
}

export function openDecodeBudget(limit: number): DocumentBudget {
  const b: Budget = { limit, used: 0, spent: false };
  current = b;
  return {
    limit,
    get used() {
      return b.used;
    },
    get spent() {
      return b.spent;
    },
    close() {
      if (current === b) current = undefined;
    },
  };
}

// ----------------------------------------------------------------------------- reaching pdf.js's decoders

const TRAP = '_rawMinBufferLength';
/** Wrapped so far: DecodeStream's growth (every decoder but Brotli's), and Brotli's decoder. */
const patched = { growth: false, brotli: false };

type DecodeStreamLike = { buffer: Uint8Array; bufferLength: number; eof: boolean; minBufferLength?: number; ensureBuffer(n: number): Uint8Array };
type BrotliStreamLike = DecodeStreamLike & { stream: { getBytes(): Uint8Array }; readBlock(): void };

function patchGrowth(proto: DecodeStreamLike): void {
  const original = proto.ensureBuffer;
  proto.ensureBuffer = function ensureBuffer(this: DecodeStreamLike, requested: number): Uint8Array {
    const have = this.buffer?.byteLength ?? 0;
    if (requested > have) {
      // The size pdf.js is about to allocate: its minimum buffer doubled until it holds `requested`.
      let size = this.minBufferLength || 512;
      while (size < requested) size *= 2;
      chargeDecoded(size - have);
    }
    return original.call(this, requested);
  };
  patched.growth = true;
}

/**
 * pdf.js's Brotli decoder writes its whole output at once, past `ensureBuffer`: it is replaced by zlib's (native,
 * faster), capped like our inflate and charged to the budget. A stream zlib cannot read fails as pdf.js's would.
 */
function patchBrotli(proto: BrotliStreamLike): void {
  proto.readBlock = function readBlock(this: BrotliStreamLike): void {
    const input = this.stream.getBytes();
    let out: Buffer;
    try {
      out = brotliDecompressSync(input, { maxOutputLength: Math.max(1, Math.min(MAX_STREAM_BYTES, decodeBytesLeft())) });
    } catch (e) {
      if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') spendDecodeBudget();
      throw e;
    }
    chargeDecoded(out.byteLength);
    this.buffer = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    this.bufferLength = out.byteLength;
    this.eof = true;
  };
  patched.brotli = true;
}

/** The prototype that defines both the decoders' growth and their DecompressionStream path: DecodeStream's. */
function decodeStreamPrototype(instance: object): DecodeStreamLike | undefined {
  for (let p = Object.getPrototypeOf(instance); p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    if (Object.hasOwn(p, 'ensureBuffer') && Object.hasOwn(p, 'asyncGetBytesFromDecompressionStream')) return p as DecodeStreamLike;
  }
  return undefined;
}

const disarm = () => delete (Object.prototype as Record<string, unknown>)[TRAP];

function armTrap(): void {
  if (Object.hasOwn(Object.prototype, TRAP)) return;
  Object.defineProperty(Object.prototype, TRAP, {
    configurable: true,
    enumerable: false,
    set(this: object, value: unknown) {
      Object.defineProperty(this, TRAP, { value, writable: true, enumerable: true, configurable: true });
      const proto = decodeStreamPrototype(this);
      if (!proto) return;
      if (!patched.growth) patchGrowth(proto);
      const own = Object.getPrototypeOf(this) as BrotliStreamLike;
      if (!patched.brotli && own.constructor?.name === 'BrotliStream' && Object.hasOwn(own, 'readBlock')) patchBrotli(own);
      if (patched.growth && patched.brotli) disarm();
    },
  });
}

/** One page whose content is two streams, one Flate-encoded and one Brotli-encoded: reading it builds both decoders. */
function probePdf(): Uint8Array {
  const flate = deflateSync(Buffer.from('BT /F1 12 Tf 72 720 Td (probe) Tj ET', 'latin1'));
  const brotli = brotliCompressSync(Buffer.from('BT ET', 'latin1'));
  const objs: (string | Buffer)[][] = [
    ['<< /Type /Catalog /Pages 2 0 R >>'],
    ['<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
    ['<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents [4 0 R 5 0 R] >>'],
    [`<< /Length ${flate.length} /Filter /FlateDecode >>\nstream\n`, flate, '\nendstream'],
    [`<< /Length ${brotli.length} /Filter /BrotliDecode >>\nstream\n`, brotli, '\nendstream'],
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  let at = parts[0]!.length;
  const offsets: number[] = [];
  objs.forEach((pieces, i) => {
    offsets.push(at);
    for (const piece of [`${i + 1} 0 obj\n`, ...pieces, '\nendobj\n']) {
      const b = typeof piece === 'string' ? Buffer.from(piece, 'latin1') : piece;
      parts.push(b);
      at += b.length;
    }
  });
  const xref = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(Buffer.from(`xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${xref}trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`, 'latin1'));
  return new Uint8Array(Buffer.concat(parts));
}

let installing: Promise<void> | undefined;

/**
 * Wraps pdf.js's decoders (once per thread) by reading the built-in probe; `open(bytes)` is how the caller opens a
 * PDF (the same options as for real documents). Rejects, and keeps rejecting, when pdf.js no longer matches.
 */
export function installDecodeBudget(open: (bytes: Uint8Array) => Promise<{ getPage(n: number): Promise<{ getTextContent(): Promise<unknown> }>; destroy(): Promise<void> }>): Promise<void> {
  if (patched.growth && patched.brotli) return Promise.resolve();
  installing ??= (async () => {
    armTrap();
    try {
      const doc = await open(probePdf());
      try {
        await (await doc.getPage(1)).getTextContent();
      } finally {
        await doc.destroy();
      }
    } finally {
      disarm();
    }
    if (!patched.growth || !patched.brotli) {
      throw new Error(`pdf.js decoders could not be bounded (${patched.growth ? 'BrotliStream' : 'DecodeStream'} not found): PDF reading is disabled`);
    }
  })();
  // A failure is kept: every later PDF is refused the same way, at once.
  installing.catch(() => {});
  return installing;
}

/** Whether pdf.js's decoders are wrapped (tests). */
export function decodeBudgetInstalled(): boolean {
  return patched.growth && patched.brotli;
}
