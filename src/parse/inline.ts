/** Inline markdown helpers shared by every converter: escaping, links (http(s)/mailto only), images as alt text. */

/** Escapes characters that would start markdown inline syntax. Whitespace is collapsed by the caller. */
export function esc(text: string): string {
  return text.replace(/[\\`*_[\]<>]/g, (c) => '\\' + c);
}

/** An inline code span: the text as is, fenced by backticks (two, space-padded, when it holds one). */
export function codeSpan(text: string): string {
  return text.trim() ? (text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``) : text;
}

/** Monospace font families (a docx or pptx run's Latin font): text set in one of them is code. */
export const MONO_FONT = /^(courier|consolas|menlo|monaco|lucida (console|sans typewriter)|andale mono|(dejavu|liberation|noto|pt|droid|ubuntu|roboto|ibm plex|source code|fira|jetbrains|cascadia|sf) ?(sans )?(mono|code)|inconsolata|ocr)/i;

/**
 * A stretch of a paragraph's text with its formatting, as docx and pptx runs carry it: `text` already escaped
 * (code as typed), or `raw` markdown written as is (a break, a note reference, an image, a link).
 */
export interface Run {
  text: string;
  b?: boolean;
  i?: boolean;
  s?: boolean;
  code?: boolean;
  raw?: boolean;
}

const EMPHASIS = [
  ['b', '**'],
  ['i', '*'],
  ['s', '~~'],
] as const;

/**
 * Runs as markdown. An emphasis spans the longest stretch of runs that carry it, spaces between them included, so
 * the file's run boundaries (a spelling mark, a code word in a bold title) never split it: `**Parse result (`data`
 * of it)**`, not `**Parse result (****data**…`. Code runs are one code span per stretch, inside the emphasis they
 * carry. A raw run ends an emphasis.
 */
export function renderRuns(runs: Run[], depth = 0): string {
  if (depth === EMPHASIS.length) return plainRuns(runs);
  const [key, mark] = EMPHASIS[depth];
  const has = (r: Run | undefined) => !!r && !r.raw && !!r[key];
  const blank = (r: Run) => !r.raw && !r.text.trim();
  let out = '';
  for (let i = 0; i < runs.length; ) {
    let j = i + 1;
    if (has(runs[i])) {
      for (let k = j; k < runs.length; k++) {
        if (has(runs[k])) j = k + 1;
        else if (!blank(runs[k])) break;
      }
      out += wrap(renderRuns(runs.slice(i, j), depth + 1), mark);
    } else {
      while (j < runs.length && !has(runs[j])) j++;
      out += renderRuns(runs.slice(i, j), depth + 1);
    }
    i = j;
  }
  return out;
}

function plainRuns(runs: Run[]): string {
  let out = '';
  for (let i = 0; i < runs.length; i++) {
    if (!runs[i].code || runs[i].raw) {
      out += runs[i].text;
      continue;
    }
    let code = runs[i].text;
    while (runs[i + 1]?.code && !runs[i + 1].raw) code += runs[++i].text;
    out += codeSpan(code);
  }
  return out;
}

const SAFE_URL = /^(https?:\/\/|mailto:)/i;

export function isSafeUrl(href: string | undefined): href is string {
  return !!href && SAFE_URL.test(href.trim());
}

/** `[text](url)` when the address is http(s) or mailto, else the text alone. `text` is already markdown. */
export function link(text: string, href: string | undefined): string {
  if (!text.trim()) return text;
  if (!isSafeUrl(href)) return text;
  const url = href.trim().replace(/[ ()<>]/g, (c) => encodeURIComponent(c));
  return `[${text}](${url})`;
}

/** Images never carry data: `![alt](url)` for an http(s) address, `![alt]()` when embedded, nothing without alt. */
export function image(alt: string | undefined, src?: string): string {
  const a = (alt ?? '').replace(/\s+/g, ' ').trim();
  if (!a) return '';
  return `![${esc(a)}](${isSafeUrl(src) ? src.trim().replace(/[ ()<>]/g, (c) => encodeURIComponent(c)) : ''})`;
}

/** Wraps text in a delimiter, keeping surrounding spaces outside (`** x**` is not emphasis). */
export function wrap(text: string, mark: string): string {
  // Trims, not a pattern: /^(\s*)([\s\S]*?)(\s*)$/ backtracks quadratically over a long run of spaces.
  const start = text.length - text.trimStart().length;
  const end = text.trimEnd().length;
  if (start >= end) return text;
  return `${text.slice(0, start)}${mark}${text.slice(start, end)}${mark}${text.slice(end)}`;
}

/**
 * Markdown with each run of spaces and tabs made one space, except inside code spans (code keeps its spacing). A
 * span runs from a backtick run to the next run of the same length (CommonMark); runs are indexed by length first,
 * so the scan stays linear whatever the backticks (a regex backtracks cubically over a long run of them).
 */
export function squeeze(md: string): string {
  const runs = new Map<number, number[]>();
  for (const m of md.matchAll(/`+/g)) {
    const at = runs.get(m[0].length);
    if (at) at.push(m.index);
    else runs.set(m[0].length, [m.index]);
  }
  /** Per run length, the next run not yet passed. */
  const next = new Map<number, number>();
  let out = '';
  for (let i = 0; i < md.length; ) {
    const c = md[i];
    if (c === '\\') {
      out += md.slice(i, i + 2);
      i += 2;
    } else if (c === '`') {
      let n = 1;
      while (md[i + n] === '`') n++;
      const at = runs.get(n) ?? [];
      let k = next.get(n) ?? 0;
      while (k < at.length && at[k] <= i) k++;
      next.set(n, k + 1);
      // The closing run, or none: then the backticks are text.
      const end = k < at.length ? at[k] + n : i + n;
      out += md.slice(i, end);
      i = end;
    } else if (c === ' ' || c === '\t') {
      while (md[i] === ' ' || md[i] === '\t') i++;
      out += ' ';
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

export function collapse(text: string): string {
  return text.replace(/[ \t\r\n\f\u00a0]+/g, ' ');
}

/**
 * A markdown snippet as plain text (a title taken from a heading): link and image syntax to their text, code spans
 * to their content as is, emphasis markers dropped, escapes undone (an escaped `_` stays, a marker goes).
 */
export function plainText(md: string): string {
  // One pass, left to right: a code span, an escape, link brackets and their address, an emphasis marker.
  return md
    .replace(/(`+)([\s\S]*?)\1|\\(.)|!?\[|\]\([^)]*\)|[*_~]/g, (_m, ticks: string | undefined, code: string, escaped: string | undefined) =>
      ticks ? code.replace(/^ ([\s\S]*) $/, '$1') : (escaped ?? ''),
    )
    .replace(/\s+/g, ' ')
    .trim();
}

/** A reviewer comment's line (docx and pptx): `**Comment (author, date-time):** text`, who and when when known. */
export function commentLine(who: (string | undefined)[], text: string): string {
  const by = who.filter(Boolean).map((x) => esc(x!)).join(', ');
  return `**Comment${by ? ` (${by})` : ''}:** ${text}`;
}
