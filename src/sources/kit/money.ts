/**
 * Prices as shops write them, read into the vocabulary's money: `{ amount, currency }`, the amount a number in the
 * currency's major unit and the currency an ISO 4217 code. Shops write "1.234,56 €", "€2.95", "EUR 10,79",
 * "US $1,299.00", "R$ 12,90", "CHF 1'234.50" or "￥1,234": the currency comes from a code or a symbol in the text,
 * else from the marketplace's own (`currency`); the decimal mark is told from the grouping by position (with both
 * marks the last one is decimal; a lone mark before exactly three digits groups thousands, as no common currency
 * prices in thousandths). Never throws; what cannot be read is undefined.
 */

export interface Money {
  amount: number;
  currency: string;
}

export interface MoneyHints {
  /** The marketplace's currency, used when the text names none (and for a bare `$`, `kr` or `¥`). */
  currency?: string;
}

/** ISO 4217 codes a price text may spell out ("EUR 10,79", "12.99 USD"). */
const CODES = new Set(
  (
    'AED ARS AUD BDT BGN BHD BRL CAD CHF CLP CNY COP CZK DKK EGP EUR GBP HKD HUF IDR ILS INR ISK JOD JPY KES KRW KWD ' +
    'MAD MXN MYR NGN NOK NZD OMR PEN PHP PKR PLN QAR RON RSD RUB SAR SEK SGD THB TRY TWD UAH USD UYU VND ZAR'
  ).split(' '),
);

/** Symbols and local abbreviations, longest first so `US$` wins over `$`. */
const SYMBOLS: [string, string | ((hint?: string) => string | undefined)][] = [
  ['US$', 'USD'], ['US $', 'USD'], ['CA$', 'CAD'], ['C$', 'CAD'], ['C $', 'CAD'], ['AU$', 'AUD'], ['AU $', 'AUD'], ['A$', 'AUD'], ['NZ$', 'NZD'],
  ['HK$', 'HKD'], ['S$', 'SGD'], ['MX$', 'MXN'], ['R$', 'BRL'], ['NT$', 'TWD'], ['E£', 'EGP'], ['Rs.', 'INR'],
  ['zł', 'PLN'], ['Kč', 'CZK'], ['Ft', 'HUF'], ['lei', 'RON'], ['TL', 'TRY'], ['Fr.', 'CHF'], ['د.إ', 'AED'], ['ر.س', 'SAR'],
  ['€', 'EUR'], ['£', 'GBP'], ['₹', 'INR'], ['₩', 'KRW'], ['₺', 'TRY'], ['₱', 'PHP'], ['฿', 'THB'], ['₫', 'VND'],
  ['₪', 'ILS'], ['₽', 'RUB'], ['₴', 'UAH'], ['₦', 'NGN'],
  ['￥', (h) => (h === 'CNY' ? 'CNY' : 'JPY')], ['¥', (h) => (h === 'CNY' ? 'CNY' : 'JPY')],
  ['kr', (h) => (h === 'SEK' || h === 'NOK' || h === 'DKK' || h === 'ISK' ? h : undefined)],
  // A bare dollar is the marketplace's dollar (amazon.ca prices "$12.99" in CAD), else the US dollar.
  ['$', (h) => (h && /^(?:USD|CAD|AUD|NZD|MXN|SGD|HKD|TWD|ARS|CLP|COP|UYU)$/.test(h) ? h : 'USD')],
];

const NUMBER = /\d[\d.,'’\u00a0\u202f ]*/;

/** The first price in `text`, or undefined when it holds no number or no currency can be named. */
export function parseMoney(text: unknown, hints: MoneyHints = {}): Money | undefined {
  if (typeof text !== 'string') return undefined;
  const s = text.slice(0, 200);
  const m = NUMBER.exec(s);
  if (!m) return undefined;
  const amount = readAmount(m[0]);
  if (amount === undefined) return undefined;
  const currency = currencyOf(s, hints.currency);
  return currency ? { amount, currency } : undefined;
}

/** A number and a code the upstream gives apart (`{price: 2.42, currencyUnit: "USD"}`), checked. */
export function money(amount: unknown, currency: unknown): Money | undefined {
  const n = typeof amount === 'string' && /^\s*\d+(?:\.\d+)?\s*$/.test(amount) ? Number(amount) : amount;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return undefined;
  const code = typeof currency === 'string' ? currency.trim().toUpperCase() : '';
  return /^[A-Z]{3}$/.test(code) ? { amount: n, currency: code } : undefined;
}

/** Amounts in minor units with their divisor (Etsy's `{amount: 1999, divisor: 100}`), as major units. */
export function moneyFromMinor(amount: unknown, divisor: unknown, currency: unknown): Money | undefined {
  if (typeof amount !== 'number' || typeof divisor !== 'number' || !(divisor > 0)) return undefined;
  return money(Math.round((amount / divisor) * 1e6) / 1e6, currency);
}

/** The currency a price text names: an ISO code, else a symbol, else the hint. */
export function currencyOf(text: string, hint?: string): string | undefined {
  const code = /(?:^|[^A-Za-z])([A-Z]{3})(?![A-Za-z])/.exec(text)?.[1];
  if (code && CODES.has(code)) return code;
  for (const [symbol, to] of SYMBOLS) {
    if (!text.includes(symbol)) continue;
    // Letter symbols (kr, Ft, lei, TL) only as words, not inside another word.
    if (/^[A-Za-z]/.test(symbol) && !new RegExp(`(?:^|[^A-Za-z])${symbol.replace(/[.$]/g, '\\$&')}(?![A-Za-z])`).test(text)) continue;
    const c = typeof to === 'string' ? to : to(hint);
    if (c) return c;
  }
  return hint && /^[A-Z]{3}$/.test(hint) ? hint : undefined;
}

/** "1.234,56" → 1234.56, "1,234.56" → 1234.56, "2.95" → 2.95, "1'234.50" → 1234.5, "1.234" → 1234. */
function readAmount(raw: string): number | undefined {
  let s = raw.replace(/[\s\u00a0\u202f'’]/g, '').replace(/[.,]+$/, '');
  if (!s) return undefined;
  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  if (lastDot >= 0 && lastComma >= 0) {
    const decimal = lastDot > lastComma ? '.' : ',';
    const group = decimal === '.' ? ',' : '.';
    s = s.split(group).join('').replace(decimal, '.');
  } else if (lastDot >= 0 || lastComma >= 0) {
    const mark = lastDot >= 0 ? '.' : ',';
    const parts = s.split(mark);
    const grouping = parts.length > 2 || parts[parts.length - 1].length === 3;
    s = grouping ? parts.join('') : `${parts[0]}.${parts[1]}`;
  }
  if (!/^\d+(?:\.\d+)?$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}
