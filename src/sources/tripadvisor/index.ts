/** The tripadvisor source: places, their details and most recent reviews from Tripadvisor's Content API. */
import { TRIPADVISOR } from '../../catalogue/endpoints/tripadvisor.js';
import { operation } from '../kit/operation.js';
import type { SourceModule } from '../types.js';
import { details, locationSearch, photos, reviews as reviewsOf } from './client.js';
import { place, result, review } from './normalise.js';
import { locationIdOf } from './refs.js';
import placeSamples from './samples/place.json' with { type: 'json' };
import reviewsSamples from './samples/reviews.json' with { type: 'json' };
import searchSamples from './samples/search.json' with { type: 'json' };

const search = operation(TRIPADVISOR.search, {
  async run(input, ctx) {
    const places = (await locationSearch(input.query, input.category, input.language, ctx)).slice(0, input.limit).map(result);
    return { data: { places }, ...(places.length ? {} : { free: true }) };
  },
  samples: searchSamples,
});

const one = operation(TRIPADVISOR.place, {
  async run(input, ctx) {
    const id = locationIdOf(input.place);
    const [d, pics] = await Promise.all([details(id, input.language, input.currency.toUpperCase(), ctx), photos(id, input.language, ctx)]);
    return { data: { place: place(d, pics) } };
  },
  samples: placeSamples,
});

const reviews = operation(TRIPADVISOR.reviews, {
  async run(input, ctx) {
    const id = locationIdOf(input.place);
    const offset = Number(input.cursor ?? 0);
    const list = (await reviewsOf(id, input.language, input.limit, offset, ctx)).slice(0, input.limit).map(review);
    // A full page may have more behind it; a short one is the end.
    const cursor = list.length >= input.limit ? String(offset + list.length) : undefined;
    return { data: { reviews: list, ...(cursor ? { cursor } : {}) }, ...(list.length ? {} : { free: true }) };
  },
  samples: reviewsSamples,
});

const tripadvisor: SourceModule = {
  id: 'tripadvisor',
  needs: {
    settings: [{ name: 'API_KEY', required: true, purpose: "a Tripadvisor Content API key (its allowed addresses must include this server's); every endpoint answers sourceUnavailable without it" }],
  },
  operations: [search, one, reviews],
};

export default tripadvisor;
