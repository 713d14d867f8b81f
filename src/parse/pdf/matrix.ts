/**
 * The bits of pdf.js's operator list that its readers share (painted rules, figure boxes, drawn bullets): operator
 * codes, path operators and paint modes, and one walk that tracks the transformation matrix.
 */

/**
 * What a page draws, as operators and their arguments (pdf.js's operator-list shape, which the PDFium engine writes
 * from the page's objects: `pdf/pdfium.ts`).
 */
export interface OperatorList {
  fnArray: number[];
  argsArray: unknown[];
}

/** Operator codes used here (pdf.js's numbering, stable across pdf.js 4-5). */
export const OP = {
  save: 10,
  restore: 11,
  transform: 12,
  beginMarkedContent: 69,
  beginMarkedContentProps: 70,
  endMarkedContent: 71,
  formBegin: 74,
  formEnd: 75,
  constructPath: 91,
} as const;

/** constructPath's paint operators: stroke and close-stroke (20, 21), the fills and fill-strokes (22-27). */
export const PAINT = new Set([20, 21, 22, 23, 24, 25, 26, 27]);
export const STROKE_ONLY = new Set([20, 21]);

/** pdf.js 5 path operators inside constructPath's data, and how many numbers each takes (`PATH_ARGS[op]`). */
export const PATH = { moveTo: 0, lineTo: 1, curveTo: 2, quadraticCurveTo: 3, closePath: 4 } as const;
export const PATH_ARGS = [2, 2, 6, 4, 0];

/** A PDF transformation matrix [a b c d e f]. */
export type M = [number, number, number, number, number, number];

/** `m` applied after `n` (PDF's `cm`: the new matrix times the current one). */
export const mul = (m: M, n: M): M => [
  m[0] * n[0] + m[1] * n[2],
  m[0] * n[1] + m[1] * n[3],
  m[2] * n[0] + m[3] * n[2],
  m[2] * n[1] + m[3] * n[3],
  m[4] * n[0] + m[5] * n[2] + n[4],
  m[4] * n[1] + m[5] * n[3] + n[5],
];

export const apply = (m: M, x: number, y: number): [number, number] => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];

/**
 * Walks an operator list with the current transformation matrix tracked through save/restore, transform and form
 * XObjects (a form's matrix applies inside it, a hostile non-matrix is ignored): `visit` sees every operator with
 * the matrix then in force, after the operator's own change, and stops the walk by returning false.
 */
export function walkOps(ops: { fnArray: number[]; argsArray: unknown[] }, visit: (fn: number, args: unknown, ctm: M) => boolean | void): void {
  let ctm: M = [1, 0, 0, 1, 0, 0];
  const stack: M[] = [];
  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i];
    const args = ops.argsArray[i];
    if (fn === OP.save) stack.push(ctm);
    else if (fn === OP.restore || fn === OP.formEnd) ctm = stack.pop() ?? ctm;
    else if (fn === OP.transform || fn === OP.formBegin) {
      // (pdf.js hands a form's matrix over as a Float32Array.)
      const m = (fn === OP.formBegin ? (args as unknown[] | undefined)?.[0] : args) as ArrayLike<number> | null | undefined;
      if (fn === OP.formBegin) stack.push(ctm);
      if (m && typeof m === 'object' && m.length >= 6) {
        const six = Array.from(m).slice(0, 6) as M;
        if (six.every(Number.isFinite)) ctm = mul(six, ctm);
      }
    }
    if (visit(fn, args, ctm) === false) return;
  }
}

/**
 * Each painted path of an operator list (`walkOps`), at most `budget` of them: its paint operator, its
 * constructPath data (pdf.js 5: path operators and their numbers, `PATH`) and the matrix in force.
 */
export function walkPaths(ops: { fnArray: number[]; argsArray: unknown[] }, visit: (paint: number, path: ArrayLike<number>, ctm: M) => void, budget = 5000): void {
  walkOps(ops, (fn, args, ctm) => {
    if (fn !== OP.constructPath) return;
    if (--budget < 0) return false;
    const [paint, data] = args as [number, ArrayLike<number>[] | ArrayLike<number>];
    const path = (Array.isArray(data) ? data[0] : data) as ArrayLike<number> | undefined;
    if (PAINT.has(paint) && path) visit(paint, path, ctm);
  });
}
