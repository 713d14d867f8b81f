import { cursor, endpoint, limit, text } from '../fields.js';
import { homeBedsMin, homeLocation, homePriceMax, homePriceMin, homeStatus, PROPERTY_FIELDS, propertyRecord } from '../homes.js';
import { int, list, rec, str } from '../records.js';

/** A Realtor.com listing: its property id, page, address and status are in every answer. */
export const REALTOR_PROPERTY = propertyRecord({ address: PROPERTY_FIELDS.address, status: PROPERTY_FIELDS.status });

export const REALTOR = {
  search: endpoint({
    id: 'realtor.search',
    title: 'Realtor.com home search',
    summary:
      'Searches Realtor.com homes for sale, for rent, pending or sold in a city, ZIP code or county, newest first: price, beds, baths, area, lot, year built, HOA and photos, with a cursor.',
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 1800,
    fields: {
      location: homeLocation(),
      status: homeStatus(['forSale', 'forRent', 'pending', 'sold'], 'forSale'),
      priceMin: homePriceMin(),
      priceMax: homePriceMax(),
      bedsMin: homeBedsMin(),
      limit: limit(1, 200, 42),
      // Realtor.com's own result offset.
      cursor: cursor('^[0-9]{1,5}$', '1-5 digits (a result offset)', 5),
    },
    required: ['location'],
    itemsField: 'properties',
    example: { location: 'Austin, TX', status: 'forSale', limit: 20 },
    output: rec({ properties: list(REALTOR_PROPERTY) }, { total: int, cursor: str }),
  }),
  property: endpoint({
    id: 'realtor.property',
    title: 'Realtor.com property',
    summary:
      'Returns one Realtor.com home by property id or address: price, status, facts, HOA, estimates, tax history, agent, description and photos.',
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { property: text(1, 2048, 'a property id (digits) or a realtor.com/realestateandhomes-detail/… address') },
    required: ['property'],
    example: { property: '9876543210' },
    output: rec({ property: REALTOR_PROPERTY }),
  }),
};
