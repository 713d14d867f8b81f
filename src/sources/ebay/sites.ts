/** eBay's sites: the domain, currency and Browse API marketplace id of each country the catalogue offers. */
import { QuarryError } from '../../errors.js';

export interface Site {
  country: string;
  host: string;
  currency: string;
  marketplace: string;
}

const TABLE: Record<string, [string, string, string]> = {
  us: ['www.ebay.com', 'USD', 'EBAY_US'], gb: ['www.ebay.co.uk', 'GBP', 'EBAY_GB'], de: ['www.ebay.de', 'EUR', 'EBAY_DE'],
  fr: ['www.ebay.fr', 'EUR', 'EBAY_FR'], it: ['www.ebay.it', 'EUR', 'EBAY_IT'], es: ['www.ebay.es', 'EUR', 'EBAY_ES'],
  ca: ['www.ebay.ca', 'CAD', 'EBAY_CA'], au: ['www.ebay.com.au', 'AUD', 'EBAY_AU'], at: ['www.ebay.at', 'EUR', 'EBAY_AT'],
  ch: ['www.ebay.ch', 'CHF', 'EBAY_CH'], nl: ['www.ebay.nl', 'EUR', 'EBAY_NL'], ie: ['www.ebay.ie', 'EUR', 'EBAY_IE'],
  pl: ['www.ebay.pl', 'PLN', 'EBAY_PL'], be: ['www.befr.ebay.be', 'EUR', 'EBAY_BE'],
};

export function siteOf(country: string): Site {
  const row = TABLE[country.toLowerCase()];
  if (!row) throw new QuarryError('invalidRequest', `country: eBay has no site for ${country}`, { retryable: false });
  return { country: country.toLowerCase(), host: row[0], currency: row[1], marketplace: row[2] };
}

/** The site of an eBay address's host, when it is one. */
export function siteOfHost(host: string): Site | undefined {
  const h = host.toLowerCase().replace(/^(?:m\.|ebay\.)/, 'www.ebay.');
  const found = Object.entries(TABLE).find(([, [domain]]) => domain === h || domain === `www.${h}` || domain.replace('www.', '') === h);
  return found ? siteOf(found[0]) : undefined;
}

/** An item number, or an eBay /itm/ address (with its site). */
export function itemRefOf(input: string, field = 'item'): { id: string; site?: Site } {
  const s = input.trim();
  if (/^\d{9,15}$/.test(s)) return { id: s };
  if (/^https?:\/\//i.test(s) && URL.canParse(s)) {
    const url = new URL(s);
    const site = siteOfHost(url.hostname);
    const m = /\/itm\/(?:[^/]+\/)?(\d{9,15})(?:[/?#]|$)/.exec(url.pathname);
    if (site && m) return { id: m[1], site };
  }
  throw new QuarryError('invalidRequest', `${field}: give an eBay item number or an eBay /itm/ address`, { retryable: false });
}
