/**
 * Nominatim places and Overpass elements → the place record. Pure functions; types read off the declaration.
 * Both speak OpenStreetMap: an element `node|way|relation/<id>` with tags (`amenity=cafe`, `addr:street`,
 * `opening_hours`…); Nominatim adds its composed address and display name, Overpass the raw tags.
 */
import type { TypeOf } from '../../catalogue/types.js';
import type { ATTRIBUTION, PLACE } from '../../catalogue/endpoints/maps.js';
import { QuarryError } from '../../errors.js';
import { compact, need, num, obj, objs, str, type Obj } from '../kit/read.js';

export type Place = TypeOf<typeof PLACE>;
export type Attribution = TypeOf<typeof ATTRIBUTION>;

const SOURCE = 'maps';

export const OSM_ATTRIBUTION: Attribution = {
  text: '© OpenStreetMap contributors',
  licence: 'ODbL-1.0',
  url: 'https://www.openstreetmap.org/copyright',
};

const OSM_TYPES: Record<string, string> = { node: 'node', way: 'way', relation: 'relation', n: 'node', w: 'way', r: 'relation' };

/** `node/123`, `N123` or an openstreetmap.org address → `{type, id}` (the input pattern has already been checked). */
export function parsePlaceId(place: string): { type: 'node' | 'way' | 'relation'; id: string } {
  const bare = place.replace(/^https?:\/\/(?:www\.)?openstreetmap\.org\//i, '');
  const m = /^(node|way|relation)\/(\d+)$/i.exec(bare) ?? /^([NWRnwr])(\d+)$/.exec(bare);
  if (!m) throw new Error(`not an OpenStreetMap element: ${place}`);
  return { type: OSM_TYPES[m[1].toLowerCase()] as 'node' | 'way' | 'relation', id: m[2] };
}

/** Tag keys that say what a place is, in the order they are preferred when an element has several. */
const KIND_KEYS = ['amenity', 'shop', 'tourism', 'leisure', 'office', 'craft', 'healthcare', 'historic', 'railway', 'public_transport', 'aeroway', 'natural', 'place', 'building', 'highway'];

const split = (v: string | undefined): string[] | undefined => {
  const parts = v?.split(';').map((p) => p.trim()).filter(Boolean);
  return parts?.length ? parts.slice(0, 20) : undefined;
};

/** Fields read from OpenStreetMap tags (Nominatim's `extratags` are the same tags). */
function fromTags(tags: Record<string, string>) {
  const stars = num(tags.stars?.replace(/S$/i, ''));
  return {
    phone: tags.phone ?? tags['contact:phone'],
    website: tags.website ?? tags['contact:website'] ?? tags.url,
    email: tags.email ?? tags['contact:email'],
    openingHours: tags.opening_hours,
    cuisine: split(tags.cuisine),
    wheelchair: tags.wheelchair,
    brand: tags.brand,
    operator: tags.operator,
    // OpenStreetMap's `stars` is an official classification (hotels), the only rating the data has.
    stars: stars !== undefined && stars >= 0 && stars <= 7 ? { value: stars, max: stars > 5 ? 7 : 5 } : undefined,
    wikidata: tags.wikidata,
    wikipedia: tags.wikipedia,
  };
}

/** A tag object as plain strings, bounded (an element holds a few dozen tags; a hostile answer is capped). */
function tagsOf(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  let n = 0;
  for (const [k, value] of Object.entries(obj(v) ?? {})) {
    if (typeof value !== 'string' || k.length > 200) continue;
    out[k] = value.slice(0, 2000);
    if (++n >= 300) break;
  }
  return out;
}

/** Great-circle distance in whole metres. */
export function distanceMeters(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return Math.round(2 * 6371008.8 * Math.asin(Math.min(1, Math.sqrt(h))));
}

function geoOf(lat: unknown, lon: unknown): { latitude: number; longitude: number } | undefined {
  const latitude = num(lat);
  const longitude = num(lon);
  if (latitude === undefined || longitude === undefined || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return undefined;
  return { latitude, longitude };
}

const upper = (v: unknown): string | undefined => str(v)?.toUpperCase();

/** One Nominatim place (`/search` item or `/reverse` answer, jsonv2 or the older json's `class`). */
export function nominatimPlace(raw: unknown, near?: { latitude: number; longitude: number }): Place {
  const r = need(obj(raw), SOURCE, 'Nominatim place is not an object');
  const geo = need(geoOf(r.lat, r.lon), SOURCE, 'Nominatim place without lat/lon');
  const osmType = str(r.osm_type)?.toLowerCase();
  const osmId = str(String(r.osm_id ?? ''));
  const element = osmType && OSM_TYPES[osmType] && osmId && /^\d+$/.test(osmId) ? `${OSM_TYPES[osmType]}/${osmId}` : undefined;
  // A postcode or interpolated area has no OSM element: only Nominatim's own id, valid on that instance.
  const id = element ?? `nominatim/${need(str(String(r.place_id ?? '')), SOURCE, 'Nominatim place without osm or place id')}`;
  const klass = str(r.category) ?? str(r.class);
  const kind = str(r.type);
  const a = obj(r.address) ?? {};
  const extra = tagsOf(r.extratags);
  const named = obj(r.namedetails);
  // Older answers carry no `name`: the place's own name is then the address part keyed by its type or class.
  const name = str(r.name) ?? str(named?.name) ?? (kind ? str(a[kind]) : undefined) ?? (klass ? str(a[klass]) : undefined);
  return compact({
    type: 'place' as const,
    id,
    url: element ? `https://www.openstreetmap.org/${element}` : undefined,
    name,
    category: kind,
    osmTag: klass && kind ? `${klass}=${kind}` : undefined,
    address: compact({
      full: str(r.display_name),
      street: str(a.road) ?? str(a.pedestrian) ?? str(a.footway),
      houseNumber: str(a.house_number),
      city: str(a.city) ?? str(a.town) ?? str(a.village) ?? str(a.municipality) ?? str(a.hamlet),
      state: str(a.state) ?? str(a.region),
      postalCode: str(a.postcode),
      country: upper(a.country_code),
    }),
    geo,
    distanceMeters: near ? distanceMeters(near, geo) : undefined,
    ...compact(fromTags(extra)),
    importance: num(r.importance),
  });
}

/** A Nominatim `/search` answer (an array). */
export function nominatimPlaces(body: unknown, near?: { latitude: number; longitude: number }): Place[] {
  const list = need(Array.isArray(body) ? body : undefined, SOURCE, 'Nominatim search answer is not a list');
  return list.map((p) => nominatimPlace(p, near));
}

/**
 * A Nominatim `/reverse` answer: a place, or `{error: "Unable to geocode"}` where nothing is near. Some compatible
 * services (LocationIQ) answer a list of one place.
 */
export function nominatimReverse(body: unknown): Place | undefined {
  if (Array.isArray(body) && body.length === 0) return undefined;
  const o = need(obj(Array.isArray(body) ? body[0] : body), SOURCE, 'Nominatim reverse answer is not an object');
  if (o.error !== undefined && o.lat === undefined) return undefined;
  return nominatimPlace(o);
}

/** The OSM key=value an element is, by the first kind key it carries. */
function kindOf(tags: Record<string, string>): { key: string; value: string } | undefined {
  for (const key of KIND_KEYS) if (tags[key]) return { key, value: tags[key] };
  return undefined;
}

/** The name in the asked language where the element has one (`name:pt-BR`, then `name:pt`), else its own name. */
function nameIn(tags: Record<string, string>, language?: string): string | undefined {
  if (language) {
    const primary = language.split('-')[0];
    const key = Object.keys(tags).find((k) => k.toLowerCase() === `name:${language}`) ?? (tags[`name:${primary}`] ? `name:${primary}` : undefined);
    if (key) return tags[key];
  }
  return tags.name;
}

/** An Overpass element's position: its own (nodes), its `center` (`out center`), or the middle of its `bounds`. */
function elementGeo(e: Obj) {
  const center = obj(e.center);
  const bounds = obj(e.bounds);
  return (
    geoOf(e.lat, e.lon) ??
    geoOf(center?.lat, center?.lon) ??
    (bounds ? geoOf(((num(bounds.minlat) ?? NaN) + (num(bounds.maxlat) ?? NaN)) / 2, ((num(bounds.minlon) ?? NaN) + (num(bounds.maxlon) ?? NaN)) / 2) : undefined)
  );
}

/** One Overpass element as a place (undefined when it has no position: a way asked without `center`). */
export function overpassPlace(
  e: Obj,
  options: { near?: { latitude: number; longitude: number }; withTags?: boolean; language?: string } = {},
): Place | undefined {
  const type = str(e.type);
  const id = num(e.id);
  if (!type || !OSM_TYPES[type] || id === undefined) return undefined;
  const geo = elementGeo(e);
  if (!geo) return undefined;
  const element = `${type}/${id}`;
  const tags = tagsOf(e.tags);
  const kind = kindOf(tags);
  return compact({
    type: 'place' as const,
    id: element,
    url: `https://www.openstreetmap.org/${element}`,
    name: nameIn(tags, options.language),
    category: kind?.value,
    osmTag: kind ? `${kind.key}=${kind.value}` : undefined,
    address: compact({
      full: tags['addr:full'],
      street: tags['addr:street'] ?? tags['addr:place'],
      houseNumber: tags['addr:housenumber'],
      city: tags['addr:city'],
      state: tags['addr:state'] ?? tags['addr:province'],
      postalCode: tags['addr:postcode'],
      country: tags['addr:country']?.toUpperCase(),
    }),
    geo,
    distanceMeters: options.near ? distanceMeters(options.near, geo) : undefined,
    ...compact(fromTags(tags)),
    updatedAt: str(e.timestamp),
    tags: options.withTags && Object.keys(tags).length ? tags : undefined,
  });
}

/** The elements of an Overpass JSON answer; a query Overpass gave up on (its `remark`) is a busy upstream, retryable. */
export function overpassElements(body: unknown): Obj[] {
  const o = need(obj(body), SOURCE, 'Overpass answer is not an object');
  const remark = str(o.remark);
  if (remark && /runtime error|timed out|out of memory/i.test(remark)) {
    throw new QuarryError('sourceUnavailable', `maps: Overpass could not finish the query (${remark.slice(0, 200)})`);
  }
  return objs(need(Array.isArray(o.elements) ? o.elements : undefined, SOURCE, 'Overpass answer without elements'));
}
