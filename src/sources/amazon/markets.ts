/** Amazon's marketplaces: the domain and currency of each country the catalogue offers. */
import { QuarryError } from '../../errors.js';

export interface Market {
  country: string;
  host: string;
  currency: string;
}

const TABLE: Record<string, [string, string]> = {
  us: ['www.amazon.com', 'USD'], gb: ['www.amazon.co.uk', 'GBP'], de: ['www.amazon.de', 'EUR'], fr: ['www.amazon.fr', 'EUR'],
  it: ['www.amazon.it', 'EUR'], es: ['www.amazon.es', 'EUR'], nl: ['www.amazon.nl', 'EUR'], be: ['www.amazon.com.be', 'EUR'],
  se: ['www.amazon.se', 'SEK'], pl: ['www.amazon.pl', 'PLN'], tr: ['www.amazon.com.tr', 'TRY'], ca: ['www.amazon.ca', 'CAD'],
  mx: ['www.amazon.com.mx', 'MXN'], br: ['www.amazon.com.br', 'BRL'], jp: ['www.amazon.co.jp', 'JPY'], in: ['www.amazon.in', 'INR'],
  au: ['www.amazon.com.au', 'AUD'], sg: ['www.amazon.sg', 'SGD'], ae: ['www.amazon.ae', 'AED'], sa: ['www.amazon.sa', 'SAR'],
  eg: ['www.amazon.eg', 'EGP'],
};

export function marketOf(country: string): Market {
  const row = TABLE[country.toLowerCase()];
  if (!row) throw new QuarryError('invalidRequest', `country: Amazon has no marketplace for ${country}`, { retryable: false });
  return { country: country.toLowerCase(), host: row[0], currency: row[1] };
}

/** The marketplace of an Amazon address's host, when it is one. */
export function marketOfHost(host: string): Market | undefined {
  const h = host.toLowerCase().replace(/^(?:smile\.|m\.)/, 'www.');
  const found = Object.entries(TABLE).find(([, [domain]]) => domain === h || domain === `www.${h}`);
  return found ? marketOf(found[0]) : undefined;
}

/** Amazon's `language` parameter (en_GB, de_DE) from a language tag, paired with the marketplace's country. */
export function amazonLanguage(language: string | undefined, market: Market): string | undefined {
  if (!language) return undefined;
  const [lang, region] = language.split(/[-_]/);
  return `${lang.toLowerCase()}_${(region ?? market.country).toUpperCase()}`;
}
