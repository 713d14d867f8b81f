/** What a caller may name an Amazon product by: its ASIN or any Amazon product address (/dp/, /gp/product/, …). */
import { QuarryError } from '../../errors.js';
import { marketOfHost, type Market } from './markets.js';

const ASIN = /^[A-Z0-9]{10}$/;

export interface ProductRef {
  asin: string;
  /** The marketplace the address was on, when an address was given. */
  market?: Market;
}

export function productRefOf(input: string, field = 'product'): ProductRef {
  const s = input.trim();
  if (ASIN.test(s.toUpperCase()) && !s.includes('/')) return { asin: s.toUpperCase() };
  if (/^https?:\/\//i.test(s) && URL.canParse(s)) {
    const url = new URL(s);
    const market = marketOfHost(url.hostname);
    const m = /\/(?:dp|gp\/product|gp\/aw\/d|product-reviews|exec\/obidos\/ASIN)\/([A-Z0-9]{10})(?:[/?#]|$)/i.exec(url.pathname);
    if (market && m) return { asin: m[1].toUpperCase(), market };
    throw new QuarryError('invalidRequest', `${field}: not an Amazon product address`, { retryable: false });
  }
  throw new QuarryError('invalidRequest', `${field}: give an ASIN (10 letters and digits) or an Amazon product address`, { retryable: false });
}
