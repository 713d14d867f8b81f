/**
 * The maps source, on OpenStreetMap data: text search through Nominatim, places of a category near a point and a
 * place's tags through Overpass, the place at a point through Nominatim's reverse geocoder. Every answer carries the
 * data's attribution (ODbL 1.0). OpenStreetMap holds no reviews: maps.reviews says so, with an empty list, free.
 */
import { MAPS, type PLACE_CATEGORIES } from '../../catalogue/endpoints/maps.js';
import type { InputOf } from '../../catalogue/types.js';
import { QuarryError } from '../../errors.js';
import { operation } from '../kit/operation.js';
import { num, obj } from '../kit/read.js';
import type { SourceContext, SourceModule } from '../types.js';
import { mapsConfig, nominatim, overpass } from './client.js';
import { nominatimPlaces, nominatimReverse, OSM_ATTRIBUTION, overpassElements, overpassPlace, parsePlaceId, type Place } from './normalise.js';
import detailsSamples from './samples/details.json' with { type: 'json' };
import searchSamples from './samples/search.json' with { type: 'json' };

/** The OpenStreetMap tag each category stands for. */
export const CATEGORY_TAGS: Record<(typeof PLACE_CATEGORIES)[number], [string, string]> = {
  cafe: ['amenity', 'cafe'],
  restaurant: ['amenity', 'restaurant'],
  fastFood: ['amenity', 'fast_food'],
  bar: ['amenity', 'bar'],
  pub: ['amenity', 'pub'],
  bakery: ['shop', 'bakery'],
  supermarket: ['shop', 'supermarket'],
  convenienceStore: ['shop', 'convenience'],
  pharmacy: ['amenity', 'pharmacy'],
  hospital: ['amenity', 'hospital'],
  doctor: ['amenity', 'doctors'],
  dentist: ['amenity', 'dentist'],
  bank: ['amenity', 'bank'],
  atm: ['amenity', 'atm'],
  fuel: ['amenity', 'fuel'],
  chargingStation: ['amenity', 'charging_station'],
  parking: ['amenity', 'parking'],
  hotel: ['tourism', 'hotel'],
  hostel: ['tourism', 'hostel'],
  museum: ['tourism', 'museum'],
  attraction: ['tourism', 'attraction'],
  park: ['leisure', 'park'],
  playground: ['leisure', 'playground'],
  gym: ['leisure', 'fitness_centre'],
  school: ['amenity', 'school'],
  university: ['amenity', 'university'],
  library: ['amenity', 'library'],
  postOffice: ['amenity', 'post_office'],
  police: ['amenity', 'police'],
  toilets: ['amenity', 'toilets'],
  cinema: ['amenity', 'cinema'],
  theatre: ['amenity', 'theatre'],
  placeOfWorship: ['amenity', 'place_of_worship'],
  busStop: ['highway', 'bus_stop'],
  trainStation: ['railway', 'station'],
  bicycleRental: ['amenity', 'bicycle_rental'],
  hairdresser: ['shop', 'hairdresser'],
  clothesShop: ['shop', 'clothes'],
};

/** Most elements one category query reads, to answer the nearest `limit` of them. */
const CATEGORY_READ = 200;
const MAX_CURSOR_IDS = 200;

const bad = (message: string) => new QuarryError('invalidRequest', message, { retryable: false });

/** The point of an input, when it gives one; half a point is a 400. */
function pointOf(input: { latitude?: number; longitude?: number }) {
  if (input.latitude === undefined && input.longitude === undefined) return undefined;
  if (input.latitude === undefined) throw bad('latitude: required with longitude');
  if (input.longitude === undefined) throw bad('longitude: required with latitude');
  return { latitude: input.latitude, longitude: input.longitude };
}

/** Overpass QL string literal (and regex) escaping for caller words. */
const qlRegex = (s: string): string => s.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[.*+?^${}()|[\]]/g, (c) => `\\\\${c}`);

/** A box around a point, as Nominatim's viewbox (left, top, right, bottom). */
function viewbox(p: { latitude: number; longitude: number }, radius: number): string {
  const dLat = radius / 111_320;
  const dLon = radius / (111_320 * Math.max(0.01, Math.cos((p.latitude * Math.PI) / 180)));
  const r = (n: number) => Number(n.toFixed(6));
  return [r(p.longitude - dLon), r(Math.min(90, p.latitude + dLat)), r(p.longitude + dLon), r(Math.max(-90, p.latitude - dLat))].join(',');
}

const answer = (places: Place[], cursor?: string) => ({
  data: { places, attribution: OSM_ATTRIBUTION, ...(cursor ? { cursor } : {}) },
  ...(places.length ? {} : { free: true }),
});

async function categorySearch(input: InputOf<typeof MAPS.search>, ctx: SourceContext, near: { latitude: number; longitude: number }) {
  const [key, value] = CATEGORY_TAGS[input.category!];
  const named = input.query ? `["name"~"${qlRegex(input.query)}",i]` : '';
  const statements = `nwr["${key}"="${value}"]${named}(around:${input.radiusMeters},${near.latitude},${near.longitude});out center tags ${CATEGORY_READ};`;
  const elements = overpassElements(await overpass(ctx, mapsConfig(ctx.settings), statements));
  const places = elements
    // Only what carries the asked tag: an instance answering more than asked is not taken at its word.
    .filter((e) => (obj(e.tags)?.[key] ?? undefined) === value)
    .flatMap((e) => overpassPlace(e, { near, language: input.language }) ?? [])
    .sort((a, b) => (a.distanceMeters ?? 0) - (b.distanceMeters ?? 0))
    .slice(0, input.limit);
  return answer(places);
}

const search = operation(MAPS.search, {
  async run(input, ctx) {
    const config = mapsConfig(ctx.settings);
    const near = pointOf(input);
    if (!input.query && !input.category) throw bad('query: give a query, a category with latitude and longitude, or both');
    if (input.category) {
      if (!near) throw bad('latitude: a category search needs latitude and longitude');
      if (input.cursor) throw bad('cursor: a category search answers the nearest places in one page');
      return categorySearch(input, ctx, near);
    }
    const q = new URLSearchParams({ format: 'jsonv2', q: input.query!, addressdetails: '1', extratags: '1', namedetails: '1', limit: String(input.limit) });
    if (input.country) q.set('countrycodes', input.country);
    if (input.language) q.set('accept-language', input.language);
    if (near) {
      q.set('viewbox', viewbox(near, input.radiusMeters));
      q.set('bounded', '1');
    }
    if (input.cursor) q.set('exclude_place_ids', input.cursor);
    const body = await nominatim(ctx, config, '/search', q);
    const places = nominatimPlaces(body, near);
    // Nominatim has no offsets: the next page excludes every place answered so far.
    const seen = [...(input.cursor ? input.cursor.split(',') : []), ...(body as unknown[]).flatMap((p) => (num(obj(p)?.place_id) !== undefined ? [String(num(obj(p)?.place_id))] : []))];
    const more = places.length >= input.limit && seen.length <= MAX_CURSOR_IDS;
    return answer(places, more ? seen.join(',') : undefined);
  },
  samples: searchSamples,
});

const details = operation(MAPS.details, {
  async run(input, ctx) {
    const config = mapsConfig(ctx.settings);
    const near = pointOf(input);
    if (input.place && near) throw bad('place: give a place or a point (latitude and longitude), not both');
    if (input.place) {
      const { type, id } = parsePlaceId(input.place);
      const elements = overpassElements(await overpass(ctx, config, `${type}(${id});out meta center;`));
      const element = elements.find((e) => e.type === type && String(e.id) === id);
      const place = element && overpassPlace(element, { withTags: true, language: input.language });
      if (!place) throw new QuarryError('notFound', `place: no OpenStreetMap ${type} ${id}`);
      return { data: { place, attribution: OSM_ATTRIBUTION } };
    }
    if (!near) throw bad('place: give a place id, or latitude and longitude');
    const q = new URLSearchParams({ format: 'jsonv2', lat: String(near.latitude), lon: String(near.longitude), addressdetails: '1', zoom: '18', extratags: '1', namedetails: '1' });
    if (input.language) q.set('accept-language', input.language);
    const place = nominatimReverse(await nominatim(ctx, config, '/reverse', q));
    if (!place) throw new QuarryError('notFound', 'latitude: nothing is mapped at that point');
    return { data: { place, attribution: OSM_ATTRIBUTION } };
  },
  samples: detailsSamples,
});

export const NO_REVIEWS =
  'OpenStreetMap holds no reviews or ratings of places, and no open review source covers them; this endpoint answers no reviews rather than invent any, and is not billed.';

/** The same honest answer in both modes: nothing is fetched, so there is nothing to record. */
function reviewsOf(input: InputOf<typeof MAPS.reviews>) {
  const { type, id } = parsePlaceId(input.place);
  return { data: { place: `${type}/${id}`, reviews: [], note: NO_REVIEWS, attribution: OSM_ATTRIBUTION }, free: true };
}

const reviews = operation(MAPS.reviews, { run: async (input) => reviewsOf(input), sample: reviewsOf });

const maps: SourceModule = {
  id: 'maps',
  needs: {
    settings: [
      { name: 'CONTACT', required: true, purpose: 'an e-mail address or URL for the User-Agent; OpenStreetMap’s public instances refuse anonymous use (not needed with your own instances)' },
      { name: 'NOMINATIM_URL', required: false, purpose: 'base address of your own Nominatim (default the public nominatim.openstreetmap.org, light use only)' },
      { name: 'OVERPASS_URL', required: false, purpose: 'base address of your own Overpass API, ending in /api (default the public overpass-api.de/api)' },
      { name: 'NOMINATIM_INTERVAL_MS', required: false, purpose: 'least time between two Nominatim requests (default 1000 on the public instance, 0 on your own)' },
    ],
  },
  operations: [search, details, reviews],
};

export default maps;
