/** The airbnb source: stays search and listings from Airbnb's pages, reviews and calendars from its web API. */
import { AIRBNB } from '../../catalogue/endpoints/airbnb.js';
import { operation } from '../kit/operation.js';
import { collectPages, readSkipCursor } from '../kit/paging.js';
import { stayOf } from '../kit/stay.js';
import type { SourceModule } from '../types.js';
import { calendarMonths, listingPage, reviewsPage, searchPage } from './client.js';
import { calendarDays, listing, reviews as readReviews, searchPage as readSearch, type AirbnbCard } from './normalise.js';
import { listingIdOf } from './refs.js';
import calendarSamples from './samples/calendar.json' with { type: 'json' };
import listingSamples from './samples/listing.json' with { type: 'json' };
import reviewsSamples from './samples/reviews.json' with { type: 'json' };
import searchSamples from './samples/search.json' with { type: 'json' };

const CURSOR = /^[A-Za-z0-9+/=_-]{1,2000}$/;
/** Search pages read at most per call (18 listings a page). */
const MAX_PAGES = 6;

const upper = (c: string) => c.toUpperCase();

const search = operation(AIRBNB.search, {
  async run(input, ctx) {
    const stay = stayOf(input);
    const q = { ...input, currency: upper(input.currency) };
    const asked = { stay, adults: input.adults, children: input.children, infants: input.infants, pets: input.pets, currency: q.currency };
    const { items, cursor } = await collectPages<AirbnbCard>(
      readSkipCursor(input.cursor, CURSOR),
      input.limit,
      async (token) => {
        const page = readSearch(await searchPage(q, token, ctx), asked);
        return { items: page.listings, token: page.next };
      },
      MAX_PAGES,
    );
    return { data: { listings: items, ...(cursor ? { cursor } : {}) }, ...(items.length ? {} : { free: true }) };
  },
  samples: searchSamples,
});

const one = operation(AIRBNB.listing, {
  async run(input, ctx) {
    const id = listingIdOf(input.listing);
    const stay = stayOf(input);
    const currency = upper(input.currency);
    const data = await listingPage(id, { ...input, currency }, ctx);
    return { data: { listing: listing(data, id, { stay, adults: input.adults, currency }) } };
  },
  samples: listingSamples,
});

const reviews = operation(AIRBNB.reviews, {
  async run(input, ctx) {
    const id = listingIdOf(input.listing);
    const offset = Number(input.cursor ?? 0);
    const page = readReviews(await reviewsPage(id, offset, input.limit, input.language, ctx));
    const next = offset + page.reviews.length;
    const more = page.reviews.length >= input.limit && (page.total === undefined || next < page.total);
    return {
      data: { reviews: page.reviews, ...(page.total !== undefined ? { total: page.total } : {}), ...(more ? { cursor: String(next) } : {}) },
      ...(page.reviews.length ? {} : { free: true }),
    };
  },
  samples: reviewsSamples,
});

const calendar = operation(AIRBNB.calendar, {
  async run(input, ctx) {
    const id = listingIdOf(input.listing);
    const from = input.from ?? new Date().toISOString().slice(0, 10);
    const [year, month] = from.split('-').map(Number);
    const currency = upper(input.currency);
    const days = calendarDays(await calendarMonths(id, month, year, input.months, currency, ctx), from, currency);
    return { data: { listingId: id, days }, ...(days.length ? {} : { free: true }) };
  },
  samples: calendarSamples,
});

const airbnb: SourceModule = {
  id: 'airbnb',
  needs: {
    settings: [
      { name: 'API_KEY', required: false, purpose: "the public key of Airbnb's web app (X-Airbnb-Api-Key) for reviews and calendars; defaults to the one its pages carry" },
      { name: 'REVIEWS_HASH', required: false, purpose: 'persisted-query hash of StaysPdpReviewsQuery (Airbnb rotates it)' },
      { name: 'CALENDAR_HASH', required: false, purpose: 'persisted-query hash of PdpAvailabilityCalendar (Airbnb rotates it)' },
    ],
    proxy: 'advised',
  },
  operations: [search, one, reviews, calendar],
};

export default airbnb;
