/**
 * Readers for upstream answers, which are hostile until proven otherwise: each returns the value in the record
 * vocabulary's form (numbers as numbers, instants as ISO 8601) or undefined, never throws and never guesses.
 * A normaliser that needs a value to exist says so with `need`, which fails the call as `sourceChanged`.
 */
import { QuarryError } from '../../errors.js';

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const obj = (v: unknown): Obj | undefined => (isObj(v) ? v : undefined);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** Objects of an array, skipping anything else. */
export const objs = (v: unknown): Obj[] => arr(v).filter(isObj);

/** A non-empty string, trimmed. */
export function str(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return t === '' ? undefined : t;
}

/** A finite number, or a numeric string ("1234.5"). */
export function num(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && /^\s*-?\d+(?:\.\d+)?(?:e[+-]?\d+)?\s*$/i.test(v)) return Number(v);
  return undefined;
}

/** A whole number (rounded), or a numeric string. */
export function int(v: unknown): number | undefined {
  const n = num(v);
  return n === undefined ? undefined : Math.round(n);
}

export const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);

/**
 * A count as people write it: "1,234", "1.2K", "3.4M views", "12 万" is not read (undefined). English suffixes
 * only; a plain number passes through.
 */
export function count(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? Math.round(v) : undefined;
  if (typeof v !== 'string') return undefined;
  const m = /(\d[\d,.\s]*)\s*([KMB])?\b/i.exec(v.replace(/\u00a0/g, ' '));
  if (!m) return undefined;
  const digits = m[1].trim();
  const scale = m[2] ? { K: 1e3, M: 1e6, B: 1e9 }[m[2].toUpperCase() as 'K' | 'M' | 'B'] : 1;
  // "1,234" and "1 234" group thousands; with a suffix, "1.2K" is a decimal.
  const value = scale === 1 ? Number(digits.replace(/[,\s.]/g, '')) : Number(digits.replace(/,/g, '.').replace(/\s/g, ''));
  return Number.isFinite(value) ? Math.round(value * scale) : undefined;
}

/** ISO 8601 from Unix seconds. */
export function isoFromSeconds(v: unknown): string | undefined {
  const n = num(v);
  return n === undefined ? undefined : isoOf(n * 1000);
}

/** ISO 8601 from Unix milliseconds. */
export function isoFromMillis(v: unknown): string | undefined {
  const n = num(v);
  return n === undefined ? undefined : isoOf(n);
}

/** ISO 8601 from any date string Date can read ("2026-01-02", RFC 2822, ISO with offset). */
export function isoFromText(v: unknown): string | undefined {
  const s = str(v);
  if (!s) return undefined;
  const ms = Date.parse(s);
  return Number.isNaN(ms) ? undefined : isoOf(ms);
}

function isoOf(ms: number): string | undefined {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** Drops undefined members and objects or arrays left empty, so absent upstream data never shows up as `{}` or `[]`. */
export function compact<T extends object>(o: T): T {
  const rec = o as Obj;
  for (const k of Object.keys(rec)) {
    const v = rec[k];
    if (v === undefined || (isObj(v) && Object.keys(v).length === 0) || (Array.isArray(v) && v.length === 0)) delete rec[k];
  }
  return o;
}

/** A value the record cannot do without: its absence means the upstream changed its format (`sourceChanged`). */
export function need<T>(value: T | undefined | null, source: string, what: string): T {
  if (value === undefined || value === null) throw changed(source, what);
  return value;
}

/** The error of an answer that no longer has the shape the normaliser reads. */
export function changed(source: string, what: string): QuarryError {
  return new QuarryError('sourceChanged', `${source}: ${what}`);
}

/**
 * `need` and `changed` for one source's normaliser: its name, and for a source over several upstreams the upstream's
 * (`readsOf('crypto', 'Binance')`), in front of every message.
 */
export function readsOf(source: string, upstream?: string) {
  const label = (what: string) => (upstream ? `${upstream} ${what}` : what);
  return {
    need: <T>(value: T | undefined | null, what: string): T => need(value, source, label(what)),
    changed: (what: string): QuarryError => changed(source, label(what)),
  };
}
