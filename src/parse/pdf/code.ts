/**
 * Code set in a monospace font: consecutive lines whose text is all monospace become one fenced block, each line
 * rebuilt on the font's character grid so that indentation and aligned columns survive (text lines would join them
 * into a paragraph, or read aligned columns as a table).
 */

import { minOf } from '../../lib/arrays.js';

const MAX_COLUMN = 400;

export interface CodeLine {
  y: number;
  size: number;
  runs?: { x: number; s: string; w: number }[];
  /** Segments split by wide gaps (see `Line.cells`). */
  cells?: unknown[];
}

/**
 * Runs of code lines (as `isCode` says) of one text size (a footnote's mark is no code line), each within three
 * text sizes of the one above (a blank line inside a listing is about two), two lines or more, or one set off from
 * the lines above and below it by more than a line's spacing (see below): start index → end index (exclusive).
 */
export function codeRuns<L extends CodeLine>(lines: L[], isCode: (l: L) => boolean): Map<number, number> {
  const out = new Map<number, number>();
  for (let i = 0; i < lines.length; ) {
    if (!isCode(lines[i])) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < lines.length && isCode(lines[j]) && Math.abs(lines[j].size - lines[i].size) < 0.5 && lines[j - 1].y - lines[j].y > 0 && lines[j - 1].y - lines[j].y <= lines[j].size * 3) j++;
    // A single line is code when it is set off from the text above and below it (a command shown on its own; a
    // footnote's address at the foot of a page is not), unless a neighbour is a code line split into as many cells:
    // then they are rows of a table set in a typewriter font, far apart.
    const off = (a: CodeLine | undefined, b: CodeLine | undefined) => !!a && !!b && a.y - b.y >= lines[i].size * 1.8;
    const cells = lines[i].cells?.length ?? 1;
    const row = (n: L | undefined) => cells >= 2 && !!n && isCode(n) && n.cells?.length === cells;
    if (j - i >= 2 || (off(lines[i - 1], lines[i]) && off(lines[i], lines[i + 1]) && !row(lines[i - 1]) && !row(lines[i + 1]))) out.set(i, j);
    i = j;
  }
  return out;
}

/**
 * The block's text: each run at the column its start falls on (the pitch is the typical advance per character of
 * the block's runs), lines indented from the block's leftmost start, one blank line where the spacing doubles.
 */
export function codeText(lines: CodeLine[]): string {
  const ratios = lines
    .flatMap((l) => l.runs ?? [])
    .filter((r) => r.s.length >= 2 && !/\s/.test(r.s) && r.w > 0)
    .map((r) => r.w / r.s.length)
    .sort((a, b) => a - b);
  const pitch = ratios[Math.floor(ratios.length / 2)] || (lines[0]?.size ?? 10) * 0.6;
  const left = minOf(lines.map((l) => l.runs?.[0]?.x ?? Infinity));
  const steps = lines.slice(1).map((l, i) => lines[i].y - l.y);
  const step = minOf(steps.filter((g) => g > 0));
  const out: string[] = [];
  lines.forEach((l, i) => {
    if (i && steps[i - 1] >= step * 1.6) out.push('');
    let s = '';
    let end = -Infinity;
    for (const r of l.runs ?? []) {
      // A run set absurdly far right (a hostile file's coordinates) is not padded to a megabyte.
      const col = Math.min(MAX_COLUMN, Math.max(0, Math.round((r.x - left) / pitch)));
      if (col > s.length) s = s.padEnd(col);
      else if (s && !/\s$/.test(s) && !/^\s/.test(r.s) && r.x - end > pitch * 0.5) s += ' ';
      s += r.s;
      end = r.x + r.w;
    }
    out.push(s.trimEnd());
  });
  return out.join('\n');
}
