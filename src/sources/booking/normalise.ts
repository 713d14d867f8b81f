/**
 * Booking.com's search results, property pages and review cards as the shared travel records. Pure functions.
 * Review scores are out of 10; a stay's total is Booking.com's `displayPrice` for the whole stay (taxes as it shows
 * them), the nightly price that total over the nights; images are on Booking.com's image host.
 */
import type { BOOKING_CARD, BOOKING_HOTEL, BOOKING_REVIEW } from '../../catalogue/endpoints/booking.js';
import type { TypeOf } from '../../catalogue/types.js';
import { money, type Money } from '../kit/money.js';
import { arr, changed, compact, int, isoFromSeconds, need, num, obj, objs, str, type Obj } from '../kit/read.js';
import type { Stay } from '../kit/stay.js';
import { IMAGES, WEB } from './client.js';

export type BookingCard = TypeOf<typeof BOOKING_CARD>;
export type BookingHotel = TypeOf<typeof BOOKING_HOTEL>;
export type BookingReview = TypeOf<typeof BOOKING_REVIEW>;

const text = (v: unknown): string | undefined => str(obj(v)?.text) ?? str(obj(v)?.translation) ?? str(v);
const round2 = (n: number): number => Math.round(n * 100) / 100;

/** A `PriceDisplayIrene`'s exact amount in its currency. */
const amountOf = (v: unknown): Money | undefined => {
  const p = obj(obj(v)?.amountPerStay) ?? obj(v);
  return money(num(p?.amountUnformatted), str(p?.currency));
};

export interface Asked {
  stay: Stay;
  adults: number;
  children: number;
  rooms: number;
}

export function searchResults(output: Obj, a: Asked): { hotels: BookingCard[]; total?: number } {
  if (!Array.isArray(output.results)) throw changed('booking', 'search output without results');
  const pagination = obj(output.pagination);
  return { hotels: objs(output.results).map((r) => card(r, a)), total: int(pagination?.nbResultsTotal) };
}

function card(r: Obj, a: Asked): BookingCard {
  const basic = need(obj(r.basicPropertyData), 'booking', 'search result without basicPropertyData');
  const id = need(str(basic.id) ?? (typeof basic.id === 'number' ? String(basic.id) : undefined), 'booking', 'search result without an id');
  const location = obj(basic.location) ?? {};
  const country = str(location.countryCode)?.toLowerCase();
  const page = str(basic.pageName);
  const reviews = obj(basic.reviewScore) ?? obj(basic.reviews);
  const score = num(reviews?.score) ?? num(reviews?.totalScore);
  const photo = obj(obj(obj(basic.photos)?.main)?.highResJpegUrl) ?? obj(obj(obj(basic.photos)?.main)?.highResUrl);
  const price = obj(r.priceDisplayInfoIrene);
  const total = amountOf(obj(price?.displayPrice));
  const before = amountOf(obj(price?.priceBeforeDiscount));
  const units = obj(obj(r.matchingUnitConfigurations)?.commonConfiguration);
  return compact({
    type: 'hotel' as const,
    id,
    url: country && page ? `${WEB}/hotel/${country}/${page}.html` : need(undefined, 'booking', 'search result without pageName or country'),
    name: need(text(r.displayName), 'booking', 'search result without displayName'),
    kind: text(arr(units?.unitTypeNames)[0]),
    address: compact({ street: str(location.address), city: str(location.city), country: country?.toUpperCase() }),
    rating: score !== undefined && score > 0 && reviews?.showScore !== false ? compact({ value: score, max: 10, count: int(reviews?.reviewCount) ?? int(reviews?.reviewsCount) }) : undefined,
    stars: num(obj(basic.starRating)?.value),
    images: str(photo?.relativeUrl) ? [{ url: `${IMAGES}${str(photo!.relativeUrl)}` }] : undefined,
    badges: objs(r.badges).flatMap((b) => (text(b.caption) ? [text(b.caption)!] : [])),
    bedrooms: int(units?.nbBedrooms),
    beds: int(units?.nbAllBeds),
    baths: num(units?.nbBathrooms),
    distance: str(obj(r.location)?.mainDistance),
    checkIn: a.stay.checkIn,
    checkOut: a.stay.checkOut,
    nights: a.stay.nights,
    guests: compact({ adults: a.adults, children: a.children || undefined, rooms: a.rooms }),
    totalPrice: total,
    nightlyPrice: total ? { amount: round2(total.amount / a.stay.nights), currency: total.currency } : undefined,
    originalTotalPrice: before && total && before.amount > total.amount ? before : undefined,
    isSoldOut: obj(r.soldOutInfo)?.isSoldOut === true ? true : undefined,
  }) as BookingCard;
}

/** A property page: its JSON-LD, id and map coordinates. */
export function hotel(p: { url: string; ld?: Obj; hotelId?: string; latLng?: [number, number] }): BookingHotel {
  const ld = need(p.ld, 'booking', 'the property page carries no schema.org Hotel JSON-LD');
  const a = obj(ld.address) ?? {};
  const rating = obj(ld.aggregateRating);
  const images = arr(ld.image).length ? arr(ld.image) : [ld.image];
  return compact({
    type: 'hotel' as const,
    id: need(p.hotelId, 'booking', 'the property page carries no b_hotel_id'),
    url: p.url,
    name: need(str(ld.name), 'booking', 'JSON-LD without name'),
    description: str(ld.description),
    kind: str(ld['@type']),
    address: compact({
      street: str(a.streetAddress),
      city: str(a.addressLocality),
      state: str(a.addressRegion),
      postalCode: str(a.postalCode),
      country: str(obj(a.addressCountry)?.name) ?? str(a.addressCountry),
    }),
    geo: p.latLng ? { latitude: p.latLng[0], longitude: p.latLng[1] } : undefined,
    rating: num(rating?.ratingValue) !== undefined ? compact({ value: num(rating!.ratingValue)!, max: num(rating!.bestRating) ?? 10, count: int(rating!.reviewCount) }) : undefined,
    images: images.flatMap((i) => (str(i) ?? str(obj(i)?.url) ? [{ url: (str(i) ?? str(obj(i)?.url))! }] : [])),
    priceLevel: str(ld.priceRange),
  }) as BookingHotel;
}

export function reviews(list: Obj): { reviews: BookingReview[]; total?: number } {
  if (!Array.isArray(list.reviewCard)) throw changed('booking', 'reviewListFrontend without reviewCard');
  return {
    reviews: objs(list.reviewCard).map((c) => {
      const t = obj(c.textDetails) ?? {};
      const guest = obj(c.guestDetails) ?? {};
      const stay = obj(c.bookingDetails) ?? {};
      const liked = str(t.positiveText);
      const disliked = str(t.negativeText);
      return compact({
        type: 'review' as const,
        id: need(str(c.reviewUrl), 'booking', 'review without reviewUrl'),
        rating: need(num(c.reviewScore), 'booking', 'review without reviewScore'),
        ratingMax: 10,
        title: str(t.title),
        text: [liked, disliked].filter(Boolean).join('\n\n') || undefined,
        liked,
        disliked,
        createdAt: isoFromSeconds(c.reviewedDate),
        language: str(t.lang),
        author: guest.anonymous === true ? undefined : compact({ name: str(guest.username), avatar: str(guest.avatarUrl) }),
        guestCountry: str(guest.countryCode)?.toUpperCase(),
        guestType: str(guest.guestTypeTranslation),
        helpful: int(c.helpfulVotesCount),
        stayedAt: str(stay.checkinDate),
        nights: int(stay.numNights),
        roomType: str(obj(stay.roomType)?.name),
        images: objs(c.photos).flatMap((ph) => {
          const urls = objs(ph.urls);
          const best = urls.find((u) => /max|large/i.test(str(u.size) ?? '')) ?? urls[0];
          return str(best?.url) ? [{ url: str(best!.url)! }] : [];
        }),
        response: str(obj(c.partnerReply)?.reply) ? { text: str(obj(c.partnerReply)!.reply)! } : undefined,
      }) as BookingReview;
    }),
    total: int(list.reviewsCount),
  };
}
