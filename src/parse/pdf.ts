/**
 * PDF to blocks with pdf.js (through unpdf's serverless build: no eval, no font loading, no canvas). Each page read
 * starts with `<!-- page N -->`; lines are rebuilt from text items by position; headings are lines whose font size
 * ranks above the body size (by character count), at most 4 levels; bullet glyphs become `-` items; lines join into
 * paragraphs by vertical gap. Link annotations become links where they cover a line.
 */
import { getDocumentProxy } from 'unpdf';
import { esc, link } from './inline.js';
import type { Block, Converted, ParseOptions } from './types.js';
import { ParseError } from './types.js';

interface Line {
  y: number;
  x: number;
  size: number;
  text: string;
  height: number;
  href?: string;
  /** Segments separated by wide gaps (candidate table cells). */
  cells: { x: number; text: string }[];
}

const JUNK_TITLE = /^(untitled|\(anonymous\)|anonymous|document\d*|microsoft word - .*|slide \d+|powerpoint presentation)$/i;

export async function convertPdf(bytes: Uint8Array, opts: ParseOptions): Promise<Converted> {
  let doc: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    doc = await getDocumentProxy(new Uint8Array(bytes), {
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: false,
      verbosity: 0,
    } as Parameters<typeof getDocumentProxy>[1]);
  } catch (e) {
    const name = (e as { name?: string }).name ?? '';
    if (name === 'PasswordException') throw new ParseError('encrypted', 'The PDF is encrypted (password-protected); send it without a password.');
    throw new ParseError('corrupt', `The PDF is corrupt or truncated (${(e as Error).message?.slice(0, 100) ?? 'unreadable'}).`);
  }
  try {
    const numPages = doc.numPages;
    const pages = Math.min(numPages, opts.maxPages);
    const perPage: Line[][] = [];
    for (let i = 1; i <= pages; i++) {
      const page = await doc.getPage(i);
      const content = await page.getTextContent();
      let links: { rect: number[]; url: string }[] = [];
      try {
        links = ((await page.getAnnotations()) as { subtype: string; url?: string; rect: number[] }[])
          .filter((a) => a.subtype === 'Link' && a.url)
          .map((a) => ({ rect: a.rect, url: a.url! }));
      } catch {
        /* annotations are optional */
      }
      perPage.push(readingOrder(content.items as unknown as TextItem[], links, page.view as number[]));
      page.cleanup();
    }
    const title = await pdfTitle(doc);
    const blocks = layout(perPage);
    const firstH = blocks.find((b) => b.t === 'h') as { text: string } | undefined;
    return { blocks, title: title ?? firstH?.text.replace(/\\(.)/g, '$1'), numPages, cut: numPages > pages };
  } finally {
    await doc.destroy();
  }
}

async function pdfTitle(doc: Awaited<ReturnType<typeof getDocumentProxy>>): Promise<string | undefined> {
  try {
    const meta = await doc.getMetadata();
    const info = (meta.info ?? {}) as { Title?: unknown };
    const candidates = [typeof info.Title === 'string' ? info.Title : undefined, (meta.metadata as { get?(k: string): unknown } | null)?.get?.('dc:title') as string | undefined];
    for (const c of candidates) {
      const t = (c ?? '').replace(/\s+/g, ' ').trim();
      if (t && !JUNK_TITLE.test(t)) return t;
    }
  } catch {
    /* no metadata */
  }
  return undefined;
}

interface TextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  hasEOL?: boolean;
}

/**
 * Two-column pages: a vertical gutter in the middle of the page that (almost) no text item crosses splits the
 * items into columns read left then right; items that cross it (titles, full-width blocks) above the columns come
 * first, the rest after.
 */
export function readingOrder(items: TextItem[], links: { rect: number[]; url: string }[], view: number[]): Line[] {
  const x0 = view?.[0] ?? 0;
  const width = (view?.[2] ?? 612) - x0;
  const text = items.filter((it) => typeof it.str === 'string' && it.str.trim() && it.transform);
  if (text.length < 20 || width <= 0) return toLines(items, links);
  const bins = new Int32Array(Math.ceil(width) + 1);
  for (const it of text) {
    const a = Math.max(0, Math.floor(it.transform[4] - x0));
    const b = Math.min(bins.length - 1, Math.ceil(it.transform[4] - x0 + it.width));
    for (let i = a; i <= b; i++) bins[i]++;
  }
  const allowed = Math.max(1, Math.floor(text.length * 0.03));
  let best: [number, number] | undefined;
  let start = -1;
  for (let i = Math.floor(width * 0.3); i <= Math.ceil(width * 0.7); i++) {
    if (bins[i] <= allowed) {
      if (start < 0) start = i;
      if (!best || i - start > best[1] - best[0]) best = [start, i];
    } else start = -1;
  }
  if (!best || best[1] - best[0] < 6) return toLines(items, links);
  const gutter = x0 + (best[0] + best[1]) / 2;
  const left: TextItem[] = [];
  const right: TextItem[] = [];
  const full: TextItem[] = [];
  for (const it of items) {
    if (!it.transform) continue;
    const a = it.transform[4];
    const b = a + (it.width ?? 0);
    if (b <= gutter + 1) left.push(it);
    else if (a >= gutter - 1) right.push(it);
    else full.push(it);
  }
  const chars = (xs: TextItem[]) => xs.reduce((n, it) => n + (it.str?.length ?? 0), 0);
  const total = chars(text);
  if (chars(left) < total * 0.2 || chars(right) < total * 0.2) return toLines(items, links);
  const L = toLines(left, links);
  const R = toLines(right, links);
  const F = toLines(full, links);
  const top = Math.max(L[0]?.y ?? -Infinity, R[0]?.y ?? -Infinity);
  return [...F.filter((l) => l.y > top), ...L, ...R, ...F.filter((l) => l.y <= top)];
}

function toLines(items: TextItem[], links: { rect: number[]; url: string }[]): Line[] {
  const lines: (Line & { parts: { x: number; s: string; w: number }[] })[] = [];
  for (const it of items) {
    if (typeof it.str !== 'string' || !it.transform) continue;
    const [a, b, , d, x, y] = it.transform;
    const size = Math.round(Math.hypot(a, b) * 10) / 10 || Math.abs(d) || it.height;
    if (!it.str.trim() && !it.str) continue;
    let line = lines.find((l) => Math.abs(l.y - y) < Math.max(2, Math.min(l.size, size) * 0.5));
    if (!line) {
      line = { y, x, size: 0, text: '', height: size, parts: [], cells: [] };
      lines.push(line);
    }
    line.parts.push({ x, s: it.str, w: it.width });
    if (it.str.trim()) line.size = Math.max(line.size, size);
  }
  const out: Line[] = [];
  for (const l of lines) {
    l.parts.sort((p, q) => p.x - q.x);
    let text = '';
    let end = -Infinity;
    const cells: { x: number; text: string }[] = [];
    for (const p of l.parts) {
      if (!p.s.trim()) continue;
      if (!cells.length || p.x - end > Math.max(l.size, 6) * 1.0) cells.push({ x: p.x, text: p.s });
      else cells[cells.length - 1].text += (p.x - end > l.size * 0.15 && !/\s$/.test(cells[cells.length - 1].text) && !/^\s/.test(p.s) ? ' ' : '') + p.s;
      if (text && p.x - end > l.size * 0.15 && !/\s$/.test(text) && !/^\s/.test(p.s)) text += ' ';
      text += p.s;
      end = p.x + p.w;
    }
    for (const c of cells) c.text = c.text.replace(/\s+/g, ' ').trim();
    text = text.replace(/\s+/g, ' ').trim();
    if (!text) continue;
    const x = l.parts[0].x;
    const hit = links.find((k) => k.rect[1] - 2 <= l.y && l.y <= k.rect[3] + 2 && k.rect[0] <= x + 5 && k.rect[2] >= end - 5);
    out.push({ y: l.y, x, size: l.size, text, height: l.size, href: hit?.url, cells: cells.filter((c) => c.text) });
  }
  out.sort((p, q) => q.y - p.y || p.x - q.x);
  return out;
}

const BULLET = /^([•●▪■◦○‣∙·\-–—*])\s+/;

function layout(pages: Line[][]): Block[] {
  // Body size: the size carrying most characters.
  const weight = new Map<number, number>();
  for (const p of pages) for (const l of p) weight.set(sizeKey(l.size), (weight.get(sizeKey(l.size)) ?? 0) + l.text.length);
  let body = 10;
  let best = -1;
  for (const [s, w] of weight) if (w > best) [body, best] = [s, w];
  const total = [...weight.values()].reduce((a, b) => a + b, 0);
  const headingSizes = [...weight.keys()].filter((s) => s >= body + 1 && s >= body * 1.05 && (weight.get(s) ?? 0) < total * 0.3).sort((a, b) => b - a);
  const blocks: Block[] = [];
  pages.forEach((lines, i) => {
    blocks.push({ t: 'comment', text: `page ${i + 1}` });
    const tables = findTables(lines);
    let para: string[] = [];
    let last: Line | undefined;
    let list: Extract<Block, { t: 'list' }> | undefined;
    const flush = () => {
      if (para.length) blocks.push({ t: 'p', text: joinLines(para) });
      para = [];
    };
    for (let li = 0; li < lines.length; li++) {
      const l = lines[li];
      const table = tables.get(li);
      if (table) {
        flush();
        list = undefined;
        blocks.push({ t: 'table', rows: table.rows });
        li = table.end - 1;
        last = lines[li];
        continue;
      }
      const rank = headingSizes.indexOf(sizeKey(l.size));
      const text = l.href ? link(esc(l.text), l.href) : esc(l.text);
      if (rank >= 0 && l.text.length < 200 && /\p{L}/u.test(l.text)) {
        flush();
        list = undefined;
        const prev = blocks[blocks.length - 1];
        if (prev?.t === 'h' && prev.level === Math.min(4, rank + 1) && last && Math.abs(last.size - l.size) < 0.5 && last.y - l.y < l.size * 1.8) prev.text += ' ' + text;
        else blocks.push({ t: 'h', level: Math.min(4, rank + 1), text });
        last = l;
        continue;
      }
      const bullet = BULLET.exec(l.text);
      if (bullet) {
        flush();
        const item = { text: (l.href ? link(esc(l.text.slice(bullet[0].length)), l.href) : esc(l.text.slice(bullet[0].length))), children: [] };
        if (list) list.items.push(item);
        else {
          list = { t: 'list', ordered: false, start: 1, items: [item] };
          blocks.push(list);
        }
        last = l;
        continue;
      }
      const gap = last ? last.y - l.y : 0;
      if (list && last && gap < l.size * 1.6 && l.x > last.x + 2) {
        const it = list.items[list.items.length - 1];
        it.text = joinLines([it.text, text]);
        last = l;
        continue;
      }
      list = undefined;
      if (last && (gap > Math.max(l.size, last.size) * 1.6 || gap < 0 || Math.abs(last.size - l.size) > 1)) flush();
      para.push(text);
      last = l;
    }
    flush();
  });
  return blocks;
}

const sizeKey = (s: number) => Math.round(s * 2) / 2;

/**
 * Runs of at least 3 lines that split into 2+ wide-gap segments whose starts line up with shared columns become
 * tables (the first row is the header). Columns are clustered from segment starts (8 pt tolerance).
 */
function findTables(lines: Line[]): Map<number, { end: number; rows: string[][] }> {
  const out = new Map<number, { end: number; rows: string[][] }>();
  const TOL = 8;
  let i = 0;
  while (i < lines.length) {
    if (lines[i].cells.length < 2) {
      i++;
      continue;
    }
    let j = i + 1;
    const cols = lines[i].cells.map((c) => c.x);
    while (j < lines.length) {
      const l = lines[j];
      const gap = lines[j - 1].y - l.y;
      if (gap > Math.max(l.size, lines[j - 1].size) * 3.5 || gap < 0) break;
      const shared = l.cells.filter((c) => cols.some((x) => Math.abs(x - c.x) < TOL)).length;
      const lo = Math.min(...cols) - 3 * TOL;
      const hi = Math.max(...cols) + 6 * TOL;
      const inside = l.cells.every((c) => c.x >= lo && c.x <= hi);
      if (l.cells.length >= 2 ? shared < 2 && !(inside && shared >= 0 && gap < l.size * 2) : shared < 1 || l.cells.length === 0) break;
      if (l.cells.length === 1 && !cols.slice(1).some((x) => Math.abs(x - l.cells[0].x) < TOL)) break;
      for (const c of l.cells) if (!cols.some((x) => Math.abs(x - c.x) < TOL)) cols.push(c.x);
      j++;
    }
    const multi = lines.slice(i, j).filter((l) => l.cells.length >= 2).length;
    if (j - i >= 3 && multi >= 3) {
      cols.sort((a, b) => a - b);
      const merged: number[] = [];
      for (const x of cols) if (!merged.length || x - merged[merged.length - 1] >= TOL) merged.push(x);
      const rows = lines.slice(i, j).map((l) => {
        const row = merged.map(() => '');
        for (const c of l.cells) {
          let k = 0;
          for (let m = 0; m < merged.length; m++) if (merged[m] <= c.x + TOL) k = m;
          row[k] = row[k] ? `${row[k]} ${esc(c.text)}` : esc(c.text);
        }
        return row;
      });
      out.set(i, { end: j, rows });
      i = j;
    } else i++;
  }
  return out;
}

function joinLines(lines: string[]): string {
  let out = '';
  for (const l of lines) {
    if (!out) out = l;
    else if (/[a-z]-$/.test(out) && /^[a-z]/.test(l)) out = out.slice(0, -1) + l;
    else out += ' ' + l;
  }
  return out;
}
