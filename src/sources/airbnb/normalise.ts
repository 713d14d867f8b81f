/**
 * Airbnb's search cards, listing sections, reviews and calendar days as the shared travel records. Pure functions.
 * Prices are read from the lines Airbnb displays ("$1,087 for 7 nights, originally $1,907", "$34 per night",
 * `price` + `qualifier`), in the currency asked; a rating is on a scale of 5 ("4.83 (123)").
 */
import type { AIRBNB_CARD, AIRBNB_LISTING, AIRBNB_REVIEW } from '../../catalogue/endpoints/airbnb.js';
import type { CALENDAR_DAY } from '../../catalogue/stays.js';
import type { TypeOf } from '../../catalogue/types.js';
import { htmlText } from '../kit/html-text.js';
import { parseMoney, type Money } from '../kit/money.js';
import { arr, bool, changed, compact, count, int, isoFromText, need, num, obj, objs, str, type Obj } from '../kit/read.js';
import type { Stay } from '../kit/stay.js';
import { idFromGlobal, WEB } from './client.js';

export type AirbnbCard = TypeOf<typeof AIRBNB_CARD>;
export type AirbnbListing = TypeOf<typeof AIRBNB_LISTING>;
export type AirbnbReview = TypeOf<typeof AIRBNB_REVIEW>;
export type CalendarDay = TypeOf<typeof CALENDAR_DAY>;

export interface Asked {
  stay?: Stay;
  adults: number;
  children?: number;
  infants?: number;
  pets?: number;
  currency: string;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** "4.83 (123)", "4,9 (12)", "4.83": the average on 5 and the count; "New" has neither. */
export function ratingOf(text: unknown): { value: number; max: number; count?: number } | undefined {
  const m = /(\d+(?:[.,]\d+)?)\s*(?:\((\d[\d,.\s]*)\))?/.exec(str(text) ?? '');
  if (!m) return undefined;
  const value = Number(m[1].replace(',', '.'));
  if (!(value > 0 && value <= 5)) return undefined;
  return compact({ value, max: 5, count: m[2] ? count(m[2]) : undefined });
}

export interface Prices {
  nightlyPrice?: Money;
  totalPrice?: Money;
  originalTotalPrice?: Money;
  nights?: number;
}

/**
 * The prices of a `structuredDisplayPrice`: its lines' accessible wording first ("$1,087 for 7 nights, originally
 * $1,907"; "$34 per night"), else each line's `price`/`discountedPrice` and `qualifier` ("night", "total").
 */
export function pricesOf(display: Obj | undefined, currency: string, nights?: number): Prices {
  const out: Prices = {};
  const hint = { currency };
  for (const line of [obj(display?.primaryLine), obj(display?.secondaryLine)]) {
    if (!line) continue;
    const label = str(line.accessibilityLabel) ?? '';
    const stay = /^(.+?)\s+for\s+(\d+)\s+nights?(?:,\s*originally\s+(.+))?$/i.exec(label);
    if (stay) {
      out.totalPrice ??= parseMoney(stay[1], hint);
      out.nights ??= Number(stay[2]);
      if (stay[3]) out.originalTotalPrice ??= parseMoney(stay[3], hint);
      continue;
    }
    const perNight = /^(.+?)\s+(?:per|a|\/)\s*night/i.exec(label);
    if (perNight) {
      out.nightlyPrice ??= parseMoney(perNight[1], hint);
      continue;
    }
    const price = parseMoney(str(line.discountedPrice) ?? str(line.price), hint);
    const original = parseMoney(str(line.originalPrice), hint);
    const qualifier = `${str(line.qualifier) ?? ''} ${str(line.price) ?? ''}`;
    if (!price) continue;
    if (/night/i.test(qualifier)) out.nightlyPrice ??= price;
    else if (/total|for \d+ night/i.test(qualifier)) {
      out.totalPrice ??= price;
      if (original && original.amount !== price.amount) out.originalTotalPrice ??= original;
    }
  }
  const n = out.nights ?? nights;
  if (!out.nightlyPrice && out.totalPrice && n) out.nightlyPrice = { amount: round2(out.totalPrice.amount / n), currency: out.totalPrice.currency };
  if (out.nights === undefined && nights) out.nights = nights;
  return out;
}

const guestsOf = (a: Asked) =>
  compact({ adults: a.adults, children: a.children || undefined, infants: a.infants || undefined, pets: a.pets || undefined });

/** The stay's dates, guests and prices, where the call asked for dates. */
function stayFields(a: Asked, prices: Prices) {
  if (!a.stay) return {};
  return {
    checkIn: a.stay.checkIn,
    checkOut: a.stay.checkOut,
    nights: prices.nights ?? a.stay.nights,
    guests: guestsOf(a),
    nightlyPrice: prices.nightlyPrice,
    totalPrice: prices.totalPrice,
    originalTotalPrice: prices.originalTotalPrice,
  };
}

// Search.

export function searchPage(results: Obj, a: Asked): { listings: AirbnbCard[]; next?: string } {
  if (!Array.isArray(results.searchResults)) throw changed('airbnb', 'StaysSearch results without searchResults');
  const listings = objs(results.searchResults)
    .filter((r) => (str(r.__typename) ?? 'StaySearchResult') === 'StaySearchResult')
    .map((r) => card(r, a));
  return { listings, next: str(obj(results.paginationInfo)?.nextPageCursor) };
}

function card(r: Obj, a: Asked): AirbnbCard {
  const demand = obj(r.demandStayListing);
  const legacy = obj(r.listing); // the 2024 layout: a `listing` object with id, name and coordinate
  const id = need(idFromGlobal(demand?.id) ?? idFromGlobal(legacy?.id), 'airbnb', 'search result without a listing id');
  const coordinate = obj(obj(demand?.location)?.coordinate) ?? obj(legacy?.coordinate);
  const name = str(obj(obj(demand?.description)?.name)?.localizedStringWithTranslationPreference) ?? str(r.subtitle) ?? str(legacy?.name) ?? str(r.title);
  const display = obj(r.structuredDisplayPrice) ?? obj(obj(r.pricingQuote)?.structuredStayDisplayPrice);
  const pictures = objs(r.contextualPictures).length ? objs(r.contextualPictures) : objs(legacy?.contextualPictures);
  return compact({
    type: 'listing' as const,
    id,
    url: `${WEB}/rooms/${id}`,
    name: need(name, 'airbnb', 'search result without a name'),
    title: str(r.title) ?? str(legacy?.title),
    geo: num(coordinate?.latitude) !== undefined && num(coordinate?.longitude) !== undefined ? { latitude: num(coordinate!.latitude)!, longitude: num(coordinate!.longitude)! } : undefined,
    rating: ratingOf(str(r.avgRatingLocalized) ?? str(legacy?.avgRatingLocalized)),
    images: pictures.flatMap((p) => (str(p.picture) ? [{ url: str(p.picture)! }] : [])),
    badges: objs(r.badges).flatMap((b) => {
      const text = str(b.text) ?? str(obj(b.loggingContext)?.badgeType);
      return text ? [text] : [];
    }),
    ...stayFields(a, pricesOf(display, a.currency, a.stay?.nights)),
  }) as AirbnbCard;
}

// A listing page.

/** The numbers of the overview line ("6 guests", "1 bedroom", "4 beds", "2 baths", "Studio"). */
function overviewCounts(items: unknown[]): { maxGuests?: number; bedrooms?: number; beds?: number; baths?: number } {
  const out: { maxGuests?: number; bedrooms?: number; beds?: number; baths?: number } = {};
  for (const item of items) {
    const text = str(item) ?? str(obj(item)?.title) ?? '';
    const m = /(\d+(?:\.\d+)?)\s+(guests?|bedrooms?|beds?|(?:shared |private )?(?:half-)?baths?)/i.exec(text);
    if (!m) continue;
    const n = Number(m[1]);
    const what = m[2].toLowerCase();
    if (what.startsWith('guest')) out.maxGuests ??= n;
    else if (what.startsWith('bedroom')) out.bedrooms ??= n;
    else if (/^beds?$/.test(what)) out.beds ??= n;
    else out.baths ??= n;
  }
  return out;
}

export function listing(data: Obj, id: string, a: Asked): AirbnbListing {
  const pdp = obj(obj(data.node)?.pdpPresentation) ?? {};
  const sections = obj(obj(obj(data.presentation)?.stayProductDetailPage)?.sections) ?? {};
  const metadata = obj(sections.metadata) ?? {};
  const sharing = obj(metadata.sharingConfig) ?? {};
  const logged = obj(obj(metadata.loggingContext)?.eventDataLogging) ?? {};
  const list = objs(sections.sections);
  const section = (kind: string) => obj(list.find((s) => str(s.sectionComponentType) === kind)?.section);
  const location = obj(pdp.location) ?? {};
  const where = section('LOCATION_PDP') ?? {};
  const lat = num(where.lat) ?? num(location.latitude) ?? num(logged.listingLat);
  const lng = num(where.lng) ?? num(location.longitude) ?? num(logged.listingLng);
  const stats = obj(obj(obj(pdp.quality)?.listingRatingStats)?.overallRatingStats) ?? {};
  const reviewsSection = section('REVIEWS_DEFAULT') ?? {};
  const ratingValue = num(reviewsSection.overallRating) ?? num(stats.ratingAverage) ?? num(logged.guestSatisfactionOverall);
  const ratingCount = int(reviewsSection.overallCount) ?? int(stats.ratingCount) ?? int(logged.visibleReviewCount);
  const passport = obj(obj(pdp.hostInfo)?.passportData) ?? {};
  const counts = overviewCounts(arr(obj(pdp.overview)?.items));
  const book = section('BOOK_IT_SIDEBAR');
  const prices = pricesOf(obj(book?.structuredDisplayPrice), a.currency, a.stay?.nights);
  const name =
    str(obj(obj(pdp.title)?.content)?.localizedString) ?? str(sharing.title) ?? str(list.map((s) => obj(s.section)).find((s) => str(s?.__typename) === 'PdpTitleSection')?.title);
  return compact({
    type: 'listing' as const,
    id,
    url: `${WEB}/rooms/${id}`,
    name: need(name, 'airbnb', 'listing page without a title'),
    description: htmlText(str(obj(obj(pdp.descriptions)?.longDescriptionHtml)?.localizedString)),
    kind: str(sharing.propertyType) ?? str(logged.roomType),
    address: str(where.subtitle) ?? str(location.subtitle) ? { full: str(where.subtitle) ?? str(location.subtitle) } : undefined,
    geo: lat !== undefined && lng !== undefined ? { latitude: lat, longitude: lng } : undefined,
    rating: ratingValue !== undefined && ratingValue > 0 ? compact({ value: ratingValue, max: 5, count: ratingCount }) : undefined,
    images: objs(obj(pdp.heroMedia)?.edges).flatMap((e) => {
      const uri = str(obj(obj(e.node)?.image)?.uri);
      return uri ? [{ url: uri }] : [];
    }),
    amenities: objs(obj(pdp.amenities)?.seeAllAmenitiesGroups).flatMap((g) =>
      objs(g.amenities).flatMap((x) => (str(x.title) && x.available !== false ? [str(x.title)!] : [])),
    ),
    maxGuests: int(pdp.personCapacity) ?? int(logged.personCapacity) ?? counts.maxGuests,
    bedrooms: counts.bedrooms,
    beds: counts.beds,
    baths: counts.baths,
    host: str(passport.name) ? compact({ name: str(passport.name), id: idFromGlobal(passport.userId) }) : undefined,
    isSuperhost: bool(passport.isSuperhost) ?? bool(logged.isSuperhost),
    ...stayFields(a, prices),
  }) as AirbnbListing;
}

// Reviews.

export function reviews(answer: Obj): { reviews: AirbnbReview[]; total?: number } {
  if (!Array.isArray(answer.reviews)) throw changed('airbnb', 'reviews answer without reviews');
  return {
    reviews: objs(answer.reviews).map((r) => {
      const reviewer = obj(r.reviewer) ?? {};
      const response = str(r.response);
      return compact({
        type: 'review' as const,
        id: need(str(r.id), 'airbnb', 'review without id'),
        rating: need(num(r.rating), 'airbnb', 'review without rating'),
        ratingMax: 5,
        text: str(r.comments),
        createdAt: isoFromText(r.createdAt),
        language: str(r.language),
        author: compact({
          id: str(reviewer.id),
          name: str(reviewer.firstName),
          avatar: str(reviewer.pictureUrl),
          url: str(reviewer.profilePath) ? new URL(str(reviewer.profilePath)!, WEB).href : undefined,
        }),
        response: response ? { text: response } : undefined,
      }) as AirbnbReview;
    }),
    total: int(obj(answer.metadata)?.reviewsCount),
  };
}

// Calendar.

export function calendarDays(months: unknown[], from: string, currency: string): CalendarDay[] {
  const days: CalendarDay[] = [];
  for (const month of objs(months)) {
    for (const d of objs(month.days)) {
      const date = str(d.calendarDate);
      const available = bool(d.available);
      if (!date || available === undefined) throw changed('airbnb', 'calendar day without calendarDate or available');
      if (date < from) continue;
      days.push(
        compact({
          date,
          isAvailable: available,
          isCheckInAllowed: bool(d.availableForCheckin),
          isCheckOutAllowed: bool(d.availableForCheckout),
          isBookable: bool(d.bookable),
          minNights: int(d.minNights),
          maxNights: int(d.maxNights),
          price: parseMoney(str(obj(d.price)?.localPriceFormatted), { currency }),
        }) as CalendarDay,
      );
    }
  }
  return days;
}
