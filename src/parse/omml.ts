/**
 * Office Math (OMML, ECMA-376 Part 1 §22.1), as Word and PowerPoint store equations, to LaTeX: what pandoc, docling
 * and markitdown write for them. Each structure maps to its LaTeX form (fractions, scripts, radicals, n-ary
 * operators with limits, delimiters, functions, accents, bars, group characters, limits, matrices, equation
 * arrays); an element this does not know gives its content. Property elements (`…Pr`) carry no content.
 * The tree's depth is bounded where it is parsed (`xml.ts`), so the recursion is too.
 */
import { attr, child, kids, textOf, type XNode } from './xml.js';

/**
 * An equation (`m:oMath`) as `$…$`; a display block of them (`m:oMathPara`) as `$$…$$` each, a space apart (a
 * renderer sets each on a line of its own; a line break would leave a backslash after each).
 */
export function mathMarkdown(n: XNode): string {
  if (n.name === 'm:oMathPara')
    return kids(n, 'm:oMath')
      .map(tidy)
      .filter(Boolean)
      .map((tex) => `$$${tex}$$`)
      .join(' ');
  const tex = tidy(n);
  return tex ? `$${tex}$` : '';
}

/**
 * An equation's LaTeX with its spaces collapsed, none just inside a group's braces (`^{\\infty}`), once for the whole
 * of it (a nested element's text is not).
 */
const tidy = (n: XNode) => tidyTex(latex(n));

/** LaTeX with its spaces collapsed and none just inside a group's braces (shared with `mathml.ts`). */
export const tidyTex = (tex: string) =>
  tex
    .replace(/\s+/g, ' ')
    .replace(/(?<!\\)\{ /g, '{')
    .replace(/ \}/g, '}')
    .trim();

/**
 * The LaTeX of an OMML element's content, its spaces as they come. Names and limits are compared only while
 * short: trimming a nested element's whole text at each level would cost its depth times its length.
 */
function latex(n: XNode | undefined): string {
  return kids(n).map(element).join('');
}

/** A short group's text without its edge spaces, for comparing it with a name; longer ones are no name. */
const short = (s: string) => (s.length <= 24 ? s.trim() : '');

/** A property of an element (`m:fPr/m:type@m:val`): the value, or undefined. */
const prop = (n: XNode, pr: string, name: string) => attr(child(child(n, pr), name), 'm:val');
const on = (v: string | undefined) => v !== undefined && !['0', 'off', 'false'].includes(v);
/** `{…}` around a group that is more than one character or command (`x^{10}`, `x^2`, `\\log_2`; shared with `mathml.ts`). */
export const group = (s: string) => {
  const t = short(s);
  return t.length === 1 || /^\\[A-Za-z]+$/.test(t) ? t : `{${s}}`;
};

/** Alphabets a run may be set in (`m:scr`). */
const SCRIPTS: Record<string, string> = { 'double-struck': 'mathbb', script: 'mathcal', fraktur: 'mathfrak', 'sans-serif': 'mathsf', monospace: 'mathtt' };

/**
 * A math run's text: a function name set upright (`sin`) as its command, other upright words in roman, bold
 * (`m:sty` b, bi) and other alphabets (`m:scr`: ℝ is an R set double-struck) by their commands.
 */
function run(n: XNode): string {
  const raw = kids(n, 'm:t')
    .map(textOf)
    .join('');
  const text = symbols(raw);
  if (!text.trim()) return text;
  const sty = prop(n, 'm:rPr', 'm:sty');
  const scr = SCRIPTS[prop(n, 'm:rPr', 'm:scr') ?? ''];
  if (scr) return `\\${scr}{${text}}`;
  if (sty === 'p' && FUNCTIONS.has(raw)) return `\\${raw} `;
  if (sty === 'p' && /^[A-Za-z]{2,}$/.test(raw)) return `\\mathrm{${raw}}`;
  if (sty === 'b') return `\\mathbf{${text}}`;
  if (sty === 'bi') return `\\boldsymbol{${text}}`;
  return text;
}

function element(n: XNode): string {
  switch (n.name) {
    case 'm:r':
      return run(n);
    case 'm:f': {
      const num = latex(child(n, 'm:num'));
      const den = latex(child(n, 'm:den'));
      const type = prop(n, 'm:fPr', 'm:type');
      if (type === 'lin') return `${group(num)}/${group(den)}`;
      if (type === 'noBar') return `\\genfrac{}{}{0pt}{}{${num}}{${den}}`;
      return `\\frac{${num}}{${den}}`;
    }
    case 'm:sSup':
      return `${base(n)}^{${latex(child(n, 'm:sup'))}}`;
    case 'm:sSub':
      return `${base(n)}_{${latex(child(n, 'm:sub'))}}`;
    case 'm:sSubSup':
      return `${base(n)}_{${latex(child(n, 'm:sub'))}}^{${latex(child(n, 'm:sup'))}}`;
    case 'm:sPre':
      return `{}_{${latex(child(n, 'm:sub'))}}^{${latex(child(n, 'm:sup'))}}${base(n)}`;
    case 'm:rad': {
      const deg = latex(child(n, 'm:deg'));
      return on(prop(n, 'm:radPr', 'm:degHide')) || !deg.length || (deg.length <= 24 && !deg.trim()) ? `\\sqrt{${latex(child(n, 'm:e'))}}` : `\\sqrt[${deg}]{${latex(child(n, 'm:e'))}}`;
    }
    case 'm:nary': {
      const chr = prop(n, 'm:naryPr', 'm:chr') ?? '∫';
      const sub = on(prop(n, 'm:naryPr', 'm:subHide')) ? '' : latex(child(n, 'm:sub'));
      const sup = on(prop(n, 'm:naryPr', 'm:supHide')) ? '' : latex(child(n, 'm:sup'));
      return `${NARY[chr] ?? symbols(chr)}${sub ? `_{${sub}}` : ''}${sup ? `^{${sup}}` : ''} ${latex(child(n, 'm:e'))}`;
    }
    case 'm:d': {
      const beg = prop(n, 'm:dPr', 'm:begChr') ?? '(';
      const end = prop(n, 'm:dPr', 'm:endChr') ?? ')';
      const sep = prop(n, 'm:dPr', 'm:sepChr') ?? '|';
      const inner = kids(n, 'm:e').map(latex).join(` ${fence(sep)} `);
      return `\\left${fence(beg) || '.'} ${inner} \\right${fence(end) || '.'}`;
    }
    case 'm:func': {
      const name = latex(child(n, 'm:fName'));
      const word = short(name);
      const head = FUNCTIONS.has(word) ? `\\${word}` : /^[A-Za-z]+$/.test(word) ? `\\operatorname{${word}}` : /^\\[A-Za-z]+$/.test(word) ? word : name;
      return `${head}{${latex(child(n, 'm:e'))}}`;
    }
    case 'm:acc': {
      const chr = prop(n, 'm:accPr', 'm:chr') ?? '\u0302';
      return `${ACCENTS[chr] ?? '\\hat'}{${latex(child(n, 'm:e'))}}`;
    }
    case 'm:bar':
      return `${prop(n, 'm:barPr', 'm:pos') === 'top' ? '\\overline' : '\\underline'}{${latex(child(n, 'm:e'))}}`;
    case 'm:groupChr': {
      const chr = prop(n, 'm:groupChrPr', 'm:chr') ?? '\u23DF';
      const top = prop(n, 'm:groupChrPr', 'm:pos') === 'top';
      const e = latex(child(n, 'm:e'));
      if (chr === '\u23DF') return `\\underbrace{${e}}`;
      if (chr === '\u23DE') return `\\overbrace{${e}}`;
      return `${top ? '\\overset' : '\\underset'}{${symbols(chr)}}{${e}}`;
    }
    case 'm:limLow':
    case 'm:limUpp': {
      const e = latex(child(n, 'm:e'));
      const lim = latex(child(n, 'm:lim'));
      // "lim", "max" under their limit are operators whose limit LaTeX sets below them; a brace under or over
      // (as pandoc writes \underbrace) is one.
      const op = short(e).replace(/^\\/, '');
      if (n.name === 'm:limLow' && LIMIT_OPERATORS.has(op)) return `\\${op}_{${lim}}`;
      const brace = short(lim);
      if (brace === '\u23DF' || brace === '\u23DE') return `${brace === '\u23DF' ? '\\underbrace' : '\\overbrace'}{${e}}`;
      return `${n.name === 'm:limLow' ? '\\underset' : '\\overset'}{${lim}}{${e}}`;
    }
    case 'm:borderBox':
      return `\\boxed{${latex(child(n, 'm:e'))}}`;
    case 'm:phant':
      return prop(n, 'm:phantPr', 'm:show') === '0' || prop(n, 'm:phantPr', 'm:show') === 'off' ? '' : latex(child(n, 'm:e'));
    case 'm:eqArr':
      return `\\begin{aligned}${kids(n, 'm:e').map(latex).join(' \\\\ ')}\\end{aligned}`;
    case 'm:m':
      return `\\begin{matrix}${kids(n, 'm:mr')
        .map((row) => kids(row, 'm:e').map(latex).join(' & '))
        .join(' \\\\ ')}\\end{matrix}`;
    default:
      // Properties carry no content; anything else (m:box, m:e, a run's wrappers) gives its content.
      return n.name?.endsWith('Pr') ? '' : latex(n);
  }
}

/** A script's base, grouped when it is more than one character. */
const base = (n: XNode) => group(latex(child(n, 'm:e')));

/** A delimiter character as LaTeX sets it after `\left`/`\right` (empty: none). */
function fence(c: string): string {
  return FENCES[c] ?? symbols(c);
}

/** Characters LaTeX treats as syntax escaped; symbols with a command written as it (shared with `mathml.ts`). */
export function symbols(text: string): string {
  let out = '';
  for (const ch of text) {
    const cmd = SYMBOLS[ch];
    out += cmd !== undefined ? cmd : /[#$%&_{}]/.test(ch) ? `\\${ch}` : ch === '\\' ? '\\backslash ' : ch === '^' ? '\\hat{}' : ch === '~' ? '\\sim ' : ch;
  }
  return out;
}

export const NARY: Record<string, string> = {
  '∑': '\\sum', '∏': '\\prod', '∐': '\\coprod', '∫': '\\int', '∬': '\\iint', '∭': '\\iiint', '∮': '\\oint',
  '⋃': '\\bigcup', '⋂': '\\bigcap', '⋁': '\\bigvee', '⋀': '\\bigwedge', '⨁': '\\bigoplus', '⨂': '\\bigotimes',
};

/** Accents by their combining character, or the spacing one some writers put there (pandoc: U+203E for a bar). */
export const ACCENTS: Record<string, string> = {
  '\u0302': '\\hat', '^': '\\hat', '\u02C6': '\\hat', '\u0303': '\\tilde', '~': '\\tilde', '\u02DC': '\\tilde', '\u0307': '\\dot', '\u02D9': '\\dot',
  '\u0308': '\\ddot', '\u00A8': '\\ddot', '\u0304': '\\bar', '\u0305': '\\bar', '\u00AF': '\\bar', '\u203E': '\\bar', '\u20D7': '\\vec', '\u2192': '\\vec',
  '\u0306': '\\breve', '\u02D8': '\\breve', '\u030C': '\\check', '\u02C7': '\\check', '\u0301': '\\acute', '\u00B4': '\\acute', '\u0300': '\\grave', '`': '\\grave',
};

const FENCES: Record<string, string> = { '': '', '{': '\\{', '}': '\\}', '⟨': '\\langle', '⟩': '\\rangle', '‖': '\\|', '⌊': '\\lfloor', '⌋': '\\rfloor', '⌈': '\\lceil', '⌉': '\\rceil' };

export const FUNCTIONS = new Set(['sin', 'cos', 'tan', 'cot', 'sec', 'csc', 'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'coth', 'log', 'ln', 'lg', 'exp', 'det', 'dim', 'ker', 'deg', 'gcd', 'max', 'min', 'sup', 'inf', 'lim', 'arg', 'Pr']);

const LIMIT_OPERATORS = new Set(['lim', 'max', 'min', 'sup', 'inf', 'limsup', 'liminf']);

/** Letters and operators Word types as characters, written as LaTeX commands (a space after, to end the name). */
const SYMBOLS: Record<string, string> = Object.fromEntries(
  Object.entries({
    α: 'alpha', β: 'beta', γ: 'gamma', δ: 'delta', ε: 'epsilon', ϵ: 'epsilon', ζ: 'zeta', η: 'eta', θ: 'theta', ϑ: 'vartheta', ι: 'iota', κ: 'kappa', λ: 'lambda', μ: 'mu', ν: 'nu', ξ: 'xi', π: 'pi', ϖ: 'varpi', ρ: 'rho', ϱ: 'varrho', σ: 'sigma', ς: 'varsigma', τ: 'tau', υ: 'upsilon', φ: 'phi', ϕ: 'phi', χ: 'chi', ψ: 'psi', ω: 'omega',
    Γ: 'Gamma', Δ: 'Delta', Θ: 'Theta', Λ: 'Lambda', Ξ: 'Xi', Π: 'Pi', Σ: 'Sigma', Υ: 'Upsilon', Φ: 'Phi', Ψ: 'Psi', Ω: 'Omega',
    '∞': 'infty', '±': 'pm', '∓': 'mp', '×': 'times', '÷': 'div', '·': 'cdot', '⋅': 'cdot', '∘': 'circ', '≤': 'leq', '≥': 'geq', '≠': 'neq', '≈': 'approx', '≡': 'equiv', '∼': 'sim', '≅': 'cong', '∝': 'propto',
    '→': 'rightarrow', '←': 'leftarrow', '↔': 'leftrightarrow', '⇒': 'Rightarrow', '⇐': 'Leftarrow', '⇔': 'Leftrightarrow', '↦': 'mapsto',
    '∈': 'in', '∉': 'notin', '∋': 'ni', '⊂': 'subset', '⊃': 'supset', '⊆': 'subseteq', '⊇': 'supseteq', '∪': 'cup', '∩': 'cap', '∅': 'emptyset', '∀': 'forall', '∃': 'exists', '¬': 'neg', '∧': 'wedge', '∨': 'vee',
    '∂': 'partial', '∇': 'nabla', '…': 'ldots', '⋯': 'cdots', '⋮': 'vdots', '⋱': 'ddots',  'ℏ': 'hbar', 'ℓ': 'ell', '⊥': 'perp', '∥': 'parallel', '⊕': 'oplus', '⊗': 'otimes',
  }).map(([ch, name]) => [ch, `\\${name} `]),
);
SYMBOLS['′'] = "'";
SYMBOLS['−'] = '-';
SYMBOLS['∣'] = '\\mid ';
