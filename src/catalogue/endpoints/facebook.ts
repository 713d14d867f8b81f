import { choice, countryOrAll, cursor, date, endpoint, language, limit, list, text } from '../fields.js';
import { list as listOf, literal, rec, str } from '../records.js';
import { AD_FIELDS } from '../vocabulary.js';

/**
 * An ad of Meta's Ad Library (the official `ads_archive` fields, mapped onto the shared ad vocabulary). Every archived
 * ad has its library id, its page and the day delivery started; spend, impressions and demographics come with
 * political and issue ads, reach, payers and targeting with ads delivered in the EU.
 */
export const FACEBOOK_AD = rec(
  {
    type: literal('ad'),
    id: str,
    url: str,
    advertiser: rec({ id: str }, { name: str, url: str }),
    startedAt: str,
  },
  (({ url: _url, advertiser: _advertiser, startedAt: _startedAt, ...rest }) => rest)(AD_FIELDS),
);

const adsOutput = () => rec({ ads: listOf(FACEBOOK_AD) }, { cursor: str });

/**
 * The fields ads.search and ads.page share (SPEC: ads.page has "same fields, with required `page` in place of
 * `query`").
 */
// Not annotated: the operation's input type is read off these field builders.
const adFilters = () => ({
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
    summary:
      "Searches Meta's Ad Library by keywords in one country: ads with their page, copy, dates, platforms and, where Meta publishes them, spend, impressions, reach and demographics.",
    credits: 2,
    perItems: 10,
    cacheTtlSeconds: 1800,
    fields: { query: text(1, 200, 'search terms'), ...adFilters() },
    required: ['query'],
    itemsField: 'ads',
    example: { query: 'running shoes', country: 'us', status: 'active', limit: 30 },
    output: adsOutput(),
  }),
  adsPage: endpoint({
    id: 'facebook.ads.page',
    title: 'Facebook ads of a page',
    summary:
      "Returns the ads one Facebook page runs or ran, from Meta's Ad Library, with copy, dates, platforms and, where published, spend, impressions, reach and demographics.",
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
    output: adsOutput(),
  }),
  adsAd: endpoint({
    id: 'facebook.ads.ad',
    title: 'Facebook ad',
    summary:
      "Returns one ad of Meta's Ad Library by its Library ID or address, with its page, copy, dates, placements and, where Meta publishes them, spend, impressions, reach and targeting.",
    credits: 2,
    cacheTtlSeconds: 3600,
    fields: {
      // SPEC: bounds not stated; chosen 1-2048 (an ad library id or address).
      ad: text(1, 2048, 'ad library id or address'),
    },
    required: ['ad'],
    example: { ad: '1234567890123456' },
    output: rec({ ad: FACEBOOK_AD }),
  }),
};
