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
  /** Set raised or lowered (Word's and PowerPoint's superscript and subscript): `<sup>`, `<sub>`, as GitHub shows. */
  v?: 'sup' | 'sub';
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
    const v = runs[i].raw ? undefined : runs[i].v;
    if (v) {
      let j = i + 1;
      while (j < runs.length && !runs[j].raw && runs[j].v === v) j++;
      const inner = plainRuns(runs.slice(i, j).map((r) => ({ ...r, v: undefined })));
      out += raise(inner, v);
      i = j - 1;
      continue;
    }
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

/**
 * An address as a markdown link destination: spaces, parentheses and angle brackets percent-encoded, so that none
 * ends the destination early ("…/Duck_(disambiguation)" stays one address). `encodeURIComponent` leaves `(` and
 * `)` as they are, hence the table.
 */
const DESTINATION_ESCAPES: Record<string, string> = { ' ': '%20', '(': '%28', ')': '%29', '<': '%3C', '>': '%3E' };
const destination = (url: string) => url.trim().replace(/[ ()<>]/g, (c) => DESTINATION_ESCAPES[c]);

/** `[text](url)` when the address is http(s) or mailto, else the text alone. `text` is already markdown. */
export function link(text: string, href: string | undefined): string {
  if (!text.trim()) return text;
  if (!isSafeUrl(href)) return text;
  const url = destination(href);
  // Spaces at the text's edges (an HTML anchor written over indented lines) stand outside the brackets; a line
  // break stays inside, where its backslash belongs to it.
  return keepEdges(text, (core) => `[${core}](${url})`, (c) => c === ' ' || c === '\t');
}

/** Images never carry data: `![alt](url)` for an http(s) address, `![alt]()` when embedded, nothing without alt. */
export function image(alt: string | undefined, src?: string): string {
  const a = (alt ?? '').replace(/\s+/g, ' ').trim();
  if (!a) return '';
  return `![${esc(a)}](${isSafeUrl(src) ? destination(src) : ''})`;
}

/** Markdown set raised or lowered: `<sup>…</sup>` or `<sub>…</sub>` around its text, edge spaces outside. */
export function raise(text: string, tag: 'sup' | 'sub'): string {
  return text.trim() ? keepEdges(text, (core) => `<${tag}>${core}</${tag}>`) : text;
}

/** Wraps text in a delimiter, keeping surrounding spaces outside (`** x**` is not emphasis). */
export function wrap(text: string, mark: string): string {
  return keepEdges(text, (core) => `${mark}${core}${mark}`);
}

/**
 * `f` applied to the text between its leading and trailing edge characters (whitespace unless `edge` says), which
 * stay outside. A scan, not a pattern: /^(\s*)([\s\S]*?)(\s*)$/ backtracks quadratically over a long run of spaces.
 */
export function keepEdges(text: string, f: (core: string) => string, edge: (c: string) => boolean = (c) => /\s/.test(c)): string {
  let [start, end] = [0, text.length];
  while (start < end && edge(text[start])) start++;
  while (end > start && edge(text[end - 1])) end--;
  if (start >= end) return text;
  return text.slice(0, start) + f(text.slice(start, end)) + text.slice(end);
}

/** Markdown with each run of spaces and tabs made one space, except inside code spans (code keeps its spacing). */
export function squeeze(md: string): string {
  return splitCode(md)
    .map((part, k) => (k % 2 ? part : part.replace(/[ \t]+/g, ' ')))
    .join('');
}

/**
 * Markdown cut at its code spans: text, span, text, …, a span with its backticks at each odd index. A span runs
 * from a backtick run to the next run of the same length (CommonMark); a run without one is text, and so is an
 * escaped backtick. Runs are indexed by length first, so the scan stays linear whatever the backticks (a regex
 * backtracks cubically over a long run of them).
 */
export function splitCode(md: string): string[] {
  if (!md.includes('`')) return [md];
  const runs = new Map<number, number[]>();
  for (const m of md.matchAll(/`+/g)) {
    const at = runs.get(m[0].length);
    if (at) at.push(m.index);
    else runs.set(m[0].length, [m.index]);
  }
  /** Per run length, the next run not yet passed. */
  const next = new Map<number, number>();
  const out: string[] = [];
  let text = 0;
  for (let i = 0; i < md.length; ) {
    if (md[i] === '\\') {
      i += 2;
      continue;
    }
    if (md[i] !== '`') {
      i++;
      continue;
    }
    let n = 1;
    while (md[i + n] === '`') n++;
    const at = runs.get(n) ?? [];
    let k = next.get(n) ?? 0;
    while (k < at.length && at[k] <= i) k++;
    next.set(n, k + 1);
    if (k >= at.length) {
      i += n;
      continue;
    }
    out.push(md.slice(text, i), md.slice(i, at[k] + n));
    i = text = at[k] + n;
  }
  out.push(md.slice(text));
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
  return splitCode(md)
    .map((part, k) => {
      if (k % 2) {
        // A span's content, less the one space that pads each side of it.
        let n = 0;
        while (part[n] === '`') n++;
        const code = part.slice(n, part.length - n);
        return code.length > 1 && code.startsWith(' ') && code.endsWith(' ') ? code.slice(1, -1) : code;
      }
      // An escape, link brackets and their address, an emphasis marker.
      return part.replace(/\\(.)|!?\[|\]\([^()\s]*\)|[*_~]/g, (_m, escaped: string | undefined) => escaped ?? '');
    })
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A date-time's fraction of a second to the millisecond where the digits after are zeros (LibreOffice writes nine:
 * ".236000000" is ".236"), and none when it is all zeros (".000000000", Excel's ".00"). Only a date-time's length is looked at: the pattern backtracks over a
 * long run of digits.
 */
function shortFraction(s: string): string {
  if (s.length > 40) return s;
  return s.replace(/(T\d\d:\d\d:\d\d)\.(\d{1,9})(?=Z|[+-]\d\d:?\d\d|$)/, (m, t: string, frac: string) =>
    /^0+$/.test(frac) ? t : frac.length > 3 && /^0+$/.test(frac.slice(3)) ? `${t}.${frac.slice(0, 3)}` : m,
  );
}

/** A reviewer comment's line (docx and pptx): `**Comment (author, date-time):** text`, who and when when known. */
export function commentLine(author: string | undefined, when: string | undefined, text: string, on?: string): string {
  const by = [author, when && shortFraction(when)]
    .filter(Boolean)
    .map((x) => esc(x!))
    .join(', ');
  return `**Comment${by ? ` (${by})` : ''}${on ? ` on ${esc(on)}` : ''}:** ${text}`;
}
