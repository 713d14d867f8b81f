/** The booking source: stays for dates from Booking.com's results page, a property's page and its guest reviews. */
import { BOOKING } from '../../catalogue/endpoints/booking.js';
import { operation } from '../kit/operation.js';
import { stayOf } from '../kit/stay.js';
import type { SourceModule } from '../types.js';
import { hotelPage, reviewList, searchPage } from './client.js';
import { hotel, reviews as readReviews, searchResults, type BookingCard } from './normalise.js';
import hotelSamples from './samples/hotel.json' with { type: 'json' };
import reviewsSamples from './samples/reviews.json' with { type: 'json' };
import searchSamples from './samples/search.json' with { type: 'json' };

/** Booking.com's results page holds 25 properties. */
const PAGE = 25;
const MAX_PAGES = 4;

const search = operation(BOOKING.search, {
  async run(input, ctx) {
    const stay = stayOf(input, true)!;
    const q = { ...input, stay, currency: input.currency.toUpperCase() };
    const asked = { stay, adults: input.adults, children: input.childrenAges.length, rooms: input.rooms };
    const hotels: BookingCard[] = [];
    let offset = Number(input.cursor ?? 0);
    let total: number | undefined;
    let more = true;
    for (let n = 0; n < MAX_PAGES && more && hotels.length < input.limit; n++) {
      const page = searchResults(await searchPage(q, offset, ctx), asked);
      total ??= page.total;
      const take = page.hotels.slice(0, input.limit - hotels.length);
      hotels.push(...take);
      offset += take.length;
      more = take.length < page.hotels.length || (page.hotels.length >= PAGE && (total === undefined || offset < total));
    }
    const cursor = more ? String(offset) : undefined;
    return { data: { hotels, ...(total !== undefined ? { total } : {}), ...(cursor ? { cursor } : {}) }, ...(hotels.length ? {} : { free: true }) };
  },
  samples: searchSamples,
});

const one = operation(BOOKING.hotel, {
  async run(input, ctx) {
    return { data: { hotel: hotel(await hotelPage(input.hotel, input.language, ctx)) } };
  },
  samples: hotelSamples,
});

const reviews = operation(BOOKING.reviews, {
  async run(input, ctx) {
    const page = await hotelPage(input.hotel, input.language, ctx);
    const skip = Number(input.cursor ?? 0);
    const got = readReviews(await reviewList(page, skip, input.limit, ctx));
    const next = skip + got.reviews.length;
    const more = got.reviews.length >= input.limit && (got.total === undefined || next < got.total);
    return {
      data: { reviews: got.reviews, ...(got.total !== undefined ? { total: got.total } : {}), ...(more ? { cursor: String(next) } : {}) },
      ...(got.reviews.length ? {} : { free: true }),
    };
  },
  samples: reviewsSamples,
});

const booking: SourceModule = {
  id: 'booking',
  needs: { proxy: 'required' },
  operations: [search, one, reviews],
};

export default booking;
