/** Text-level rules shared by line building (`lines.ts`) and ruled-table cells (`rules.ts`). */

const HANGUL = /[\uAC00-\uD7A3\u1100-\u11FF\u3130-\u318F]/;

/**
 * Whether a horizontal gap between two runs reads as a space: the file set a space run between them (`marked`:
 * pdf.js reports it as a run of its own) and they do not overlap, or the gap is wider than 0.15 em, or, between
 * Hangul syllables (Korean separates words with spaces, and justified Korean text often sets each word as its own
 * run with less than a point between them), wider than 0.05 em.
 */
export function spaced(before: string, next: string, gap: number, size: number, marked = false): boolean {
  // Only the characters either side of the gap count (`before` may be the text so far: no pattern scans it).
  const last = before[before.length - 1];
  if (!last || !next || /\s/.test(last) || /^\s/.test(next)) return false;
  if ((marked && gap >= 0) || gap > size * 0.15) return true;
  return gap > size * 0.05 && HANGUL.test(last) && HANGUL.test(next[0]);
}

/**
 * Whether a line ending in a hyphen goes on in the next line with no space between: after a letter or digit and
 * before a capital or a digit, or after a capital or digit and before a lower-case letter, the hyphen is part of a
 * compound or code ("Next-" "Gen", a UUID's "b5f0-" "9722…", "CPU-" "heavy", "10-" "year"), not a break inside a
 * word (hyphenation splits a word between lower-case syllables) nor a dash.
 */
const hyphenJoins = (line: string, next: string) => (/[\p{L}\d]-$/u.test(line) && /^[\p{Lu}\d]/u.test(next)) || (/[\p{Lu}\d]-$/u.test(line) && /^\p{Ll}/u.test(next));

/**
 * A line and the next one its text wraps onto: a hyphen between lower-case letters is dropped where it broke a
 * word and kept where it is a compound's own (as `breaks` judges; dropped without it), a compound's or code's
 * hyphen before a capital or digit (`hyphenJoins`) and a token ending in "_" or "/" (an identifier, a path,
 * "and/or"; in markdown "\_") go on with no space, anything else with a space. A line starting with "_" keeps its
 * space: names begin so ("_NSAKEY").
 */
export function joinWrapped(line: string, next: string, breaks?: LineBreaks): string {
  const { cut, sep, rest } = seam(line, next, breaks);
  return (cut ? line.slice(0, -cut) : line) + sep + rest;
}

/**
 * Lines a paragraph wraps over, joined as `joinWrapped` joins two, but put together once (see `TextBuilder`), so
 * a paragraph of many lines costs no more than its length.
 */
export function joinWrappedAll(lines: string[], breaks?: LineBreaks): string {
  const text = new TextBuilder();
  for (const line of lines) text.wrap(line, breaks);
  return text.toString();
}

/**
 * Text built piece by piece and line by line, put together once: joining each piece onto the text so far copies
 * that text every time (quadratic over a page, or a table cell, of many short lines). The joins look at the text's
 * last 200 characters only (`end`).
 */
export class TextBuilder {
  private parts: string[] = [];
  /** The text's last 200 characters. */
  end = '';

  /** Appends text as it is. */
  append(piece: string): void {
    if (!piece) return;
    this.parts.push(piece);
    this.end = (this.end + piece).slice(-200);
  }

  /** Appends a line the text wraps onto, joined as `joinWrapped` joins it. */
  wrap(line: string, breaks?: LineBreaks): void {
    this.join(line, (end, next) => seam(end, next, breaks));
  }

  /** Appends a line, joined as `how` judges from the text's end. */
  join(line: string, how: (end: string, next: string) => Seam): void {
    const { cut, sep, rest } = how(this.end, line);
    // (A cut follows a piece that ended in what it cuts, so it never meets an empty part.)
    if (cut) {
      this.parts[this.parts.length - 1] = this.parts[this.parts.length - 1].slice(0, -cut);
      this.end = this.end.slice(0, -cut);
    }
    this.append(sep + rest);
  }

  toString(): string {
    return this.parts.join('');
  }
}

/** How a line and the next join: `cut` characters off the line's end, then `sep`, then `rest` (next, or its part). */
interface Seam {
  cut: number;
  sep: string;
  rest: string;
}

function seam(line: string, next: string, breaks?: LineBreaks): Seam {
  const keep = { cut: 0, sep: '', rest: next };
  if (!line || !next || /\s$/.test(line) || /^\s/.test(next)) return keep;
  const span = spanSeam(line, next);
  if (span) return span;
  if (/[a-z]-$/.test(line) && /^[a-z]/.test(next)) return breaks?.keepsHyphen(line, next) ? keep : { ...keep, cut: 1 };
  // A browser draws U+2010 where it hyphenates (at a soft hyphen, or with `hyphens: auto`); the text has none.
  if (/\p{Ll}\u2010$/u.test(line) && /^\p{Ll}/u.test(next)) return { ...keep, cut: 1 };
  if (hyphenJoins(line, next) || /\S[_/]$/.test(line)) return keep;
  return { ...keep, sep: ' ' };
}

/**
 * A code span a line wrapped ("`@fastify/type-provider-`" "`typebox`") is one span (a backtick in text is escaped,
 * so one at the line's end closes a span): joined with no space after a hyphen, "_" or "/" (where word processors
 * and browsers break code), else with one. Undefined where the line does not end and the next start with a span.
 */
function spanSeam(line: string, next: string): Seam | undefined {
  if (!/[^`\\]`$/.test(line) || !/^`[^`]/.test(next)) return undefined;
  return { cut: 1, sep: /[-_/]`$/.test(line) ? '' : ' ', rest: next.slice(1) };
}

/** A code span's lines join as one span (`spanSeam`), any others with a space: how a tagged table cell's lines join. */
export const spanOrSpace = (line: string, next: string): Seam => spanSeam(line, next) ?? { cut: 0, sep: line ? ' ' : '', rest: next };

/** How a document's words wrap at line ends (see `documentWords`). */
export interface LineBreaks {
  /** Whether a lower-case line-end hyphen is a compound's own ("in-" "process"), not one that broke a word. */
  keepsHyphen(line: string, next: string): boolean;
  /** Whether letters on both sides of a line end, with no hyphen, are one word the document writes elsewhere. */
  isWord(line: string, next: string): boolean;
}

const WORD = /\p{L}+(?:-\p{L}+)*-?/gu;
const LAST_WORD = /(\p{L}+(?:-\p{L}+)*)-$/u;
/** A line's last 100 characters, lower-cased: end-anchored patterns then take linear time on a hostile line. */
const tail = (line: string) => line.slice(-100).toLowerCase();

/**
 * How a document's words wrap at line ends, judged from its own words: `read` takes its text runs in content order
 * (page after page; a run ending in "x-" is followed by the run its line wraps onto), `lineBreaks` then judges.
 * A word cut with no hyphen is one word where the document writes the joined word elsewhere (`isWord`).
 * Typesetters that hyphenate (TeX, InDesign) break words between syllables ("com-" "puter"); word processors and
 * browsers by default break only at a compound's own hyphen ("in-" "process"). A hyphen's break is read by the
 * first rule that decides it:
 * - the first part is itself a compound ("node-html-" "parser"): kept (a hyphenated word is not broken again);
 * - the document writes the compound elsewhere and never the joined word: kept; the reverse: dropped;
 * - the document's other breaks: kept where more of them are shown to be compounds than broken words, dropped
 *   where fewer;
 * - the program that made the file (`lineBreaks(prior)`): kept in a browser's print (browsers do not hyphenate);
 * - kept when both parts stand as words elsewhere in the document, else dropped.
 */
export function documentWords(): { read(run: string): void; lineBreaks(prior?: number): LineBreaks } {
  const seen = new Set<string>();
  const pairs: [string, string][] = [];
  /** The first part of a word the last run broke at its end. */
  let before: string | undefined;
  const has = (w: string) => seen.has(w);
  /** +1: the document writes the compound, not the joined word; -1: the reverse; 0: it shows neither or both. */
  const evidence = (a: string, b: string) => Number(has(`${a}-${b}`) && !has(a + b)) - Number(has(a + b) && !has(`${a}-${b}`));
  return {
    read(run) {
      const words = run.toLowerCase().match(WORD);
      if (!words) return;
      words.forEach((w, k) => {
        if (k === 0 && before !== undefined && /^\s*\p{Ll}/u.test(run)) pairs.push([before, w]);
        else if (!w.endsWith('-')) {
          seen.add(w);
          if (w.includes('-')) for (const part of w.split('-')) seen.add(part);
        }
      });
      const last = words[words.length - 1];
      before = last.endsWith('-') && /\p{Ll}-\s*$/u.test(run) ? last.slice(0, -1) : undefined;
    },
    lineBreaks(prior = 0) {
      const lean = Math.sign(pairs.reduce((n, [a, b]) => (a.includes('-') ? n : n + evidence(a, b.split('-')[0])), 0)) || Math.sign(prior);
      return {
        keepsHyphen(line, next) {
          const first = LAST_WORD.exec(tail(line))?.[1];
          const b = /^\p{L}+/u.exec(next.toLowerCase())?.[0];
          if (!first || !b) return false;
          if (first.includes('-')) return true;
          return (evidence(first, b) || lean || (has(first) && has(b) ? 1 : -1)) > 0;
        },
        isWord(line, next) {
          const a = /\p{L}+$/u.exec(tail(line))?.[0];
          const b = /^\p{L}+/u.exec(next.toLowerCase())?.[0];
          return !!a && !!b && has(a + b);
        },
      };
    },
  };
}

/**
 * Text runs (space runs left out) grouped by their baseline rounded to the point, so that the runs sharing a
 * baseline are found without comparing every pair on the page. `near(y)` gives the runs whose rounded baseline is
 * within a point of y's: a baseline close to a rounding edge falls in the neighbouring group.
 */
export function baselineGroups<T extends { str: string; transform: number[] }>(items: T[]): { groups: Map<number, T[]>; near: (y: number) => T[] } {
  const groups = new Map<number, T[]>();
  for (const it of items) {
    if (!it.str.trim()) continue;
    const key = Math.round(it.transform[5]);
    const group = groups.get(key);
    if (group) group.push(it);
    else groups.set(key, [it]);
  }
  const near = (y: number) => {
    const k = Math.round(y);
    return [...(groups.get(k - 1) ?? []), ...(groups.get(k) ?? []), ...(groups.get(k + 1) ?? [])];
  };
  return { groups, near };
}

/** Text ending like a sentence or a clause that a list or a quote follows (closing quotes and brackets after it). */
export const SENTENCE_ENDED = /[.!?…:;]["”’»)\]*_`]*$/u;

/**
 * Where the first sentence of a paragraph's markdown ends: after its stop, closing quotes, brackets and note marks
 * ("Web.\\[38\\]"), before a capital, digit or opening quote, or at the end; never inside a code span, a link's text or
 * an emphasis (an abbreviation's stop before lower case is no end: "e.g. the").
 */
export function sentenceEnd(text: string): number {
  const end = /[.!?…]["”’»)\]*_`]*(?:\\\[\d+\\\])*(?=\s+["“‘«(\[*_`\p{Lu}\d]|$)/gu;
  // Open constructs up to `seen`, counted on as the search goes (a rescan per candidate would be quadratic).
  let [seen, ticks, strong, brackets] = [0, 0, 0, 0];
  for (let m = end.exec(text); m; m = end.exec(text)) {
    const stop = m.index + m[0].length;
    const part = text.slice(seen, stop);
    ticks += part.split('`').length - 1;
    strong += part.split('**').length - 1;
    brackets += (part.match(/(?<!\\)\[/g)?.length ?? 0) - (part.match(/(?<!\\)\]/g)?.length ?? 0);
    seen = stop;
    if (ticks % 2 === 0 && strong % 2 === 0 && brackets === 0) return stop;
  }
  return text.length;
}
