/**
 * A guarded zip reader for OOXML. Reads the central directory itself and checks it before inflating anything:
 * entry count, unsafe names, declared total size, declared compressed vs uncompressed size (deflate never expands
 * much, so a larger compressed size is a lying header), per-entry ratio. Entries are then inflated in 64 KiB pushes
 * against a budget (the declared size and the global budget), so a header that lies about sizes stops early.
 */
import { Inflate } from 'fflate';
import { LIMITS, ParseError } from './types.js';

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  size: number;
  crc: number;
  localOffset: number;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(parts: Uint8Array[]): number {
  let c = 0xffffffff;
  for (const p of parts) for (let i = 0; i < p.length; i++) c = CRC_TABLE[(c ^ p[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const corrupt = (why: string) => new ParseError('corrupt', `The file is corrupt or truncated (${why}).`);
const bomb = (why: string) => new ParseError('limit', `The file exceeds the safety limits for compressed documents (${why}).`);

export class ZipReader {
  readonly entries = new Map<string, ZipEntry>();
  private inflated = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.readDirectory();
  }

  private readDirectory(): void {
    const b = this.bytes;
    const v = this.view;
    let eocd = -1;
    for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 65535); i--) {
      if (v.getUint32(i, true) === 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw corrupt('no zip central directory');
    const count = v.getUint16(eocd + 10, true);
    const dirSize = v.getUint32(eocd + 12, true);
    const dirOffset = v.getUint32(eocd + 16, true);
    if (count === 0xffff || dirOffset === 0xffffffff) throw bomb('zip64 archives are not accepted');
    if (count > LIMITS.zipEntries) throw bomb(`${count} entries, at most ${LIMITS.zipEntries}`);
    if (dirOffset + dirSize > eocd) throw corrupt('central directory out of bounds');
    let p = dirOffset;
    let total = 0;
    const decoder = new TextDecoder();
    for (let i = 0; i < count; i++) {
      if (p + 46 > b.length || v.getUint32(p, true) !== 0x02014b50) throw corrupt('bad central directory entry');
      const flags = v.getUint16(p + 8, true);
      const method = v.getUint16(p + 10, true);
      const crc = v.getUint32(p + 16, true);
      const compressedSize = v.getUint32(p + 20, true);
      const size = v.getUint32(p + 24, true);
      const nameLen = v.getUint16(p + 28, true);
      const extraLen = v.getUint16(p + 30, true);
      const commentLen = v.getUint16(p + 32, true);
      const localOffset = v.getUint32(p + 42, true);
      const name = decoder.decode(b.subarray(p + 46, p + 46 + nameLen));
      p += 46 + nameLen + extraLen + commentLen;
      if (name.startsWith('/') || name.split(/[\\/]/).includes('..')) throw bomb(`unsafe entry name ${JSON.stringify(name.slice(0, 80))}`);
      if (flags & 1) throw new ParseError('encrypted', 'The file is encrypted (password-protected zip entries); send it without a password.');
      if (method !== 0 && method !== 8) throw corrupt(`unsupported compression method ${method}`);
      if (method === 0 && compressedSize !== size) throw bomb('stored entry whose sizes disagree');
      if (compressedSize > size * 1.01 + 1024) throw bomb('an entry declares more compressed than uncompressed bytes');
      if (size > 1024 * 1024 && size / Math.max(1, compressedSize) > LIMITS.zipEntryRatio) {
        throw bomb(`an entry expands more than ${LIMITS.zipEntryRatio} times`);
      }
      if (localOffset + 30 + compressedSize > dirOffset) throw corrupt('entry data out of bounds');
      total += size;
      if (total > LIMITS.zipTotalBytes) throw bomb(`more than ${LIMITS.zipTotalBytes / 1024 / 1024} MB uncompressed`);
      this.entries.set(name, { name, method, flags, compressedSize, size, crc, localOffset });
    }
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Inflates one entry, streaming against its declared size and the global budget; checks the CRC. */
  read(name: string): Uint8Array | undefined {
    const e = this.entries.get(name);
    if (!e) return undefined;
    const v = this.view;
    const p = e.localOffset;
    if (v.getUint32(p, true) !== 0x04034b50) throw corrupt('bad local header');
    const start = p + 30 + v.getUint16(p + 26, true) + v.getUint16(p + 28, true);
    const data = this.bytes.subarray(start, start + e.compressedSize);
    if (data.length < e.compressedSize) throw corrupt('entry data cut short');
    let parts: Uint8Array[];
    let got = 0;
    if (e.method === 0) {
      parts = [data];
      got = data.length;
    } else {
      parts = [];
      const inflate = new Inflate((chunk) => {
        got += chunk.length;
        if (got > e.size) throw bomb('an entry inflates beyond its declared size');
        if (this.inflated + got > LIMITS.inflateBudgetBytes) throw bomb('inflate budget exceeded');
        parts.push(chunk);
      });
      try {
        const step = 64 * 1024;
        for (let i = 0; i < data.length; i += step) inflate.push(data.subarray(i, i + step), i + step >= data.length);
      } catch (err) {
        if (err instanceof ParseError) throw err;
        throw corrupt('invalid deflate data');
      }
    }
    if (got !== e.size) throw corrupt(`entry ${name} is shorter than declared`);
    if (crc32(parts) !== e.crc) throw corrupt(`entry ${name} fails its checksum`);
    this.inflated += got;
    if (parts.length === 1) return parts[0];
    const out = new Uint8Array(got);
    let o = 0;
    for (const part of parts) {
      out.set(part, o);
      o += part.length;
    }
    return out;
  }

  text(name: string): string | undefined {
    return utf8(this.read(name));
  }

  private readonly taken = new Set<string>();

  /**
   * A part the document names by relationship (a sheet, a slide, a chart, a diagram, an imported chunk, comments),
   * read the first time only: a legitimate file names each such part once, and a hostile one naming one part
   * thousands of times would otherwise have it inflated and converted as often (2,000 references to one chart:
   * 11 s). An external relationship names no entry.
   */
  readOnce(rel: { target: string; external?: boolean } | undefined): Uint8Array | undefined {
    if (!rel || rel.external || this.taken.has(rel.target)) return undefined;
    this.taken.add(rel.target);
    return this.read(rel.target);
  }

  /** `readOnce` as UTF-8 text. */
  textOnce(rel: { target: string; external?: boolean } | undefined): string | undefined {
    return utf8(this.readOnce(rel));
  }
}

const utf8 = (b: Uint8Array | undefined) => (b ? new TextDecoder('utf-8').decode(b) : undefined);
