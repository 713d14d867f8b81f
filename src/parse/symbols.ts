/**
 * Characters of the symbol fonts Word's "Insert Symbol" writes (`w:sym`, or a run in the font whose text holds
 * private-use code points U+F020-U+F0FF: the font's own code plus 0xF000, or the codes typed), as the Unicode
 * characters they show.
 * Symbol follows Adobe's Symbol encoding (Unicode's published SYMBOL.TXT mapping; the pieces fonts draw large
 * brackets and integrals with are left out); Wingdings holds only the check boxes, marks and bullets documents
 * use. A code the tables do not know reads as nothing rather than as a private-use character or a wrong letter.
 */

/** Symbol's codes from 0x20 to 0x7E, in order. */
const SYMBOL_ASCII = ' !∀#∃%&∋()∗+,−./0123456789:;<=>?≅ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ[∴]⊥_ αβχδεφγηιϕκλμνοπθρστυϖωξψζ{|}∼';
/** Symbol's upper codes: runs of consecutive codes, each from its first code (0x60, 0xBD-0xBE, 0xE6-0xF0 are pieces). */
const SYMBOL_UPPER: [number, string][] = [
  [0xa0, '€ϒ′≤⁄∞ƒ♣♦♥♠↔←↑→↓°±″≥×∝∂•÷≠≡≈…'],
  [0xbf, '↵ℵℑℜ℘⊗⊕∅∩∪⊃⊇⊄⊂⊆∈∉∠∇®©™∏√⋅¬∧∨⇔⇐⇑⇒⇓◊〈®©™∑'],
  [0xf1, '〉∫'],
];
const SYMBOL = new Map<number, string>();
// (The space at 0x60 stands for a piece; the one at 0x20 is the space.)
[...SYMBOL_ASCII].forEach((ch, i) => (ch !== ' ' || i === 0) && SYMBOL.set(0x20 + i, ch));
for (const [from, chars] of SYMBOL_UPPER) [...chars].forEach((ch, i) => SYMBOL.set(from + i, ch));

const WINGDINGS: Record<number, string> = {
  0x4a: '☺',
  0x4c: '☹',
  0x6e: '■',
  0x6f: '□',
  0x71: '❑',
  0x75: '◆',
  0x76: '❖',
  0xa7: '▪',
  0xd8: '➢',
  0xfb: '✗',
  0xfc: '✓',
  0xfd: '☒',
  0xfe: '☑',
};

/** The character a symbol font draws for `code` (0x20-0xFF, or the same plus 0xF000), if the font is one known here. */
export function symbolChar(font: string | undefined, code: number): string | undefined {
  const c = code >= 0xf000 ? code - 0xf000 : code;
  const name = (font ?? '').trim().toLowerCase();
  if (name === 'symbol') return SYMBOL.get(c);
  if (name === 'wingdings') return WINGDINGS[c];
  return undefined;
}

/** Whether a font is one whose characters `symbolChar` reads. */
const isSymbolFont = (font: string | undefined) => /^\s*(symbol|wingdings)\s*$/i.test(font ?? '');

/**
 * A run's text in a symbol font as it shows: its codes, private-use or typed (a Symbol "m" is μ, a Wingdings "þ" is
 * ☑), read through the font's table; codes the table does not know are dropped, not shown as the letters they are not.
 * Without `typed`, only the private-use codes (a slide run's `a:sym` font is for those alone).
 */
export function symbolText(font: string | undefined, text: string, typed = true): string {
  if (!isSymbolFont(font)) return text;
  return text.replace(typed ? /[\u0020-\u00FF\uF020-\uF0FF]/g : /[\uF020-\uF0FF]/g, (ch) => symbolChar(font, ch.charCodeAt(0)) ?? '');
}
