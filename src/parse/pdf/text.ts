/** Text-level rules shared by line building (`lines.ts`) and ruled-table cells (`rules.ts`). */

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

/**
 * Whether a line ending in a hyphen goes on in the next line with no space between: after a letter or digit and
 * before a capital or a digit, the hyphen is part of a compound or code ("Next-" "Gen", a UUID's "b5f0-" "9722…"),
 * not a break inside a word nor a dash.
 */
const hyphenJoins = (line: string, next: string) => /[\p{L}\d]-$/u.test(line) && /^[\p{Lu}\d]/u.test(next);

/**
 * A line and the next one its text wraps onto: a hyphen breaking a word between lower-case letters is dropped, a
 * compound's or code's hyphen (`hyphenJoins`) and a token ending in "_" or "/" (an identifier, a path, "and/or"; in
 * markdown "\_") go on with no space, anything else with a space. A line starting with "_" keeps its space: names
 * begin so ("_NSAKEY").
 */
export function joinWrapped(line: string, next: string): string {
  if (!line || !next || /\s$/.test(line) || /^\s/.test(next)) return line + next;
  if (/[a-z]-$/.test(line) && /^[a-z]/.test(next)) return line.slice(0, -1) + next;
  if (hyphenJoins(line, next) || /\S[_/]$/.test(line)) return line + next;
  return `${line} ${next}`;
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
