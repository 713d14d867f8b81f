import { cursor, endpoint, integer, limit, list, text } from '../fields.js';
import { int, list as listOf, rec, str } from '../records.js';
import { adults, checkIn, checkOut, stayRecord, travelCurrency, travelLanguage, travelReview } from '../stays.js';

/** A property of a search: its id, page and name always; the stay's price for the dates asked. */
export const BOOKING_CARD = stayRecord('hotel', { distance: str });
/** A property's page. */
export const BOOKING_HOTEL = stayRecord('hotel');
/** A guest's review: Booking.com scores on 10 and keeps what the guest liked and disliked apart. */
export const BOOKING_REVIEW = travelReview({ liked: str, disliked: str, guestCountry: str, guestType: str, roomType: str, nights: int });

const hotelRef = () => text(3, 2048, 'a booking.com/hotel/<country>/<name>.html address, or <country>/<name>');

export const BOOKING = {
  search: endpoint({
    id: 'booking.search',
    title: 'Booking.com hotel search',
    summary:
      'Searches Booking.com stays in a destination for dates and guests: hotels with review score, stars, photos, and nightly and total prices for the stay, with a cursor.',
    credits: 1,
    perItems: 25,
    cacheTtlSeconds: 1800,
    fields: {
      destination: text(2, 200, 'a city, region, landmark or hotel name, e.g. "Valletta"'),
      checkIn: checkIn(),
      checkOut: checkOut(),
      adults: adults(30, 2),
      childrenAges: { ...list(integer(0, 17), 10, []), description: 'the age of each child guest' },
      rooms: { ...integer(1, 30, 1), description: 'rooms' },
      currency: travelCurrency(),
      language: travelLanguage(),
      limit: limit(1, 100, 25),
      // Booking.com's own result offset.
      cursor: cursor('^[0-9]{1,4}$', '1-4 digits (a result offset)', 4),
    },
    required: ['destination', 'checkIn', 'checkOut'],
    itemsField: 'hotels',
    example: { destination: 'Valletta', checkIn: '2027-06-10', checkOut: '2027-06-14', adults: 2 },
    output: rec({ hotels: listOf(BOOKING_CARD) }, { total: int, cursor: str }),
  }),
  hotel: endpoint({
    id: 'booking.hotel',
    title: 'Booking.com hotel',
    summary: "Returns one Booking.com property by its address: name, description, address, coordinates, review score out of 10, photos and Booking.com's id.",
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { hotel: hotelRef(), language: travelLanguage() },
    required: ['hotel'],
    example: { hotel: 'https://www.booking.com/hotel/mt/example-harbour.html' },
    output: rec({ hotel: BOOKING_HOTEL }),
  }),
  reviews: endpoint({
    id: 'booking.reviews',
    title: 'Booking.com hotel reviews',
    summary:
      "Returns a Booking.com property's guest reviews, most relevant first: score out of 10, what the guest liked and disliked, stay dates, room, guest country and the property's reply, with a cursor.",
    credits: 1,
    perItems: 10,
    cacheTtlSeconds: 3600,
    fields: {
      hotel: hotelRef(),
      language: travelLanguage(),
      limit: limit(1, 25, 10),
      // Booking.com's own review offset.
      cursor: cursor('^[0-9]{1,5}$', '1-5 digits (a review offset)', 5),
    },
    required: ['hotel'],
    itemsField: 'reviews',
    example: { hotel: 'https://www.booking.com/hotel/mt/example-harbour.html', limit: 10 },
    output: rec({ reviews: listOf(BOOKING_REVIEW) }, { total: int, cursor: str }),
  }),
};
