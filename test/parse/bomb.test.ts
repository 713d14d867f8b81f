/**
 * Issue 30.1, kept through the move to PDFium (issue 36): a PDF whose compressed streams inflate past every limit.
 * The server runs as a child process, so its memory is that of its process tree, its conversion workers included
 * (VmRSS and the VmHWM peak in /proc/<pid>/status of each); the bombs are made here, as the probe made them: one page whose FlateDecode content
 * stream inflates to 500 MB of zeros (a 518 KB file), the same through two Flate filters (1.5 GB from under 2 KB),
 * a metadata stream, and a Brotli content stream. The Flate ones must be a clear 400 `invalidRequest` in under 2 s
 * (the stream budget refuses them before PDFium inflates anything: `src/parse/pdf/stream-budget.ts`); PDFium reads
 * no Brotli, so that page is read as empty, also in under 2 s. The server's memory never goes more than 300 MB
 * above its idle size (one baseline for the whole file, the peak read from the kernel), PDFium's WebAssembly heap
 * included; a paying caller's small PDF sent behind keyless bombs is answered before the last.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Accounts } from '../../src/identity/accounts.js';
import { keyCrypto, loadSecret } from '../../src/identity/secret.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { post, type CallResponse } from '../helpers/gateway.js';
import { exited, startServerProcess } from '../scale/helpers.js';
import { b64, brotliZeros, deflatedZeros, pdf, pdfOf } from './files.js';

const MB = 1024 * 1024;

const PAGE = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>';
const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';

/** One page whose content stream is `data` under `filter`. */
const contentBomb = (data: Buffer, filter = '/FlateDecode') =>
  pdfOf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', PAGE, { dict: `/Filter ${filter}`, data }, FONT]);

/** Bytes that deflate about as little as text (a fixed pseudo-random sequence over the printable range). */
const noise = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => 32 + ((i * 2654435761) >>> 7) % 95));

/** One ordinary page, and an XMP metadata stream that is the bomb. */
const metadataBomb = (data: Buffer) =>
  pdfOf([
    '<< /Type /Catalog /Pages 2 0 R /Metadata 6 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    PAGE,
    { dict: '', data: Buffer.from('BT /F1 12 Tf 72 720 Td (A small page) Tj ET', 'latin1') },
    FONT,
    { dict: '/Type /Metadata /Subtype /XML /Filter /FlateDecode', data },
  ]);

/** A process and its descendants (the server and its conversion workers), as the kernel lists them. */
function treeOf(pid: number): number[] {
  const children = fs
    .readdirSync(`/proc/${pid}/task`)
    .flatMap((task) => {
      try {
        return fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
      } catch {
        return []; // the thread or process ended meanwhile
      }
    });
  return [pid, ...children.flatMap(treeOf)];
}

/**
 * Resident memory of a process with its descendants, and the sum of their peaks since the last reset, in bytes. A
 * worker replaced since then takes its peak with it; the bombs here are refused without replacing one.
 */
function memoryOf(pid: number): { rss: number; peak: number } {
  let rss = 0;
  let peak = 0;
  for (const p of treeOf(pid)) {
    const status = fs.readFileSync(`/proc/${p}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    rss += kb('VmRSS');
    peak += kb('VmHWM');
  }
  return { rss, peak };
}

/** Restarts the kernel's peak count (VmHWM) from the current resident size, for a process and its descendants (ours). */
const resetPeak = (pid: number) => {
  for (const p of treeOf(pid)) fs.writeFileSync(`/proc/${p}/clear_refs`, '5');
};

const SMALL = pdf([{ lines: [{ text: 'A paying customer’s invoice', size: 16 }, { text: 'Total due: 42 EUR' }] }]);

describe.skipIf(process.platform !== 'linux')('a PDF that inflates past every limit (issue 30.1)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bomb-'));
  let server: { proc: ChildProcess; url: string };
  let apiKey: string;
  /** The server's resident memory once warm, before any bomb: every peak is measured from it. */
  let idle: number;
  const parse = (file: Uint8Array, key?: string): Promise<CallResponse & { ms: number }> => {
    const t = performance.now();
    return post(server.url, '/v1/web/parse', { file: b64(file) }, { key }).then((r) => ({ ...r, ms: performance.now() - t }));
  };
  const aboveIdle = () => memoryOf(server.proc.pid!).peak - idle;

  beforeAll(async () => {
    const store = openSqliteStore(dataDir);
    apiKey = (await new Accounts(store, keyCrypto(loadSecret(dataDir))).createAccount({ credits: 100 })).apiKey;
    await store.close();
    // One worker with a 64 MB heap, as the probe ran it: decoded bytes were never counted against the heap.
    server = await startServerProcess({
      QUARRY_DATA_DIR: dataDir,
      QUARRY_PARSE_WORKERS: '1',
      QUARRY_PARSE_MEMORY_MB: '64',
      QUARRY_KEYLESS_RATE_LIMIT_PER_MINUTE: '1000',
      QUARRY_MAX_IN_FLIGHT: '100',
    });
    // Warm: the worker has loaded PDFium and read a PDF, as a server that has been up a while has.
    for (const key of [undefined, apiKey]) expect((await parse(SMALL, key)).status).toBe(200);
    idle = memoryOf(server.proc.pid!).rss;
    resetPeak(server.proc.pid!);
  }, 60_000); // a server process starts and converts twice first
  afterAll(async () => {
    if (server && server.proc.exitCode === null) {
      server.proc.kill('SIGKILL');
      await exited(server.proc);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const bombs: [string, () => Uint8Array, 'refused' | 'unread'][] = [
    ['a content stream inflating to 500 MB (518 KB file)', () => contentBomb(deflatedZeros(500)), 'refused'],
    ['a content stream inflating to 500 MB behind 64 KB of text-like data that compresses little', () => contentBomb(deflatedZeros(500, noise(64 * 1024))), 'refused'],
    ['a content stream through two Flate filters inflating to 1.5 GB (under 2 KB)', () => contentBomb(zlib.deflateSync(deflatedZeros(1536)), '[/FlateDecode /FlateDecode]'), 'refused'],
    ['a metadata stream inflating to 500 MB', () => metadataBomb(deflatedZeros(500)), 'refused'],
    ['a Brotli content stream inflating to 500 MB (PDFium has no Brotli decoder: the page reads as empty)', () => contentBomb(brotliZeros(500), '/BrotliDecode'), 'unread'],
  ];

  it.each(bombs)('%s: answered in under 2 s (400 invalidRequest where refused), the server under 300 MB above idle', async (name, make, outcome) => {
    const r = await parse(make());
    console.log(`${name}: ${r.status} in ${Math.round(r.ms)} ms; server peak so far ${Math.round(aboveIdle() / MB)} MB above idle (${Math.round(idle / MB)} MB)`);
    if (outcome === 'refused') {
      expect(r.status, r.text).toBe(400);
      expect(r.json.error).toMatchObject({ code: 'invalidRequest', retryable: false });
      expect(r.json.error.message).toMatch(/safety limit/);
    } else {
      expect(r.status, r.text).toBe(200);
      expect(r.json.data.markdown ?? '').not.toMatch(/\w/);
    }
    expect(r.ms).toBeLessThan(2000);
    expect(aboveIdle()).toBeLessThan(300 * MB);
  });

  it("a paying caller's small PDF sent behind keyless files is handed the worker before the keyless ones waiting", async () => {
    // Bombs are now refused in milliseconds; a long legitimate file is what can still hold the only worker.
    // Each a file of its own: identical calls would share one conversion.
    const long = (n: number) => pdf(Array.from({ length: 40 }, (_, p) => ({ lines: Array.from({ length: 40 }, (_, i) => ({ text: `File ${n} page ${p + 1} line ${i + 1}: the quick brown fox` })) })));
    const finished: string[] = [];
    const track = <T>(name: string, p: Promise<T>) => p.then((r) => (finished.push(name), r));
    // The first keyless file takes the worker and three wait; the paid file, which reaches the pool a little later
    // (its key is looked up, its credit held), goes ahead of the keyless files still waiting.
    const keyless = [1, 2, 3, 4].map((i) => track(`keyless ${i}`, parse(long(i))));
    const paid = await track('paid', parse(SMALL, apiKey));
    const done = await Promise.all(keyless);
    console.log(`finished: ${finished.join(', ')}; the paid file took ${Math.round(paid.ms)} ms, each keyless one ${done.map((r) => Math.round(r.ms)).join(', ')} ms`);
    expect(paid.status, paid.text).toBe(200);
    expect(paid.json.data.markdown).toContain('Total due: 42 EUR');
    for (const r of done) expect(r.status, r.text).toBe(200);
    expect(finished.indexOf('paid')).toBeLessThan(finished.indexOf('keyless 3'));
    expect(aboveIdle()).toBeLessThan(300 * MB);
  });
});
