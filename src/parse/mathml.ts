/**
 * MathML (HTML's `<math>`) to LaTeX, written as Office Math is (`omml.ts`): `$…$` inline, `$$…$$` for
 * `display="block"`. The page's own TeX wins where it gives one (a `<semantics>` annotation in
 * `application/x-tex`, as Wikipedia and KaTeX write it, else Wikipedia's `alttext`), without Wikipedia's
 * `{\displaystyle …}` wrapper; otherwise the MathML elements map to their LaTeX forms (fractions, scripts,
 * radicals, under- and overscripts, tables, fences), and an element this does not know gives its content.
 * The tree's depth is bounded where the page is parsed (`html.ts`), so the recursion is too.
 */
import { ACCENTS, FUNCTIONS, group, NARY, symbols, tidyTex } from './omml.js';
import { findAll, kids, textOf, type XNode } from './xml.js';

export function mathmlMarkdown(math: XNode): string {
  const tex = pageTex(math) ?? tidyTex(convert(math));
  if (!tex) return '';
  return math.attribs?.display === 'block' ? `$$${tex}$$` : `$${tex}$`;
}

/** The TeX a page gives beside its MathML, unwrapped from `{\displaystyle …}` or `{\textstyle …}`. */
function pageTex(math: XNode): string | undefined {
  const note = findAll(math, 'annotation').find((n) => /^(application\/x-tex|tex)$/i.test(n.attribs?.encoding ?? ''));
  const tex = (note ? textOf(note) : math.attribs?.alttext ?? '').trim();
  if (!tex) return undefined;
  const wrapped = /^\{\\(?:displaystyle|textstyle)\s*([^]*)\}$/.exec(tex);
  return (wrapped ? wrapped[1] : tex).replace(/\s+/g, ' ').trim();
}

const all = (n: XNode) => kids(n).map(convert).join('');
function convert(n: XNode): string {
  const [a, b, c] = kids(n);
  switch (n.name) {
    case 'mi': {
      const t = textOf(n).trim();
      return FUNCTIONS.has(t) ? `\\${t} ` : t.length > 1 && /^[A-Za-z]+$/.test(t) ? `\\mathrm{${t}}` : symbols(t);
    }
    case 'mn':
    case 'mo':
      return symbols(textOf(n).trim());
    case 'mtext':
    case 'ms':
      return `\\text{${textOf(n).replace(/[{}\\]/g, '')}}`;
    case 'mspace':
      return ' ';
    case 'mfrac':
      return a && b ? `\\frac{${convert(a)}}{${convert(b)}}` : all(n);
    case 'msqrt':
      return `\\sqrt{${all(n)}}`;
    case 'mroot':
      return a && b ? `\\sqrt[${convert(b)}]{${convert(a)}}` : all(n);
    case 'msup':
      return a && b ? `${group(convert(a))}^{${convert(b)}}` : all(n);
    case 'msub':
      return a && b ? `${group(convert(a))}_{${convert(b)}}` : all(n);
    case 'msubsup':
      return a && b && c ? `${group(convert(a))}_{${convert(b)}}^{${convert(c)}}` : all(n);
    case 'munder':
    case 'mover':
    case 'munderover': {
      if (!a || !b) return all(n);
      // Only a token's text is compared (an operator, a function name, an accent): a nested base is converted once.
      const token = (x: XNode) => (/^m[ion]$/.test(x.name ?? '') ? textOf(x).trim() : '');
      const base = token(a);
      const op = NARY[base] ?? (FUNCTIONS.has(base) ? `\\${base}` : undefined);
      const under = n.name === 'mover' ? undefined : convert(b);
      const over = n.name === 'mover' ? convert(b) : n.name === 'munderover' && c ? convert(c) : undefined;
      if (op) return `${op}${under !== undefined ? `_{${under}}` : ''}${over !== undefined ? `^{${over}}` : ''} `;
      // An accent over (x̂, v⃗, a bar) is the accent's command; anything else is set under or over.
      const accent = n.name === 'mover' ? ACCENTS[token(b)] ?? (token(b) === '¯' ? '\\bar' : undefined) : undefined;
      if (accent) return `${accent}{${convert(a)}}`;
      const body = convert(a);
      const lower = under !== undefined ? `\\underset{${under}}{${body}}` : body;
      return over !== undefined ? `\\overset{${over}}{${lower}}` : lower;
    }
    case 'mtable':
      return `\\begin{matrix}${kids(n)
        .map((row) => kids(row).map(convert).join(' & '))
        .join(' \\\\ ')}\\end{matrix}`;
    case 'mfenced': {
      const open = n.attribs?.open ?? '(';
      const close = n.attribs?.close ?? ')';
      const fence = (ch: string) => (ch === '{' ? '\\{' : ch === '}' ? '\\}' : ch || '.');
      return `\\left${fence(open)} ${kids(n).map(convert).join(', ')} \\right${fence(close)}`;
    }
    case 'annotation':
    case 'annotation-xml':
    case 'mphantom':
      return '';
    case 'semantics':
      return a ? convert(a) : '';
    default:
      return all(n);
  }
}
