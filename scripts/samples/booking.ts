/**
 * booking's test-mode samples, made by the live operations against the replay double (scripts/make-samples.ts). No
 * Booking.com answer is recorded: every sample comes from documented-shape doubles, and their notes say so.
 */
import { BOOKING_HOSTS, bookingReplay } from '../../test/sources/booking-doubles.js';
import { PREVIOUS_CURSOR, recordSamples, type SampleCase } from './kit.js';

const NOTE =
  'NOT from a recording: no Booking.com answer is recorded in shared/upstream. Built by the live operation from ' +
  'documented-shape doubles (test/fixtures/documented/booking/: the results page Apollo store, property page and ' +
  'ReviewList answers scrapfly-scrapers reads); illustrative values such as "Example Harbour Hotel".';

const hotel = 'https://www.booking.com/hotel/mt/example-harbour.html';
const search = { destination: 'Valletta', checkIn: '2027-06-10', checkOut: '2027-06-14', adults: 2, limit: 2 };
const cases: SampleCase[] = [
  { endpoint: 'booking.search', replay: bookingReplay(), extraHosts: BOOKING_HOSTS, pages: [search, { ...search, cursor: PREVIOUS_CURSOR }], note: NOTE },
  { endpoint: 'booking.hotel', replay: bookingReplay(), extraHosts: BOOKING_HOSTS, pages: [{ hotel }], note: NOTE },
  {
    endpoint: 'booking.reviews',
    replay: bookingReplay(),
    extraHosts: BOOKING_HOSTS,
    pages: [{ hotel, limit: 2 }, { hotel, limit: 2, cursor: PREVIOUS_CURSOR }],
    note: NOTE,
  },
];

export async function bookingSamples(): Promise<void> {
  const written: string[] = [];
  for (const c of cases) written.push(await recordSamples(c));
  console.log(`wrote booking samples: ${written.join(', ')}`);
}
