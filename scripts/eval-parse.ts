/**
 * `npm run eval:parse`: scores the converter on ../shared/corpus/parse (issue 3). Per document: share of the
 * expected text found in order (words, phrase by phrase), headings recognised as headings (any level), table cells
 * found in the same table row (adjacent cell pairs); files without an expected .md are scored on the content
 * strings of markitdown-vectors.json (conventions skipped; must_not_include must be absent). Prints a per-format
 * table and a total. Compares content, not bytes. Skips with a reason when ../shared is absent.
 *
 * Flags: `--format pdf` (repeatable) scores only those formats; `--verbose` lists, under each document, the expected
 * headings not found as headings and the expected cell pairs not found in one row (where the points were lost), and
 * the headings and paragraph splits and joins counted beside the score (see `paragraphMisses`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertFile } from '../src/parse/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../shared/corpus/parse');

export interface Score {
  text: number | null;
  headings: number | null;
  cells: number | null;
}

export const norm = (s: string) =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\\(.)/g, '$1')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<br\s*\/?>|<\/?su[bp]>/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`~#|>]+/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/[^\p{L}\p{N}%$€£.,:;@/+-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const stripLine = (l: string) => l.replace(/^\s*(#{1,6}\s|[-*+]\s|\d+[.)]\s|>\s?)/, '');

function phrases(expected: string): string[] {
  const out: string[] = [];
  let above: string[] = [];
  for (const line of expected.split('\n')) {
    if (/^\s*\|?\s*:?-{2,}/.test(line)) continue;
    if (line.includes('|')) {
      const raw = line.split('|').map((c) => norm(c));
      // docling repeats a merged cell's text in every spanned slot (our convention writes it once): count a
      // multi-word cell once per row, and not again when it repeats the cell above it.
      const cells = raw.filter((c, i) => c && !(c.includes(' ') && above[i] === c));
      above = raw;
      out.push(...new Set(cells));
    } else {
      above = [];
      const n = norm(stripLine(line));
      if (n) out.push(n);
    }
  }
  return out;
}

/** Longest common subsequence of words, two rows of Int32 (O(n·m) time, O(m) memory). */
function lcs(a: string[], b: string[]): number {
  const ids = new Map<string, number>();
  const id = (w: string) => ids.get(w) ?? (ids.set(w, ids.size), ids.size - 1);
  const A = Int32Array.from(a, id);
  const B = Int32Array.from(b, id);
  let prev = new Int32Array(B.length + 1);
  let cur = new Int32Array(B.length + 1);
  for (let i = 1; i <= A.length; i++) {
    const x = A[i - 1];
    for (let j = 1; j <= B.length; j++) cur[j] = x === B[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    [prev, cur] = [cur, prev];
  }
  return prev[B.length];
}

function textInOrder(expected: string, actual: string): number | null {
  const ps = phrases(expected);
  // Words only: a token without a letter or digit (leader dots, a lone dash) carries no text.
  const isWord = (w: string) => /[\p{L}\p{N}]/u.test(w);
  const want = ps.join(' ').split(' ').filter(isWord);
  const have = norm(actual).split(' ').filter(isWord);
  if (!want.length) return null;
  if (want.length * have.length <= 3e8) return lcs(want, have) / want.length;
  return phraseInOrder(ps, actual);
}

function phraseInOrder(ps: string[], actual: string): number | null {
  const hay = norm(actual);
  let cursor = 0;
  let total = 0;
  let found = 0;
  for (const p of ps) {
    const words = p.split(' ');
    total += words.length;
    const at = hay.indexOf(p, cursor);
    if (at >= 0) {
      found += words.length;
      cursor = at + p.length;
      continue;
    }
    // Word by word, each after the previous, within a window.
    let c = cursor;
    for (const w of words) {
      const i = hay.indexOf(w, c);
      if (i >= 0 && i - c < 400) {
        found++;
        c = i + w.length;
      }
    }
    cursor = Math.max(cursor, c === cursor ? cursor : c);
  }
  return total ? found / total : null;
}

/**
 * An expected heading is found when one of ours holds the same text, contains it or is contained in it (beyond
 * 3 characters), or holds all of its words and at most one more: a section number set before the title instead of
 * after it ("1 Introduction" for "Introduction 1"), or joined to it where the expected file splits it ("5" and
 * "Closing" for "5 Closing").
 */
function headingMisses(expected: string, actual: string): { want: string[]; missed: string[]; extra: string[] } {
  const headings = (md: string) => md.split('\n').filter((l) => /^#{1,6}\s/.test(l)).map((l) => norm(l)).filter(Boolean);
  const want = headings(expected);
  const have = headings(actual);
  const words = (s: string) => s.split(' ');
  const holds = (h: string, w: string) => {
    const hw = words(h);
    const ww = words(w);
    return hw.length <= ww.length + 1 && ww.every((x) => hw.includes(x));
  };
  const same = (h: string, w: string) => h === w || (h.includes(w) && w.length > 3) || (w.includes(h) && h.length > 3) || holds(h, w);
  // Ours that match no expected heading: the price of recall, which the score itself does not count.
  return { want, missed: want.filter((w) => !have.some((h) => same(h, w))), extra: have.filter((h) => !want.some((w) => same(h, w))) };
}

function headingScore(expected: string, actual: string): number | null {
  const { want, missed } = headingMisses(expected, actual);
  return want.length ? (want.length - missed.length) / want.length : null;
}

/** A cell's content: leader dots ("Notices . . . . vii") and punctuation at its edges carry none. */
const cellNorm = (c: string) =>
  norm(c)
    .replace(/(?:\s?\.){3,}/g, ' ')
    .replace(/^[\s.,:;]+|[\s.,:;]+$/g, '')
    .replace(/\s+/g, ' ');

function rows(md: string): string[][] {
  return md
    .split('\n')
    .filter((l) => l.trim().startsWith('|') && !/^\s*\|?\s*:?-{2,}/.test(l))
    .map((l) => l.replace(/\\\|/g, '\u0000').split('|').map((c) => cellNorm(c.replace(/\u0000/g, '|'))));
}

function cellMisses(expected: string, actual: string): { pairs: [string, string][]; missed: [string, string][] } {
  const pairs: [string, string][] = [];
  for (const r of rows(expected)) {
    const cells = [...new Set(r.filter(Boolean))];
    for (let i = 0; i + 1 < cells.length; i++) pairs.push([cells[i], cells[i + 1]]);
  }
  const have = rows(actual).map((r) => r.join(' | '));
  return { pairs, missed: pairs.filter(([a, b]) => !have.some((h) => h.includes(a) && h.includes(b))) };
}

function cellScore(expected: string, actual: string): number | null {
  const { pairs, missed } = cellMisses(expected, actual);
  return pairs.length ? (pairs.length - missed.length) / pairs.length : null;
}

/**
 * Paragraph structure, outside the score (a diagnostic, as headings not expected are): the expected file's plain
 * paragraphs of eight words or more (no heading, table, list, quote, code or marker) whose opening and closing words
 * we write in different blocks (split: a wide line spacing once made each line a paragraph), and pairs of
 * consecutive ones whose closing and opening words we write in one block (joined).
 */
export function paragraphMisses(expected: string, actual: string): { split: string[]; joined: string[] } {
  const plain = (b: string) => !/^\s*(#{1,6}\s|\||[-*+]\s|\d+[.)]\s|>|<!--|```)/.test(b);
  const paras = expected
    .split(/\n\s*\n/)
    .filter(plain)
    .map((b) => norm(b).split(' '))
    .filter((w) => w.length >= 8);
  const blocks = actual.split(/\n\s*\n/).map((b) => ` ${norm(b)} `);
  const phrase = (words: string[]) => ` ${words.join(' ')} `;
  const found = (words: string[]) => blocks.some((b) => b.includes(phrase(words)));
  // In one block, the first phrase before the second (text repeats: lorem ipsum opens every paragraph alike).
  const together = (a: string[], b: string[]) => blocks.some((x) => x.includes(phrase(a)) && x.indexOf(phrase(b), x.indexOf(phrase(a))) >= 0);
  const head = (w: string[]) => w.slice(0, 4);
  const tail = (w: string[]) => w.slice(-4);
  const split: string[] = [];
  const joined: string[] = [];
  paras.forEach((w, k) => {
    if (found(head(w)) && found(tail(w)) && !together(head(w), tail(w))) split.push(head(w).join(' '));
    const next = paras[k + 1];
    // Joined: the one's closing words run straight into the next one's opening words.
    if (next && blocks.some((b) => b.includes(phrase([...tail(w), ...head(next)])))) joined.push(`${tail(w).join(' ')} | ${head(next).join(' ')}`);
  });
  return { split, joined };
}

export function score(expected: string, actual: string): Score {
  return { text: textInOrder(expected, actual), headings: headingScore(expected, actual), cells: cellScore(expected, actual) };
}

async function main(): Promise<void> {
  if (!fs.existsSync(root)) {
    console.log(`eval:parse skipped: ${root} is absent (the shared corpus is not next to this checkout).`);
    return;
  }
  const vectors = JSON.parse(fs.readFileSync(path.join(root, 'markitdown-vectors.json'), 'utf8')).files as Record<
    string,
    { must_include: { s: string; convention?: boolean }[]; must_not_include: string[] }
  >;
  const args = process.argv.slice(2);
  const verbose = args.includes('--verbose');
  const only = args.flatMap((a, i) => (a === '--format' && args[i + 1] ? [args[i + 1]] : a.startsWith('--format=') ? [a.slice(9)] : []));
  const formats = ['pdf', 'docx', 'xlsx', 'pptx', 'html'].filter((f) => !only.length || only.includes(f));
  const byFormat: Record<string, { docs: number; text: number[]; headings: number[]; cells: number[]; extra: number; split: number; joined: number; ms: number }> = {};
  const detail: string[] = [];
  for (const f of formats) {
    byFormat[f] = { docs: 0, text: [], headings: [], cells: [], extra: 0, split: 0, joined: 0, ms: 0 };
    const dir = path.join(root, f);
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir).filter((n) => !n.endsWith('.md')).sort()) {
      const bytes = fs.readFileSync(path.join(dir, name));
      const t0 = performance.now();
      let markdown = '';
      try {
        markdown = (await convertFile(new Uint8Array(bytes), { maxPages: 100 })).markdown;
      } catch (e) {
        detail.push(`${f}/${name}: ERROR ${(e as Error).message}`);
      }
      const ms = performance.now() - t0;
      const expPath = path.join(dir, `${name}.expected.md`);
      const s: Score = { text: null, headings: null, cells: null };
      if (fs.existsSync(expPath)) {
        Object.assign(s, score(fs.readFileSync(expPath, 'utf8'), markdown));
      } else if (vectors[`${f}/${name}`]) {
        const v = vectors[`${f}/${name}`];
        const content = v.must_include.filter((m) => !m.convention);
        const hay = norm(markdown);
        const ok = content.filter((m) => hay.includes(norm(m.s))).length;
        const bad = v.must_not_include.filter((m) => markdown.includes(m)).length;
        s.text = content.length ? Math.max(0, ok - bad) / content.length : bad ? 0 : null;
      }
      const b = byFormat[f];
      b.docs++;
      b.ms += ms;
      if (s.text !== null && !(s.text === 0 && !markdown.replace(/<!--.*?-->/g, '').trim() && !fs.readFileSync(expPath, 'utf8').trim())) b.text.push(s.text);
      if (s.headings !== null) b.headings.push(s.headings);
      if (s.cells !== null) b.cells.push(s.cells);
      const extra = fs.existsSync(expPath) && s.headings !== null ? headingMisses(fs.readFileSync(expPath, 'utf8'), markdown).extra : [];
      b.extra += extra.length;
      const paragraphs = fs.existsSync(expPath) ? paragraphMisses(fs.readFileSync(expPath, 'utf8'), markdown) : { split: [], joined: [] };
      b.split += paragraphs.split.length;
      b.joined += paragraphs.joined.length;
      const pct = (x: number | null) => (x === null ? '  n/a' : `${(x * 100).toFixed(0).padStart(4)}%`);
      detail.push(`${`${f}/${name}`.padEnd(70)} text ${pct(s.text)}  headings ${pct(s.headings)}  cells ${pct(s.cells)}  ${ms.toFixed(0)} ms`);
      if (verbose && fs.existsSync(expPath)) {
        const expected = fs.readFileSync(expPath, 'utf8');
        const cut = (x: string) => (x.length > 70 ? `${x.slice(0, 67)}...` : x);
        // A miss whose text we wrote as a line of its own is a structure call (a bold line is never a heading
        // under the convention), not lost text: say so.
        const ownLines = new Set(markdown.split('\n').map((l) => norm(l)));
        for (const h of headingMisses(expected, markdown).missed) detail.push(`    heading not found: ${cut(h)}${ownLines.has(h) ? ' (a line of its own here)' : ''}`);
        for (const h of extra) detail.push(`    heading not expected: ${cut(h)}`);
        for (const [a, b] of cellMisses(expected, markdown).missed) detail.push(`    cells not in one row: ${cut(a)} || ${cut(b)}`);
        for (const p of paragraphs.split) detail.push(`    paragraph split: ${cut(p)}`);
        for (const p of paragraphs.joined) detail.push(`    paragraphs joined: ${cut(p)}`);
      }
    }
  }
  const mean = (a: number[]) => (a.length ? a.reduce((x, y) => x + y, 0) / a.length : NaN);
  const pct = (x: number) => (Number.isNaN(x) ? '  n/a' : `${(x * 100).toFixed(1)}%`);
  console.log(detail.join('\n'));
  console.log('\n| format | docs | text in order | headings | table cells in row | mean | headings not expected | paragraphs split / joined |');
  console.log('|---|---|---|---|---|---|---|---|');
  const all = { text: [] as number[], headings: [] as number[], cells: [] as number[] };
  for (const f of formats) {
    const b = byFormat[f];
    const parts = [mean(b.text), mean(b.headings), mean(b.cells)].filter((x) => !Number.isNaN(x));
    console.log(`| ${f} | ${b.docs} | ${pct(mean(b.text))} | ${pct(mean(b.headings))} | ${pct(mean(b.cells))} | ${pct(mean(parts))} | ${b.extra} | ${b.split} / ${b.joined} |`);
    all.text.push(...b.text);
    all.headings.push(...b.headings);
    all.cells.push(...b.cells);
  }
  const parts = [mean(all.text), mean(all.headings), mean(all.cells)];
  const sum = (k: 'docs' | 'extra' | 'split' | 'joined') => formats.reduce((n, f) => n + byFormat[f][k], 0);
  console.log(`| total | ${sum('docs')} | ${pct(parts[0])} | ${pct(parts[1])} | ${pct(parts[2])} | ${pct(mean(parts))} | ${sum('extra')} | ${sum('split')} / ${sum('joined')} |`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
