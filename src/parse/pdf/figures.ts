/**
 * Where a tagged PDF's figures stand, so that their alternate text can be read in place (`![alt]()`). The page's
 * text holds no trace of an image, so the operator list is read: an image fills the unit square of the
 * transformation matrix it is painted with, and the marked content a figure's `MCID` names holds (or begins with)
 * that matrix; the converter drops large images' pixels, paint operator and all, but not the matrix. Read only
 * on pages whose structure tree gives a figure alternate text.
 */

import { apply, OP, type M, walkOps } from './matrix.js';

/** Image painting operators (an image mask, an XObject image, an inline image). */
const PAINT_IMAGE = new Set([83, 85, 86]);

/** A figure's box on the page: x0, y0, x1, y1. */
export type Box = [number, number, number, number];

/** MCID → the box of the image that marked content draws (see `placed` below), for the MCIDs asked. */
export function figureBoxes(ops: { fnArray: number[]; argsArray: unknown[] }, mcids: Set<number>): Map<number, Box> {
  const out = new Map<number, Box>();
  // Open marked content: the MCID of each level (undefined for one that names none).
  const open: (number | undefined)[] = [];
  const inFigure = () => open.some((id) => id !== undefined && mcids.has(id));
  // The figure's matrix, best first: the one an image is painted with; the one in force where its marked content
  // begins (a browser sets it just before); the last one set inside it.
  let painted: M | undefined;
  let atBegin: M | undefined;
  let inside: M | undefined;
  walkOps(ops, (fn, args, ctm) => {
    if (fn === OP.transform || fn === OP.formBegin) {
      if (inFigure()) inside = ctm;
    } else if (PAINT_IMAGE.has(fn) && !painted && inFigure()) painted = ctm;
    else if (fn === OP.beginMarkedContent || fn === OP.beginMarkedContentProps) {
      const id = fn === OP.beginMarkedContentProps ? (args as unknown[] | undefined)?.[1] : undefined;
      open.push(typeof id === 'number' ? id : undefined);
      if (typeof id === 'number' && mcids.has(id)) [painted, atBegin, inside] = [undefined, ctm, undefined];
    } else if (fn === OP.endMarkedContent) {
      const id = open.pop();
      if (id === undefined || !mcids.has(id) || out.has(id)) return;
      // A figure drawn with paths may leave only the page's own matrix: a unit square says nothing of its place.
      const box = [painted, atBegin, inside].map((m) => m && boxOf(m)).find((b) => b && b[2] - b[0] >= 2 && b[3] - b[1] >= 2);
      if (box) out.set(id, box);
    }
  });
  return out;
}

/** The unit square under a matrix, as a box. */
function boxOf(m: M): Box {
  const corners = [apply(m, 0, 0), apply(m, 1, 0), apply(m, 0, 1), apply(m, 1, 1)];
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** The MCID a structure tree's content id names (`p2R_mc7` → 7). */
export const mcidOf = (id: string): number | undefined => {
  const m = /mc(\d+)$/.exec(id);
  return m ? Number(m[1]) : undefined;
};
