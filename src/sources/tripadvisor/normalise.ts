/**
 * Content API answers as the shared travel records. Pure functions. The API writes numbers as strings ("4.5",
 * "1215"), ratings are on 5, `travel_date` is a month (YYYY-MM), subratings come keyed by position.
 */
import type { TRIPADVISOR_PLACE, TRIPADVISOR_RESULT, TRIPADVISOR_REVIEW } from '../../catalogue/endpoints/tripadvisor.js';
import type { TypeOf } from '../../catalogue/types.js';
import { arr, compact, int, isObj, isoFromText, need, num, obj, objs, str, type Obj } from '../kit/read.js';

export type TripadvisorResult = TypeOf<typeof TRIPADVISOR_RESULT>;
export type TripadvisorPlace = TypeOf<typeof TRIPADVISOR_PLACE>;
export type TripadvisorReview = TypeOf<typeof TRIPADVISOR_REVIEW>;

const idOf = (v: unknown): string | undefined => str(v) ?? (typeof v === 'number' ? String(v) : undefined);
const localized = (v: unknown): string | undefined => str(obj(v)?.localized_name) ?? str(obj(v)?.name);

function address(v: unknown) {
  const a = obj(v);
  if (!a) return undefined;
  const street = [str(a.street1), str(a.street2)].filter(Boolean).join(', ') || undefined;
  return compact({ full: str(a.address_string), street, city: str(a.city), state: str(a.state), postalCode: str(a.postalcode), country: str(a.country) });
}

function subratings(v: unknown) {
  const list = isObj(v) ? Object.values(v) : arr(v);
  return objs(list).flatMap((s) => {
    const name = localized(s);
    const value = num(s.value);
    return name && value !== undefined ? [{ name, value }] : [];
  });
}

/** The largest size a photo comes in (`original`, else `large`, …). */
function photoUrl(p: Obj): { url: string; width?: number; height?: number; caption?: string } | undefined {
  const images = obj(p.images) ?? {};
  const best = ['original', 'large', 'medium', 'small', 'thumbnail'].map((k) => obj(images[k])).find((i) => str(i?.url));
  return best ? compact({ url: str(best.url)!, width: int(best.width), height: int(best.height), caption: str(p.caption) }) : undefined;
}

export function result(r: Obj): TripadvisorResult {
  return compact({
    type: 'place' as const,
    id: need(idOf(r.location_id), 'tripadvisor', 'search result without location_id'),
    name: need(str(r.name), 'tripadvisor', 'search result without name'),
    address: address(r.address_obj),
    distance: num(r.distance),
    bearing: str(r.bearing),
  }) as TripadvisorResult;
}

export function place(d: Obj, photos: Obj[]): TripadvisorPlace {
  const id = need(idOf(d.location_id), 'tripadvisor', 'details without location_id');
  const rating = num(d.rating);
  const lat = num(d.latitude);
  const lng = num(d.longitude);
  return compact({
    type: 'place' as const,
    id,
    url: need(str(d.web_url), 'tripadvisor', 'details without web_url'),
    name: need(str(d.name), 'tripadvisor', 'details without name'),
    description: str(d.description),
    kind: localized(d.category),
    address: address(d.address_obj),
    geo: lat !== undefined && lng !== undefined ? { latitude: lat, longitude: lng } : undefined,
    rating: rating !== undefined ? compact({ value: rating, max: 5, count: int(d.num_reviews) }) : undefined,
    subratings: subratings(d.subratings),
    ranking: str(obj(d.ranking_data)?.ranking_string),
    priceLevel: str(d.price_level),
    categories: objs(d.subcategory).flatMap((s) => (localized(s) ? [localized(s)!] : [])),
    cuisine: objs(d.cuisine).flatMap((c) => (localized(c) ? [localized(c)!] : [])),
    amenities: arr(d.amenities).flatMap((a) => (str(a) ? [str(a)!] : [])),
    awards: objs(d.awards).flatMap((a) => {
      const name = str(a.display_name) ?? str(a.award_type);
      return name ? [[name, str(a.year)].filter(Boolean).join(' ')] : [];
    }),
    hours: arr(obj(d.hours)?.weekday_text).flatMap((h) => (str(h) ? [str(h)!] : [])),
    phone: str(d.phone),
    website: str(d.website),
    email: str(d.email),
    timezone: str(d.timezone),
    photos: int(d.photo_count),
    images: photos.flatMap((p) => photoUrl(p) ?? []),
  }) as TripadvisorPlace;
}

export function review(r: Obj): TripadvisorReview {
  const user = obj(r.user) ?? {};
  const avatar = obj(user.avatar) ?? {};
  const owner = obj(r.owner_response);
  const travel = str(r.travel_date);
  return compact({
    type: 'review' as const,
    id: need(idOf(r.id), 'tripadvisor', 'review without id'),
    rating: need(num(r.rating), 'tripadvisor', 'review without rating'),
    ratingMax: 5,
    url: str(r.url),
    title: str(r.title),
    text: str(r.text),
    createdAt: isoFromText(r.published_date),
    language: str(r.lang),
    helpful: int(r.helpful_votes),
    tripType: str(r.trip_type),
    travelledAt: travel && /^\d{4}-\d{2}/.test(travel) ? travel.slice(0, 7) : undefined,
    author: compact({ username: str(user.username), avatar: str(avatar.large) ?? str(avatar.original) ?? str(avatar.thumbnail) }),
    subratings: subratings(r.subratings),
    response: str(owner?.text) ? compact({ text: str(owner!.text)!, createdAt: isoFromText(owner!.published_date), author: str(owner!.author) }) : undefined,
  }) as TripadvisorReview;
}
