/**
 * Spreadsheet values as their number format shows them. numfmt applies Excel's rules (sections and conditions,
 * scaling by commas, fractions, scientific notation, zero padding, literal text, text sections, elapsed time);
 * dates and times of day are written ISO 8601 whatever the format's own order and names, as the markdown convention
 * has them; General shows the value itself.
 */
import { format as numfmt, isDateFormat } from 'numfmt';

/** Quoted literals, escaped characters and bracketed modifiers: what is not a format's own letters. */
const LITERALS = /"[^"]*"|\\.|\[[^\]]*\]/g;

/**
 * A locale tag (`[$€-407]`, `[$-409]`) makes numfmt write that locale's separators ("1.234,57 €"); the file does
 * not say which separators its reader's system used, and the rest of the sheet is written with `.` and `,`. The
 * currency symbol stays.
 */
const LOCALE_TAG = /\[\$([^\]-]*)-[0-9A-Fa-f]+\]/g;

const withoutLocale = (code: string) => code.replace(LOCALE_TAG, (_, symbol: string) => (symbol ? `[$${symbol}]` : ''));

/** Elapsed time (`[h]:mm:ss`, `[mm]:ss`): a duration, shown as the format shows it, not a time of day. */
const ELAPSED = /\[(?:h+|m+|s+)\]/i;

/**
 * numfmt keeps every pattern it has parsed for the life of the process (about 5 KB each for a long one); a file
 * could feed it any number of distinct patterns. Those handed over are counted here, so that the conversion worker
 * can retire once it holds too many (see `worker.ts`).
 */
const seen = new Set<string>();

/** How many distinct patterns this process has handed to numfmt. */
export function numberFormatsCached(): number {
  return Math.max(seen.size, kinds.size);
}

function viaNumfmt(code: string, value: number | string, opts?: { dateSpanLarge: boolean }): string | undefined {
  seen.add(code);
  try {
    return numfmt(code, value, opts);
  } catch {
    return undefined; // a pattern numfmt cannot read
  }
}

/**
 * What a code shows a number as, and the code numfmt is given (its locale tags reduced), worked out once per code:
 * cells of one format are many. Grows as `seen` does (one entry per distinct code), so the worker's retirement
 * bounds it too.
 */
const kinds = new Map<string, { kind: 'general' | 'date' | 'number'; plain: string }>();

function kindOf(code: string): { kind: 'general' | 'date' | 'number'; plain: string } {
  let k = kinds.get(code);
  if (!k) {
    const plain = withoutLocale(code);
    if (isGeneral(code)) k = { kind: 'general', plain };
    else {
      seen.add(plain); // isDateFormat parses and keeps it
      const date = !ELAPSED.test(plain.replace(/"[^"]*"|\\./g, '')) && isDateFormat(plain);
      k = { kind: date ? 'date' : 'number', plain };
    }
    kinds.set(code, k);
  }
  return k;
}

/** A number as `code` shows it; a date (serial days since 1900, or 1904 with `date1904`) in ISO 8601. */
export function formatNumber(n: number, code: string, date1904 = false): string {
  const { kind, plain } = kindOf(code);
  if (kind === 'general') return generalNumber(n);
  if (kind === 'date') return isoDate(n, plain, date1904);
  return viaNumfmt(plain, n)?.trim() ?? generalNumber(n);
}

/** Whether `code` shows a number as a date or a time of day (not General, not elapsed time). */
export function isDateCode(code: string): boolean {
  return kindOf(code).kind === 'date';
}

/** Text as `code` shows it: only a text section (`"Ref "@`, the fourth section) changes it. */
export function formatText(text: string, code: string): string {
  if (isGeneral(code) || !/@|;.*;.*;/.test(code)) return text;
  return viaNumfmt(code, text)?.trim() ?? text;
}

function isGeneral(code: string): boolean {
  const c = code.trim();
  return !c || c === '@' || /^general$/i.test(c);
}

/** Excel's General in a column wide enough for it: the value, to 15 significant digits at most. */
export function generalNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return String(Number(n.toPrecision(11)));
}

/**
 * A date, a time of day, or both, in ISO 8601: the parts the cell's format shows (its section for the value's sign),
 * each written the ISO way, then formatted by numfmt, so that seconds round as Excel rounds them and the 1900 leap
 * year Excel keeps (serial 60) reads as it shows. A value outside 1900 to 9999 shows as a number, as Excel shows no
 * date for it.
 */
function isoDate(serial: number, code: string, date1904: boolean): string {
  const sections = code.split(';');
  const section = (serial < 0 && sections[1]) || (serial === 0 && sections[2]) || sections[0];
  const bare = section.replace(LITERALS, '');
  const time = /[hs]/i.test(bare);
  const date = /[yd]/i.test(bare) || (/m/i.test(bare) && !time);
  // A month without its day ("mmm-yy", "mmmm") is a year and month; a year alone is a year.
  const day = !date ? '' : time || /d/i.test(bare) ? 'yyyy-mm-dd' : /m/i.test(bare) ? 'yyyy-mm' : 'yyyy';
  const fraction = /s\.(0{1,3})/i.exec(bare)?.[1] ?? '';
  const clock = !time ? '' : /s/i.test(bare) ? `hh:mm:ss${fraction ? `.${fraction}` : ''}` : 'hh:mm';
  const iso = [day, clock].filter(Boolean).join(' ');
  // The 1904 system counts from 1904-01-01: 1462 days after the 1900 system's day 0.
  return viaNumfmt(iso, date1904 ? serial + 1462 : serial, { dateSpanLarge: false }) ?? generalNumber(serial);
}
