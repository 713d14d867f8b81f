/**
 * The kit's readers for shop pages: prices in every locale (src/sources/kit/money.ts), calendar days in shops'
 * languages (src/sources/kit/local-date.ts) and the bounded DOM's selectors and visible text (kit/web/select.ts).
 */
import { describe, expect, it } from 'vitest';
import { dayFromText } from '../../src/sources/kit/local-date.js';
import { currencyOf, money, moneyFromMinor, parseMoney } from '../../src/sources/kit/money.js';
import { parseHtml } from '../../src/sources/kit/web/dom.js';
import { all, attr, first, hasClass, lineOf, textOf, withAttr, withId } from '../../src/sources/kit/web/select.js';

describe('kit money', () => {
  it.each([
    ['1.234,56 €', undefined, { amount: 1234.56, currency: 'EUR' }],
    ['€2.95', undefined, { amount: 2.95, currency: 'EUR' }],
    ['€149,00', undefined, { amount: 149, currency: 'EUR' }],
    ['14,00€', undefined, { amount: 14, currency: 'EUR' }],
    ['EUR 10,79', undefined, { amount: 10.79, currency: 'EUR' }],
    ['24,99 €', undefined, { amount: 24.99, currency: 'EUR' }],
    ['$1,299.00', undefined, { amount: 1299, currency: 'USD' }],
    ['$12.99', 'CAD', { amount: 12.99, currency: 'CAD' }],
    ['US $20.00', 'EUR', { amount: 20, currency: 'USD' }],
    ['C $15.00', undefined, { amount: 15, currency: 'CAD' }],
    ['AU $12.00', undefined, { amount: 12, currency: 'AUD' }],
    ['CA$15.00', undefined, { amount: 15, currency: 'CAD' }],
    ['R$ 1.299,90', undefined, { amount: 1299.9, currency: 'BRL' }],
    ["CHF 1'234.50", undefined, { amount: 1234.5, currency: 'CHF' }],
    ['￥1,234', undefined, { amount: 1234, currency: 'JPY' }],
    ['₹1,23,456.00', undefined, { amount: 123456, currency: 'INR' }],
    ['12,50 zł', undefined, { amount: 12.5, currency: 'PLN' }],
    ['199 kr', 'SEK', { amount: 199, currency: 'SEK' }],
    ['1 234,50 kr', 'NOK', { amount: 1234.5, currency: 'NOK' }],
    ['£7.50', 'EUR', { amount: 7.5, currency: 'GBP' }],
    ['1.234 €', undefined, { amount: 1234, currency: 'EUR' }],
    ['12.99', 'USD', { amount: 12.99, currency: 'USD' }],
  ])('%s (marketplace %s)', (text, currency, want) => {
    expect(parseMoney(text, { currency })).toEqual(want);
  });

  it('no number, or no currency anywhere, is undefined; never throws on odd input', () => {
    expect(parseMoney('Free')).toBeUndefined();
    expect(parseMoney('12.99')).toBeUndefined();
    expect(parseMoney(undefined)).toBeUndefined();
    expect(parseMoney('€'.repeat(10_000) + '1')).toBeUndefined();
    expect(currencyOf('Tokens 5')).toBeUndefined();
    expect(currencyOf('5 krone', 'SEK')).toBe('SEK');
  });

  it('amounts given apart from their code, and minor units with a divisor', () => {
    expect(money(2.42, 'USD')).toEqual({ amount: 2.42, currency: 'USD' });
    expect(money('10.00', 'usd')).toEqual({ amount: 10, currency: 'USD' });
    expect(money(-1, 'USD')).toBeUndefined();
    expect(money(1, 'dollars')).toBeUndefined();
    expect(moneyFromMinor(1999, 100, 'EUR')).toEqual({ amount: 19.99, currency: 'EUR' });
    expect(moneyFromMinor(1999, 0, 'EUR')).toBeUndefined();
  });
});

describe('kit local dates', () => {
  it.each([
    ['Reviewed in the United States on August 2, 2021', '2021-08-02'],
    ['Revisado en España el 25 de agosto de 2017', '2017-08-25'],
    ['Rezension aus Deutschland vom 2. März 2023', '2023-03-02'],
    ['Commenté en France le 2 août 2021', '2021-08-02'],
    ['Recensito in Italia il 14 dicembre 2022', '2022-12-14'],
    ['2021年8月2日に日本でレビュー済み', '2021-08-02'],
    ['Sold  Oct 23, 2025', '2025-10-23'],
    ['Verkauft  23. Okt 2025', '2025-10-23'],
    ['2026-01-05T10:00:00Z', '2026-01-05'],
    ['18.11.2025', '2025-11-18'],
  ])('%s', (text, want) => {
    expect(dayFromText(text)).toBe(want);
  });

  it('slashes by the platform’s order; impossible days and odd text are undefined', () => {
    expect(dayFromText('11/18/2025', 'mdy')).toBe('2025-11-18');
    expect(dayFromText('18/11/2025', 'dmy')).toBe('2025-11-18');
    expect(dayFromText('February 30, 2024')).toBeUndefined();
    expect(dayFromText('may be soon')).toBeUndefined();
    expect(dayFromText(42)).toBeUndefined();
  });
});

describe('kit DOM selection', () => {
  const doc = parseHtml(
    '<div id="a" class="x y" data-k="v"><script>var s = 1;</script><p>One <b>two</b><br>three</p><style>p{}</style><span class="y">four</span></div>',
  );
  it('by id, class and attribute; the visible text without scripts or styles', () => {
    const a = first(doc, withId('a'))!;
    expect(attr(a, 'data-k')).toBe('v');
    expect(all(doc, hasClass('y')).map((e) => e.name)).toEqual(['div', 'span']);
    expect(first(doc, withAttr('data-k', 'w'))).toBeUndefined();
    expect(textOf(a)).toBe('One two\nthree four');
    expect(lineOf(a)).toBe('One two three four');
    expect(textOf(undefined)).toBeUndefined();
  });
});
