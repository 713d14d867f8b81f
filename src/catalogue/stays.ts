/**
 * What the travel sites (tripadvisor, booking, airbnb) share: a stay or place record, a review, calendar days and the
 * inputs of a dated search, built once from the vocabulary. Dates are `YYYY-MM-DD`, guests are integers, nightly and
 * total prices are money `{amount, currency}`, a rating says its scale (`max`: 5 on Tripadvisor and Airbnb, 10 on
 * Booking.com).
 */
import { currencyCode } from './currency.js';
import { date, integer, language } from './fields.js';
import { bool, int, list, literal, num, rec, str } from './records.js';
import type { JsonSchema } from './types.js';
import { reviewRecord } from './market.js';
import { ADDRESS, GEO, IMAGE, MONEY, PERSON, RATING } from './vocabulary.js';

/** The guests a price was asked for. */
export const GUESTS = rec({ adults: int }, { children: int, infants: int, pets: int, rooms: int });

/** A score on one aspect (cleanliness, location, value), on the record's rating scale. */
export const SUBRATING = rec({ name: str, value: num });

/** Fields a place to stay, eat or visit may carry, on any travel site. */
export const STAY_FIELDS = {
  url: str,
  name: str,
  description: str,
  /** What the place is, in the site's words ("Hotel", "Entire rental unit", "Restaurant"). */
  kind: str,
  address: ADDRESS,
  geo: GEO,
  rating: RATING,
  subratings: list(SUBRATING),
  /** A hotel's official class, 1-5. */
  stars: num,
  images: list(IMAGE),
  amenities: list(str),
  badges: list(str),
  checkIn: str,
  checkOut: str,
  nights: int,
  guests: GUESTS,
  nightlyPrice: MONEY,
  totalPrice: MONEY,
  /** The total before the site's discount, where it shows one. */
  originalTotalPrice: MONEY,
  host: PERSON,
  maxGuests: int,
  bedrooms: int,
  beds: int,
  baths: num,
  phone: str,
  website: str,
  email: str,
  /** The site's ranking line ("#3 of 1,234 hotels in Rome"). */
  ranking: str,
  priceLevel: str,
  categories: list(str),
  timezone: str,
  isSoldOut: bool,
} satisfies Record<string, JsonSchema>;

/** A stay or place: the site's id, its page and its name; the rest where the site gives it. */
export function stayRecord<T extends string, S extends Record<string, JsonSchema> = {}>(type: T, extra?: S) {
  const { url: _url, name: _name, ...rest } = STAY_FIELDS;
  return rec({ type: literal(type), id: str, url: str, name: str }, { ...rest, ...(extra ?? ({} as S)) });
}

/**
 * A guest's review: the marketplaces' review record (every review carries its score), plus the scale of that score
 * (`ratingMax`), when the guest stayed and the trip's kind.
 */
export function travelReview<S extends Record<string, JsonSchema> = {}>(extra?: S) {
  return reviewRecord({ ratingMax: num, stayedAt: str, tripType: str, subratings: list(SUBRATING), ...(extra ?? ({} as S)) });
}

/** One day of a listing's availability calendar. */
export const CALENDAR_DAY = rec(
  { date: str, isAvailable: bool },
  { isCheckInAllowed: bool, isCheckOutAllowed: bool, isBookable: bool, minNights: int, maxNights: int, price: MONEY },
);

// Inputs of the dated searches.

export const checkIn = () => ({ ...date(), description: 'arrival day YYYY-MM-DD' });
export const checkOut = () => ({ ...date(), description: 'departure day YYYY-MM-DD, after checkIn' });
export const adults = (max: number, def: number) => ({ ...integer(1, max, def), description: 'adult guests' });
export const children = (max: number) => ({ ...integer(0, max, 0), description: 'child guests' });
export const travelCurrency = () => currencyCode('USD');
export const travelLanguage = () => language('en');
