/**
 * maps: places from OpenStreetMap (SPEC.md "search places, details, reviews"), through Nominatim (text search, the
 * place at a point) and Overpass (places of a kind near a point, a place's tags). Not priced by the spec; priced like
 * web.search, and cached long: the public instances forbid bulk use, and map data changes slowly.
 */
import { choice, country, cursor, endpoint, integer, language, limit, number, pattern, text } from '../fields.js';
import type { Schema } from '../types.js';
import { int, list, literal, num, rec, str } from '../records.js';
import { GEO, RATING, REVIEW_FIELDS } from '../vocabulary.js';

/** Place categories a search can ask for near a point, each an OpenStreetMap tag (see PLACE_CATEGORY_TAGS). */
export const PLACE_CATEGORIES = [
  'cafe', 'restaurant', 'fastFood', 'bar', 'pub', 'bakery', 'supermarket', 'convenienceStore', 'pharmacy', 'hospital',
  'doctor', 'dentist', 'bank', 'atm', 'fuel', 'chargingStation', 'parking', 'hotel', 'hostel', 'museum', 'attraction',
  'park', 'playground', 'gym', 'school', 'university', 'library', 'postOffice', 'police', 'toilets', 'cinema', 'theatre',
  'placeOfWorship', 'busStop', 'trainStation', 'bicycleRental', 'hairdresser', 'clothesShop',
] as const;

/** An OpenStreetMap element: `node/123`, `way/123`, `relation/123`, N123/W123/R123, or its openstreetmap.org address. */
export const PLACE_ID_PATTERN = '^(?:https?://(?:www\\.)?openstreetmap\\.org/)?(?:(?:node|way|relation)/[1-9][0-9]{0,15}|[NWRnwr][1-9][0-9]{0,15})$';
const placeId = () =>
  pattern(PLACE_ID_PATTERN, 'an OpenStreetMap element: node/123, way/123 or relation/123 (as maps.search answers), N123, or its openstreetmap.org address', 64);

/** The data's licence, carried by every maps answer (ODbL 1.0 requires the attribution). */
export const ATTRIBUTION = rec({ text: str, licence: str, url: str });

/** The shared ADDRESS, plus the house number OpenStreetMap keeps apart from the street; `country` is the ISO code. */
const MAP_ADDRESS = rec({}, { full: str, street: str, houseNumber: str, city: str, state: str, postalCode: str, country: str });

/** A place: an OpenStreetMap element (or, rarely, a Nominatim-only area such as a postcode, id `nominatim/<id>`). */
export const PLACE = rec(
  { type: literal('place'), id: str, geo: GEO },
  {
    url: str,
    name: str,
    category: str,
    osmTag: str,
    address: MAP_ADDRESS,
    distanceMeters: int,
    phone: str,
    website: str,
    email: str,
    openingHours: str,
    cuisine: list(str),
    wheelchair: str,
    brand: str,
    operator: str,
    stars: RATING,
    wikidata: str,
    wikipedia: str,
    importance: num,
    updatedAt: str,
    tags: { type: 'object', additionalProperties: { type: 'string' } } as Schema<Record<string, string>>,
  },
);

const REVIEW = rec({ type: literal('review'), id: str }, REVIEW_FIELDS);

const point = () => ({
  latitude: { ...number(-90, 90), description: 'WGS 84 latitude of the point, with longitude' },
  longitude: { ...number(-180, 180), description: 'WGS 84 longitude of the point, with latitude' },
});

export const MAPS = {
  search: endpoint({
    id: 'maps.search',
    title: 'Place search',
    summary: 'Finds places by name or address, or places of a category (cafés, pharmacies, hotels…) near a point, from OpenStreetMap.',
    credits: 1,
    perItems: 10,
    cacheTtlSeconds: 86400,
    fields: {
      query: text(1, 200, 'a name, an address or words to look for; with a category, words in the place name'),
      category: choice(PLACE_CATEGORIES),
      ...point(),
      radiusMeters: { ...integer(10, 50000, 1000), description: 'around the point, in metres' },
      country: country(),
      language: language(),
      limit: limit(1, 40, 10),
      cursor: cursor('^[0-9]{1,12}(?:,[0-9]{1,12}){0,199}$', 'the place ids already answered, comma-separated', 2600),
    },
    itemsField: 'places',
    example: { category: 'cafe', latitude: 48.8606, longitude: 2.3376, radiusMeters: 500, limit: 10 },
    output: rec({ places: list(PLACE), attribution: ATTRIBUTION }, { cursor: str }),
  }),
  details: endpoint({
    id: 'maps.details',
    title: 'Place details',
    summary: "Returns a place's name, address, position, opening hours, phone, website and every OpenStreetMap tag, by id or at a point.",
    credits: 1,
    cacheTtlSeconds: 604800,
    fields: {
      place: placeId(),
      ...point(),
      language: language(),
    },
    example: { place: 'node/855292284' },
    output: rec({ place: PLACE, attribution: ATTRIBUTION }),
  }),
  reviews: endpoint({
    id: 'maps.reviews',
    title: 'Place reviews',
    summary: 'Says that OpenStreetMap holds no reviews or ratings of places: answers an empty list with the reason, free of charge.',
    credits: 1,
    cacheTtlSeconds: 604800,
    fields: { place: placeId() },
    required: ['place'],
    example: { place: 'node/855292284' },
    output: rec({ place: str, note: str, attribution: ATTRIBUTION }, { reviews: list(REVIEW) }),
  }),
};
