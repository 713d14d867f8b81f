/** Text-level rules shared by line building (`pdf.ts`) and ruled-table cells (`rules.ts`). */

const HANGUL = /[\uAC00-\uD7A3\u1100-\u11FF\u3130-\u318F]/;

/**
 * Whether a horizontal gap between two runs reads as a space: the file set a space run between them (`marked`:
 * pdf.js reports it as a run of its own) and they do not overlap, or the gap is wider than 0.15 em, or, between
 * Hangul syllables (Korean separates words with spaces, and justified Korean text often sets each word as its own
 * run with less than a point between them), wider than 0.05 em.
 */
export function spaced(before: string, next: string, gap: number, size: number, marked = false): boolean {
  if (!before || !next || /\s$/.test(before) || /^\s/.test(next)) return false;
  if ((marked && gap >= 0) || gap > size * 0.15) return true;
  return gap > size * 0.05 && HANGUL.test(before[before.length - 1]) && HANGUL.test(next[0]);
}
