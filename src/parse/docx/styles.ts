/**
 * Word's styles (styles.xml) and what the converter reads of them and of run properties: a style's name, base,
 * font, outline level, numbering and hidden text; heading, quote and code styles by name; toggle properties.
 */
import { attr, child, findAll, parseXml, type XNode } from '../xml.js';

export interface Style {
  name: string;
  basedOn?: string;
  /** The style's Latin font (`w:rFonts w:ascii`). */
  font?: string;
  outline?: number;
  numId?: string;
  ilvl?: number;
  /** Whether the style hides its text (`w:vanish`), when it says. */
  vanish?: boolean;
}

export function readStyles(xml: string | undefined): Map<string, Style> {
  const map = new Map<string, Style>();
  if (!xml) return map;
  for (const s of findAll(parseXml(xml), 'w:style')) {
    const id = attr(s, 'w:styleId');
    if (!id) continue;
    const ppr = child(s, 'w:pPr');
    const numPr = child(ppr, 'w:numPr');
    const outline = attr(child(ppr, 'w:outlineLvl'), 'w:val');
    map.set(id, {
      name: attr(child(s, 'w:name'), 'w:val') ?? id,
      basedOn: attr(child(s, 'w:basedOn'), 'w:val'),
      font: runFont(child(s, 'w:rPr')),
      outline: outline !== undefined ? Number(outline) : undefined,
      numId: attr(child(numPr, 'w:numId'), 'w:val'),
      ilvl: numPr ? Number(attr(child(numPr, 'w:ilvl'), 'w:val') ?? 0) : undefined,
      vanish: toggle(child(child(s, 'w:rPr'), 'w:vanish')),
    });
  }
  return map;
}

/** A toggle property's setting: undefined when absent, else on unless its value says off (`w:val="0"`). */
export function toggle(e: XNode | undefined): boolean | undefined {
  return e ? !['0', 'false', 'off', 'none'].includes(attr(e, 'w:val') ?? '') : undefined;
}

export const runFont = (rpr: XNode | undefined) => {
  const f = child(rpr, 'w:rFonts');
  return attr(f, 'w:ascii') ?? attr(f, 'w:hAnsi');
};

/** Heading styles by name, in the languages Word names them (`Heading 2`, `Überschrift 2`, …). */
export const HEADING_STYLE = /^(heading|überschrift|titre|titolo|título)\s*(\d)$/;

/** The level of the heading style a style is based on, if any (a `TOC Heading` is based on `Heading 1`). */
export const headingStyleLevel = (chain: Style[]) => {
  const m = chain.map((st) => HEADING_STYLE.exec(st.name.toLowerCase())).find(Boolean);
  return m ? Math.min(6, Number(m[2])) : undefined;
};

/** Quotation paragraph styles: Word's "Quote" and "Intense Quote", pandoc's "Block Text", LibreOffice's "Quotations". */
export const QUOTE_STYLE = /^(quote|intense quote|block text|quotations?)$/;

/** Code paragraph styles (Word's own and common template names). */
export const CODE_STYLE = /^(code|source ?code|html preformatted|preformatted( text)?|plain text|macro text|verbatim)\b/i;

/** Inline code character styles ("HTML Code", pandoc's "Verbatim Char"). */
export const CODE_CHAR_STYLE = /^(html (code|typewriter|keyboard|sample)|verbatim char|code char|inline code|source code char)\b/i;
