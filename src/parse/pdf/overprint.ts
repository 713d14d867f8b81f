/**
 * Text a page draws twice over itself. Fake bold prints a run again a fraction of a point to the side, and some
 * layout programs draw a line in full over fragments of itself (a clipped first pass: "S", "ifi", "th t th" under
 * "Specifies that the"). pdf.js reports each pass as text, so the line would read twice ("ENABLEENABLE") or garbled.
 * A run is dropped when another run of the same size on the same baseline covers it and holds its letters in order:
 * two readings of one spot cannot both be meant, since neither would be legible in print.
 */
import { baselineGroups } from './text.js';

type Run = { str: string; transform: number[]; width: number };

const MAX_RUNS = 2000;
const upright = (t: number[]) => t[1] === 0 && t[2] === 0 && t[0] > 0;
const sizeOf = (t: number[]) => Math.abs(t[3]) || Math.abs(t[0]);

/** Whether `part`'s letters (spaces aside) appear in `whole` in the same order. */
function subsequence(part: string, whole: string): boolean {
  let j = 0;
  for (const c of part) {
    if (/\s/.test(c)) continue;
    j = whole.indexOf(c, j);
    if (j < 0) return false;
    j++;
  }
  return true;
}

/** Whether `a` is a second print of (part of) `b`: `b` covers it on the same baseline in the same size. */
function overprints(a: Run, b: Run): boolean {
  const size = sizeOf(a.transform);
  if (Math.abs(sizeOf(b.transform) - size) > size * 0.05 || Math.abs(a.transform[5] - b.transform[5]) > size * 0.15) return false;
  const [ax, bx] = [a.transform[4], b.transform[4]];
  // The same text nudged sideways by a fake-bold offset: less than half its width, or a run of dots would count.
  if (a.str === b.str) return Math.abs(ax - bx) <= Math.min(size * 0.2, a.width * 0.5);
  // A fragment lying wholly inside a longer run (half a point of slack for rounding).
  return a.str.length < b.str.length && ax >= bx - 0.5 && ax + a.width <= bx + b.width + 0.5 && subsequence(a.str, b.str);
}

/** The page's runs without second prints; of two equal prints the first stays. Runs are compared line by line. */
export function dropOverprints<T extends Run>(items: T[]): T[] {
  const { groups, near } = baselineGroups(items.filter((it) => upright(it.transform)));
  const order = new Map(items.map((it, i) => [it, i]));
  const dropped = new Set<T>();
  for (const [key, line] of groups) {
    const others = near(key);
    // Runs are compared pairwise: a baseline crowded past any real line (a hostile file) is left as it is.
    if (others.length > MAX_RUNS) continue;
    for (const a of line) {
      for (const b of others) {
        if (a === b || dropped.has(b)) continue;
        if (a.str === b.str && order.get(a)! < order.get(b)!) continue;
        if (overprints(a, b)) {
          dropped.add(a);
          break;
        }
      }
    }
  }
  return dropped.size ? items.filter((it) => !dropped.has(it)) : items;
}
