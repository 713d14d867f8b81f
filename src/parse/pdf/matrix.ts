/**
 * The bits of pdf.js's operator list that both readers of it need (painted rules, figure boxes): operator codes
 * and the transformation matrices they track through save/restore/transform.
 */

/** pdf.js operator codes used here (stable across pdf.js 4-5). */
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
