import { choice, country, cursor, endpoint, integer, language, limit, text } from '../fields.js';
import { appRecord, itemRef, reviewRecord } from '../market.js';
import { list, rec, str } from '../records.js';

/** A Google Play app: the shared app record (`id` is the package name). */
export const GOOGLEPLAY_APP = appRecord();

/** A Google Play review, with the app version it was written about and the developer's reply. */
export const GOOGLEPLAY_REVIEW = reviewRecord({ appVersion: str });

const app = () => itemRef('the app: its package name (com.example.app) or play.google.com address');

export const GOOGLEPLAY = {
  search: endpoint({
    id: 'googleplay.search',
    title: 'Google Play search',
    summary: 'Searches Google Play for apps by keyword and returns each app’s package, developer, price, rating and icon.',
    credits: 1,
    keyless: true,
    perItems: 20,
    cacheTtlSeconds: 3600,
    fields: {
      query: text(1, 200, 'search terms'),
      country: country('us'),
      language: language('en'),
      price: { ...choice(['all', 'free', 'paid'] as const, 'all'), description: 'free apps, paid apps or both' },
      limit: limit(1, 30, 20),
    },
    required: ['query'],
    itemsField: 'apps',
    example: { query: 'budget tracker', country: 'us', limit: 10 },
    output: rec({ apps: list(GOOGLEPLAY_APP) }),
  }),
  app: endpoint({
    id: 'googleplay.app',
    title: 'Google Play app',
    summary: 'Returns one Google Play app by package name: description, price, rating, installs, version, developer and screenshots.',
    credits: 1,
    keyless: true,
    cacheTtlSeconds: 21600,
    fields: { app: app(), country: country('us'), language: language('en') },
    required: ['app'],
    example: { app: 'com.raiseright.edumarketapp' },
    output: rec({ app: GOOGLEPLAY_APP }),
  }),
  reviews: endpoint({
    id: 'googleplay.reviews',
    title: 'Google Play reviews',
    summary: 'Returns a Google Play app’s user reviews, newest, most relevant or by rating, with stars, text, version and replies.',
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 3600,
    fields: {
      app: app(),
      country: country('us'),
      language: language('en'),
      sort: choice(['newest', 'relevant', 'rating'] as const, 'newest'),
      rating: { ...integer(1, 5), description: 'only reviews of this many stars' },
      limit: limit(1, 200, 40),
      cursor: cursor('^(?:[0-9]{1,4}~)?[A-Za-z0-9+/=_-]{0,2000}$', "Google Play's page token, optionally N~ before it", 2010),
    },
    required: ['app'],
    itemsField: 'reviews',
    example: { app: 'com.raiseright.edumarketapp', sort: 'newest', limit: 20 },
    output: rec({ app: str, reviews: list(GOOGLEPLAY_REVIEW) }, { cursor: str }),
  }),
};
