import { cursor, date, endpoint, integer, limit, number, pattern, text } from '../fields.js';
import { bool, int, list, rec, str } from '../records.js';
import { adults, CALENDAR_DAY, checkIn, checkOut, children, stayRecord, travelCurrency, travelLanguage, travelReview } from '../stays.js';

/** Airbnb's heading of a card or page ("Condo in Panama City Beach"), beside the listing's own name. */
const AIRBNB_EXTRA = { title: str, isSuperhost: bool };

/** A listing of a search: its id, page and name are on every card; prices when dates were given. */
export const AIRBNB_CARD = stayRecord('listing', { title: str });
/** A listing's page. */
export const AIRBNB_LISTING = stayRecord('listing', AIRBNB_EXTRA);
export const AIRBNB_REVIEW = travelReview();

const listingRef = () => text(1, 2048, 'a listing id (digits) or an airbnb address (…/rooms/<id>)');
// Airbnb's page cursors are base64; N~ owes the rest of a page cut by limit.
const pageCursor = () => cursor('^(?:[0-9]{1,4}~)?[A-Za-z0-9+/=_-]{0,2000}$', 'Airbnb\'s page cursor, optionally preceded by digits and ~', 2100);

export const AIRBNB = {
  search: endpoint({
    id: 'airbnb.search',
    title: 'Airbnb stay search',
    summary:
      'Searches Airbnb stays in a place, optionally for dates and guests: listings with name, rating, coordinates, photos, and nightly and total prices for the dates, with a cursor.',
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 1800,
    fields: {
      location: text(2, 200, 'a place, e.g. "Lisbon, Portugal"'),
      checkIn: checkIn(),
      checkOut: checkOut(),
      adults: adults(16, 1),
      children: children(15),
      infants: { ...integer(0, 5, 0), description: 'infant guests' },
      pets: { ...integer(0, 5, 0), description: 'pets' },
      priceMin: { ...number(0, 1_000_000), description: 'lowest nightly price, in currency' },
      priceMax: { ...number(0, 1_000_000), description: 'highest nightly price, in currency' },
      currency: travelCurrency(),
      language: travelLanguage(),
      limit: limit(1, 100, 18),
      cursor: pageCursor(),
    },
    required: ['location'],
    itemsField: 'listings',
    example: { location: 'Lisbon, Portugal', checkIn: '2027-06-10', checkOut: '2027-06-14', adults: 2 },
    output: rec({ listings: list(AIRBNB_CARD) }, { cursor: str }),
  }),
  listing: endpoint({
    id: 'airbnb.listing',
    title: 'Airbnb listing',
    summary:
      'Returns one Airbnb listing by id or address: name, description, kind, capacity, bedrooms, beds, baths, amenities, host, rating, coordinates and photos, with its prices when dates are given.',
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: {
      listing: listingRef(),
      checkIn: checkIn(),
      checkOut: checkOut(),
      adults: adults(16, 1),
      currency: travelCurrency(),
      language: travelLanguage(),
    },
    required: ['listing'],
    example: { listing: '1234567890123456789' },
    output: rec({ listing: AIRBNB_LISTING }),
  }),
  reviews: endpoint({
    id: 'airbnb.reviews',
    title: 'Airbnb listing reviews',
    summary: "Returns an Airbnb listing's guest reviews, newest first: rating, text, date, guest and the host's response, with a cursor.",
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 3600,
    fields: {
      listing: listingRef(),
      language: travelLanguage(),
      limit: limit(1, 50, 20),
      // Airbnb's own review offset.
      cursor: pattern('^[0-9]{1,5}$', 'cursor from the previous page: 1-5 digits (a review offset)', 5),
    },
    required: ['listing'],
    itemsField: 'reviews',
    example: { listing: '1234567890123456789', limit: 20 },
    output: rec({ reviews: list(AIRBNB_REVIEW) }, { total: int, cursor: str }),
  }),
  calendar: endpoint({
    id: 'airbnb.calendar',
    title: 'Airbnb availability calendar',
    summary:
      "Returns an Airbnb listing's availability calendar by day for 1-12 months: available or not, check-in and check-out allowed, minimum and maximum nights, and the night's price where Airbnb shows one.",
    credits: 1,
    cacheTtlSeconds: 3600,
    fields: {
      listing: listingRef(),
      from: { ...date(), description: 'first day YYYY-MM-DD (default: today); its month starts the calendar' },
      months: integer(1, 12, 3),
      currency: travelCurrency(),
    },
    required: ['listing'],
    example: { listing: '1234567890123456789', from: '2027-06-01', months: 2 },
    output: rec({ listingId: str, days: list(CALENDAR_DAY) }),
  }),
};
