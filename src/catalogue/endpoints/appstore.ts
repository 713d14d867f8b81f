import { country, choice, cursor, endpoint, language, limit, text } from '../fields.js';
import { appRecord, itemRef, pageCursor, reviewRecord } from '../market.js';
import { list, rec, str } from '../records.js';

/** An App Store app: the shared app record plus Apple's bundle id. */
export const APPSTORE_APP = appRecord({ bundleId: str });

/** A customer review from the App Store's review feed, with the app version it was written about. */
export const APPSTORE_REVIEW = reviewRecord({ appVersion: str });

const app = () => itemRef('the app: its numeric id, id123…, bundle id (com.example.app) or apps.apple.com address');

export const APPSTORE = {
  search: endpoint({
    id: 'appstore.search',
    title: 'App Store search',
    summary: 'Searches Apple’s App Store for apps by keyword in one country and returns each app’s price, rating, developer and version.',
    credits: 1,
    keyless: true,
    perItems: 25,
    cacheTtlSeconds: 3600,
    fields: {
      query: text(1, 200, 'search terms'),
      country: country('us'),
      language: language(),
      device: { ...choice(['iphone', 'ipad', 'mac'] as const, 'iphone'), description: 'the apps of which device' },
      limit: limit(1, 200, 25),
      // Apple's search answers at most 200 results and has no offset: the cursor is how many were answered.
      cursor: cursor('^(?:[0-9]{1,3})$', 'the number of results already answered', 3),
    },
    required: ['query'],
    itemsField: 'apps',
    example: { query: 'weather', country: 'us', limit: 10 },
    output: rec({ apps: list(APPSTORE_APP) }, { cursor: str }),
  }),
  app: endpoint({
    id: 'appstore.app',
    title: 'App Store app',
    summary: 'Returns one App Store app by id, bundle id or address: description, price, rating, developer, version, size and screenshots.',
    credits: 1,
    keyless: true,
    cacheTtlSeconds: 21600,
    fields: { app: app(), country: country('us') },
    required: ['app'],
    example: { app: '284882215' },
    output: rec({ app: APPSTORE_APP }),
  }),
  reviews: endpoint({
    id: 'appstore.reviews',
    title: 'App Store reviews',
    summary: 'Returns an App Store app’s customer reviews in one country, newest or most helpful first, with rating, title, text and version.',
    credits: 1,
    perItems: 25,
    cacheTtlSeconds: 3600,
    fields: {
      app: app(),
      country: country('us'),
      sort: choice(['newest', 'helpful'] as const, 'newest'),
      limit: limit(1, 100, 50),
      cursor: pageCursor(),
    },
    required: ['app'],
    itemsField: 'reviews',
    example: { app: '284882215', country: 'us', limit: 50 },
    output: rec({ app: str, reviews: list(APPSTORE_REVIEW) }, { cursor: str }),
  }),
};
