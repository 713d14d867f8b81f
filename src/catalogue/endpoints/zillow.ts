import { endpoint, limit, text } from '../fields.js';
import { homeBedsMin, homeLocation, homePageCursor, homePriceMax, homePriceMin, homeStatus, PROPERTY_FIELDS, propertyRecord } from '../homes.js';
import { int, list, rec, str } from '../records.js';

/**
 * A Zillow search card: every card has its id (a zpid, or a building's own id), its page and its address line; a
 * building card lists its units instead of one price.
 */
export const ZILLOW_CARD = propertyRecord({ address: PROPERTY_FIELDS.address });
/** A home's page: its zpid, address and status are always there. */
export const ZILLOW_PROPERTY = propertyRecord({ address: PROPERTY_FIELDS.address, status: PROPERTY_FIELDS.status });

export const ZILLOW = {
  search: endpoint({
    id: 'zillow.search',
    title: 'Zillow home search',
    summary:
      'Searches Zillow homes for sale, for rent or recently sold in a city, ZIP code or neighbourhood: price, beds, baths, area, address, coordinates and photos per listing, with a cursor.',
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 1800,
    fields: {
      location: homeLocation(),
      status: homeStatus(['forSale', 'forRent', 'sold'], 'forSale'),
      priceMin: homePriceMin(),
      priceMax: homePriceMax(),
      bedsMin: homeBedsMin(),
      limit: limit(1, 200, 40),
      cursor: homePageCursor(),
    },
    required: ['location'],
    itemsField: 'properties',
    example: { location: '04011', status: 'forRent', limit: 20 },
    output: rec({ properties: list(ZILLOW_CARD) }, { total: int, cursor: str }),
  }),
  property: endpoint({
    id: 'zillow.property',
    title: 'Zillow property',
    summary:
      'Returns one Zillow home by zpid or address: price, status, facts (beds, baths, living area, lot, year built, HOA), Zestimate, tax and price history, description and photos.',
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { property: text(1, 2048, 'a zpid (digits) or a zillow.com/homedetails/… address') },
    required: ['property'],
    example: { property: '15192198' },
    output: rec({ property: ZILLOW_PROPERTY }),
  }),
};
