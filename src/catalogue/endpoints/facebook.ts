import { choice, countryOrAll, cursor, date, endpoint, language, limit, list, text } from '../fields.js';
import type { JsonSchema } from '../types.js';

/**
 * The fields ads.search and ads.page share (SPEC: ads.page has "same fields, with required `page` in place of
 * `query`").
 */
const adFilters = (): Record<string, JsonSchema> => ({
  country: countryOrAll('us'),
  adType: choice(['all', 'politicalAndIssue'], 'all'),
  status: choice(['active', 'inactive', 'all'], 'active'),
  mediaType: choice(['all', 'image', 'video', 'meme', 'none'], 'all'),
  // SPEC: "four placement values (names carry platform brands)"; the four placements of the Meta ad library.
  platforms: list(choice(['facebook', 'instagram', 'messenger', 'audienceNetwork']), 4, []),
  from: date(),
  to: date(),
  language: language(),
  limit: limit(1, 500, 30),
  cursor: cursor(
    '^(?:[0-9]{0,4}~(?:[A-Za-z0-9_-]{10,500})?|[A-Za-z0-9_-]{10,500})$',
    'optional 1-4 digits, ~ and optionally 10-500 URL-safe characters; or just 10-500 URL-safe characters',
    505,
  ),
});

export const FACEBOOK = {
  adsSearch: endpoint({
    id: 'facebook.ads.search',
    title: 'Facebook ad library search',
    summary: 'Searches the Facebook ad library and returns matching ads with advertiser, creative, dates and reach.',
    credits: 2,
    perItems: 10,
    cacheTtlSeconds: 1800,
    fields: { query: text(1, 200, 'search terms'), ...adFilters() },
    required: ['query'],
    itemsField: 'ads',
    example: { query: 'running shoes', country: 'us', status: 'active', limit: 30 },
  }),
  adsPage: endpoint({
    id: 'facebook.ads.page',
    title: 'Facebook ads of a page',
    summary: "Returns the ads an advertiser's Facebook page runs or ran, from the ad library.",
    credits: 2,
    perItems: 10,
    cacheTtlSeconds: 1800,
    fields: {
      // SPEC: "string, the advertiser page", bounds not stated; chosen 1-2048 (a page id, name or address).
      page: text(1, 2048, 'the advertiser page: page id or address'),
      ...adFilters(),
    },
    required: ['page'],
    itemsField: 'ads',
    example: { page: 'https://www.facebook.com/nike', country: 'all', limit: 30 },
  }),
  adsAd: endpoint({
    id: 'facebook.ads.ad',
    title: 'Facebook ad',
    summary: 'Returns one ad of the Facebook ad library with its advertiser, creatives, dates, placements and reach.',
    credits: 2,
    cacheTtlSeconds: 3600,
    fields: {
      // SPEC: bounds not stated; chosen 1-2048 (an ad library id or address).
      ad: text(1, 2048, 'ad library id or address'),
    },
    required: ['ad'],
    example: { ad: '1234567890123456' },
  }),
};
