/**
 * Word's numbering (numbering.xml): each list's levels (format, start, label pattern) with their overrides, a count
 * in a level's format, and the counters a document's lists and numbered headings share.
 */
import { attr, child, findAll, kids, parseXml } from '../xml.js';

/** Each list's levels by number (`w:numId` → `w:ilvl` → level). */
export type Numbering = Map<string, Map<number, Level>>;

export interface Level {
  fmt: string;
  start: number;
  /** The level's label pattern (`w:lvlText`, "%1.%2."). */
  text?: string;
}

export function readNumbering(xml: string | undefined): Numbering {
  const out: Numbering = new Map();
  if (!xml) return out;
  const root = parseXml(xml);
  const abstract = new Map<string, Map<number, Level>>();
  for (const a of findAll(root, 'w:abstractNum')) {
    const levels = new Map<number, Level>();
    for (const l of kids(a, 'w:lvl')) {
      levels.set(Number(attr(l, 'w:ilvl') ?? 0), {
        fmt: attr(child(l, 'w:numFmt'), 'w:val') ?? 'bullet',
        start: Number(attr(child(l, 'w:start'), 'w:val') ?? 1),
        text: attr(child(l, 'w:lvlText'), 'w:val'),
      });
    }
    abstract.set(attr(a, 'w:abstractNumId') ?? '', levels);
  }
  for (const n of findAll(root, 'w:num')) {
    const base = abstract.get(attr(child(n, 'w:abstractNumId'), 'w:val') ?? '') ?? new Map<number, Level>();
    const levels = new Map<number, Level>([...base].map(([k, v]) => [k, { ...v }]));
    for (const o of kids(n, 'w:lvlOverride')) {
      const i = Number(attr(o, 'w:ilvl') ?? 0);
      const so = attr(child(o, 'w:startOverride'), 'w:val');
      const lv = levels.get(i) ?? { fmt: 'decimal', start: 1 };
      if (so !== undefined) lv.start = Number(so);
      const ol = child(o, 'w:lvl');
      if (ol) {
        lv.fmt = attr(child(ol, 'w:numFmt'), 'w:val') ?? lv.fmt;
        lv.text = attr(child(ol, 'w:lvlText'), 'w:val') ?? lv.text;
      }
      levels.set(i, lv);
    }
    out.set(attr(n, 'w:numId') ?? '', levels);
  }
  return out;
}

/** A list count in a level's number format: decimal, with a leading zero, letters (27 is "aa"), or roman. */
function numberText(n: number, fmt: string): string {
  switch (fmt) {
    case 'decimalZero':
      return n < 10 ? `0${n}` : String(n);
    case 'lowerLetter':
    case 'upperLetter': {
      if (n < 1) return String(n);
      const letter = String.fromCharCode(97 + ((n - 1) % 26)).repeat(Math.min(10, Math.ceil(n / 26)));
      return fmt === 'upperLetter' ? letter.toUpperCase() : letter;
    }
    case 'lowerRoman':
    case 'upperRoman': {
      if (n < 1 || n > 3999) return String(n);
      let out = '';
      let v = n;
      for (const [k, r] of ROMAN)
        while (v >= k) {
          out += r;
          v -= k;
        }
      return fmt === 'upperRoman' ? out : out.toLowerCase();
    }
    default:
      return String(n);
  }
}

const ROMAN: [number, string][] = [[1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'], [50, 'L'], [40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I']];

/** Word's list counters: a count per level of each list; numbered headings and list items of one list count together. */
export class ListCounters {
  private counters = new Map<string, number[]>();

  constructor(private readonly numbering: Numbering) {}

  /**
   * A numbered heading's label as Word shows it: its level's text (`%1.%2`) with each level's count in that level's
   * format, counting on the list's counters (a heading and list items of one list number together). Bullets and
   * levels without a number give none.
   */
  label(numId: string, ilvl: number): string | undefined {
    const levels = this.numbering.get(numId);
    const lvl = levels?.get(ilvl);
    if (!lvl?.text || lvl.fmt === 'bullet' || lvl.fmt === 'none') return undefined;
    this.count(numId, ilvl, lvl.start);
    const counts = this.counters.get(numId) ?? [];
    return lvl.text.replace(/%([1-9])/g, (_, d: string) => {
      const k = Number(d) - 1;
      const at = levels!.get(k);
      return numberText(counts[k] ?? at?.start ?? 1, at?.fmt ?? 'decimal');
    });
  }

  /** The next count at `ilvl` of list `numId` (`start` at first); the levels below it start again. */
  count(numId: string | undefined, ilvl: number, start: number): number {
    const key = numId ?? '';
    const c = this.counters.get(key) ?? [];
    const value = c[ilvl] === undefined ? start : c[ilvl] + 1;
    c[ilvl] = value;
    c.length = ilvl + 1;
    this.counters.set(key, c);
    return value;
  }
}
