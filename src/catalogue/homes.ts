/**
 * What the real-estate portals (zillow, realtor) share: one property record built from the vocabulary, so a home
 * reads the same on both. Facts are numbers (beds, baths, years, areas with their unit), money is `{amount,
 * currency}`, days are `YYYY-MM-DD`, and `status` is one of HOME_STATUSES whatever the portal calls it.
 */
import { choice, cursor, number, integer, text } from './fields.js';
import { bool, int, list, literal, num, rec, str } from './records.js';
import type { JsonSchema } from './types.js';
import { ADDRESS, GEO, IMAGE, MONEY, PERSON } from './vocabulary.js';

/** An area: a number in its unit (`sqft`, `sqm`, `acres`), as the portal states it. */
export const AREA = rec({ value: num, unit: str });

/** Money paid per period (`month`, `year`): a home's HOA fee. */
export const MONEY_PER = rec({ amount: num, currency: str }, { period: str });

/** Where a listing stands, the same words on every portal. */
export const HOME_STATUSES = ['forSale', 'forRent', 'sold', 'pending', 'comingSoon', 'offMarket'] as const;

/** One year of a property's tax record. */
export const TAX_YEAR = rec({ year: int }, { tax: MONEY, assessedValue: MONEY, landValue: MONEY, buildingValue: MONEY });

/** One event of a property's listing history. */
export const PRICE_EVENT = rec({ date: str }, { event: str, price: MONEY, source: str });

/** A unit of a building's listing (an apartment complex): its price from, and its bedrooms. */
export const HOME_UNIT = rec({}, { price: MONEY, priceText: str, beds: int, isRoom: bool });

/** Fields a property listing may carry, on any portal. */
export const PROPERTY_FIELDS = {
  url: str,
  title: str,
  description: str,
  status: str,
  homeType: str,
  price: MONEY,
  /** What a rent is paid per (`month`); absent for a sale price. */
  pricePeriod: str,
  /** The price as the portal writes it ("$1,495+/mo"), where it is not one amount. */
  priceText: str,
  address: ADDRESS,
  geo: GEO,
  beds: int,
  baths: num,
  bathsFull: int,
  bathsHalf: int,
  livingArea: AREA,
  lotSize: AREA,
  yearBuilt: int,
  stories: int,
  garage: int,
  /** The day the listing went on the market (YYYY-MM-DD). */
  listedAt: str,
  daysOnMarket: int,
  soldAt: str,
  soldPrice: MONEY,
  hoa: MONEY_PER,
  pricePerArea: MONEY,
  /** The portal's own value estimate (Zillow's Zestimate, Realtor.com's estimates). */
  estimate: MONEY,
  rentEstimate: MONEY,
  taxes: list(TAX_YEAR),
  priceHistory: list(PRICE_EVENT),
  images: list(IMAGE),
  agent: PERSON,
  broker: str,
  mlsId: str,
  /** A building listed as a whole: its units and their prices. */
  isBuilding: bool,
  units: list(HOME_UNIT),
  county: str,
  neighborhoods: list(str),
  isNewConstruction: bool,
} satisfies Record<string, JsonSchema>;

/**
 * A property: the portal's id and page are always there, and whatever `always` adds (the fields this portal's answer
 * always gives); the rest where the portal shows it.
 */
export function propertyRecord<A extends Partial<typeof PROPERTY_FIELDS> = {}>(always?: A) {
  const { url: _url, ...rest } = PROPERTY_FIELDS;
  const sometimes = Object.fromEntries(Object.entries(rest).filter(([k]) => !(always && k in always))) as Omit<typeof rest, keyof A>;
  return rec({ type: literal('property'), id: str, url: str, ...((always ?? {}) as A) }, sometimes);
}

// Inputs both portals' searches take.

export const homeLocation = () => text(2, 200, 'a city and state, a ZIP code, a county or a neighbourhood, e.g. "Austin, TX"');
export const homeStatus = <const V extends readonly (typeof HOME_STATUSES)[number][]>(values: V, def: V[number]) => ({
  ...choice(values, def),
  description: 'listings for sale, for rent or recently sold',
});
export const homePriceMin = () => number(0, 1_000_000_000);
export const homePriceMax = () => number(0, 1_000_000_000);
export const homeBedsMin = () => integer(0, 20);
/** A cursor over result pages: the next page's number, or `N~page` when `limit` stopped after N results of it. */
export const homePageCursor = () => cursor('^(?:[0-9]{1,4}~[0-9]{0,4}|[0-9]{1,4})$', 'a page number, or N~page', 10);
