import { choice, cursor, endpoint, limit, text } from '../fields.js';
import { int, list, literal, num, rec, str } from '../records.js';
import { stayRecord, STAY_FIELDS, travelCurrency, travelLanguage, travelReview } from '../stays.js';

/**
 * A place a search finds: Tripadvisor's location id, name and address (the search answers no page address or
 * rating; `tripadvisor.place` has them).
 */
export const TRIPADVISOR_RESULT = rec(
  { type: literal('place'), id: str, name: str },
  { address: STAY_FIELDS.address, distance: num, bearing: str },
);
/** A hotel, restaurant, attraction or destination, with what Tripadvisor says of it. */
export const TRIPADVISOR_PLACE = stayRecord('place', { cuisine: list(str), awards: list(str), hours: list(str), photos: int });
export const TRIPADVISOR_REVIEW = travelReview({ travelledAt: str });

const placeRef = () => text(1, 2048, 'a Tripadvisor location id (digits) or a tripadvisor.com address (…-d<id>-…)');

export const TRIPADVISOR = {
  search: endpoint({
    id: 'tripadvisor.search',
    title: 'Tripadvisor search',
    summary: 'Finds Tripadvisor hotels, restaurants, attractions or destinations by name: up to 10 places with their location id and address.',
    credits: 1,
    cacheTtlSeconds: 86400,
    fields: {
      query: text(1, 200, 'a place name, e.g. "Louvre" or "pizza Naples"'),
      category: choice(['all', 'hotels', 'restaurants', 'attractions', 'geos'], 'all'),
      language: travelLanguage(),
      limit: limit(1, 10, 10),
    },
    required: ['query'],
    itemsField: 'places',
    example: { query: 'Example Harbour' },
    output: rec({ places: list(TRIPADVISOR_RESULT) }),
  }),
  place: endpoint({
    id: 'tripadvisor.place',
    title: 'Tripadvisor place',
    summary:
      'Returns one Tripadvisor place by location id or address: name, description, address, coordinates, rating and review count, ranking, subratings, categories, contact details, awards and photos.',
    credits: 1,
    cacheTtlSeconds: 86400,
    fields: { place: placeRef(), language: travelLanguage(), currency: travelCurrency() },
    required: ['place'],
    example: { place: '1234567' },
    output: rec({ place: TRIPADVISOR_PLACE }),
  }),
  reviews: endpoint({
    id: 'tripadvisor.reviews',
    title: 'Tripadvisor reviews',
    summary: "Returns a Tripadvisor place's most recent reviews (up to 5 a call): rating, title, text, trip type and date, reviewer and the owner's response.",
    credits: 1,
    cacheTtlSeconds: 3600,
    fields: {
      place: placeRef(),
      language: travelLanguage(),
      limit: limit(1, 5, 5),
      // The review offset the Content API pages by.
      cursor: cursor('^[0-9]{1,4}$', '1-4 digits (a review offset)', 4),
    },
    required: ['place'],
    itemsField: 'reviews',
    example: { place: '1234567' },
    output: rec({ reviews: list(TRIPADVISOR_REVIEW) }, { cursor: str }),
  }),
};
