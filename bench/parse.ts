/**
 * `npm run bench` (after bench/run.ts): document conversion speed against the reference tools, in the same run.
 *
 * - PDF: pages per second of our converter in ONE worker process (a `ParsePool` of size 1, i.e. one core, the same
 *   path the server uses) against `pdftotext` (poppler-utils) on the same corpus PDFs, for each PDF engine the
 *   converter has (`src/parse/pdf/engine.ts`: PDFium alone since issue 36; pdf.js's figures from the evaluation are
 *   in docs/benchmarks.md), each in a pool of its own, its rounds alternating with pdftotext's. Goal: ≥ 0.5 of
 *   pdftotext. Each pool reports its worker process's peak RSS (PDFium's WebAssembly memory included), and this
 *   process's.
 * - .docx: files per second of our converter (same one-worker pool) against `pandoc -t gfm`. Goal: ≥ 5× pandoc.
 * - HTML hostile nesting: one 4.8 MB page of quotes nested 500 deep against a page of flat paragraphs of the same
 *   size, milliseconds each in the same pool, alternating. Goal: within 4× of the flat page (linear in the size).
 *
 * Both reference tools are Debian packages: when one is missing the script runs
 * `apt-get install -y --no-install-recommends poppler-utils pandoc` (root only) and skips that comparison with a
 * printed reason when that fails. It installs nothing else. The reference tools are spawned once per file, as they
 * are used (their process start is part of their cost). With `taskset`, both sides run on CPU 0 (this process and
 * its worker process, and each tool process), the tools at the workers' niceness so that both get the same share of
 * a core other processes also want.
 * Rounds alternate ours / theirs, the PDF comparison's rounds first, then the .docx one's; each side's median round
 * is reported. Files: ../shared/corpus/parse (skipped with a reason when absent). BENCH_PARSE_ROUNDS (default 5)
 * sets the rounds; BENCH_PARSE_ONLY=pdf (or docx, or html: the nesting row) runs one comparison only.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ParsePool as Pool } from '../src/parse/pool.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = path.resolve(root, '../shared/corpus/parse');
const ROUNDS = Math.max(1, Number(process.env.BENCH_PARSE_ROUNDS ?? 5));
const WARM_PDF_ROUNDS = 3;
const ONLY = process.env.BENCH_PARSE_ONLY;
const PDF_GOAL = 0.5;
const runPdf = !ONLY || ONLY === 'pdf';
const runDocx = !ONLY || ONLY === 'docx';
const runHtml = !ONLY || ONLY === 'html';
const taskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
/** The reference tools run at the conversion workers' priority (`WORKER_NICENESS`), set once the pool is loaded. */
let niceness = 0;
const pinned = (cmd: string[]) => [...(niceness ? ['nice', '-n', String(niceness)] : []), ...(taskset ? ['taskset', '-c', '0', ...cmd] : cmd)];

const has = (bin: string) => spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0;

/** Installs the two Debian packages when a tool is missing; returns why a tool stays unavailable, if it does. */
function ensureTools(): Record<'pdftotext' | 'pandoc', string | undefined> {
  if (!has('pdftotext') || !has('pandoc')) {
    if (typeof process.getuid === 'function' && process.getuid() !== 0) {
      console.log('bench:parse: pdftotext or pandoc missing and not running as root: not installing them.');
    } else {
      console.log('bench:parse: installing poppler-utils and pandoc (apt-get) …');
      let r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'poppler-utils', 'pandoc'], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
      if (r.status !== 0) {
        // The package lists may be missing on a fresh image: refresh them once and retry.
        spawnSync('apt-get', ['update'], { stdio: 'ignore' });
        r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'poppler-utils', 'pandoc'], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
      }
      if (r.status !== 0) console.log(`bench:parse: apt-get install failed (${String(r.stderr ?? r.error ?? '').trim().split('\n').pop()}).`);
    }
  }
  return {
    pdftotext: has('pdftotext') ? undefined : 'pdftotext (poppler-utils) is not installed',
    pandoc: has('pandoc') ? undefined : 'pandoc is not installed',
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function runTool(cmd: string[]): void {
  const [bin, ...args] = pinned(cmd);
  const r = spawnSync(bin, args, { stdio: ['ignore', 'ignore', 'ignore'], maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${cmd.join(' ')} failed (${r.status ?? r.error})`);
}

async function main(): Promise<void> {
  if (!fs.existsSync(corpus)) {
    console.log(`bench:parse skipped: ${corpus} is absent (the shared corpus is not next to this checkout).`);
    return;
  }
  const missing = ensureTools();
  const pdfDir = path.join(corpus, 'pdf');
  const pdfs = fs
    .readdirSync(pdfDir)
    .filter((n) => n.endsWith('.pdf'))
    .sort()
    .map((n) => ({ name: n, file: path.join(pdfDir, n), bytes: new Uint8Array(fs.readFileSync(path.join(pdfDir, n))) }));
  const docxName = 'markitdown-test.docx';
  const docxFile = path.join(corpus, 'docx', docxName);
  const docx = new Uint8Array(fs.readFileSync(docxFile));

  // Our side on the same single core as the reference tools: this process and its threads (the pool's worker is
  // created after this, so it inherits the affinity).
  if (taskset) spawnSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  // The built pool (as the server runs it: its worker is plain JS) when `npm run bench` has built dist/, else (or with
  // BENCH_PARSE_SOURCE=1) the source.
  const built = path.join(root, 'dist/parse/pool.js');
  const useBuilt = fs.existsSync(built) && !process.env.BENCH_PARSE_SOURCE;
  const { ParsePool, WORKER_NICENESS } = (await import(useBuilt ? pathToFileURL(built).href : '../src/parse/pool.js')) as { ParsePool: typeof Pool; WORKER_NICENESS: number };
  niceness = WORKER_NICENESS;
  // One PDF engine now (PDFium); pdf.js's row, measured beside it in one run while it was evaluated (issue 36), is in
  // docs/benchmarks.md.
  const pdfEngines = runPdf ? ['PDFium'] : [];
  const poolFor = () => new ParsePool({ size: 1, timeoutMs: 120_000 });
  const f = (x: number) => x.toFixed(1);
  const MB = 1024 * 1024;
  const peakRss = (pid: number | 'self' = 'self') => Number(/^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) * 1024;
  /** The worker process of a pool of one (read before the pool closes). */
  const workerPid = (pool: Pool) => (pool as unknown as { slots: { worker: { pid?: number } }[] }).slots[0]?.worker.pid;
  const rows: string[] = [];
  let pages = 0;
  for (const engine of pdfEngines) {
    const pool = poolFor();
    try {
      // Warm-up: the worker's imports and JIT, and the tools' page cache. A server's pool lives long, so what is
      // measured is its steady state: pinned to one core, pdf.js's JIT takes about three passes over the corpus to
      // settle (the first pass runs at about a third of the speed).
      pages = 0;
      for (const p of pdfs) pages += (await pool.convert(p.bytes, 100)).metadata.numPages ?? 0;
      for (let r = 1; r < WARM_PDF_ROUNDS; r++) for (const p of pdfs) await pool.convert(p.bytes, 100);
      if (!missing.pdftotext) for (const p of pdfs) runTool(['pdftotext', '-q', p.file, '-']);
      const ours: number[] = [];
      const theirs: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        let t = performance.now();
        for (const p of pdfs) await pool.convert(p.bytes, 100);
        ours.push(pages / ((performance.now() - t) / 1000));
        if (!missing.pdftotext) {
          t = performance.now();
          for (const p of pdfs) runTool(['pdftotext', '-q', p.file, '-']);
          theirs.push(pages / ((performance.now() - t) / 1000));
        }
      }
      const pid = workerPid(pool);
      const memory = `worker peak RSS ${pid ? Math.round(peakRss(pid) / MB) : '?'} MB; this process ${Math.round(peakRss() / MB)} MB`;
      if (theirs.length) {
        const ratio = median(ours) / median(theirs);
        rows.push(`| PDF pages/s, ${engine} | ${f(median(ours))} | pdftotext ${f(median(theirs))} | ${ratio.toFixed(2)} | ≥ ${PDF_GOAL.toFixed(2)} ${ratio >= PDF_GOAL ? 'met' : 'NOT met'} | ${memory} |`);
      } else rows.push(`| PDF pages/s, ${engine} | ${f(median(ours))} | skipped: ${missing.pdftotext} | | ≥ ${PDF_GOAL.toFixed(2)} | ${memory} |`);
    } finally {
      await pool.close();
    }
  }
  const pool = runDocx || runHtml ? poolFor() : undefined;
  try {
    if (pool && runDocx) await pool.convert(docx, 100);
    if (runDocx && !missing.pandoc) runTool(['pandoc', '-f', 'docx', '-t', 'gfm', docxFile]);

    console.log(`\n## Document conversion (${pdfs.length} corpus PDFs, ${pages} pages; ${docxName}, ${docx.length} bytes; ${ROUNDS} rounds, medians)`);
    const DOCX_N = 20;
    const oursDocx: number[] = [];
    const pandocDocx: number[] = [];
    // Each comparison's rounds run together, ours and the tool's alternating: a PDF round right after twenty .docx
    // conversions in the same worker measured about a quarter slower (29.0 pages/s against 39.1 alone in one
    // stop's runs), which is the mix, not PDF conversion.
    for (let r = 0; pool && runDocx && r < ROUNDS; r++) {
      let t = performance.now();
      for (let i = 0; i < DOCX_N; i++) await pool.convert(docx, 100);
      oursDocx.push(DOCX_N / ((performance.now() - t) / 1000));
      if (!missing.pandoc) {
        t = performance.now();
        for (let i = 0; i < 3; i++) runTool(['pandoc', '-f', 'docx', '-t', 'gfm', docxFile]);
        pandocDocx.push(3 / ((performance.now() - t) / 1000));
      }
    }
    // Hostile nesting (issue 36): a 4.8 MB page of quotes 500 deep, each opening with text, against a page of the
    // same size of plain paragraphs, alternating. Written in full, each level would prefix every line inside it
    // (the square of the depth: 89 s); the writer keeps 16 levels, so the nested page costs a small multiple of
    // the flat one.
    const nestedMs: number[] = [];
    const flatMs: number[] = [];
    const HTML_BYTES = 4.8e6;
    const quoteUnit = '<blockquote>said '.repeat(500) + 'innermost' + '</blockquote>'.repeat(500);
    const nested = new TextEncoder().encode(`<html><body>${quoteUnit.repeat(Math.ceil(HTML_BYTES / quoteUnit.length))}</body></html>`);
    const flat = new TextEncoder().encode(`<html><body>${'<p>said innermost said</p>'.repeat(Math.ceil(HTML_BYTES / 26))}</body></html>`);
    for (let r = 0; pool && runHtml && r < ROUNDS; r++) {
      for (const [page, into] of [[nested, nestedMs], [flat, flatMs]] as const) {
        const t = performance.now();
        await pool.convert(page, 100);
        into.push(performance.now() - t);
      }
    }
    console.log('\n| measure | quarry (1 worker) | reference | ratio | goal | memory |');
    console.log('|---|---|---|---|---|---|');
    if (!runPdf) console.log('| PDF pages/s | skipped (BENCH_PARSE_ONLY) | | | | |');
    for (const row of rows) console.log(row);
    if (!runDocx) console.log('| .docx files/s | skipped (BENCH_PARSE_ONLY) | | | | |');
    else if (pandocDocx.length) {
      const ratio = median(oursDocx) / median(pandocDocx);
      console.log(`| .docx files/s | ${f(median(oursDocx))} | pandoc -t gfm ${f(median(pandocDocx))} | ${ratio.toFixed(1)}× | ≥ 5× ${ratio >= 5 ? 'met' : 'NOT met'} | |`);
    } else console.log(`| .docx files/s | ${f(median(oursDocx))} | skipped: ${missing.pandoc} | | ≥ 5× | |`);
    if (!runHtml) console.log('| HTML nested 500 deep, ms | skipped (BENCH_PARSE_ONLY) | | | | |');
    else {
      const ratio = median(nestedMs) / median(flatMs);
      console.log(`| HTML ${(nested.length / 1e6).toFixed(1)} MB of quotes nested 500 deep, ms | ${Math.round(median(nestedMs))} | the same size of flat paragraphs ${Math.round(median(flatMs))} | ${ratio.toFixed(1)}× | ≤ 4× ${ratio <= 4 ? 'met' : 'NOT met'} | |`);
    }
    const v = (bin: string, arg: string) => String(spawnSync(bin, [arg], { encoding: 'utf8' }).stderr || spawnSync(bin, [arg], { encoding: 'utf8' }).stdout || '').split('\n')[0].trim();
    console.log(`\nreference versions: ${missing.pdftotext ? '-' : v('pdftotext', '-v')}; ${missing.pandoc ? '-' : v('pandoc', '--version')}; ${taskset ? 'both sides pinned to CPU 0' : 'not pinned (no taskset)'}, at niceness ${niceness}`);
  } finally {
    await pool?.close();
  }
}

await main();
