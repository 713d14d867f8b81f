/**
 * Static safety rules for fingerprint patterns, so an operator's file cannot stall the event loop. JavaScript
 * regexes backtrack; they blow up exponentially when a repeated group can match the same text in several ways
 * (`(a+)+`, `(a|a)*`, `(\w*)*`) and polynomially when unbounded quantifiers can trade text between them (`\w+\w+`,
 * `<div.*x` over a long minified line). Such patterns are refused at load; the matcher also bounds every input it
 * hands a pattern (matcher.ts LIMITS), which is the backstop for whatever these rules cannot see.
 *
 * Rules: at most MAX_PATTERN_LENGTH characters; compiles as a JavaScript regex; no backreferences (`\1`, `\k<x>`);
 * no lookbehind; no group containing a quantifier or an alternation that is itself repeated more than 16 times
 * (`*`, `+`, `{n,}`, `{n,m}` with m > 16); no two open-ended quantifiers (`*`, `+`, `{n,}`) in a row; repetition
 * bounds ≤ 1000; at most one open-ended "wide" atom (`.`, `\S`, `\W`, `\D`, `[^…]`), and none at all in patterns
 * run on the page's HTML (write `.{0,200}` there). The rules are conservative: `(?:[\w-]+\.)+` is refused, write
 * `[\w.-]+` instead.
 */
export const MAX_PATTERN_LENGTH = 400;
const MAX_BOUND = 1000;
/** A repeat count above this counts as "without bound". */
const SMALL_REPEAT = 16;

interface Frame {
  quantified: boolean;
  alternation: boolean;
}

interface Quantifier {
  /** Above SMALL_REPEAT: too many ways to split text when the repeated thing is itself flexible. */
  unbounded: boolean;
  /** `*`, `+`, `{n,}`: runs as far as the input goes. */
  infinite: boolean;
}

export interface SafetyOptions {
  /** The pattern runs on the page's HTML (hundreds of kilobytes): wide atoms must be bounded. */
  largeInput?: boolean;
}

/** Reason the pattern is refused, or undefined when it is acceptable. */
export function unsafeReason(pattern: string, options: SafetyOptions = {}): string | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH) return `longer than ${MAX_PATTERN_LENGTH} characters`;
  try {
    new RegExp(pattern, 'i');
  } catch (e) {
    return `not a valid regular expression (${(e as Error).message.replace(/^Invalid regular expression: /, '')})`;
  }
  const stack: Frame[] = [{ quantified: false, alternation: false }];
  let wide = 0;
  let previousUnbounded = false;
  let i = 0;

  /** Reads the quantifier at `i`, if any, and advances past it; a string is a refusal. */
  const quantifier = (): Quantifier | undefined | string => {
    const c = pattern[i];
    let q: Quantifier | undefined;
    if (c === '*' || c === '+') {
      i++;
      q = { unbounded: true, infinite: true };
    } else if (c === '?') {
      i++;
      q = { unbounded: false, infinite: false };
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
      if (!m) return undefined; // a literal brace
      i += m[0].length;
      const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
      if (Number(m[1]) > MAX_BOUND || (max !== Infinity && max > MAX_BOUND)) return `repetition bound above ${MAX_BOUND}`;
      q = { unbounded: max > SMALL_REPEAT, infinite: max === Infinity };
    }
    if (q && pattern[i] === '?') i++; // lazy form
    return q;
  };

  /** Bookkeeping after an atom (character, escape, class or group) and its quantifier. */
  const atom = (q: Quantifier | undefined | string, isWide: boolean): string | undefined => {
    if (typeof q === 'string') return q;
    if (q) stack[stack.length - 1].quantified = true;
    if (q?.infinite) {
      if (previousUnbounded) return 'two unbounded quantifiers in a row (polynomial backtracking)';
      if (isWide) {
        if (options.largeInput) return 'an unbounded `.`, `\\S`, `\\W`, `\\D` or `[^…]` in an html pattern (bound it, e.g. .{0,200})';
        if (++wide > 1) return 'more than one unbounded `.`, `\\S`, `\\W`, `\\D` or `[^…]`';
      }
    }
    previousUnbounded = !!q?.infinite;
    return undefined;
  };

  while (i < pattern.length) {
    const c = pattern[i];
    let refusal: string | undefined;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next) || (next === 'k' && pattern[i + 2] === '<')) return 'backreferences are not allowed';
      i += next === 'u' && pattern[i + 2] === '{' ? pattern.indexOf('}', i) + 1 - i : 2;
      refusal = atom(quantifier(), /[SWD]/.test(next));
    } else if (c === '[') {
      const start = i;
      i++;
      if (pattern[i] === '^') i++;
      if (pattern[i] === ']') i++;
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      i++;
      const body = pattern.slice(start, i);
      refusal = atom(quantifier(), body.startsWith('[^') || /\\[SWD]/.test(body));
    } else if (c === '(') {
      if (pattern.startsWith('(?<=', i) || pattern.startsWith('(?<!', i)) return 'lookbehind is not allowed';
      stack.push({ quantified: false, alternation: false });
      i += pattern.startsWith('(?<', i) ? pattern.indexOf('>', i) + 1 - i : pattern.startsWith('(?', i) ? 3 : 1;
      previousUnbounded = false;
    } else if (c === ')') {
      const frame = stack.pop()!;
      i++;
      const q = quantifier();
      if (typeof q === 'string') return q;
      if (q?.unbounded && (frame.quantified || frame.alternation)) {
        return 'a repeated group contains a quantifier or an alternation (catastrophic backtracking)';
      }
      if (frame.quantified) stack[stack.length - 1].quantified = true;
      // A group's own content was checked inside it; what follows the group starts afresh unless it repeats.
      previousUnbounded = false;
      refusal = atom(q, false);
    } else if (c === '|') {
      stack[stack.length - 1].alternation = true;
      previousUnbounded = false;
      i++;
    } else {
      i++;
      refusal = atom(quantifier(), c === '.');
    }
    if (refusal) return refusal;
  }
  return undefined;
}
