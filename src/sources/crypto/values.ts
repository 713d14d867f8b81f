/**
 * Pure helpers every crypto normaliser shares, so a price, an amount, a set of changes or a link list is built the
 * same way from CoinGecko, DexScreener, pump.fun and the explorers. Inputs are hostile: each helper answers
 * undefined for anything it cannot read, never throws.
 */
import type { ASSET_AMOUNT, LINK, PERCENT_CHANGES, USD_BY_WINDOW } from '../../catalogue/endpoints/crypto.js';
import type { TypeOf } from '../../catalogue/types.js';
import type { MONEY } from '../../catalogue/vocabulary.js';
import { compact, num, str } from '../kit/read.js';

export type Money = TypeOf<typeof MONEY>;
export type AssetAmount = TypeOf<typeof ASSET_AMOUNT>;
export type PercentChanges = TypeOf<typeof PERCENT_CHANGES>;
export type UsdByWindow = TypeOf<typeof USD_BY_WINDOW>;
export type Link = TypeOf<typeof LINK>;
export type Window = keyof PercentChanges;

/** A USD amount. */
export function usd(v: unknown): Money | undefined {
  const n = num(v);
  return n === undefined ? undefined : { amount: n, currency: 'USD' };
}

/** An amount of a crypto asset; needs both the number and the symbol. */
export function assetAmount(v: unknown, symbol: string | undefined): AssetAmount | undefined {
  const n = num(v);
  return n === undefined || !symbol ? undefined : { amount: n, symbol };
}

/** Percentage changes by window; undefined when the upstream gave none. */
export function changes(parts: Partial<Record<Window, unknown>>): PercentChanges | undefined {
  const out: PercentChanges = {};
  for (const [k, v] of Object.entries(parts)) {
    const n = num(v);
    if (n !== undefined) out[k as Window] = n;
  }
  return Object.keys(out).length ? out : undefined;
}

/** USD volumes by window; undefined when the upstream gave none. */
export function usdByWindow(parts: Partial<Record<'fiveMinutes' | 'hour' | 'sixHours' | 'day', unknown>>): UsdByWindow | undefined {
  const out: UsdByWindow = { currency: 'USD' };
  let any = false;
  for (const [k, v] of Object.entries(parts)) {
    const n = num(v);
    if (n !== undefined) {
      out[k as 'day'] = n;
      any = true;
    }
  }
  return any ? out : undefined;
}

/** An http(s) address, or undefined (upstreams put "", "#" and bare handles where a URL belongs). */
export function webUrl(v: unknown): string | undefined {
  const s = str(v);
  if (!s || s.length > 2048 || !/^https?:\/\/[^\s]+$/i.test(s)) return undefined;
  return URL.canParse(s) ? s : undefined;
}

/** Links from (type, address, title) triples: invalid addresses dropped, duplicates kept once. */
export function linkList(entries: Array<[type: string | undefined, url: unknown, title?: unknown]>): Link[] | undefined {
  const seen = new Set<string>();
  const out: Link[] = [];
  for (const [type, raw, title] of entries) {
    const url = webUrl(raw);
    if (!url || seen.has(url)) continue;
    seen.add(url);
    out.push(compact({ url, type: type || undefined, title: str(title) }));
    if (out.length >= 50) break;
  }
  return out.length ? out : undefined;
}

/**
 * An integer in base units (wei, satoshi, lamports) as a number of whole units: ("1500000000000000000", 18) → 1.5.
 * The division is exact (BigInt); only the final number has a double's precision.
 */
export function fromBaseUnits(raw: unknown, decimals: number): number | undefined {
  const digits = typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  if (!/^-?\d{1,100}$/.test(digits) || !Number.isInteger(decimals) || decimals < 0 || decimals > 255) return undefined;
  const negative = digits.startsWith('-');
  const abs = negative ? digits.slice(1) : digits;
  if (decimals === 0) return Number(digits);
  const padded = abs.padStart(decimals + 1, '0');
  const whole = padded.slice(0, padded.length - decimals);
  const fraction = padded.slice(padded.length - decimals).replace(/0+$/, '');
  const n = Number(`${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`);
  return Number.isFinite(n) ? n : undefined;
}

/** `part` as a percentage of `whole`, both integers in base units; exact to 1e-6 %. */
export function sharePercent(part: unknown, whole: unknown): number | undefined {
  if (typeof part !== 'string' || typeof whole !== 'string' || !/^\d{1,100}$/.test(part) || !/^\d{1,100}$/.test(whole)) return undefined;
  const w = BigInt(whole);
  if (w === 0n) return undefined;
  return Number((BigInt(part) * 100_000_000n) / w) / 1_000_000;
}
