/**
 * Pages whose text runs sideways or upside down: a landscape table set on a portrait page, or a page the file shows
 * turned (`/Rotate`) and draws turned to match. pdf.js reports text in the page's own, unturned space, where such
 * lines run upwards; read as they are, every word would be a line of its own. When most of a page's characters run
 * one other way, everything read from the page (text, annotation boxes, painted paths, the page's box) is turned
 * so that they run left to right, and the page is read like any other. Lines that ran the page's way (an upright
 * page number on a landscape page) become turned text in their turn.
 */
import { apply, mul, OP, type M } from './matrix.js';

type Run = { str?: string; transform?: number[] };

/** For each way text can run (degrees counter-clockwise), the turn that sets it left to right. */
const TURNS: Record<number, M> = { 90: [0, -1, 1, 0, 0, 0], 180: [-1, 0, 0, -1, 0, 0], 270: [0, 1, -1, 0, 0, 0] };

/** The turn that sets most of these runs' characters upright (upright wins ties), or undefined when they are. */
export function readingTurn(items: Run[]): M | undefined {
  const chars = new Map<number, number>();
  for (const it of items) {
    const t = it.transform;
    if (!t || typeof it.str !== 'string') continue;
    const n = it.str.trim().length;
    if (!n) continue;
    const way = (Math.round(Math.atan2(t[1], t[0]) / (Math.PI / 2)) * 90 + 360) % 360;
    chars.set(way, (chars.get(way) ?? 0) + n);
  }
  const most = [...chars].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
  return most ? TURNS[most[0]] : undefined;
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
