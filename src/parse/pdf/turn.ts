/**
 * Pages whose text runs sideways or upside down: a landscape table set on a portrait page, or a page the file shows
 * turned (`/Rotate`) and draws turned to match. pdf.js reports text in the page's own, unturned space, where such
 * lines run upwards; read as they are, every word would be a line of its own. When most of a page's characters run
 * one other way, everything read from the page (text, annotation boxes, painted paths, the page's box) is turned
 * so that they run left to right, and the page is read like any other. Lines that ran the page's way (an upright
 * page number on a landscape page) become sideways text, read apart as below.
 *
 * Text set at a slant (a diagonal "CONFIDENTIAL" or "DRAFT" watermark, a stamp), or sideways on an upright page
 * outside a table (a vertical note in the margin), belongs to no line: read in place it would join whichever line
 * its start fell on. It is read apart (`setApart`) and written after its page's text (`withSlants`).
 */
import { esc } from '../inline.js';
import type { Block } from '../types.js';
import { apply, mul, OP, type M } from './matrix.js';

type Run = { str?: string; transform?: number[] };

/** For each way text can run (degrees counter-clockwise), the turn that sets it left to right. */
const TURNS: Record<number, M> = { 90: [0, -1, 1, 0, 0, 0], 180: [-1, 0, 0, -1, 0, 0], 270: [0, 1, -1, 0, 0, 0] };

/** Degrees off the nearest quarter turn beyond which a run is slanted. */
const SLANT = 3;

/** How a run is set: along the page's axes (upright or upside down), sideways (a quarter turn), or at a slant. */
function setting(t: number[]): 'straight' | 'side' | 'slant' {
  if (t[1] === 0) return 'straight';
  const off = Math.abs((((Math.atan2(t[1], t[0]) * 180) / Math.PI) % 90 + 90) % 90);
  if (off > SLANT && off < 90 - SLANT) return 'slant';
  return Math.abs(t[1]) > Math.abs(t[0]) ? 'side' : 'straight';
}

/**
 * The turn that sets most of these runs' characters upright, or undefined when they are. The page's own `/Rotate`
 * (`rotate`, degrees clockwise) showing them upright is enough; without it they must outnumber the upright ones
 * four to one, so that a table's long vertical column heads over short figures do not turn their page.
 */
export function readingTurn(items: Run[], rotate = 0): M | undefined {
  const chars = new Map<number, number>();
  for (const it of items) {
    const t = it.transform;
    if (!t || typeof it.str !== 'string' || setting(t) === 'slant') continue;
    const n = it.str.trim().length;
    if (!n) continue;
    const way = (Math.round(Math.atan2(t[1], t[0]) / (Math.PI / 2)) * 90 + 360) % 360;
    chars.set(way, (chars.get(way) ?? 0) + n);
  }
  const most = [...chars].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
  if (!most || most[0] === 0) return undefined;
  const upright = chars.get(0) ?? 0;
  const shown = (((rotate % 360) + 360) % 360) === most[0];
  return most[1] >= upright * (shown ? 1 : 4) ? TURNS[most[0]] : undefined;
}

/** Text runs turned (marked-content markers, which have no place, as they are). */
export function turnRuns<T extends Run>(items: T[], turn: M): T[] {
  return items.map((it) => (it.transform ? Object.assign({}, it, { transform: mul(it.transform as M, turn) }) : it));
}

/** A box [x0, y0, x1, y1] turned, its corners in order again. */
export function turnBox(box: number[], turn: M): number[] {
  const [ax, ay] = apply(turn, box[0], box[1]);
  const [bx, by] = apply(turn, box[2], box[3]);
  return [Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by)];
}

/** An operator list whose painted paths come out turned: the turn set as the matrix everything else is drawn in. */
export function turnOperators<T extends { fnArray: number[]; argsArray: unknown[] }>(ops: T, turn: M): T {
  return { ...ops, fnArray: ([OP.transform] as number[]).concat(ops.fnArray), argsArray: ([turn] as unknown[]).concat(ops.argsArray) };
}

/**
 * A page's runs split three ways: set upright (or upside down), at a slant, and sideways (a margin's vertical
 * note such as arXiv's identifier, or a table's vertical column heads, which `pdf.ts` puts back where a table
 * holds them), each in drawing order.
 */
export function setApart<T extends { str: string; transform: number[] }>(items: T[]): { straight: T[]; slant: T[]; side: T[] } {
  const out = { straight: [] as T[], slant: [] as T[], side: [] as T[] };
  for (const it of items) out[setting(it.transform)].push(it);
  return out.slant.length || out.side.length ? out : { straight: items, slant: [], side: [] };
}

/** Runs set apart as texts: runs on one baseline (the same angle, each starting on the line the one before runs along) make one. */
export function textsOf(runs: { str: string; transform: number[] }[]): string[] {
  const texts: string[][] = [];
  let last: number[] | undefined;
  for (const { str, transform: t } of runs) {
    if (last && onBaseline(last, t)) texts[texts.length - 1].push(str);
    else texts.push([str]);
    last = t;
  }
  return texts.map((parts) => parts.join(' ').replace(/\s+/g, ' ').trim()).filter(Boolean);
}

/** Whether run `b` starts on the baseline run `a` is set along, at its angle (within a degree, half a size off). */
function onBaseline(a: number[], b: number[]): boolean {
  const size = Math.hypot(a[0], a[1]) || 1;
  const [ux, uy] = [a[0] / size, a[1] / size];
  const angle = Math.abs(Math.atan2(b[1], b[0]) - Math.atan2(a[1], a[0]));
  // The distance of b's origin from a's baseline: the cross product with a's unit direction.
  return angle < Math.PI / 180 && Math.abs((b[4] - a[4]) * uy - (b[5] - a[5]) * ux) < size * 0.5;
}

/**
 * The page blocks with each page's slanted texts after its own text, each a paragraph of its own; a text repeated
 * on later pages (a watermark on every page) is written once, where it first appears. `slants[i]` is page i + 1's.
 */
export function withSlants(blocks: Block[], slants: string[][]): Block[] {
  if (!slants.some((texts) => texts.length)) return blocks;
  const seen = new Set<string>();
  const out: Block[] = [];
  let page = -1;
  const close = () => {
    for (const text of slants[page] ?? []) {
      if (!seen.has(text)) out.push({ t: 'p', text: esc(text) });
      seen.add(text);
    }
  };
  for (const b of blocks) {
    if (b.t === 'comment' && /^page \d+$/.test(b.text)) {
      close();
      page = Number(b.text.slice(5)) - 1;
    }
    out.push(b);
  }
  close();
  return out;
}
