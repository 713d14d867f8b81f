/**
 * Right-to-left ligatures. A font may map one glyph (Arabic lam-alef, say) to two letters in logical order ("لا");
 * pdf.js reverses each right-to-left run character by character, so that pair comes out backwards ("ال") and the
 * word is misspelt. The page's operator list still holds the glyphs with their own text: reading a word's glyphs
 * right to left while keeping each glyph's letters in order gives the word as written. Those corrections are then
 * applied, whole words only, to the text items.
 */

export interface OperatorList {
  fnArray: number[];
  argsArray: unknown[];
}

interface Glyph {
  unicode?: string;
  isSpace?: boolean;
}

/** pdf.js operator codes for showing text (stable across pdf.js 2-5): showText, showSpacedText, ' and ". */
const SHOW = new Map([
  [44, 0],
  [45, 0],
  [46, 0],
  [47, 2],
]);
const RTL_LETTERS = /^[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]+$/;

/** Words as pdf.js writes them → the words as the glyphs spell them (only where the two differ). */
export function rtlLigatureFixes(ops: OperatorList): Map<string, string> {
  const fixes = new Map<string, string>();
  let budget = 200_000;
  for (let i = 0; i < ops.fnArray.length && budget > 0; i++) {
    const at = SHOW.get(ops.fnArray[i]);
    if (at === undefined) continue;
    const glyphs = (ops.argsArray[i] as unknown[] | undefined)?.[at];
    if (!Array.isArray(glyphs)) continue;
    let word: string[] = [];
    const flush = () => {
      if (word.length > 1 && word.some((u) => u.length > 1)) {
        const visual = word.join('');
        const pdfjs = [...visual].reverse().join('');
        const written = [...word].reverse().join('');
        if (pdfjs !== written && RTL_LETTERS.test(written)) fixes.set(pdfjs, written);
      }
      word = [];
    };
    for (const g of glyphs as (Glyph | number | null)[]) {
      budget--;
      if (!g || typeof g !== 'object') continue;
      const u = g.unicode ?? '';
      if (g.isSpace || !u.trim()) flush();
      else word.push(u);
    }
    flush();
  }
  return fixes;
}

/** Replaces whole words of the items' text by their corrections. */
export function fixRtlLigatures<T extends { str: string }>(items: T[], fixes: Map<string, string>): T[] {
  if (!fixes.size) return items;
  return items.map((it) => {
    const str = it.str.replace(/[^\s.,;:!?()«»"'،؛؟]+/g, (w) => fixes.get(w) ?? w);
    return str === it.str ? it : { ...it, str };
  });
}
