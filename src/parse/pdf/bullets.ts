/**
 * Bullets drawn as shapes. A browser printing a page without tags paints each list item's marker as a small path
 * (a filled disc, a stroked circle for the second level, a filled square for the third) instead of a glyph, so the
 * text has no marker and the items would read as a paragraph. Such a shape, set left of a line's first text at
 * about its middle, becomes a bullet glyph there (•, ◦, ▪) and the list rules read the line as an item.
 */
import { maxOf, minOf } from '../../lib/arrays.js';
import type { TextItem } from './items.js';
import type { Line } from './lines.js';
import { apply, PATH, PATH_ARGS, STROKE_ONLY, walkPaths } from './matrix.js';
import type { OperatorList } from './matrix.js';

interface Shape {
  x: number;
  y: number;
  size: number;
  glyph: string;
}

/** Small round or square marks (1.5 to 8 pt across, about as tall as wide) painted on the page (5,000 paths read). */
export function markShapes(ops: OperatorList): Shape[] {
  const out: Shape[] = [];
  walkPaths(ops, (paint, path, ctm) => {
    if (path.length > 200) return;
    const xs: number[] = [];
    const ys: number[] = [];
    let curves = 0;
    for (let k = 0; k < path.length; ) {
      const op = path[k++];
      const n = PATH_ARGS[op];
      if (n === undefined) break;
      if (op === PATH.curveTo || op === PATH.quadraticCurveTo) curves++;
      for (let m = 0; m < n; m += 2) {
        const [x, y] = apply(ctm, path[k + m], path[k + m + 1]);
        xs.push(x);
        ys.push(y);
      }
      k += n;
    }
    if (!xs.length) return;
    const w = maxOf(xs) - minOf(xs);
    const h = maxOf(ys) - minOf(ys);
    if (w < 1.5 || w > 8 || h < 1.5 || h > 8 || w / h < 0.7 || w / h > 1.4) return;
    const glyph = curves >= 4 ? (STROKE_ONLY.has(paint) ? '◦' : '•') : STROKE_ONLY.has(paint) ? '' : '▪';
    if (glyph) out.push({ x: minOf(xs), y: (minOf(ys) + maxOf(ys)) / 2, size: Math.max(w, h), glyph });
  });
  return out;
}

/**
 * Bullet glyphs for the shapes that mark lines: a shape ending at most 1.5 of the line's text size before the
 * line's first text, its middle between the line's baseline and its cap height, and no text of the line left of
 * it. Each glyph is a text item set at the shape, in the line's size.
 */
export function shapeBullets(shapes: Shape[], lines: Line[]): TextItem[] {
  const out: TextItem[] = [];
  for (const s of shapes) {
    const line = lines.find((l) => s.y > l.y && s.y < l.y + l.size * 0.8 && s.x + s.size <= l.x && l.x - (s.x + s.size) <= l.size * 1.5);
    if (line) out.push({ str: s.glyph, transform: [line.size, 0, 0, line.size, s.x, line.y], width: s.size, height: line.size });
  }
  return out;
}

/**
 * Whether a page may hold drawn bullets (read its operator list): two lines or more starting at one place, a little
 * right of the leftmost text (list items indented past the margin; `margin`, the leftmost start on the pages read
 * before, for a page that holds only a list), and no bullet glyph of its own.
 */
export function mayHoldShapeBullets(lines: Line[], margin = Infinity): boolean {
  if (lines.length < 3 || lines.some((l) => /^[•◦▪●○■]/.test(l.text))) return false;
  const left = Math.min(margin, minOf(lines.map((l) => l.x)));
  const starts = new Map<number, number>();
  for (const l of lines) if (l.x > left + 6 && l.x < left + 90) starts.set(Math.round(l.x), (starts.get(Math.round(l.x)) ?? 0) + 1);
  return [...starts.values()].some((n) => n >= 2);
}
